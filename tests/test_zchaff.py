"""zChaff: the output parser on every real transcript, the strict writer, finding the
binary, the whole wrapper against a fake zChaff, and the real binary when ZCHAFF is set."""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
import warnings
from pathlib import Path

import pytest

from sudosat import process
from sudosat.errors import DimacsError, ResourceLimitError, SolverError, SolverNotFoundError
from sudosat.sat.cnf import CNF, parse_dimacs, read_dimacs
from sudosat.sat.formulas import pigeonhole
from sudosat.sat.result import Status, Stop
from sudosat.sat.solvers import availability, solve
from sudosat.sat.solvers.adapter import whole_seconds
from sudosat.sat.solvers.budget import Deadline
from sudosat.sat.solvers.zchaff import (
    HOW_TO_PROVIDE_ZCHAFF,
    ZCHAFF_MAX_LINE,
    find_zchaff,
    parse_zchaff_output,
    solve_zchaff,
    strict_dimacs,
)
from tests.clock import WAIT_MARGIN_S, cpu_spent, late_by_at_most
from tests.conftest import COURSE_SOLUTION
from tests.fake_solvers.support import (
    TRANSCRIPTS,
    alive,
    group_members,
    live_children,
    make_launcher,
    random_formulas,
)


def transcript(name: str) -> tuple[str, str, int]:
    """A transcript's stdout, stderr and exit code, byte-exact ('\\r' kept)."""
    folder = TRANSCRIPTS / name
    return (
        (folder / "stdout").read_bytes().decode(),
        (folder / "stderr").read_bytes().decode(),
        int((folder / "exit_code").read_text()),
    )


