"""Every ``--help`` ends with examples, and every example runs as written.

The README promises an example in every command's help. Each help here (``sudosat``, each of
its commands, ``SAT``) must have an ``example:`` or ``examples:`` section, and its lines are run
with bash, in order, in a scratch folder holding a copy of ``data/`` and the files the examples
name without making them (made from the project's data). A line is left out only when it needs
what this machine may lack (zChaff, a Dask cluster) or the whole report's build, which
``make report`` runs, said in `NEEDS`; every section keeps at least one line that runs.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from sudosat.cli import build_parser, build_sat_sn_parser
from sudosat.sat.formulas import pigeonhole
from tests.conftest import COURSE_EXAMPLE, hard_puzzles, vu_rules_file

ROOT = Path(__file__).resolve().parent.parent

NEEDS = {
    "--solver zchaff": "needs zChaff",
    "--scheduler tcp://HOST": "needs a Dask cluster",
    "# the committed report, rebuilt": "the whole build, a quarter of an hour: make report runs it",
}
"""Example lines that need what a test machine may lack, by a piece of their text."""

STATUS = {"sudosat sat ": {0, 10, 20}}
"""Exit statuses that mean "it ran" for lines starting so (sat: 10 SAT, 20 UNSAT); else 0."""


def helps() -> dict[str, str]:
    """Every help text, by the command that prints it."""
    parser = build_parser()
    texts = {"sudosat --help": parser.format_help()}
    commands = next(a for a in parser._actions if a.dest == "command").choices
    for name, sub in commands.items():
        texts[f"sudosat {name} --help"] = sub.format_help()
    texts["SAT --help"] = build_sat_sn_parser().format_help()
    return texts


def examples(text: str) -> list[str]:
    """The lines of a help's example section, their comments kept (`NEEDS` may name one)."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if re.fullmatch(r"examples?:", line.strip())]
    assert len(starts) == 1, "no example section, or two"
    found = []
    for line in lines[starts[0] + 1:]:
        if not line.startswith("  ") or not line.strip():
            break
        found.append(line.strip())
    return found


def runnable(line: str) -> str:
    """An example line without its comment: what bash runs."""
    return re.sub(r"\s+#.*$", "", line)


HELPS = helps()


@pytest.mark.parametrize("command", list(HELPS))
def test_every_help_has_examples_that_call_the_program(command):
    lines = examples(HELPS[command])
    program = command.split()[0] if command.startswith("SAT") else " ".join(command.split()[:2])
    if command == "sudosat --help":
        program = "sudosat"
    assert any(program in line for line in lines), (command, lines)


def scratch(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A folder with data/ and the inputs the examples name, and an environment whose PATH
    runs this checkout's ``sudosat`` and ``SAT``."""
    work = tmp_path / "work"
    shutil.copytree(ROOT / "data", work / "data")
    rules = vu_rules_file().read_text()
    (work / "sudoku-rules-9x9.txt").write_text(rules)
    units = "144 0\n"  # one given: the rules and a unit are all a VU puzzle file needs
    (work / "puzzle.cnf").write_text(units)
    (work / "sudoku.cnf").write_text(rules + units)
    (work / "puzzles.sdk").write_text("\n".join(hard_puzzles(2)) + "\n")
    (work / "puzzles.txt").write_text(COURSE_EXAMPLE + "\n" + "2 1000002000300004\n")
    (work / "php.cnf").write_text(pigeonhole(5).to_dimacs())
    subprocess.run([sys.executable, "-m", "sudosat", "encode", "data/course-example.txt",
                    "-o", "formula.cnf"], cwd=work, check=True, env=environment(tmp_path))
    shutil.copy(work / "formula.cnf", work / "example.cnf")
    return work, environment(tmp_path)


def environment(tmp_path: Path) -> dict[str, str]:
    bin_dir = tmp_path / "bin"
    if not bin_dir.is_dir():
        bin_dir.mkdir()
        programs = {"sudosat": "-m sudosat",
                    "SAT": "-c 'import sys; from sudosat.cli import sat_sn_main; "
                           "sys.exit(sat_sn_main())'"}
        for name, how in programs.items():
            path = bin_dir / name
            path.write_text(f'#!/bin/sh\nexec "{sys.executable}" {how} "$@"\n')
            path.chmod(path.stat().st_mode | stat.S_IXUSR)
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(ROOT)
    env["HOME"] = str(tmp_path / "home")
    env.pop("ZCHAFF", None)
    return env


@pytest.mark.slow
def test_every_example_runs_as_written(tmp_path):
    work, env = scratch(tmp_path)
    for command, text in HELPS.items():
        ran = 0
        for line in examples(text):
            if any(piece in line for piece in NEEDS):
                continue
            line = runnable(line)
            done = subprocess.run(["bash", "-c", f"set -o pipefail; {line}"], cwd=work, env=env,
                                  capture_output=True, text=True, timeout=300)
            wanted = next((codes for start, codes in STATUS.items() if line.startswith(start)),
                          {0})
            assert done.returncode in wanted, (command, line, done.returncode, done.stderr[-2000:])
            assert "Traceback" not in done.stderr, (command, line, done.stderr[-2000:])
            ran += 1
        assert ran >= 1, f"{command}: no example runs here"
