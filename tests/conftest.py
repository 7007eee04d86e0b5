"""Shared fixtures: the course's example and the public data folder beside the project."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from sudosat.sudoku.board import COURSE_EXAMPLE

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("SUDOSAT_SHARED_DATA", ROOT.parent / "shared" / "data"))

COURSE_SOLUTION = (
    "3 816435279427986135593217846974562381235198467168374592749821653651743928382659714"
)

settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")


def shared_file(name: str) -> Path:
    """A file of the public data folder, or skip the test saying why."""
    path = SHARED_DATA / name
    if not path.is_file():
        pytest.skip(f"public data file {path} is absent (set SUDOSAT_SHARED_DATA to its folder)")
    return path


@pytest.fixture
def course_example() -> str:
    return COURSE_EXAMPLE


@pytest.fixture
def course_solution() -> str:
    return COURSE_SOLUTION