def quiet_read(path: Path) -> CNF:
    """Read a transcript's input, which may lie about its clause count (a warning)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return read_dimacs(path)


def decode_course(model: list[int]) -> str:
    """The 9x9 board a course-encoding model describes (variable i*81 + j*9 + d)."""
    cells = ["0"] * 81
    for lit in model:
        if lit > 0:
            cell, digit = divmod(lit - 1, 9)
            cells[cell] = str(digit + 1)
    return "".join(cells)


# --------------------------------------------------------------------------------------
# The parser on every transcript

SAT_MODELS = {
    "sat_tiny": (3, [1, 2, 3]),
    "multiline": (3, [-1, -2, 3]),
    "notrailing0_last": (2, [-1, 2]),
    "satlib_percent": (2, [-1, 2]),
    "unused_vars": (5, [1, 2, 3, 4, 5]),
    "zero_vars": (0, []),
    "empty_clause": (1, [1]),  # what zChaff says; the wrapper never asks it (see below)
}
OTHER_ANSWERS = {
    "unsat_tiny": (2, Status.UNSAT, {"decisions": 1, "conflicts": 1, "propagations": 4}),
    "sudoku9_bad": (
        729,
        Status.UNSAT,
        {"decisions": 0, "propagations": 38, "search_cpu_ms": pytest.approx(0.116)},
    ),
    "timeout_php12_limit2": (
        156,
        Status.UNKNOWN,
        {"decisions": 25777, "conflicts": 24965, "propagations": 619642,
         "search_cpu_ms": pytest.approx(2000.18)},
    ),
}
FAILURES = {
    "missing_file": "cannot open its input file (exit code 1): Can't open input file",
    "bad_pline": "cannot read the 'p cnf' header (exit code 3)",
    "var_out_of_range": "aborted on an assertion",
    "no_pline": "aborted on an assertion",
}


def test_every_transcript_is_described_here():
    folders = {path.name for path in TRANSCRIPTS.iterdir() if path.is_dir()}
    described = {*SAT_MODELS, *OTHER_ANSWERS, *FAILURES, "sudoku9"}
    assert folders == described


@pytest.mark.parametrize("name", sorted(SAT_MODELS))
def test_sat_transcripts_give_their_model(name):
    num_vars, model = SAT_MODELS[name]
    result = parse_zchaff_output(*transcript(name), num_vars)
    assert result.status is Status.SAT
    assert result.model == model
    assert result.stats["original_variables"] == num_vars


@pytest.mark.parametrize(
    "name", ["sat_tiny", "multiline", "notrailing0_last", "satlib_percent", "unused_vars"]
)
def test_sat_transcript_models_satisfy_their_input(name):
    cnf = quiet_read(TRANSCRIPTS / name / "input.cnf")
    result = parse_zchaff_output(*transcript(name), cnf.num_vars)
    assert cnf.is_satisfied_by(result.model)


def test_sat_tiny_statistics():
    stats = parse_zchaff_output(*transcript("sat_tiny"), 3).stats
    assert stats == {
        "random_seed": 0,
        "max_decision_level": 1,
        "decisions": 2,
        "decisions_stack": 0,
        "decisions_vsids": 1,
        "decisions_shrinking": 0,
        "original_variables": 3,
        "original_clauses": 2,
        "original_literals": 4,
        "conflicts": 0,
        "learnt": 0,
        "shrinkings": 0,
        "deleted_learnt": 0,
        "deleted_clauses": 0,
        "learnt_literals": 0,
        "deleted_literals": 0,
        "propagations": 3,
        "search_cpu_ms": pytest.approx(0.017),  # its "Total Run Time", CPU seconds, in ms
    }


def test_sudoku_transcript_is_the_course_solution():
    cnf = quiet_read(TRANSCRIPTS / "sudoku9" / "input.cnf")
    result = parse_zchaff_output(*transcript("sudoku9"), 729)
    assert result.status is Status.SAT and len(result.model) == 729
    cnf.check_model(result.model)
    assert decode_course(result.model) == COURSE_SOLUTION.split()[1]
    assert result.stats["decisions"] == 14 and result.stats["propagations"] == 927


@pytest.mark.parametrize("name", sorted(OTHER_ANSWERS))
def test_unsat_and_timeout_transcripts(name):
    num_vars, status, expected = OTHER_ANSWERS[name]
    result = parse_zchaff_output(*transcript(name), num_vars)
    assert result.status is status and result.model is None
    for key, value in expected.items():
        assert result.stats[key] == value


def test_timeout_transcript_keeps_its_carriage_returns():
    stdout = transcript("timeout_php12_limit2")[0]
    assert "\r" in stdout  # the progress reports; the parser must still find the statistics
    assert parse_zchaff_output(stdout, "", 0, 156).stats["max_decision_level"] == 68


@pytest.mark.parametrize("name", sorted(FAILURES))
def test_failure_transcripts_raise_a_clear_error(name):
    with pytest.raises(SolverError, match="^zChaff ") as caught:
        parse_zchaff_output(*transcript(name), 2)
    assert FAILURES[name] in str(caught.value)


def test_an_assertion_abort_reported_as_a_signal_is_the_same_error():
    stdout, stderr, _ = transcript("var_out_of_range")
    with pytest.raises(SolverError, match="aborted on an assertion.*killed by signal SIGABRT") as e:
        parse_zchaff_output(stdout, stderr, -6, 2)
    assert "Assertion" in str(e.value)


def test_usage_exit_code_two():
    with pytest.raises(SolverError, match="command line or met a line of 65,536"):
        parse_zchaff_output("", "Usage: zchaff cnf_file [time_limit]\n", 2, 0)


@pytest.mark.parametrize("code, words", [(139, "exit code 139"), (-11, "SIGSEGV"), (7, "code 7")])
def test_other_exit_codes_are_errors(code, words):
    stdout, _, _ = transcript("sat_tiny")
    with pytest.raises(SolverError, match=words):
        parse_zchaff_output(stdout, "", code, 3)


# --------------------------------------------------------------------------------------
# The parser never trusts an exit code of 0


def test_garbage_with_exit_zero_is_an_error():
    with pytest.raises(SolverError, match="no RESULT line .is the program really zChaff"):
        parse_zchaff_output("s SATISFIABLE\nv 1 2 3 0\n", "", 0, 3)


def test_empty_output_with_exit_zero_is_an_error():
    with pytest.raises(SolverError, match="no RESULT line"):
        parse_zchaff_output("", "", 0, 3)


@pytest.mark.parametrize("name", ["sat_tiny", "unsat_tiny", "sudoku9_bad", "timeout_php12_limit2"])
def test_every_truncation_is_an_error_or_the_whole_answer(name):
    stdout, stderr, code = transcript(name)
    num_vars = {"sat_tiny": 3, "unsat_tiny": 2, "sudoku9_bad": 729, "timeout_php12_limit2": 156}
    whole = parse_zchaff_output(stdout, stderr, code, num_vars[name])
    for cut in range(len(stdout)):
        try:
            part = parse_zchaff_output(stdout[:cut], stderr, code, num_vars[name])
        except SolverError:
            continue
        # only cutting inside the last number of the RESULT line's tail may still parse
        assert (part.status, part.model) == (whole.status, whole.model), cut


def test_result_sat_without_model_line_is_an_error():
    stdout = transcript("sat_tiny")[0].replace("1 2 3 Random Seed Used", "Seed")
    with pytest.raises(SolverError, match="no model line"):
        parse_zchaff_output(stdout, "", 0, 3)


def test_model_with_a_missing_variable_is_an_error():
    stdout = transcript("sat_tiny")[0].replace("1 2 3 Random", "1 3 Random")
    with pytest.raises(SolverError, match="variables 1..3 one value each"):
        parse_zchaff_output(stdout, "", 0, 3)


def test_model_with_a_non_integer_is_an_error():
    stdout = transcript("sat_tiny")[0].replace("1 2 3 Random", "1 x 3 Random")
    with pytest.raises(SolverError, match="non-integer"):
        parse_zchaff_output(stdout, "", 0, 3)


def test_variable_count_mismatch_is_an_error():
    with pytest.raises(SolverError, match="read 3 variables where the formula has 4"):
        parse_zchaff_output(*transcript("sat_tiny"), 4)


def test_verdict_without_its_announcement_is_an_error():
    stdout = transcript("unsat_tiny")[0].replace("RESULT:\tUNSAT", "RESULT:\tSAT")
    with pytest.raises(SolverError, match="without 'Instance Satisfiable'"):
        parse_zchaff_output(stdout, "", 0, 2)


def test_result_line_must_be_last_and_single():
    stdout = transcript("sat_tiny")[0]
    with pytest.raises(SolverError, match="single last line"):
        parse_zchaff_output(stdout + "RESULT:\tSAT\n", "", 0, 3)
    with pytest.raises(SolverError, match="single last line"):
        parse_zchaff_output(stdout + "trailing words\n", "", 0, 3)


def test_unknown_verdict_and_memory_out():
    stdout = transcript("timeout_php12_limit2")[0]
    with pytest.raises(SolverError, match="unknown result 'MAYBE'"):
        parse_zchaff_output(stdout.replace("ABORT : TIME OUT", "MAYBE"), "", 0, 156)
    with pytest.raises(ResourceLimitError, match="zChaff ran out of memory"):
        parse_zchaff_output(stdout.replace("TIME OUT", "MEM OUT"), "", 0, 156)


# --------------------------------------------------------------------------------------
# Writing zChaff's input strictly


def test_strict_dimacs_drops_comments_and_counts_truly():
    cnf = CNF([[1, -2], [2, 3]], num_vars=5, comments=["  7 -1 0 indented numbers"])
    assert strict_dimacs(cnf, max_line=ZCHAFF_MAX_LINE) == "p cnf 5 2\n1 -2 0\n2 3 0\n"


def test_strict_dimacs_wraps_a_clause_too_long_for_one_line():
    long_clause = list(range(1, 20_001))
    cnf = CNF([long_clause, [-1, -2]], num_vars=20_000)
    text = strict_dimacs(cnf, max_line=ZCHAFF_MAX_LINE)
    assert max(len(line) for line in text.splitlines()) < ZCHAFF_MAX_LINE
    assert text.startswith("p cnf 20000 2\n") and text.endswith("\n-1 -2 0\n")
    assert parse_dimacs(text) == cnf


def test_strict_dimacs_refuses_an_empty_clause_and_a_literal_out_of_range():
    with pytest.raises(DimacsError, match="empty clause"):
        strict_dimacs(CNF([[1], []]))
    with pytest.raises(DimacsError, match="literal 3 is beyond the formula's 2 variables"):
        strict_dimacs(CNF.from_flat([1, 3, 0], num_vars=2))


# --------------------------------------------------------------------------------------
# Finding the binary


@pytest.fixture
def no_zchaff_around(monkeypatch, tmp_path):
    """No ZCHAFF variable and a PATH without zchaff."""
    monkeypatch.delenv("ZCHAFF", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))


def test_missing_zchaff_says_how_to_provide_it(no_zchaff_around):
    with pytest.raises(SolverNotFoundError) as caught:
        find_zchaff()
    message = str(caught.value)
    assert message == f"zChaff not found: {HOW_TO_PROVIDE_ZCHAFF}"
    assert "--zchaff PATH" in message and "ZCHAFF" in message and "PATH" in message


def test_missing_zchaff_in_solve_is_the_same_error(no_zchaff_around):
    with pytest.raises(SolverNotFoundError, match="zChaff not found"):
        solve_zchaff(CNF([[1]]))


def test_zchaff_found_explicitly_then_by_environment_then_on_path(monkeypatch, tmp_path):
    on_path = make_launcher(tmp_path / "bin", "zchaff")
    by_env = make_launcher(tmp_path / "env", "zchaff-2007")
    explicit = make_launcher(tmp_path / "explicit", "my-zchaff")
    monkeypatch.setenv("PATH", str(on_path.parent))
    monkeypatch.delenv("ZCHAFF", raising=False)
    assert find_zchaff() == str(on_path)
    monkeypatch.setenv("ZCHAFF", str(by_env))
    assert find_zchaff() == str(by_env)
    assert find_zchaff(str(explicit)) == str(explicit)
    monkeypatch.setenv("ZCHAFF", "zchaff")  # a bare name is looked up on PATH
    assert find_zchaff() == str(on_path)


def test_a_non_executable_zchaff_is_refused(tmp_path):
    plain = tmp_path / "zchaff"
    plain.write_text("#!/bin/sh\necho hello\n")
    plain.chmod(0o644)
    with pytest.raises(SolverNotFoundError, match="is not executable"):
        find_zchaff(str(plain))
    with pytest.raises(SolverNotFoundError, match="not a program but a directory"):
        find_zchaff(str(tmp_path))
    with pytest.raises(SolverNotFoundError, match="no such file"):
        find_zchaff(str(tmp_path / "nothing"))


def test_a_wrong_zchaff_variable_is_named(monkeypatch):
    monkeypatch.setenv("ZCHAFF", "/no/such/zchaff")
    with pytest.raises(SolverNotFoundError, match="ZCHAFF=/no/such/zchaff.*no such file"):
        find_zchaff()


# --------------------------------------------------------------------------------------
# The whole wrapper against a fake zChaff (a Python script replaying transcripts)


class FakeZchaff:
    """Configures the fake through the environment the wrapper's child inherits."""

    def __init__(self, folder: Path, monkeypatch):
        self.path = make_launcher(folder / "bin", "zchaff")
        self.log = folder / "log"
        self._monkeypatch = monkeypatch
        monkeypatch.setenv("FAKE_LOG", str(self.log))

    def act(self, mode: str, replay: str | Path | None = None) -> FakeZchaff:
        self._monkeypatch.setenv("FAKE_MODE", mode)
        if replay is not None:
            folder = replay if isinstance(replay, Path) else TRANSCRIPTS / replay
            self._monkeypatch.setenv("FAKE_DIR", str(folder))
        return self

    @property
    def argv(self) -> list[str]:
        return json.loads((self.log / "argv.json").read_text())

    def pid(self, name: str = "pid") -> int:
        return int((self.log / name).read_text())

    def solve(self, cnf: CNF, **options):
        return solve_zchaff(cnf, zchaff=str(self.path), **options)


