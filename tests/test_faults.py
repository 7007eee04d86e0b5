"""Regression tests for faults that lost work or touched what was not ours.

Each test is named after the fault it pins down (``test_faultK_...`` for fault K
of the list audited) and reproduces it as the audit did: through the command line, in a
scratch folder, checking the one line on standard error, the exit code, and that
nothing else was lost or touched.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil  # the test extra declares it: a missing psutil fails loudly, never skips
import pytest

from sudosat.cli import main
from sudosat.run.batch import run_batch
from tests.clock import cpu_spent, late_by_at_most
from tests.conftest import COURSE_EXAMPLE, COURSE_SOLUTION

ROOT = Path(__file__).resolve().parent.parent
HUGE_TOKEN = "9" * 5000
BAD_LINE = f"2 {HUGE_TOKEN} {' '.join(['0'] * 15)}"


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def error_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.strip()]


# ---------------------------------------------------------------------------------------
# 1. one bad line never stops a batch


@pytest.fixture
def big_file(tmp_path) -> Path:
    return write_lines(tmp_path / "big.txt", [COURSE_EXAMPLE, BAD_LINE, COURSE_EXAMPLE])


def assert_bad_line_answered(out_path: Path) -> None:
    lines = out_path.read_text().splitlines()
    assert len(lines) == 3
    assert lines[0] == lines[2] == COURSE_SOLUTION
    assert lines[1].startswith("ERROR ") and "999999999999" in lines[1]  # names the token


@pytest.mark.parametrize(
    "extra",
    [[], ["-j", "2"], ["--executor", "dask", "-j", "2"]],
    ids=["serial", "processes", "dask"],
)
def test_fault1_bad_line_never_stops_batch(tmp_path, capsys, big_file, extra):
    if "dask" in extra:
        pytest.importorskip("distributed", reason="the optional extra sudosat[cluster]")
    out = tmp_path / "out.txt"
    code, _, err = run_cli(capsys, "solve", big_file, "-o", out, "--no-progress", *extra)
    assert code == 1
    assert_bad_line_answered(out)
    assert error_lines(err) == [
        f"sudosat: {big_file}:2: cdcl: value 999999999999999999999... at position 1 is too big "
        "for order 2 (max 4)"
    ]
    assert "internal error" not in err


def test_fault1_bad_line_never_stops_resume(tmp_path, capsys, big_file):
    out = tmp_path / "out.txt"
    run_batch(big_file, out, progress=False)
    out.unlink()
    code, _, err = run_cli(capsys, "solve", big_file, "-o", out, "--resume", "--no-progress")
    assert code == 1 and "internal error" not in err
    assert_bad_line_answered(out)


def test_fault1_bad_line_in_encode_is_one_line(tmp_path, capsys, big_file):
    code, out, err = run_cli(capsys, "encode", big_file, "--line", "2")
    assert code == 1 and out == ""
    assert error_lines(err) == [
        f"sudosat: {big_file}:2: value 999999999999999999999... at position 1 is too big "
        "for order 2 (max 4)"
    ]
    code, out, _ = run_cli(capsys, "encode", big_file, "--line", "3")
    assert code == 0 and out.count("\n") > 11000


def test_fault1_serial_executor_survives_a_raising_item():
    from sudosat.run.executors import SerialExecutor

    def work(item):
        if item == 2:
            raise ValueError("boom")
        return item

    with SerialExecutor() as runner:
        done = dict(runner.map_unordered(work, [1, 2, 3]))
    assert done[1] == 1 and done[3] == 3 and isinstance(done[2], ValueError)


# ---------------------------------------------------------------------------------------
# 11. the Makefile quotes what users pass


def test_fault11_makefile_quotes_instances_and_t(tmp_path):
    make = shutil.which("make")
    if make is None:
        pytest.skip("no make program here")
    nasty = "my file's; touch PWNED `id`.txt"
    for target, program in (("report", "sudosat report"), ("solve-own", "scripts/solve-own")):
        listing = subprocess.run(
            [make, "-n", "--no-print-directory", "-C", str(ROOT), target,
             f"INSTANCES={nasty}", "T=10 000"],
            capture_output=True, text=True, check=True,
        ).stdout
        recipe = next(line for line in listing.splitlines() if program in line)
        words = shlex.split(recipe)
        assert nasty in words and "10 000" in words, recipe
    assert not (ROOT / "PWNED").exists()


# ---------------------------------------------------------------------------------------
# 2. special files are written in place, symlinks followed, modes from the umask


@pytest.fixture
def one_line(tmp_path) -> Path:
    return write_lines(tmp_path / "i.txt", [COURSE_EXAMPLE])


def test_fault2_char_device_is_written_in_place(tmp_path, capsys, one_line):
    fake_null = tmp_path / "fakenull"
    try:
        os.mknod(fake_null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("mknod of a character device needs root")
    code, _, err = run_cli(
        capsys, "solve", one_line, "-o", fake_null, "--results", fake_null, "--no-progress"
    )
    assert code == 0, err
    info = fake_null.lstat()
    assert stat.S_ISCHR(info.st_mode) and info.st_rdev == os.makedev(1, 3)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fakenull", "i.txt"]


def test_fault2_fifo_is_written_in_place(tmp_path, one_line):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE, text=True)
    try:
        run_batch(one_line, fifo, results=tmp_path / "r.csv", progress=False)
        received, _ = reader.communicate(timeout=60)
    finally:
        reader.kill()
    assert received == COURSE_SOLUTION + "\n"
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_fault2_symlink_is_followed_to_its_target(tmp_path, one_line):
    target = tmp_path / "real.txt"
    target.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(target.name)
    run_batch(one_line, link, results=tmp_path / "r.csv", progress=False)
    assert link.is_symlink() and os.readlink(link) == "real.txt"
    assert target.read_text() == COURSE_SOLUTION + "\n"


def test_fault2_outputs_honour_the_umask(tmp_path, one_line):
    previous = os.umask(0o027)
    try:
        run_batch(one_line, tmp_path / "o.txt", progress=False)
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "o.txt").stat().st_mode) == 0o640
    assert stat.S_IMODE((tmp_path / "o.results.csv").stat().st_mode) == 0o640
    (tmp_path / "o.txt").chmod(0o604)  # a file that exists keeps its mode
    run_batch(one_line, tmp_path / "o.txt", progress=False)
    assert stat.S_IMODE((tmp_path / "o.txt").stat().st_mode) == 0o604


def test_fault2_what_cannot_be_written_is_refused(tmp_path, capsys, one_line):
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tmp_path / "sock"))
    try:
        code, _, err = run_cli(capsys, "solve", one_line, "-o", tmp_path / "sock")
    finally:
        server.close()
    assert code == 1
    assert error_lines(err) == [
        f"sudosat: {tmp_path / 'sock'}: is a socket, not a file that can be written"
    ]
    assert stat.S_ISSOCK((tmp_path / "sock").lstat().st_mode)


# ---------------------------------------------------------------------------------------
# 3. --resume trusts nothing


@pytest.fixture
def two_files(tmp_path) -> tuple[Path, Path]:
    lines = [line for line in (ROOT / "data" / "instances.txt").read_text().splitlines() if line]
    return (
        write_lines(tmp_path / "A.txt", lines[:3]),
        write_lines(tmp_path / "B.txt", lines[3:6]),
    )


def solved_correctly(instances: Path, answers: Path) -> bool:
    from sudosat.sudoku.board import Board, check_solution

    pairs = zip(instances.read_text().splitlines(), answers.read_text().splitlines(), strict=True)
    return all(check_solution(Board.parse(a), Board.parse(b)) is None for a, b in pairs)


def test_fault3_resume_against_another_input_keeps_nothing(tmp_path, capsys, two_files):
    a, b = two_files
    results = tmp_path / "AB.csv"
    run_batch(a, tmp_path / "a.txt", results=results, progress=False)
    code, out, err = run_cli(
        capsys, "solve", b, "-o", tmp_path / "b.txt", "--results", results, "--resume",
        "--no-progress",
    )
    assert code == 0, err
    assert "3 rows of the earlier run did not match" in out
    assert solved_correctly(b, tmp_path / "b.txt")


def test_fault3_resume_with_other_parameters_solves_again(tmp_path, two_files):
    a, _ = two_files
    results = tmp_path / "r.csv"
    run_batch(a, tmp_path / "a.txt", results=results, time_limit_ms=60_000, progress=False)
    summary = run_batch(
        a, tmp_path / "a.txt", results=results, time_limit_ms=30_000, resume=True, progress=False
    )
    assert (summary.resumed, summary.new_rows, summary.discarded) == (0, 3, 3)


def tamper(results: Path, line: int, column: str, value: str) -> None:
    import csv

    rows = list(csv.DictReader(results.open()))
    rows[line - 1][column] = value
    with results.open("w", newline="") as stream:
        writer = csv.DictWriter(stream, list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def test_fault3_a_tampered_sat_row_is_solved_again(tmp_path, two_files):
    a, _ = two_files
    results = tmp_path / "r.csv"
    run_batch(a, tmp_path / "a.txt", results=results, progress=False)
    good = (tmp_path / "a.txt").read_text().splitlines()[1]
    broken = good[:2] + ("1" if good[2] != "1" else "2") + good[3:]  # one cell changed
    tamper(results, 2, "output", broken)
    summary = run_batch(a, tmp_path / "a.txt", results=results, resume=True, progress=False)
    assert (summary.resumed, summary.new_rows) == (2, 1)
    assert (tmp_path / "a.txt").read_text().splitlines()[1] == good
    assert solved_correctly(a, tmp_path / "a.txt")


@pytest.mark.parametrize("damage", ["bad-utf8", "huge-field", "nul"])
def test_fault3_unreadable_rows_are_solved_again(tmp_path, capsys, two_files, damage):
    a, _ = two_files
    results = tmp_path / "r.csv"
    run_batch(a, tmp_path / "a.txt", results=results, progress=False)
    header, first, second, third = results.read_bytes().split(b"\n")[:4]
    if damage == "bad-utf8":
        second = second.replace(b",SAT,", b",S\xff\xfeT,")
    elif damage == "huge-field":
        second = second.replace(b",SAT,", b",SAT," + b"x" * 200_000 + b",")
    else:
        second = second.replace(b",SAT,", b",S\x00T,")
    results.write_bytes(b"\n".join([header, first, second, third, b""]))
    code, out, err = run_cli(
        capsys, "solve", a, "-o", tmp_path / "a.txt", "--results", results, "--resume",
        "--no-progress",
    )
    assert code == 0 and err == "", err
    assert "(2 rows kept from the earlier run)" in out
    assert solved_correctly(a, tmp_path / "a.txt")
    assert b"xxxxx" not in results.read_bytes() and b"\xff" not in results.read_bytes()


# ---------------------------------------------------------------------------------------
# 4. every output path is checked before solving


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["--results", "{input}"], "the results table would overwrite the instance file"),
        (["-o", "{input}"], "the output of cdcl would overwrite the instance file"),
        (["-o", "{tmp}/x.csv", "--results", "{tmp}/x.csv"],
         "the results table would overwrite the output of cdcl"),
        (["-o", "{tmp}/o.txt", "--results", "{tmp}"],
         "is a folder, not a file that can be written"),
        (["-o", "{tmp}/" + "n" * 256], "the file name is 256 bytes long; the limit here is 255"),
        (["-o", "{tmp}/" + "n" * 250], "the file name is 262 bytes long; the limit here is 255"),
    ],
    ids=["results-is-input", "output-is-input", "output-is-results", "results-is-folder",
         "name-too-long", "default-results-too-long"],
)
def test_fault4_bad_output_paths_are_refused_before_solving(
    tmp_path, capsys, monkeypatch, one_line, args, reason
):
    import sudosat.run.batch as batch

    def no_solving(*_args, **_kwargs):
        raise AssertionError("a line was solved before the paths were checked")

    monkeypatch.setattr(batch, "_execute", no_solving)
    before = one_line.read_text()
    argv = [arg.format(input=one_line, tmp=tmp_path) for arg in args]
    code, _, err = run_cli(capsys, "solve", one_line, *argv)
    assert code == 1
    (line,) = error_lines(err)
    assert line.startswith("sudosat: ") and line.endswith(reason), line
    assert one_line.read_text() == before


def run_as_nobody(argv: list[str], cwd: Path) -> tuple[int, str]:
    """Run ``sudosat argv`` in a forked child whose effective user is 'nobody'.

    Forking keeps every module this process imported (the interpreter itself
    may sit where 'nobody' cannot read); the child only changes its identity.
    Returns the exit code and what the child printed.
    """
    import tqdm.auto  # noqa: F401

    import sudosat.run.batch  # noqa: F401 (imported here, before the child drops root)

    capture = tempfile.TemporaryFile()  # noqa: SIM115 (shared with the child, closed below)
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 99
        try:
            sys.stdout = sys.stderr = open(capture.fileno(), "w", closefd=False)  # noqa: SIM115
            os.chdir(cwd)
            os.setegid(65534)
            os.seteuid(65534)
            code = main(argv)
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    with capture:
        capture.seek(0)
        return os.waitstatus_to_exitcode(status), capture.read().decode()


@pytest.fixture
def readonly_folder() -> Path:
    """A folder user 'nobody' can read but not write, with one instance file."""
    if os.geteuid() != 0:
        pytest.skip("needs root to become user nobody")
    base = Path(tempfile.mkdtemp(prefix="sudosat-ro-"))
    os.chmod(base, 0o755)
    write_lines(base / "i.txt", [COURSE_EXAMPLE])
    os.chmod(base / "i.txt", 0o644)
    yield base
    shutil.rmtree(base)


def test_fault4_readonly_default_folder_is_one_line(readonly_folder):
    code, printed = run_as_nobody(["solve", "i.txt"], readonly_folder)
    assert code == 1
    assert printed.splitlines() == [
        f"sudosat: i.cdcl.txt: cannot write in the folder {readonly_folder}: Permission denied"
    ]
    assert sorted(p.name for p in readonly_folder.iterdir()) == ["i.txt"]


def test_fault4_unwritable_output_is_reported_before_solving(readonly_folder):
    elsewhere = Path(tempfile.mkdtemp(prefix="sudosat-rw-"))
    os.chmod(elsewhere, 0o777)
    try:
        code, printed = run_as_nobody(
            ["solve", "i.txt", "-o", "o.txt", "--results", str(elsewhere / "r.csv")],
            readonly_folder,
        )
        assert code == 1
        assert printed.splitlines() == [
            f"sudosat: o.txt: cannot write in the folder {readonly_folder}: Permission denied"
        ]
        assert list(elsewhere.iterdir()) == []  # refused before the results table was begun
    finally:
        shutil.rmtree(elsewhere)


# ---------------------------------------------------------------------------------------
# 6. one run per results file


def test_fault6_second_run_on_a_results_file_is_refused(tmp_path, capsys, one_line):
    results = tmp_path / "r.csv"
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; from sudosat.outputs import ResultsLock\n"
         f"with ResultsLock({str(results)!r}):\n"
         "    print('locked', flush=True); time.sleep(60)"],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert holder.stdout.readline() == "locked\n"
        code, _, err = run_cli(capsys, "solve", one_line, "-o", tmp_path / "o.txt",
                               "--results", results)
    finally:
        holder.kill()
        holder.wait()
    assert code == 1
    assert error_lines(err) == [
        f"sudosat: {results}: in use by another run (PID {holder.pid}); wait for it to finish "
        "or choose another --results"
    ]
    assert not (tmp_path / "o.txt").exists()
    code, _, err = run_cli(capsys, "solve", one_line, "-o", tmp_path / "o.txt",
                           "--results", results, "--no-progress")
    assert code == 0, err  # the lock died with its holder


def test_fault6_lock_follows_the_atomic_rewrites(tmp_path):
    from sudosat.outputs import ResultsInUse, ResultsLock
    from sudosat.run.results import write_table

    path = tmp_path / "r.csv"
    with ResultsLock(path) as lock:
        write_table(path, [{"line": 1}], ["line"], lock=lock)
        write_table(path, [{"line": 2}], ["line"], lock=lock)
        with pytest.raises(ResultsInUse, match=f"PID {os.getpid()}"):
            ResultsLock(path).acquire()
    with ResultsLock(path):
        pass
    assert path.read_text() == "line\n2\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv"]


# ---------------------------------------------------------------------------------------
# 5. no child outlives us, however we are stopped

SLOW_SOLVER = """\
import subprocess, sys, time
text = open(sys.argv[-1]).read()
if text.startswith("p cnf 1 1\\n"):  # the availability probe: answer at once
    print("s SATISFIABLE\\nv 1 0")
    sys.exit(10)
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])  # a grandchild
time.sleep(600)
"""


def slow_solver(folder: Path) -> Path:
    """A program that takes its own children and never answers a real formula."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "slow-solver"
    path.write_text(f"#!{sys.executable}\n{SLOW_SOLVER}")
    path.chmod(0o755)
    return path


