"""The path to a solver program is as lean as we can make it, and its own CPU time is known.

A race with a program (zChaff, ``exec:``) is fair only when what our side spends around the
program is small and measured apart: the formula's text is made once per rule template (a
board's formula writes only its givens as new text), the program is started without running
any of our code in the child (``vfork``), and the program's own CPU time comes from the
operating system as it is reaped (``process_cpu_ms``). These tests check how the work is
done, not how long it takes (that depends on the machine).
"""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from sudosat import process
from sudosat.process import run_program
from sudosat.sat import cnf as cnf_module
from sudosat.sat.cnf import CNF
from sudosat.sat.solvers.adapter import write_dimacs
from sudosat.sat.solvers.budget import Clock, Deadline
from sudosat.sudoku.board import COURSE_EXAMPLE, Board
from sudosat.sudoku.encoding import encode


def test_a_programs_own_cpu_time_comes_back_with_its_output(tmp_path):
    burn = "import time\nend = time.process_time() + 0.15\nwhile time.process_time() < end: pass"
    run = run_program([sys.executable, "-c", burn], tmp_path, Deadline(60_000), "python")
    assert run.exit_code == 0
    assert run.cpu_ms is not None and run.cpu_ms >= 150


def test_a_sleeping_program_uses_next_to_no_cpu(tmp_path):
    run = run_program([sys.executable, "-c", "import time; time.sleep(0.3)"], tmp_path,
                      Deadline(60_000), "python")
    assert run.cpu_ms is not None and run.wall_ms >= 300
    assert run.cpu_ms < run.wall_ms - 150  # CPU, not wall: the sleep is not in it


def test_a_killed_program_still_reports_its_cpu_time(tmp_path):
    spin = "while True: pass"
    run = run_program([sys.executable, "-c", spin], tmp_path, Deadline(400), "python")
    assert run.timed_out and run.cpu_ms is not None and run.cpu_ms > 0


def _popen_options(monkeypatch) -> list[dict]:
    seen: list[dict] = []
    real = subprocess.Popen

    def spy(*args, **options):
        seen.append(options)
        return real(*args, **options)

    monkeypatch.setattr(process.subprocess, "Popen", spy)
    return seen


def test_under_a_wall_clock_deadline_no_code_of_ours_runs_in_the_child(monkeypatch, tmp_path):
    """No ``preexec_fn``: subprocess may then start the program with vfork, copying nothing."""
    seen = _popen_options(monkeypatch)
    run = run_program(["/bin/true"], tmp_path, Deadline(60_000), "true")
    assert run.exit_code == 0
    program = [options for options in seen if options.get("stdout") is not subprocess.DEVNULL]
    assert program and all(options.get("preexec_fn") is None for options in program)
    assert all(options.get("start_new_session") for options in program)  # still a group


def test_under_a_cpu_deadline_the_child_caps_its_cpu_first(monkeypatch, tmp_path):
    seen = _popen_options(monkeypatch)
    run = run_program(["/bin/true"], tmp_path, Deadline(60_000, clock=Clock.CPU), "true")
    assert run.exit_code == 0
    program = [options for options in seen if options.get("stdout") is not subprocess.DEVNULL]
    assert program and all(options.get("preexec_fn") is not None for options in program)


def _written(cnf: CNF, max_line: int | None = None) -> str:
    stream = io.BytesIO()
    assert write_dimacs(cnf, stream, Deadline(None), max_line=max_line)
    return stream.getvalue().decode("ascii")


def test_a_boards_formula_is_written_as_before_and_its_rules_become_text_once(monkeypatch):
    first = encode(Board.parse(COURSE_EXAMPLE), "course").cnf
    assert _written(first) == first.to_dimacs(comments=[])  # strict: no comment lines
    second = encode(Board.parse("3 " + "0" * 80 + "5"), "course").cnf
    expected = second.to_dimacs(comments=[])
    rendered: list[int] = []
    real = cnf_module._dimacs_chunks

    def counting(flat, literals=4 * cnf_module._CHUNK_CLAUSES, within=None, start=0,
                 stop_at=None):
        rendered.append((len(flat) if stop_at is None else stop_at) - start)
        return real(flat, literals, within, start, stop_at)

    monkeypatch.setattr(cnf_module, "_dimacs_chunks", counting)
    assert _written(second, max_line=60_000) == expected
    # Only the givens were turned into text: one unit clause, its literal and its 0.
    assert rendered == [2]