@pytest.fixture
def fake(tmp_path, monkeypatch) -> FakeZchaff:
    return FakeZchaff(tmp_path, monkeypatch)


def private_temp(tmp_path, monkeypatch) -> Path:
    """An empty folder that the wrapper's temporary files go to (to see what is left there)."""
    folder = tmp_path / "private-temp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def assert_input_left_nothing(input_path: str, temp: Path) -> None:
    """The program read its input from an inherited, unnamed file: nothing stays on disk."""
    assert re.fullmatch(r"/dev/fd/\d+", input_path), input_path
    assert list(temp.iterdir()) == []


def test_wrapper_runs_zchaff_on_a_strict_private_copy(fake, tmp_path, monkeypatch):
    temp = private_temp(tmp_path, monkeypatch)
    cnf = CNF([[1, -2], [2, 3]], comments=["tiny satisfiable"])
    result = fake.act("replay", "sat_tiny").solve(cnf, deadline=Deadline(1500))
    assert result.status is Status.SAT and result.model == [1, 2, 3]
    assert result.solver == "zchaff" and result.elapsed_ms > 0
    assert result.stats["decisions"] == 2 and result.stats["process_wall_ms"] > 0
    input_path, seconds = fake.argv
    assert seconds == "2"  # ceil(1500 / 1000)
    assert (fake.log / "input.cnf").read_text() == "p cnf 3 2\n1 -2 0\n2 3 0\n"
    assert_input_left_nothing(input_path, temp)


