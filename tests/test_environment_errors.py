"""What the machine refuses is the user's to mend: one line naming the file, exit 1.

A full disk (``/dev/full``), a reader that went away (``| head``), memory under
``ulimit -v``, an endless input (``/dev/zero``) are not sudosat's bugs, so they
never read "internal error" (exit 3). Option numbers are as strict as the numbers
inside files, and the shell scripts take file names that start with a dash.
"""

from __future__ import annotations

import os
import resource
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudosat.cli import main, sat_sn_main
from tests.conftest import COURSE_EXAMPLE, COURSE_SOLUTION

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
SUDOSAT = [sys.executable, "-m", "sudosat"]
SAT = [sys.executable, "-c", "import sys; from sudosat.cli import sat_sn_main; "
       "sys.exit(sat_sn_main())"]


@pytest.fixture
def files(tmp_path, monkeypatch) -> Path:
    """An instance, its formula, a solution and the solved board, in the current folder."""
    monkeypatch.chdir(tmp_path)
    Path("in.txt").write_text(COURSE_EXAMPLE + "\n", encoding="utf-8")
    Path("solved.txt").write_text(COURSE_SOLUTION + "\n", encoding="utf-8")
    assert main(["encode", "in.txt", "-o", "f.cnf"]) == 0
    assert main(["sat", "f.cnf", "-o", "s.sol"]) == 10
    return tmp_path


