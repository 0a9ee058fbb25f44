"""Fixtures of the RL tests."""

from __future__ import annotations

from typing import Any

import pytest

from dos.rl import train as train_module


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[train_module.Settings]:
    """The settings ``main`` would train with, one per call (nothing is trained)."""
    seen: list[train_module.Settings] = []

    def fake(settings: train_module.Settings, *args: Any, **kwargs: Any) -> None:
        seen.append(settings)

    monkeypatch.setattr(train_module, "train", fake)
    return seen
