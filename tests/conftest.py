"""Suite-wide settings: hypothesis profiles, and no silent skips in CI.

* ``dev`` (default): quick, for local runs.
* ``ci``: selected when the environment variable ``CI`` is ``true`` (``.ci/run`` sets it);
  more examples, since CI has the time.

Under ``CI=true`` a skipped test counts as failed: a test that skips because something it
needs is missing must not pass CI unnoticed.

Both profiles turn the per-example deadline off: one example plays whole random games, whose
length varies a lot, so a deadline would only make the suite flaky. Pick a profile by hand
with ``pytest --hypothesis-profile=NAME``.
"""

from __future__ import annotations

import os
from collections.abc import Generator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "dev",
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    deadline=None,
    max_examples=200,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile("ci" if os.environ.get("CI", "").lower() == "true" else "dev")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    in_ci = os.environ.get("CI", "").lower() == "true"
    if in_ci and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped, which CI=true does not allow: {report.longrepr}"
