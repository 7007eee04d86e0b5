"""Formulas whose header declares far more variables than their clauses use.

A 65-clause formula declaring 2.88 million variables spent 55 s in cdcl's one-shot call,
which sized its tables by the header; ``--certify`` refused a correct proof once a variable
passed 1,048,576, the most dratify reads from so short a text. The tables are now sized by
the variables the clauses use, the model still lists every declared one, and a proof is
checked over the formula renumbered onto its variables, the proof with it.
"""

from __future__ import annotations

import random

import pytest

from sudosat.sat.cnf import CNF
from sudosat.sat.formulas import pigeonhole
from sudosat.sat.solvers import cdcl
from sudosat.sat.solvers.cdcl import certify, solve


def shifted(cnf: CNF, by: int) -> CNF:
    """`cnf` with every variable moved up by `by` (a header that far up, the rest unused)."""
    return CNF([[lit + by if lit > 0 else lit - by for lit in clause] for clause in cnf],
               num_vars=cnf.num_vars + by)


@pytest.mark.filterwarnings("ignore::sudosat.sat.cnf.DimacsWarning")
def test_a_proof_over_variables_beyond_a_million_is_checked(tmp_path, capsys):
    # dratify reads a header of at most 1,048,576 variables from so short a text, and
    # refused this correct proof; the variables are renumbered, the proof with them.
    from sudosat.cli import main
    from sudosat.sat.solvers import solve as solve_any

    big = shifted(pigeonhole(4, 3), 2_000_000)
    result = solve_any(big, "cdcl", proof=True)
    assert result.is_unsat and "200000" in result.proof
    assert certify(big, result.proof) == (True, "verified")
    path = tmp_path / "big.cnf"
    path.write_text(big.to_dimacs())
    assert main(["sat", str(path), "--certify"]) == 20
    lines = capsys.readouterr().out.splitlines()
    assert "c UNSAT certified: DRAT proof verified by dratify" in lines


def test_a_failing_step_is_named_in_the_formulas_own_numbers():
    big = shifted(CNF([[1, 2], [-1, 2], [1, -2], [-1, -2], [3, 4]]), 1_500_000)
    assert certify(big, "-1500003 0\n0\n") == (False, (
        "step 1 fails: -1500003 0 (clause is neither RUP nor RAT with respect to the clauses "
        "available at this point)"))



@pytest.mark.filterwarnings("ignore::sudosat.sat.cnf.DimacsWarning")
@pytest.mark.usefixtures("python_core")  # spies on the Python engine's grow (the compaction
# it checks happens before either core loads anything)
def test_the_one_shot_call_sizes_its_tables_by_the_variables_the_clauses_use(monkeypatch):
    # 65 clauses declaring 2.88 million variables spent 55 s building tables for all of
    # them. Counted, not timed: every table is grown to the variables the clauses use.
    from sudosat.sat.solvers.cdcl.state import State

    grown: list[int] = []
    grow = State.grow
    monkeypatch.setattr(State, "grow", lambda self, n: (grown.append(n), grow(self, n))[1])
    rng = random.Random(7)
    clauses = [[rng.choice((-1, 1)) * rng.randint(1, 2_880_000) for _ in range(3)]
               for _ in range(65)]
    cnf = CNF(clauses, num_vars=2_880_000)
    used = len({abs(lit) for clause in clauses for lit in clause})
    for result in (solve(cnf), solve(cnf, proof=True)):
        assert result.is_sat and max(grown) == used
        assert len(result.model) == 2_880_000  # every declared variable, unused ones false
        cnf.check_model(result.model)
    grown.clear()
    unsat = shifted(pigeonhole(4, 3), 2_000_000)
    result = solve(unsat, proof=True)
    assert result.is_unsat and max(grown) == 12 and "-20000" in result.proof
    assert cdcl.certify(unsat, result.proof) == (True, "verified")