def descendants_when_busy(process: subprocess.Popen, programs: int) -> list:
    """Every descendant of `process`, once `programs` slow solvers and their children run."""
    parent = psutil.Process(process.pid)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        family = parent.children(recursive=True)
        sleepers = [
            p for p in family if _cmdline_has(p, "time.sleep(600)") or _cmdline_has(p, "slow-")
        ]
        if len(sleepers) >= programs:
            return family
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    raise AssertionError("the slow solvers never started")


def _cmdline_has(process, text: str) -> bool:
    try:
        return any(text in part for part in process.cmdline())
    except Exception:  # it ended while we looked
        return False


def assert_all_gone(family: list, patience_s: float = 2.0) -> None:
    deadline = time.monotonic() + patience_s
    while True:
        alive = []
        for member in family:
            try:
                if member.is_running() and member.status() != psutil.STATUS_ZOMBIE:
                    alive.append(member)
            except psutil.NoSuchProcess:
                pass
        if not alive or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    assert not alive, [(p.pid, _safe_cmdline(p)) for p in alive]


def _safe_cmdline(process) -> str:
    try:
        return " ".join(process.cmdline())[:120]
    except Exception:
        return "?"


def start_cli(argv: list[str], tmp_path: Path) -> tuple[subprocess.Popen, Path]:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(scratch)}
    process = subprocess.Popen(
        [sys.executable, "-m", "sudosat", *argv], cwd=tmp_path, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    return process, scratch


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT],
                         ids=["SIGKILL", "SIGTERM", "SIGINT"])
