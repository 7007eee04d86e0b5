"""``count`` and ``generate`` run the zChaff that ``--zchaff PATH`` names, as every command does.

The program is the fake zChaff of ``tests/fake_solvers`` (a script replaying a transcript of the
real binary), reached only through ``--zchaff``: ``ZCHAFF`` is unset and PATH holds no zchaff.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from sudosat.cli import main
from sudosat.sudoku.incremental import forget_loaded
from tests.conftest import COURSE_EXAMPLE
from tests.fake_solvers.support import TRANSCRIPTS, make_launcher


def run(argv, capsys):
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def fake(tmp_path, monkeypatch) -> Iterator[Path]:
    """The fake zChaff, its log folder in FAKE_LOG; no other zChaff can be found.

    The process keeps loaded rules between commands (one solver per solver, order and
    encoding): each test starts without, so its formula is the first count builds.
    """
    forget_loaded()
    monkeypatch.delenv("ZCHAFF", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "empty-path"))
    monkeypatch.setenv("FAKE_LOG", str(tmp_path / "log"))
    monkeypatch.setenv("FAKE_MODE", "replay")
    yield make_launcher(tmp_path / "bin", "zchaff")
    forget_loaded()


def test_count_runs_the_zchaff_of_its_option(fake, tmp_path, monkeypatch, capsys):
    # zChaff's recorded run on the course example (729 variables): the one solution count finds
    monkeypatch.setenv("FAKE_DIR", str(TRANSCRIPTS / "sudoku9"))
    instances = tmp_path / "example.txt"
    instances.write_text(COURSE_EXAMPLE + "\n")
    code, out, err = run(["count", instances, "--limit", 1, "--solver", "zchaff",
                          "--zchaff", fake], capsys)
    assert (code, out) == (0, "at least 1\n"), err
    log = tmp_path / "log"
    assert json.loads((log / "argv.json").read_text())  # the program ran, with arguments
    assert (log / "input.cnf").read_text().startswith("p cnf 729 ")  # on count's formula
    assert "ZCHAFF" not in os.environ  # the path stood in for ZCHAFF only while count ran


def test_count_takes_a_relative_zchaff_path(fake, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("FAKE_DIR", str(TRANSCRIPTS / "unsat_tiny"))
    monkeypatch.chdir(fake.parent)
    instances = tmp_path / "example.txt"
    instances.write_text(COURSE_EXAMPLE + "\n")
    code, out, err = run(["count", instances, "--solver", "zchaff", "--zchaff", "./zchaff"],
                         capsys)
    # the fake answers a 2-variable run: read, and refused for this formula, not "not found"
    assert (code, out) == (1, "ERROR zChaff read 2 variables where the formula has 729\n"), err
    assert (tmp_path / "log" / "argv.json").is_file()


def test_count_refuses_a_wrong_zchaff_once_naming_the_option(fake, tmp_path, capsys):
    instances = tmp_path / "two.txt"
    instances.write_text(COURSE_EXAMPLE + "\n" + COURSE_EXAMPLE + "\n")
    missing = tmp_path / "no-such-zchaff"
    code, out, err = run(["count", instances, "--solver", "zchaff", "--zchaff", missing], capsys)
    assert (code, out) == (1, "")
    assert err == f"sudosat: zChaff (--zchaff {missing}): no such file: {missing}\n"


def test_generate_runs_the_zchaff_of_its_option(fake, tmp_path, monkeypatch, capsys):
    # The replayed answer cannot complete the generator's random start: the run fails, but
    # only after the named program ran on the generator's formula and was read.
    monkeypatch.setenv("FAKE_DIR", str(TRANSCRIPTS / "unsat_tiny"))
    code, out, err = run(["generate", "--order", 2, "--alpha", 0.5, "--solver", "zchaff",
                          "--zchaff", fake], capsys)
    assert (code, out) == (1, "")
    assert "zChaff read 2 variables where the formula has" in err, err
    assert (tmp_path / "log" / "input.cnf").read_text().startswith("p cnf ")
    assert "ZCHAFF" not in os.environ
