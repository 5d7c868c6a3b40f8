"""Session-wide test setup shared by every tier."""

import os
from collections import Counter
from typing import Any

import pytest

# litellm must never reach the network from tests: no model price map, no other lookups.
os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


NO_POSTGRES = "TEST_DATABASE_URL is not set: the PostgreSQL tests are skipped"


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """One line per reason a test was skipped ("137 × TEST_DATABASE_URL is not set…"), instead of
    pytest's line per place (`-rs`): the PostgreSQL tests skip from a hundred places at once."""
    reasons: Counter[str] = Counter()
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        reasons[reason.removeprefix("Skipped: ")] += 1
    for reason, count in reasons.most_common():
        terminalreporter.write_line(f"SKIPPED {count} × {reason}")