@pytest.mark.parametrize(
    "limit, seconds", [(1000, ["1"]), (1500, ["2"]), (2500, ["3"]), (None, [])]
)
def test_zchaff_gets_whole_seconds_of_the_limit(fake, limit, seconds):
    fake.act("replay", "sat_tiny").solve(CNF([[1, -2], [2, 3]]), deadline=Deadline(limit))
    assert fake.argv[1:] == seconds


@pytest.mark.parametrize("limit, seconds", [(0, 1), (1, 1), (999, 1), (1000, 1), (1000.5, 2)])
def test_whole_seconds_are_never_zero(limit, seconds):
    assert whole_seconds(limit) == seconds


@pytest.mark.parametrize(
    "name",
    [
        "unsat_tiny",
        "sudoku9",
        "sudoku9_bad",
        "unused_vars",
        "multiline",
        "satlib_percent",
        "zero_vars",
    ],
)
def test_wrapper_answers_as_the_transcript(fake, name):
    cnf = quiet_read(TRANSCRIPTS / name / "input.cnf")
    expected = parse_zchaff_output(*transcript(name), cnf.num_vars)
    result = fake.act("replay", name).solve(cnf, deadline=Deadline(10_000))
    assert (result.status, result.model) == (expected.status, expected.model)


def test_wrapper_reports_zchaff_own_time_out_as_unknown(fake):
    cnf = quiet_read(TRANSCRIPTS / "timeout_php12_limit2" / "input.cnf")
    result = fake.act("replay", "timeout_php12_limit2").solve(cnf)
    assert result.status is Status.UNKNOWN and result.stop is Stop.TIME
    assert result.stats["search_cpu_ms"] == pytest.approx(2000.18)