class LooksOnce:
    """A deadline that has expired from its `looks` + 1-th look on (the writer looks once
    before its header, then before each slice)."""

    def __init__(self, looks: int) -> None:
        self.left = looks

    def expired(self) -> bool:
        self.left -= 1
        return self.left < 0


def test_the_kept_text_is_given_a_slice_at_a_time_and_a_stopped_write_keeps_none():
    """A writer under a deadline looks at it between slices: with the rules' text kept, a
    slice is still one slice of the formula, and a write stopped part-way keeps no text."""
    from sudosat.sudoku.encoding import clear_rules_cache

    clear_rules_cache()
    board = Board.parse("4 " + "0" * 255 + "1")
    first = encode(board, "course").cnf  # 16x16: about 114,000 literals, two slices and more
    stream = io.BytesIO()
    assert not write_dimacs(first, stream, LooksOnce(1))  # stopped after one slice
    assert first._shared is not None and first._shared.text is None  # nothing half kept
    whole = _written(first)
    assert first._shared.text is not None and len(first._shared.text.ends) > 1
    again = encode(board, "course").cnf
    header = len(f"p cnf {again.num_vars} {again.num_clauses}\n")
    for slices in (1, 2):  # slices written before the deadline is seen to have passed
        stream = io.BytesIO()
        assert not write_dimacs(again, stream, LooksOnce(1 + slices))
        written = stream.getvalue()
        assert written == whole.encode("ascii")[: len(written)]
        assert len(written) == header + first._shared.text.ends[slices - 1]
    assert _written(again) == whole


def test_the_kept_text_is_not_used_for_a_formula_whose_prefix_differs():
    rules = CNF([[1, 2], [-1, -2]])
    copy = rules.copy()
    copy.add_clause([1])
    assert _written(copy) == copy.to_dimacs()
    changed = rules.copy()
    changed.flat[0] = -1  # against the contract: the kept text must not speak for it
    assert _written(changed) == changed.to_dimacs()
    assert _written(rules) == rules.to_dimacs()


def test_a_timed_run_warms_every_solver_up_on_each_orders_first_board_first(tmp_path):
    """One-time costs (an order's rule template, the first write and check of its clauses) are
    paid before the race, in no row, and the pages say so and what the templates cost."""
    from sudosat.report import run

    instances = tmp_path / "in.txt"
    instances.write_text(f"{COURSE_EXAMPLE}\n2 1000002000300004\n{COURSE_EXAMPLE}\n")
    run.run_timed_experiment(instances, 20_000, ["cdcl", "dpll"], "course", tmp_path / "out")
    manifest = run.read_manifest(tmp_path / "out" / "results.csv")
    assert [(w["order"], w["line"]) for w in manifest["warm_up"]] == [(2, 2), (3, 1)]
    said = run.template_words(manifest)
    assert said.startswith("Before the run every solver solved the first board of each order")
    assert "at order 2 and" in said and "at order 3)" in said
    assert "warm-up" in run.machine_and_method(manifest)[1]
    workers = run.template_words({**manifest, "warm_up": [], "jobs": 2})
    assert workers.startswith("There is no warm-up with several workers")
    older = run.template_words({})
    assert "the row of the solver that ran it first carries that cost" in older


@pytest.mark.parametrize(("core", "said"), [
    ("compiled", "Our `cdcl` ran its compiled core"),
    ("python", "Our `cdcl` ran its pure-Python core"),
    ("", None),
])
def test_the_machine_paragraph_names_the_cdcl_core_that_ran(core, said):
    from sudosat.report import run

    manifest = {"machine": {"cores": 2, "cdcl_core": core} if core else {"cores": 2}}
    machine, _ = run.machine_and_method(manifest)
    if said is None:
        assert "core" not in machine.replace("cores", "")
    else:
        assert said in machine


def test_a_run_records_the_cdcl_core_of_this_machine(monkeypatch):
    from sudosat.report import run
    from sudosat.sat.solvers.cdcl.cores import CORE_VARIABLE, compiled_built

    monkeypatch.delenv(CORE_VARIABLE, raising=False)
    assert run.machine_facts()["cdcl_core"] == ("compiled" if compiled_built() else "python")
    monkeypatch.setenv(CORE_VARIABLE, "python")
    assert run.machine_facts()["cdcl_core"] == "python"