def test_fault5_killed_solve_j2_leaves_no_child_and_no_temp_folder(tmp_path, sig):
    program = slow_solver(tmp_path / "bin")
    instances = write_lines(tmp_path / "in.txt", [COURSE_EXAMPLE] * 4)
    process, scratch = start_cli(
        ["solve", str(instances), "-o", "out.txt", "-j", "2", "--no-progress",
         "--solver", f"exec:{program}"],
        tmp_path,
    )
    try:
        family = descendants_when_busy(process, programs=4)  # 2 solvers + 2 grandchildren
        process.send_signal(sig)
        process.wait(timeout=30)
        assert_all_gone(family)
    finally:
        process.kill()
        process.wait()
    assert list(scratch.iterdir()) == []
    if sig != signal.SIGKILL:
        assert "internal error" not in process.stderr.read()


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT],
                         ids=["SIGKILL", "SIGTERM", "SIGINT"])
def test_fault5_killed_sat_with_exec_leaves_no_solver(tmp_path, sig):
    program = slow_solver(tmp_path / "bin")
    (tmp_path / "f.cnf").write_text("p cnf 2 2\n1 2 0\n-1 2 0\n")
    process, scratch = start_cli(["sat", "f.cnf", "--solver", f"exec:{program}"], tmp_path)
    out_of_reach = []
    try:
        family = descendants_when_busy(process, programs=2)  # the solver and its grandchild
        if sig == signal.SIGKILL:
            # SIGKILL runs nothing of ours: the kernel kills the program itself (its
            # parent-death signal); its own children are out of our reach then. They are
            # told by their parent, not their command line: a child just forked still shows
            # the program's command line until it starts its own (a flake, 2026-11-25).
            programs = {child.pid for child in psutil.Process(process.pid).children()}
            out_of_reach = [p for p in family if p.pid not in programs]
            family = [p for p in family if p not in out_of_reach]
        process.send_signal(sig)
        process.wait(timeout=30)
        assert_all_gone(family)
    finally:
        process.kill()
        process.wait()
        for grandchild in out_of_reach:  # the test's own leftovers, by pid
            with contextlib.suppress(Exception):
                grandchild.kill()
    assert list(scratch.iterdir()) == []


