"""DRAT proofs of `cdcl`'s UNSAT answers, checked by the independent `dratify`."""

from __future__ import annotations

import random

import pytest

from sudosat.sat.cnf import CNF
from sudosat.sat.formulas import pigeonhole, random_kcnf
from sudosat.sat.result import Status
from sudosat.sat.solvers.cdcl import certify, solve

# Every test runs on both cdcl cores: the pure-Python reference and its compiled twin.
pytestmark = pytest.mark.usefixtures("cdcl_core")


def _unsat_random(count: int, seed: int, num_vars: int = 50) -> list[CNF]:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        cnf = random_kcnf(rng, num_vars, num_vars * 5)
        if solve(cnf).status is Status.UNSAT:
            found.append(cnf)
    return found


@pytest.mark.parametrize("shrink", [0, 1])
def test_proofs_of_random_unsat_formulas_verify(shrink):
    for cnf in _unsat_random(12, seed=3):
        result = solve(cnf, proof=True, shrink=shrink)
        assert result.status is Status.UNSAT
        assert certify(cnf, result.proof) == (True, "verified")


# Pigeonhole formulas are Sudoku's shape: at-most-one binary clauses, at-least-one long ones.
@pytest.mark.parametrize("shrink", [0, 1])
@pytest.mark.parametrize("pigeons", [5, 6])
def test_pigeonhole_proofs_verify(pigeons, shrink):
    cnf = pigeonhole(pigeons, pigeons - 1)
    result = solve(cnf, proof=True, shrink=shrink)
    assert result.status is Status.UNSAT
    assert certify(cnf, result.proof) == (True, "verified")


@pytest.mark.reference_core
@pytest.mark.parametrize("pigeons", [6, 7])
def test_proofs_with_vivified_clauses_verify(pigeons):
    cnf = pigeonhole(pigeons, pigeons - 1)
    result = solve(cnf, proof=True, vivify=1, vivify_interval=10, vivify_effort=2.0,
                   restart_first=4)
    assert result.status is Status.UNSAT
    assert "\nd " in result.proof  # each vivified clause replaces the old one
    assert certify(cnf, result.proof) == (True, "verified")
    for cnf in _unsat_random(6, seed=8, num_vars=60):
        result = solve(cnf, proof=True, vivify=1, vivify_interval=5, vivify_effort=5.0,
                       restart_first=2)
        assert certify(cnf, result.proof) == (True, "verified")


def test_proofs_with_deletions_and_restarts_verify():
    cnf = pigeonhole(6, 5)
    result = solve(cnf, proof=True, reduce_first=15, reduce_inc=3, restart_first=4)
    assert result.stats["deleted"] > 0
    assert "\nd " in result.proof
    assert certify(cnf, result.proof) == (True, "verified")


def test_proof_is_text_drat_ending_with_the_empty_clause():
    result = solve(pigeonhole(4, 3), proof=True)
    lines = result.proof.splitlines()
    assert lines[-1] == "0"
    assert all(line.endswith(" 0") or line == "0" for line in lines)


def test_no_proof_without_asking_or_for_sat():
    assert solve(pigeonhole(4, 3)).proof is None
    assert solve(CNF([[1, 2]]), proof=True).proof is None


def test_trivially_unsat_formulas_get_a_verified_proof():
    for cnf in (CNF([[1, 2], []]), CNF([[1], [-1]]), CNF([[1, 2], [-1], [-2]])):
        result = solve(cnf, proof=True)
        assert result.status is Status.UNSAT
        assert certify(cnf, result.proof)[0]


def test_a_proof_without_its_lemmas_is_rejected():
    cnf = pigeonhole(5, 4)
    result = solve(cnf, proof=True)
    ok, detail = certify(cnf, "0\n")
    assert not ok
    assert detail.startswith("step 1 fails")
    assert len(result.proof.splitlines()) > 1


def test_a_corrupted_lemma_is_rejected():
    cnf = _unsat_random(1, seed=8)[0]
    lines = solve(cnf, proof=True).proof.splitlines()
    # A unit clause on a formula variable that is not implied: x and -x cannot both be RUP.
    variable = 1
    bogus = [f"{variable} 0", f"-{variable} 0"]
    ok, detail = certify(cnf, "\n".join(bogus + lines) + "\n")
    assert not ok
    assert "fails" in detail


@pytest.mark.reference_core
def test_a_refutation_of_a_satisfiable_formula_is_rejected():
    cnf = CNF([[1, 2], [-1, 2], [1, -2]])
    ok, _ = certify(cnf, "2 0\n0\n")
    assert not ok


@pytest.mark.reference_core
def test_malformed_proof_text_is_reported():
    ok, detail = certify(CNF([[1], [-1, 2]]), "1 zz 0\n")
    assert not ok
    assert "malformed" in detail
