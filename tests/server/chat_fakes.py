"""A table as the chat room sees it, for the chat's unit tests: seats with names, the people
connected (the test's own fake clients, its audience) and the host's seat."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class FakeSeat:
    name: str | None


@dataclass
class FakeAudience:
    people: list[Any]

    def clients(self) -> list[Any]:
        return self.people


@dataclass
class FakeTable:
    people: list[Any]
    host: int = 0
    seats: list[FakeSeat] = field(default_factory=lambda: [FakeSeat("Ada"), FakeSeat("Bo")])

    @property
    def audience(self) -> FakeAudience:
        return FakeAudience(self.people)