def test_fault5_killed_sat_with_real_minisat_leaves_none(tmp_path):
    minisat = shutil.which("minisat")
    if minisat is None:
        pytest.skip("minisat is not on PATH (apt-get install -y minisat)")
    from sudosat.sat.formulas import pigeonhole

    pigeonhole(12, 11).write_dimacs(tmp_path / "php.cnf")
    for sig in (signal.SIGTERM, signal.SIGKILL):
        process, scratch = start_cli(["sat", "php.cnf", "--solver", "exec:minisat"], tmp_path)
        try:
            family = descendants_when_busy_named(process, "minisat")
            process.send_signal(sig)
            process.wait(timeout=30)
            assert_all_gone(family)
        finally:
            process.kill()
            process.wait()
        assert list(scratch.iterdir()) == []
        shutil.rmtree(scratch)


def descendants_when_busy_named(process: subprocess.Popen, name: str) -> list:
    parent = psutil.Process(process.pid)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        family = parent.children(recursive=True)
        if any(_name(p) == name for p in family):
            return family
        assert process.poll() is None, process.communicate()
        time.sleep(0.02)
    raise AssertionError(f"{name} never started")


def _name(process) -> str:
    try:
        return process.name()
    except Exception:
        return ""


# ---------------------------------------------------------------------------------------
# 7. T bounds the pipeline for big boards too


