"""An address that names nothing (``dos.server.http.client_routes.not_found_page``): a page's
path is answered 404 with the client's page, which says so in the player's language; the
API's and the files' paths keep the JSON error body."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from dos.server.app import ServerConfig, create_app
from dos.server.net.limits import Limits
from dos.server.people.relying_party import RelyingParty


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    config = ServerConfig(
        data=tmp_path_factory.mktemp("data"),
        limits=Limits().with_changes(["off"]),
        relying_party=RelyingParty("localhost"),
    )
    with TestClient(create_app(config)) as test_client:
        yield test_client


@pytest.mark.parametrize("path", ["/nowhere", "/replay/abc", "/t/ABCD/more", "/learn/x/y"])
def test_a_page_that_names_nothing_is_the_client_page_with_404(
    client: TestClient, path: str
) -> None:
    answer = client.get(path)
    assert answer.status_code == 404
    assert answer.headers["content-type"].startswith("text/html")
    assert 'id="view-lobby"' in answer.text


@pytest.mark.parametrize("path", ["/api/nothing", "/static/nothing.js", "/api", "/ws/x/y"])
def test_the_api_and_files_keep_the_json_error(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 404
    assert answer.json()["code"] == "not_found"


def test_a_replay_by_its_number_is_the_page(client: TestClient) -> None:
    assert client.get("/replay/12").status_code == 200
    assert client.post("/nowhere").status_code in (404, 405)
    assert client.post("/nowhere").headers["content-type"] == "application/json"