def test_empty_clause_is_unsat_without_running_zchaff(fake):
    result = fake.act("replay", "empty_clause").solve(CNF([[1], []]))
    assert result.status is Status.UNSAT
    assert not fake.log.exists()  # zChaff (which would say SAT) never ran


def test_a_wrong_model_is_caught(fake, tmp_path):
    lying = tmp_path / "lying"
    lying.mkdir()
    stdout, stderr, _ = transcript("sat_tiny")
    (lying / "stdout").write_text(stdout.replace("1 2 3 Random", "-1 2 -3 Random"))
    (lying / "exit_code").write_text("0")
    with pytest.raises(SolverError, match="zChaff returned a wrong model: .*falsifies clause 1"):
        fake.act("replay", lying).solve(CNF([[1, -2], [2, 3]]))


@pytest.mark.parametrize(
    "name, words",
    [
        ("missing_file", "cannot open its input file"),
        ("var_out_of_range", "aborted on an assertion"),
    ],
)
def test_wrapper_maps_failures_to_solver_errors(fake, name, words):
    with pytest.raises(SolverError, match=words):
        fake.act("replay", name).solve(CNF([[1, 2], [-1]]))


def test_a_crashing_zchaff_is_a_clear_error(fake):
    with pytest.raises(SolverError, match="killed by signal SIGABRT"):
        fake.act("abort").solve(CNF([[1, 2]]))


def test_garbage_output_is_a_clear_error(fake, tmp_path, monkeypatch):
    temp = private_temp(tmp_path, monkeypatch)
    with pytest.raises(SolverError, match="printed no RESULT line"):
        fake.act("garbage").solve(CNF([[1, 2]]))
    assert_input_left_nothing(fake.argv[0], temp)


def test_a_non_executable_binary_is_a_clear_error(tmp_path):
    plain = tmp_path / "zchaff"
    plain.write_bytes(b"\x7fELF this is not really a program")
    plain.chmod(0o644)
    with pytest.raises(SolverNotFoundError, match="not executable"):
        solve_zchaff(CNF([[1]]), zchaff=str(plain))
    plain.chmod(0o755)  # executable, but the kernel cannot run it
    with pytest.raises(SolverError, match="cannot run .*Exec format error"):
        solve_zchaff(CNF([[1]]), zchaff=str(plain))


@pytest.mark.parametrize("mode", ["sleep", "spawn"])
def test_time_limit_kills_zchaff_and_its_children(fake, mode):
    before = live_children()
    started = time.monotonic()
    result = fake.act(mode).solve(pigeonhole(11, 10), deadline=Deadline(500))
    took = time.monotonic() - started
    assert result.status is Status.UNKNOWN and result.model is None
    # The fake sleeps, so only the wall clock shows the kill: T plus a busy machine's margin
    # to kill and reap a process group (tests/clock.py); a zChaff left running would take
    # its whole sleep (minutes).
    assert took < 0.5 + WAIT_MARGIN_S
    assert live_children() <= before
    assert not alive(fake.pid()) and not group_members(fake.pid())
    if mode == "spawn":
        assert not alive(fake.pid("child_pid"))