def empty_board_file(folder: Path, order: int) -> Path:
    from sudosat.sudoku.board import Board

    return write_lines(folder / f"empty{order}.txt", [Board.empty(order).to_line()])


def test_fault7_order7_at_300ms_times_out_within_the_limit(tmp_path, capsys):
    instances = empty_board_file(tmp_path, 7)
    with cpu_spent() as spent:
        code, out, err = run_cli(capsys, "solve", instances, "-o", tmp_path / "o.txt", "-T",
                                 "300", "--no-progress")
    assert code == 0, err
    assert (tmp_path / "o.txt").read_text() == "7 TIMEOUT\n"
    import csv

    (row,) = csv.DictReader((tmp_path / "o.results.csv").open())
    # The encoder looks at the deadline before each at-most-one group: 11.3 million clauses
    # are never all built. The row's total_ms is wall time, which a busy machine stretches;
    # the promise is held on the CPU the whole command used, reading included
    # (tests/clock.py).
    assert row["status"] == "TIMEOUT" and row["error"] == "the time limit ran out while encoding"
    assert spent.seconds < late_by_at_most(300), spent


def test_fault7_encoding_stops_at_the_deadline(tmp_path):
    from sudosat.run.pipeline import solve_instance
    from sudosat.sudoku.board import Board

    with cpu_spent() as spent:
        outcome = solve_instance(Board.empty(6), "cdcl", "course", 250)
    assert outcome.status == "TIMEOUT", outcome.row["error"]
    assert outcome.row["error"] == "the time limit ran out while encoding"
    assert spent.seconds < late_by_at_most(250), spent


