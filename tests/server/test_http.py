"""The HTTP endpoints: tables, errors, the browser client's files, the catalog, OpenAPI."""

from __future__ import annotations

import pytest

from dos.bots.registry import CLASSIC_LEVELS, LEVELS
from server.support import HTTP, ServerProcess, create_table


def test_the_server_says_what_it_offers(server: ServerProcess) -> None:
    info = HTTP.get(f"{server.url}/api/info").json()
    assert info["protocol"] == 1
    assert "official" in info["rules"]
    assert info["levels"] == list(LEVELS) == ["easy", "medium", "hard", "expert"]
    assert info["levels_by_rules"] == {"official": list(LEVELS), "classic": list(CLASSIC_LEVELS)}


def test_a_table_takes_a_bot_of_every_level_of_its_rule_set(server: ServerProcess) -> None:
    levels = HTTP.get(f"{server.url}/api/info").json()["levels_by_rules"]
    assert "expert" in levels["official"]
    for rules, names in levels.items():
        for level in names:
            host = create_table(server.url, rules=rules, seats=[None, level])
            assert [s["bot"] for s in host["table"]["seats"]] == [None, level], (rules, level)
        body = {"name": "Ada", "rules": rules, "seats": [None, "sage"]}  # a bot, no level
        refused = HTTP.post(f"{server.url}/api/tables", json=body)
        assert refused.status_code == 400 and refused.json()["field"] == "seats.1", refused.text


def test_the_openapi_document_lists_the_endpoints(server: ServerProcess) -> None:
    paths = HTTP.get(f"{server.url}/openapi.json").json()["paths"]
    for path in (
        "/api/tables",
        "/api/tables/{code}/join",
        "/api/games/{game_id}/record",
        "/api/players/{player_id}/results",
    ):
        assert path in paths


def test_the_browser_client_is_served(server: ServerProcess) -> None:
    index = HTTP.get(f"{server.url}/")
    assert index.status_code == 200 and "text/html" in index.headers["content-type"]
    assert HTTP.get(f"{server.url}/t/ABCDEF").text == index.text
    assert HTTP.get(f"{server.url}/static/../../cli.py").status_code == 404
    assert HTTP.get(f"{server.url}/static/nothing-here.js").status_code == 404


def test_the_message_catalog_is_served(server: ServerProcess) -> None:
    from dos.i18n import BROWSER_ON_DEMAND, catalog

    page = HTTP.get(f"{server.url}/api/i18n/fr").json()
    everything = catalog("fr")
    # The page's first load: every text but the terminal's and those loaded on demand.
    later = {"tui", *BROWSER_ON_DEMAND}
    assert {"learn", "shuffle"} <= later
    assert page == {k: v for k, v in everything.items() if k.split(".")[0] not in later}
    shuffle = HTTP.get(f"{server.url}/api/i18n/fr/shuffle").json()
    assert shuffle and shuffle == {k: v for k, v in everything.items() if k.startswith("shuffle.")}
    assert "game.center_row" in page and "web.nav_rules" in page
    learn = HTTP.get(f"{server.url}/api/i18n/fr/learn").json()
    assert learn and learn == {k: v for k, v in everything.items() if k.startswith("learn.")}
    assert HTTP.get(f"{server.url}/api/i18n/xx").status_code == 404
    assert HTTP.get(f"{server.url}/api/i18n/xx/learn").json()["code"] == "no_language"
    missing = HTTP.get(f"{server.url}/api/i18n/fr/nothing")
    assert missing.status_code == 404 and missing.json()["field"] == "namespace"


def test_a_table_is_private_unless_public(server: ServerProcess) -> None:
    private = create_table(server.url, seats=[None, "easy"])
    public = create_table(server.url, seats=[None, "easy"], public=True)
    listed = [t["code"] for t in HTTP.get(f"{server.url}/api/tables").json()["tables"]]
    assert public["code"] in listed and private["code"] not in listed
    assert HTTP.get(f"{server.url}/api/tables/{private['code']}").json()["public"] is False


def test_the_same_player_joining_again_gets_their_seat(server: ServerProcess) -> None:
    host = create_table(server.url, seats=[None, None, None])
    again = HTTP.post(
        f"{server.url}/api/tables/{host['code']}/join",
        json={"name": "Ada", "player_token": host["player_token"]},
    ).json()
    assert again["seat"] == 0 and again["player_id"] == host["player_id"]
    bob = HTTP.post(
        f"{server.url}/api/tables/{host['code'].lower()}/join", json={"name": "Bob", "seat": 2}
    ).json()
    assert bob["seat"] == 2


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "Ada", "rules": "poker"}, "rules"),
        ({"name": "Ada", "seats": [None]}, "seats"),
        ({"name": "Ada", "seats": [None, None, None, None, None]}, "seats"),
        ({"name": "Ada", "seats": ["easy", None]}, "seats.0"),
        ({"name": "Ada", "seats": [None, "genius"]}, "seats.1"),
        ({"name": "Ada", "options": {"target_score": -5}}, "options"),
        ({"name": "Ada", "options": {"colour": "blue"}}, "options"),
        ({"name": "Ada", "options": {"target_score": 10**30}}, "options"),
        ({"name": "Ada", "player_token": "forged"}, "player_token"),
    ],
)
def test_bad_tables_are_refused_over_http(
    server: ServerProcess, body: dict[str, object], field: str
) -> None:
    response = HTTP.post(f"{server.url}/api/tables", json=body)
    assert response.status_code in (400, 401), response.text
    refusal = response.json()
    assert refusal["code"] in ("bad_request", "bad_token") and refusal["message"]
    assert refusal["field"] == field


@pytest.mark.parametrize(
    "body", [{}, {"name": ""}, {"name": "x" * 100}, {"name": "Ada", "public": "maybe"}]
)
def test_bodies_that_do_not_fit_the_schema_are_422(
    server: ServerProcess, body: dict[str, object]
) -> None:
    assert HTTP.post(f"{server.url}/api/tables", json=body).status_code == 422


def test_joining_a_full_or_unknown_table_is_refused(server: ServerProcess) -> None:
    host = create_table(server.url, seats=[None, "easy"])
    full = HTTP.post(f"{server.url}/api/tables/{host['code']}/join", json={"name": "Bob"})
    assert full.status_code == 409 and "taken" in full.json()["message"]
    assert full.json()["code"] == "no_seat"
    unknown = HTTP.post(f"{server.url}/api/tables/NOSUCH/join", json={"name": "Bob"})
    assert unknown.status_code == 404
    assert unknown.json() == {
        "code": "no_table",
        "message": "there is no table 'NOSUCH'",
        "field": "code",
    }


def test_a_record_of_an_unfinished_game_stays_hidden(server: ServerProcess) -> None:
    assert HTTP.get(f"{server.url}/api/games/999999/record").status_code == 404