def test_a_grandchild_does_not_outlive_a_normal_exit(fake):
    result = fake.act("spawn-exit", "sat_tiny").solve(CNF([[1, -2], [2, 3]]))
    assert result.status is Status.SAT
    assert not alive(fake.pid("child_pid")) and not group_members(fake.pid())


def test_an_interrupted_call_kills_zchaff_and_leaves_no_file(fake, tmp_path, monkeypatch):
    temp = private_temp(tmp_path, monkeypatch)
    def interrupted(pid, timeout_ms):
        time.sleep(0.2)  # let the fake start and write its log
        raise KeyboardInterrupt

    monkeypatch.setattr(process, "_wait_for_exit", interrupted)
    with pytest.raises(KeyboardInterrupt):
        fake.act("spawn").solve(CNF([[1, 2]]), deadline=Deadline(5000))
    deadline = time.monotonic() + 5
    while not (fake.log / "child_pid").exists() and time.monotonic() < deadline:
        time.sleep(0.05)  # a slow machine may not have written it yet: it is dead anyway
    assert not alive(fake.pid()) and not group_members(fake.pid())
    assert_input_left_nothing(fake.argv[0], temp)


def test_registry_passes_the_zchaff_keyword(fake):
    program = str(fake.act("replay", "sat_tiny").path)
    result = solve(CNF([[1, -2], [2, 3]]), "zchaff", zchaff=program)
    assert result.status is Status.SAT and result.solver == "zchaff"


def test_availability_of_zchaff(fake, no_zchaff_around):
    assert availability("zchaff") == (False, f"zChaff not found: {HOW_TO_PROVIDE_ZCHAFF}")
    assert availability("zchaff", zchaff=str(fake.path)) == (True, "")


# --------------------------------------------------------------------------------------
# The real zChaff, when ZCHAFF names it

REAL_ZCHAFF = os.environ.get("ZCHAFF", "")
needs_real_zchaff = pytest.mark.skipif(
    not REAL_ZCHAFF, reason="set ZCHAFF to a real zChaff binary to run zChaff itself"
)


def reference_status(cnf: CNF) -> Status:
    """Our CDCL solver's answer."""
    return solve(cnf, "cdcl").status


@needs_real_zchaff
def test_real_zchaff_agrees_with_the_reference_on_random_formulas():
    for number, cnf in enumerate(random_formulas(200)):
        result = solve(cnf, "zchaff", time_limit_ms=30_000)  # solve() checks any model
        assert result.status is reference_status(cnf), f"formula {number}"


@needs_real_zchaff
def test_real_zchaff_solves_the_course_example():
    cnf = quiet_read(TRANSCRIPTS / "sudoku9" / "input.cnf")
    result = solve(cnf, "zchaff", time_limit_ms=30_000)
    assert result.status is Status.SAT is reference_status(cnf)
    assert decode_course(result.model) == COURSE_SOLUTION.split()[1]
    assert result.stats["decisions"] >= 1 and "search_cpu_ms" in result.stats


@needs_real_zchaff
def test_real_zchaff_finds_the_bad_sudoku_unsat():
    cnf = quiet_read(TRANSCRIPTS / "sudoku9_bad" / "input.cnf")
    assert solve(cnf, "zchaff").status is Status.UNSAT


@needs_real_zchaff
def test_real_zchaff_empty_clause_and_empty_formula():
    assert solve(CNF([[1, 2], []]), "zchaff").status is Status.UNSAT
    assert solve(CNF([], num_vars=3), "zchaff").model == [1, 2, 3]


@needs_real_zchaff
def test_real_zchaff_honours_the_time_limit():
    before = live_children()
    started = time.monotonic()
    with cpu_spent() as spent:
        result = solve(pigeonhole(11, 10), "zchaff", time_limit_ms=500)
    assert result.status is Status.UNKNOWN
    # zChaff burns CPU until killed: its CPU and ours within the promise (tests/clock.py),
    # and the wall clock within a busy machine's margin to kill and reap it.
    assert spent.seconds < late_by_at_most(500), spent
    assert time.monotonic() - started < 0.5 + WAIT_MARGIN_S
    assert live_children() <= before