def run(argv: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(argv, stderr=subprocess.PIPE, text=True, env=ENV, timeout=120,
                          check=False, **kwargs)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


# ---------------------------------------------------------------------------------------
# a full disk


FULL_STDOUT = {
    "encode": ["encode", "in.txt"],
    "sat": ["sat", "f.cnf"],
    "decode": ["decode", "s.sol", "--order", "3"],
    "check": ["check", "in.txt", "solved.txt"],
    "solvers": ["solvers"],
    "generate": ["generate", "--order", "2", "--alpha", "0.5"],
    "count": ["count", "in.txt"],
    "solve": ["solve", "in.txt", "-o", "out.txt", "--no-progress"],
}


@pytest.mark.parametrize("command", sorted(FULL_STDOUT))
def test_standard_output_on_a_full_disk_is_one_line_and_exit_1(files, command):
    with open("/dev/full", "w") as full:
        done = run([*SUDOSAT, *FULL_STDOUT[command]], stdout=full)
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == [
        "sudosat: <stdout>: cannot write: No space left on device"
    ]


def test_sat_sn_on_a_full_disk_is_one_line_and_exit_1(files):
    with open("/dev/full", "w") as full:
        done = run([*SAT, "-S1", "f.cnf"], stdout=full)
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == ["SAT: <stdout>: cannot write: No space left on device"]


@pytest.mark.parametrize(
    "argv",
    [["solve", "in.txt", "-o", "out.txt", "--results", "/dev/full", "--no-progress"],
     ["sat", "f.cnf", "-o", "/dev/full"], ["encode", "in.txt", "-o", "/dev/full"]],
    ids=["solve-results", "sat-o", "encode-o"],
)
def test_an_output_on_a_full_disk_is_one_line_and_exit_1(files, argv):
    done = run([*SUDOSAT, *argv], stdout=subprocess.DEVNULL)
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("sudosat: /dev/full: ") and "No space left on device" in line


# ---------------------------------------------------------------------------------------
# a reader that went away


def test_a_closed_pipe_ends_quietly_with_exit_1(files):
    """``sudosat solvers | true``: nothing to say, and none of Python's noise at exit."""
    child = subprocess.Popen([*SUDOSAT, "solvers"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=ENV)
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()  # before the child has printed anything
    err = child.stderr.read().decode()
    assert child.wait(timeout=120) == 1
    assert err == ""


def test_a_pipe_closed_mid_write_ends_quietly_with_exit_1(files):
    """``sudosat encode big | head -c 100``: the reader leaves in the middle of one write."""
    big = Path("big.txt")
    assert main(["generate", "--order", "4", "--alpha", "0.5", "-o", str(big)]) == 0
    child = subprocess.Popen([*SUDOSAT, "encode", str(big)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=ENV)
    assert child.stdout is not None and child.stderr is not None
    assert child.stdout.read(100).startswith(b"c sudosat encoding")
    child.stdout.close()
    err = child.stderr.read().decode()
    assert child.wait(timeout=120) == 1  # not 0: the formula was not all delivered
    assert err == ""


# ---------------------------------------------------------------------------------------
# memory


def _limit_address_space() -> None:
    limit = 1_500_000 * 1024  # ulimit -v 1500000
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def test_memory_running_out_under_ulimit_is_exit_1_not_a_bug(tmp_path):
    path = tmp_path / "wide.cnf"
    path.write_text("p cnf 300000000 1\n1 2 0\n", encoding="utf-8")
    done = run([*SUDOSAT, "sat", str(path), "--max-memory", "1T"], stdout=subprocess.DEVNULL,
               preexec_fn=_limit_address_space)
    assert done.returncode == 1, done.stderr
    last = done.stderr.splitlines()[-1]
    assert last.startswith("sudosat: out of memory while ") and str(path) in last
    assert "internal error" not in done.stderr


@pytest.mark.parametrize(
    "argv",
    [["encode", "/dev/zero"], ["sat", "/dev/zero"], ["decode", "/dev/zero", "--order", "3"],
     ["sat", "-"], ["encode", "-"]],
    ids=["encode", "sat", "decode", "sat-stdin", "encode-stdin"],
)
def test_an_endless_input_is_refused_while_reading(argv):
    before = children_cpu()
    with open("/dev/zero", "rb") as zero:
        done = run([*SUDOSAT, *argv, "--max-memory", "2M"], stdin=zero,
                   stdout=subprocess.DEVNULL)
    cpu = children_cpu() - before
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.splitlines()
    assert "the file holds at least" in line and "--max-memory" in line
    assert line.startswith(f"sudosat: {'<stdin>' if argv[1] == '-' else '/dev/zero'}: ")
    # Reading all of /dev/zero took 12.9 s; 2 MB take a few milliseconds of CPU.
    assert cpu < 5.0, f"{cpu:.2f} s of CPU"


@pytest.mark.parametrize("source", ["/dev/zero", "-"])
def test_solve_refuses_an_endless_input_while_reading(tmp_path, source):
    with open("/dev/zero", "rb") as zero:
        done = run([*SUDOSAT, "solve", source, "-o", str(tmp_path / "o.txt"), "--max-memory",
                    "2M", "--no-progress"], stdin=zero, stdout=subprocess.DEVNULL)
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.splitlines()
    assert "the file holds at least" in line and "--max-memory" in line
    assert not (tmp_path / "o.txt").exists()


def test_sat_sn_refuses_an_endless_input_while_reading():
    done = run([*SAT, "-S1", "/dev/zero", "--max-memory", "2M"], stdout=subprocess.DEVNULL)
    assert done.returncode == 1 and "the file holds at least" in done.stderr


# ---------------------------------------------------------------------------------------
# a byte-order mark leads a file, never a later line


def test_a_byte_order_mark_on_a_later_line_is_refused(tmp_path, capsys):
    path = tmp_path / "bom.txt"
    path.write_text("\ufeff" + COURSE_EXAMPLE + "\n\ufeff" + COURSE_EXAMPLE + "\n",
                    encoding="utf-8")
    assert main(["encode", str(path), "--line", "1", "-o", str(tmp_path / "one.cnf")]) == 0
    capsys.readouterr()
    assert main(["encode", str(path), "--line", "2"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"sudosat: {path}:2: a byte-order mark (U+FEFF) starts the line: it may only start a "
        "file"
    ]
    out = tmp_path / "out.txt"
    assert main(["solve", str(path), "-o", str(out), "--no-progress"]) == 1
    assert out.read_text(encoding="utf-8").splitlines() == [
        COURSE_SOLUTION, "ERROR a byte-order mark (U+FEFF) starts the line: it may only start a "
        "file"]


# ---------------------------------------------------------------------------------------
# option numbers as strict as numbers in files


NUMERIC_OPTIONS = [
    ["sat", "F", "-T"], ["sat", "F", "--seed"], ["sat", "F", "--max-memory"],
    ["sat", "F", "--solver", "walksat", "--noise"], ["sat", "F", "--max-flips"],
    ["sat", "F", "--max-tries"], ["sat", "F", "--max-conflicts"],
    ["sat", "F", "--max-propagations"], ["encode", "F", "--line"],
    ["encode", "F", "--max-memory"], ["decode", "F", "--order"],
    ["decode", "F", "--order", "3", "--line"], ["generate", "--order"],
    ["generate", "--order", "2", "--alpha"], ["generate", "--order", "2", "--alpha", "0",
                                              "--count"],
    ["generate", "--order", "2", "--alpha", "0", "--seed"], ["count", "F", "--limit"],
    ["count", "F", "-T"], ["solve", "F", "-j"], ["solve", "F", "--max-memory"],
    ["solve", "F", "-T"], ["solve", "F", "--seed"],
]
SAT_SN_OPTIONS = [["F", "-S"], ["-S1", "F", "-T"], ["-S1", "F", "--max-memory"]]


def exit_code(entry, argv: list[str]) -> int:
    try:
        return entry(argv)
    except SystemExit as stop:
        return int(stop.code or 0)


@pytest.mark.parametrize("value", ["١٠٠٠", "1_000", "١G", " 5", "5\n", "٣", "1e_3"])
@pytest.mark.parametrize("option", NUMERIC_OPTIONS, ids=" ".join)
def test_option_numbers_in_other_digits_or_with_underscores_are_refused(capsys, option, value):
    assert exit_code(main, [*option, value]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1


@pytest.mark.parametrize("option", SAT_SN_OPTIONS, ids=" ".join)
def test_sat_sn_option_numbers_are_strict(capsys, option):
    assert exit_code(sat_sn_main, [*option, "١"]) == 2


NON_ASCII_DIGITS = st.characters(categories=["Nd"]).filter(lambda char: not char.isascii())


@given(
    before=st.text(alphabet="0123456789.eE+-", max_size=4),
    odd=st.one_of(NON_ASCII_DIGITS, st.just("_")),
    after=st.text(alphabet="0123456789.eEKMG", max_size=4),
    option=st.sampled_from(NUMERIC_OPTIONS),
)
def test_any_number_with_a_non_ascii_digit_or_underscore_is_refused(before, odd, after, option):
    assert exit_code(main, [*option, before + odd + after]) == 2


@given(odd=st.one_of(NON_ASCII_DIGITS, st.just("_")), option=st.sampled_from(SAT_SN_OPTIONS))
def test_any_sat_sn_number_with_a_non_ascii_digit_is_refused(odd, option):
    assert exit_code(sat_sn_main, [*option, "1" + odd]) == 2


def test_ascii_numbers_still_work(files, capsys):
    assert main(["sat", "f.cnf", "-T", "1e5", "--seed", "-3", "--max-memory", "1.5G"]) == 10
    assert main(["generate", "--order", "2", "--alpha", ".5", "--seed", "+7"]) == 0


# ---------------------------------------------------------------------------------------
# the scripts take any file name


@pytest.fixture
def scripts(tmp_path) -> Path:
    """The two scripts in a checkout without .venv, with `sudosat` on PATH running this tree."""
    folder = tmp_path / "scripts"
    folder.mkdir()
    for name in ("solve-own", "solve-zchaff"):
        shutil.copy(ROOT / "scripts" / name, folder / name)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "sudosat"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m sudosat "$@"\n', encoding="utf-8")
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
    return folder


def script_env(scripts: Path) -> dict[str, str]:
    return {**ENV, "PATH": f"{scripts.parent / 'bin'}{os.pathsep}{os.environ['PATH']}"}


@pytest.mark.parametrize("name", ["solve-own", "solve-zchaff"])
def test_a_script_reads_a_file_whose_name_starts_with_a_dash(scripts, name):
    work = scripts.parent
    (work / "-x.txt").write_text(COURSE_EXAMPLE + "\n", encoding="utf-8")
    done = subprocess.run([str(scripts / name), "-x.txt", "5000", "out"], cwd=work,
                          env=script_env(scripts), capture_output=True, text=True, timeout=120,
                          check=False)
    solver = "cdcl" if name == "solve-own" else "zchaff"
    answer = work / "out" / f"-x.{solver}.txt"
    assert answer.is_file(), done.stderr
    if solver == "cdcl":
        assert done.returncode == 0, done.stderr
        assert answer.read_text(encoding="utf-8") == COURSE_SOLUTION + "\n"
    assert "basename" not in done.stderr


def test_solve_own_help_exits_0_with_an_example(scripts):
    done = subprocess.run([str(scripts / "solve-own"), "--help"], capture_output=True,
                          text=True, env=script_env(scripts), timeout=60, check=False)
    assert done.returncode == 0
    assert "usage: scripts/solve-own FILE" in done.stdout and "example:" in done.stdout