def test_fault7_encode_check_hook_stops_the_build():
    from sudosat.sudoku.board import Board
    from sudosat.sudoku.encoding import clear_rules_cache, encode

    clear_rules_cache()  # rules cached by an earlier test in this worker would skip the build
    calls = []

    def stop_after_ten():
        calls.append(1)
        if len(calls) > 10:
            raise TimeoutError

    with pytest.raises(TimeoutError):
        encode(Board.empty(4), "course", check=stop_after_ten)
    assert len(calls) == 11
    full = encode(Board.empty(3), "course", check=lambda: None)
    assert full.cnf.flat == encode(Board.empty(3), "course").cnf.flat


class LooksOnce:
    """A deadline that passes once it has been looked at `looks` times: counted work."""

    def __init__(self, looks: int) -> None:
        self.looks, self.left = 0, looks

    def expired(self) -> bool:
        self.looks += 1
        return self.looks > self.left


def test_fault7_writing_cnf_stops_within_one_slice_of_the_deadline():
    """Counted work, the same on any machine: past the deadline, not one more slice is made."""
    import io

    from sudosat.sat.solvers.adapter import write_dimacs
    from sudosat.sudoku.board import Board
    from sudosat.sudoku.encoding import encode

    cnf = encode(Board.empty(5), "course").cnf  # 750,625 clauses, 11 MB of text
    for slices in (0, 1, 2):
        stream = io.BytesIO()
        assert not write_dimacs(cnf, stream, LooksOnce(slices))
        written = stream.getvalue().decode().splitlines()
        # the header, then `slices` slices of about 65,536 literals (3 a clause here)
        assert len(written) <= (1 + slices * (65_536 // 3 + 1) if slices else 0), slices


def test_fault7_writing_cnf_for_an_external_solver_stops_at_the_deadline():
    """Writing (and range-checking) all of order 5 takes about a second of CPU; at T = 10 ms
    and 100 ms the call stops within T + max(10 % of T, 100 ms) of CPU (tests/clock.py):
    the work before the first look at the clock is one slice, never the whole formula."""
    from sudosat.sat.result import Status, Stop
    from sudosat.sat.solvers.budget import Deadline
    from sudosat.sat.solvers.competition import solve_exec
    from sudosat.sudoku.board import Board
    from sudosat.sudoku.encoding import encode

    if shutil.which("minisat") is None:
        pytest.skip("minisat is not on PATH (apt-get install -y minisat)")
    cnf = encode(Board.empty(5), "course").cnf
    for limit in (10, 100):
        with cpu_spent() as spent:
            result = solve_exec(cnf, program="minisat", deadline=Deadline(limit))
        assert result.status is Status.UNKNOWN and result.stop is Stop.TIME
        assert spent.seconds < late_by_at_most(limit), (limit, spent)


def test_fault7_written_cnf_is_the_strict_text():
    import io

    from sudosat.errors import DimacsError
    from sudosat.sat.cnf import CNF
    from sudosat.sat.solvers.adapter import write_dimacs
    from sudosat.sat.solvers.budget import Deadline
    from sudosat.sat.solvers.zchaff import strict_dimacs
    from sudosat.sudoku.board import Board
    from sudosat.sudoku.encoding import encode

    for cnf in (encode(Board.empty(4), "course").cnf, CNF([[1, -2], [2]], 2)):
        stream = io.BytesIO()
        assert write_dimacs(cnf, stream, Deadline(None))
        assert stream.getvalue().decode() == strict_dimacs(cnf)
    with pytest.raises(DimacsError, match="literal 3 is beyond"):
        write_dimacs(CNF.from_flat([1, 3, 0], 2), io.BytesIO(), Deadline(None))


def test_fault5_pysat_worker_dies_with_its_parent(tmp_path):
    script = (
        "from sudosat.sat.formulas import pigeonhole\n"
        "from sudosat.sat.solvers.pysat import solve_pysat\n"
        "solve_pysat(pigeonhole(14, 13), backend='minisat22', worker=True)\n"
    )
    process = subprocess.Popen([sys.executable, "-c", script],
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        parent = psutil.Process(process.pid)
        deadline = time.monotonic() + 30
        while not parent.children() and time.monotonic() < deadline:
            assert process.poll() is None
            time.sleep(0.02)
        family = parent.children(recursive=True)
        assert family, "the pysat worker never started"
        process.kill()
        process.wait(timeout=30)
        assert_all_gone(family)
    finally:
        process.kill()
        process.wait()


def test_fault5_tracked_groups_are_killed_on_the_way_out():
    from sudosat.process import kill_tracked_groups, track_group, untrack_group

    sleeper = subprocess.Popen(["sleep", "600"], start_new_session=True)
    track_group(sleeper.pid)
    try:
        kill_tracked_groups()  # what the atexit hook and the SIGTERM handler call
        assert sleeper.wait(timeout=10) == -signal.SIGKILL
    finally:
        untrack_group(sleeper.pid)
        sleeper.kill()
        sleeper.wait()


def test_fault5_parent_death_signal_is_set():
    if not sys.platform.startswith("linux"):
        pytest.skip("PR_SET_PDEATHSIG is Linux's")
    code = (
        "import ctypes, signal, sys\n"
        "from sudosat.process import die_with_parent\n"
        "assert die_with_parent(signal.SIGTERM)\n"
        "value = ctypes.c_int()\n"
        "ctypes.CDLL(None).prctl(2, ctypes.byref(value), 0, 0, 0)\n"  # PR_GET_PDEATHSIG
        "print(value.value)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
    assert done.stdout.strip() == str(int(signal.SIGTERM))
