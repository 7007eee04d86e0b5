"""The one output guard: no command may write over its input or over another of its outputs.

Every command that writes (``sat``, ``encode``, ``decode``, ``count``, ``generate``,
``solve`` and ``SAT -Sn``) checks its outputs against its inputs before any work:
the same path, a symlink or a hard link to an input, or two outputs that are one
file, are refused with one line naming the file, exit 1, and the input's bytes
unchanged. Default names come from files, never from a device: ``-o /dev/null``
does not make ``/dev/null.results.csv``.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from sudosat.cli import main, sat_sn_main
from sudosat.outputs import check_outputs, names_a_file
from tests.conftest import COURSE_EXAMPLE, COURSE_SOLUTION

ROOT = Path(__file__).resolve().parent.parent
UNSAT = "p cnf 1 2\n1 0\n-1 0\n"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def lines_of(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.strip()]


@pytest.fixture
def files(tmp_path, monkeypatch) -> Path:
    """A folder holding an instance, its formula, a solution and an UNSAT formula."""
    monkeypatch.chdir(tmp_path)
    Path("in.txt").write_text(COURSE_EXAMPLE + "\n", encoding="utf-8")
    assert main(["encode", "in.txt", "-o", "f.cnf"]) == 0
    assert main(["sat", "f.cnf", "-o", "s.sol"]) == 10
    Path("u.cnf").write_text(UNSAT, encoding="utf-8")
    return tmp_path


def symlink(name: str, target: str) -> None:
    os.symlink(target, name)


def hard_link(name: str, target: str) -> None:
    os.link(target, name)


def nothing(*_: str) -> None:
    return None


# (argv, the input that must survive, how the output name is made to be that input, the file
# the one line names, the cause it gives)
CASES: list[tuple[list[str], str, Callable[..., None], tuple[str, ...], str, str]] = [
    (["sat", "f.cnf", "-o", "f.cnf"], "f.cnf", nothing, (), "f.cnf",
     "the solution would overwrite the formula"),
    (["sat", "f.cnf", "-o", "link.cnf"], "f.cnf", symlink, ("link.cnf", "f.cnf"), "link.cnf",
     "the solution would overwrite the formula f.cnf (through a symlink)"),
    (["sat", "f.cnf", "-o", "hard.cnf"], "f.cnf", hard_link, ("hard.cnf", "f.cnf"), "hard.cnf",
     "the solution would overwrite the formula f.cnf (a hard link to it)"),
    (["sat", "u.cnf", "--proof", "u.cnf"], "u.cnf", nothing, (), "u.cnf",
     "the proof would overwrite the formula"),
    (["encode", "in.txt", "-o", "in.txt"], "in.txt", nothing, (), "in.txt",
     "the formula would overwrite the instance file"),
    (["encode", "in.txt", "--format", "vu", "-o", "vu/"], "in.txt", symlink,
     ("vu/in-1.cnf", "../in.txt"), "vu/in-1.cnf",
     "the formula of line 1 would overwrite the instance file in.txt (through a symlink)"),
    (["count", "in.txt", "-o", "in.txt"], "in.txt", nothing, (), "in.txt",
     "the counts would overwrite the instance file"),
    (["decode", "s.sol", "--order", "3", "-o", "s.sol"], "s.sol", nothing, (), "s.sol",
     "the board would overwrite the solution"),
    (["decode", "s.sol", "--order", "3", "--instance", "in.txt", "-o", "in.txt"], "in.txt",
     nothing, (), "in.txt", "the board would overwrite the instance file"),
    (["solve", "in.txt", "-o", "link.txt"], "in.txt", symlink, ("link.txt", "in.txt"),
     "link.txt", "the output of cdcl would overwrite the instance file in.txt (through a "
     "symlink)"),
    (["solve", "in.txt", "-o", "o.txt", "--results", "hard.csv"], "in.txt", hard_link,
     ("hard.csv", "in.txt"), "hard.csv",
     "the results table would overwrite the instance file in.txt (a hard link to it)"),
]


@pytest.mark.parametrize(
    ("argv", "kept", "make", "make_args", "named", "cause"),
    CASES,
    ids=["sat-o-input", "sat-o-symlink", "sat-o-hardlink", "sat-proof-input", "encode-o-input",
         "encode-vu-dir-symlink", "count-o-input", "decode-o-solution", "decode-o-instance",
         "solve-o-symlink", "solve-results-hardlink"],
)
def test_an_output_that_is_an_input_is_refused_before_any_work(
    files, capsys, argv, kept, make, make_args, named, cause
):
    if argv[-1].endswith("/"):
        Path(argv[-1]).mkdir()
    make(*make_args)
    before = digest(files / kept)
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 1, err
    assert lines_of(err) == [f"sudosat: {named}: {cause}"]
    assert digest(files / kept) == before


def test_a_proof_and_a_solution_in_one_file_are_refused_not_lost(files, capsys):
    code = main(["sat", "u.cnf", "--proof", "p.out", "-o", "p.out"])
    err = capsys.readouterr().err
    assert code == 1
    assert lines_of(err) == ["sudosat: p.out: the proof would overwrite the solution"]
    assert not Path("p.out").exists()


def test_two_solve_outputs_through_a_link_are_refused(files, capsys):
    symlink("r.csv", "o.txt")
    code = main(["solve", "in.txt", "-o", "o.txt", "--results", "r.csv"])
    err = capsys.readouterr().err
    assert code == 1 and "the results table would overwrite the output of cdcl" in err


def test_sat_sn_refuses_an_out_file_that_links_to_its_input(files, capsys):
    symlink("f.cnf.out", "f.cnf")
    before = digest(files / "f.cnf")
    code = sat_sn_main(["-S3", "f.cnf"])
    captured = capsys.readouterr()
    assert code == 1
    assert lines_of(captured.err) == [
        "SAT: f.cnf.out: the assignment would overwrite the formula f.cnf (through a symlink)"
    ]
    assert digest(files / "f.cnf") == before


def test_devices_may_be_inputs_and_shared_outputs():
    check_outputs([("/dev/null", "the formula")],
                  [("/dev/null", "the solution"), ("/dev/null", "the proof")])


# ---------------------------------------------------------------------------------------
# default names come from files, never from devices


@pytest.mark.parametrize("device", ["/dev/null", "/dev/stdout"])
def test_solve_to_a_device_names_the_results_table_after_the_input(files, device):
    before = {path: path.lstat().st_mtime_ns for path in Path("/dev").iterdir()}
    done = subprocess.run(
        [sys.executable, "-m", "sudosat", "solve", "in.txt", "-o", device, "--no-progress"],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert Path("in.results.csv").is_file()
    # Nothing new in /dev (/dev/null.results.csv was made there), nothing but devices written.
    after = {path: path.lstat().st_mtime_ns for path in Path("/dev").iterdir()}
    assert set(after) <= set(before)
    assert all(after[path] == before[path] for path in after if path.is_file())
    if device == "/dev/stdout":
        assert COURSE_SOLUTION in done.stdout


def test_solve_from_standard_input_to_a_device_asks_for_results(files, capsys, monkeypatch):
    code = main(["solve", "-", "-o", "/dev/null", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 1
    assert lines_of(err) == [
        "sudosat: /dev/null: the results table cannot be named after a device or standard "
        "input: give --results FILE"
    ]


def test_several_solvers_write_a_device_in_place(files, capsys):
    code = main(["solve", "in.txt", "-o", "/dev/null", "--solver", "cdcl", "--solver", "dpll",
                 "--no-progress"])
    assert code == 0, capsys.readouterr().err
    assert not Path("/dev/null.cdcl").exists() and Path("in.results.csv").is_file()


def test_names_a_file_only_for_ordinary_paths(tmp_path):
    assert names_a_file(tmp_path / "x.txt")
    assert not names_a_file("/dev/null") and not names_a_file("/dev/stdout")
    assert not names_a_file(tmp_path)


# ---------------------------------------------------------------------------------------
# names: empty, a folder's, a file in the way


@pytest.mark.parametrize(
    "argv",
    [["solve", "in.txt", "-o", ""], ["solve", "in.txt", "--results", ""],
     ["sat", "f.cnf", "-o", ""], ["generate", "--order", "2", "--alpha", "0.5", "-o", ""]],
    ids=["solve-o", "solve-results", "sat-o", "generate-o"],
)
def test_an_empty_output_name_is_a_usage_error(files, capsys, argv):
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2 and len(lines_of(err)) == 1 and "an empty file name" in err


def test_encode_to_a_folder_that_is_a_file_is_one_line(files, capsys):
    Path("vu").write_text("a file\n", encoding="utf-8")
    code = main(["encode", "in.txt", "--format", "vu", "-o", "vu/"])
    err = capsys.readouterr().err
    assert code == 1
    assert lines_of(err) == ["sudosat: vu/: exists and is not a folder (-o DIR/ names a folder)"]
    assert Path("vu").read_text(encoding="utf-8") == "a file\n"


@pytest.mark.parametrize(
    "argv",
    [["sat", "f.cnf", "-o", "newdir/"], ["decode", "s.sol", "--order", "3", "-o", "newdir/"],
     ["generate", "--order", "2", "--alpha", "0.5", "-o", "newdir/"],
     ["count", "in.txt", "-o", "newdir/"], ["solve", "in.txt", "-o", "newdir/"]],
    ids=["sat", "decode", "generate", "count", "solve"],
)
def test_a_folder_name_for_a_file_output_writes_nothing_named_otherwise(files, capsys, argv):
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 1, err
    assert lines_of(err) == [f"sudosat: newdir/: {_role(argv[0])} needs a file name; this "
                             "names a folder"]
    assert not Path("newdir").exists()


def _role(command: str) -> str:
    return {"sat": "the solution", "decode": "the board", "generate": "the boards",
            "count": "the counts", "solve": "the output"}[command]


def test_encode_to_a_new_folder_makes_it(files, capsys):
    assert main(["encode", "in.txt", "-o", "newdir/"]) == 0
    assert Path("newdir").is_dir() and Path("newdir/in-1.cnf").is_file()


def test_many_outputs_are_checked_in_linear_time(tmp_path):
    """``encode --format vu -o DIR/`` guards one output per line: thousands of them."""
    import time

    outputs = [(tmp_path / f"in-{number}.cnf", f"the formula of line {number}")
               for number in range(1, 5001)]
    started = time.process_time()
    check_outputs([(tmp_path / "in.txt", "the instance file")], outputs)
    # Pairwise checks are 12.5 million comparisons (minutes); keys take well under a second.
    assert time.process_time() - started < 10.0
