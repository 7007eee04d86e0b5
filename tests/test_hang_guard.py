"""The hang guard counts the machine's share, and still stops a test that hangs."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time

from tests.conftest import ROOT
from tests.hang_guard import ShareClock, share_of


def test_the_share_is_cores_over_runnable_threads_at_most_one():
    assert share_of("10.0 9.0 8.0 10/400 99", 2) == 0.2
    assert share_of("10.0 9.0 8.0 3/400 99", 4) == 1.0
    assert share_of("0.0 0.0 0.0 0/1 1", 2) == 1.0  # no runnable entity: never divide by 0
    for garbled in ("", "1 2 3", "1 2 3 x/y 4", "1 2 3 -/5"):
        assert share_of(garbled, 2) == 1.0


def test_a_busy_stretch_counts_its_share_of_the_wall_time():
    clock = ShareClock(now=100.0)
    assert clock.tick(110.0, 1.0) == 10.0  # quiet: wall seconds
    assert clock.tick(160.0, 0.2) == 20.0  # a fifth of a core for 50 s counts 10 s
    assert clock.tick(150.0, 1.0) == 20.0  # a clock that went back counts nothing


HANGING_TEST = """
import pathlib
import threading
import time


def test_waits_for_ever():
    pathlib.Path("started").write_text(repr(time.monotonic()))
    threading.Event().wait()
"""

# The guard under test, with the machine's share held at a quarter: its limit then takes
# four times its seconds of wall time, where pytest-timeout's own timer would take one.
CONFTEST = """
import tests.hang_guard
from tests.hang_guard import pytest_timeout_set_timer  # noqa: F401

tests.hang_guard.current_share = lambda: 0.25
"""


def test_a_test_that_hangs_is_stopped_with_its_stack_after_its_share_of_time(tmp_path):
    (tmp_path / "test_hang.py").write_text(textwrap.dedent(HANGING_TEST))
    (tmp_path / "conftest.py").write_text(CONFTEST)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
               "-o", "addopts=", "-o", "timeout_method=thread", "--timeout", "1",
               "--rootdir", str(tmp_path), str(tmp_path / "test_hang.py")]
    # The bound below only keeps a broken guard from hanging the suite.
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=600,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    ended = time.monotonic()
    assert done.returncode != 0
    assert "Timeout" in done.stdout and "test_waits_for_ever" in done.stdout
    # 1 s of a quarter's share is 4 s of wall time at least (4 ticks of 0.25); a busy
    # machine only adds to it, so this lower bound holds at any load.
    waited = ended - float((tmp_path / "started").read_text())
    assert waited >= 3.9, f"stopped after {waited:.2f} s: the share did not stretch the limit"
