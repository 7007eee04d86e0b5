"""A proof of a formula whose header declares far more variables than its clauses use.

``sat --proof`` used to skip the renumbering onto the used variables that every
other call gets: a header of 1.1 million variables (two used) took 54 s and
1 GB, then dratify refused the header and the command exited 3. The proof is
now found on the used variables and written in the formula's own numbers.
"""

from __future__ import annotations

import warnings

from dratify import check_proof, parse_dimacs

from sudosat.cli import main
from sudosat.sat.cnf import CNF, DimacsWarning
from sudosat.sat.formulas import pigeonhole
from sudosat.sat.solvers import solve
from sudosat.sat.solvers.cdcl.proof import certify


def _spread(cnf: CNF, declared: int) -> CNF:
    """`cnf` with variable v renumbered 1000 v + 7, under a header of `declared` variables."""
    clauses = [[(1000 * abs(q) + 7) * (1 if q > 0 else -1) for q in clause] for clause in cnf]
    return CNF(clauses, num_vars=declared)


def test_the_proof_of_a_sparse_formula_is_in_its_own_numbers_and_dratify_accepts_it() -> None:
    original = _spread(pigeonhole(5, 4), 200_000)  # 200,000 declared, 20 used
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DimacsWarning)
        result = solve(original, "cdcl", proof=True)
    assert result.is_unsat and result.proof
    used = {abs(q) for clause in original for q in clause}
    steps = [line.split() for line in result.proof.splitlines()]
    assert any(step[:1] == ["d"] for step in steps)  # deletions are renumbered too
    named = {abs(int(word)) for step in steps for word in step if word != "d"} - {0}
    assert named <= used
    # dratify, on the original text (its header of 200,000 variables as written).
    outcome = check_proof(parse_dimacs(original.to_dimacs()), result.proof, engine="python")
    assert outcome.ok, outcome.reason


def test_sat_proof_of_a_million_variable_header_answers_at_once(tmp_path, capsys) -> None:
    formula = tmp_path / "big.cnf"
    formula.write_text("p cnf 1100000 4\n5 7 0\n-5 7 0\n5 -7 0\n-5 -7 0\n")
    proof = tmp_path / "big.drat"
    code = main(["sat", str(formula), "--proof", str(proof), "--certify", "-T", "20000"])
    out = capsys.readouterr().out
    assert code == 20, out
    assert "s cnf 0 1100000" in out and "verified by dratify" in out
    text = proof.read_text()
    assert {abs(int(w)) for w in text.split() if w != "d"} <= {0, 5, 7}
    assert certify(CNF.from_string(formula.read_text()), text) == (True, "verified")
