"""The tutorial's HTTP endpoints (docs/learn.md): the lessons, where a learner stands, and bad
input refused with a clear error naming the field, like every other endpoint."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from dos import learn
from dos.server.app import ServerConfig, create_app
from dos.server.net.limits import Limits
from dos.server.people.relying_party import RelyingParty


def client_for(data: Path, *limits: str) -> TestClient:
    config = ServerConfig(
        data=data,
        limits=Limits().with_changes(list(limits) or ["off"]),
        relying_party=RelyingParty("localhost"),
    )
    return TestClient(create_app(config))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(tmp_path) as test_client:
        yield test_client


def test_the_lessons_are_listed_in_order(client: TestClient) -> None:
    answer = client.get("/api/learn")
    assert answer.status_code == 200
    lessons = answer.json()["lessons"]
    assert [lesson["id"] for lesson in lessons] == list(learn.ORDER)
    assert lessons[0] == {"id": "single_number_match", "title": "learn.single_title", "steps": 2}


def test_a_lesson_answers_where_the_learner_stands(client: TestClient) -> None:
    answer = client.post("/api/learn/single_number_match", json={"actions": ["B7@0"]})
    assert answer.status_code == 200
    assert answer.json() == learn.run(learn.lesson("single_number_match"), ["B7@0"]).to_json()
    refused = client.post("/api/learn/single_number_match", json={"actions": ["B7@1"]}).json()
    assert refused["status"] == "wrong" and refused["accepted"] == 0
    assert refused["explanation"]["key"] == "game.err_no_number_match"
    assert client.post("/api/learn/single_number_match", json={}).json()["step"] == 0


def test_the_learn_page_is_the_client(client: TestClient) -> None:
    page = client.get("/learn")
    assert page.status_code == 200 and 'id="view-learn"' in page.text


LESSON = "/api/learn/single_number_match"


@pytest.mark.parametrize(
    ("path", "body", "expected"),
    [
        ("/api/learn/no_such_lesson", {"actions": []}, (404, "no_lesson", "lesson")),
        ("/api/learn/Bad-Id", {"actions": []}, (422, "bad_request", "lesson_id")),
        (LESSON, {"actions": "draw"}, (422, "bad_request", "actions")),
        (LESSON, {"actions": [7]}, (422, "bad_request", "actions.0")),
        (LESSON, {"actions": [""]}, (422, "bad_request", "actions.0")),
        (LESSON, {"actions": ["x" * 41]}, (422, "bad_request", "actions.0")),
        (LESSON, {"actions": ["draw"] * 65}, (422, "bad_request", "actions")),
        (LESSON, {"actions": [], "seat": 1}, (422, "bad_request", "seat")),
        (LESSON, {"actions": ["B7@0", "R11@0"]}, (422, "bad_action", "actions.1")),
    ],
)
def test_bad_input_is_refused_naming_the_field(
    client: TestClient, path: str, body: object, expected: tuple[int, str, str]
) -> None:
    answer = client.post(path, json=body)
    error = answer.json()
    assert (answer.status_code, error["code"], error["field"]) == expected


def test_a_body_that_is_not_json_is_refused(client: TestClient) -> None:
    answer = client.post(
        "/api/learn/single_number_match",
        content=b"{not json",
        headers={"Content-Type": "application/json"},
    )
    assert answer.status_code == 400 and answer.json()["code"] == "bad_json"


def test_the_tutorial_is_rate_limited_like_the_other_lookups(tmp_path: Path) -> None:
    with client_for(tmp_path, "lookup=3/day") as limited:
        codes = [
            limited.post("/api/learn/single_number_match", json={"actions": []}).status_code
            for _ in range(4)
        ]
        assert codes == [200, 200, 200, 429]
        assert limited.get("/api/learn").status_code == 429
