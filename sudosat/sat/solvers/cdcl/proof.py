"""DRAT proof logging (the engine's proof layer) and :func:`certify`, its independent check.

Proof steps are kept as ``(ProofStep, literal codes)`` and turned into text
once, at the end, and only for UNSAT; :func:`certify` checks the text with the
``dratify`` checker.

Its compiled twin, which does the same work over C arrays, is
:mod:`sudosat.sat.solvers.cdcl.compiled.proof` (see :mod:`~sudosat.sat.solvers.cdcl.cores`).
"""

from __future__ import annotations

from sudosat.errors import SolverError, import_extra
from sudosat.sat.cnf import CNF
from sudosat.sat.solvers.base import Compaction
from sudosat.sat.solvers.cdcl.reasons import Clause, ProofStep
from sudosat.sat.solvers.cdcl.state import State
from sudosat.sat.solvers.codes import Code


class ProofLog(State):
    """The engine's DRAT log: additions, deletions, level-0 units, and the text.

    log_add and log_delete are called once per learnt or deleted clause, each
    time after the caller tested ``self.proof is not None``; mypy cannot carry
    that test into the method, and testing again (or a cast) would cost once
    more per clause, so their `union-attr` is ignored.
    """

    def log_add(self, clause: Clause) -> None:
        """Record one DRAT addition (a snapshot: the solver keeps reordering the clause).

        Pre: ``proof`` is not None.
        """
        self.proof.append((ProofStep.ADD, tuple(clause)))  # type: ignore[union-attr]

    def log_delete(self, clause: Clause) -> None:
        """Record one DRAT deletion (a copy: simplification may shrink the clause later).

        Pre: ``proof`` is not None.
        """
        self.proof.append((ProofStep.DELETE, tuple(clause)))  # type: ignore[union-attr]

    def log_level0_units(self) -> None:
        """Record every level-0 literal not recorded yet as a unit (all are RUP), so that
        later deletions of their reason clauses cannot weaken the checker's database.
        Nothing without a proof log."""
        proof = self.proof
        if proof is None:
            return
        limit = self.trail_lim[0] if self.trail_lim else len(self.trail)
        proof.extend((ProofStep.ADD, (q,)) for q in self.trail[self.units_logged : limit])
        self.units_logged = max(self.units_logged, limit)

    def proof_text(self, inputs: set | None = None) -> str:
        """The DRAT proof so far as text, ending with the empty clause (see :func:`drat_text`).

        Raises :class:`SolverError` when the engine logs no proof.
        """
        if self.proof is None:
            raise SolverError("cdcl: this solver was made without proof=True")
        return drat_text(self.proof, self.lit_str, inputs)


def drat_text(
    proof: list[tuple[ProofStep, tuple[Code, ...]]], lit_str: list[str], inputs: set | None = None
) -> str:
    """A logged proof as DRAT text, ending with the empty clause.

    `lit_str` names each literal code (``lit_str[code]``: its DIMACS text).
    Deletions of a clause whose literal set is in `inputs` are left out. The
    reference engine and its compiled twin both write their proofs here.
    """
    name = lit_str.__getitem__
    add = ProofStep.ADD
    lines = [
        kind.value + " ".join(map(name, codes)) + " 0"
        for kind, codes in proof
        if kind is add or inputs is None or frozenset(codes) not in inputs
    ]
    lines.append("0")
    return "\n".join(lines) + "\n"


def certify(cnf: CNF, proof_text: str) -> tuple[bool, str]:
    """Check a DRAT proof of unsatisfiability with the independent ``dratify`` checker.

    Parameters
    ----------
    cnf : CNF
        The formula the proof refutes.
    proof_text : str
        DRAT text (``cdcl`` writes it with ``proof=True``).

    Returns
    -------
    (bool, str)
        ``(True, "verified")``, or False and the failing step (number and
        clause) or why the proof is unusable.

    Examples
    --------
    >>> certify(CNF([[1], [-1]]), "0\\n")
    (True, 'verified')
    """
    dratify = import_extra("dratify", "proofs", "checking a DRAT proof (--certify)")
    check_proof, parse_dimacs = dratify.check_proof, dratify.parse_dimacs

    # The formula over the variables it uses, renumbered 1..k, and the proof mapped the same
    # way: dratify reads a header of up to a million variables however short the file (more
    # only from a file at least as long), and a formula that uses variable 2,000,000 in two
    # clauses is no bigger than one that uses variables 1 and 2.
    used = len(set(map(abs, cnf.flat)) - {0})
    compact = None
    if used == max(map(abs, cnf.flat), default=0):  # already 1..k: the header alone shrinks
        formula_text = (cnf if used == cnf.num_vars else CNF.from_flat(cnf.flat, used)).to_dimacs()
    else:
        compact = Compaction.onto_used(cnf)
        formula_text = compact.cnf.to_dimacs()
        proof_text = compact.proof_in_compact(proof_text)
    try:
        formula = parse_dimacs(formula_text)
    except ValueError as exc:
        return False, f"dratify cannot read the formula: {' '.join(str(exc).split())}"
    try:
        outcome = check_proof(formula, proof_text, engine="python")
    except ValueError as exc:
        return False, f"malformed proof: {' '.join(str(exc).split())}"
    if outcome.ok:
        return True, "verified"
    detail = outcome.reason
    if outcome.failed_clause is not None:
        from dratify import to_dimacs

        original = [to_dimacs(q) for q in outcome.failed_clause]
        if compact is not None:  # named in the formula's own numbers
            origin = compact.origin
            original = [origin[abs(lit) - 1] * (1 if lit > 0 else -1)
                        if abs(lit) <= len(origin) else lit for lit in original]
        body = " ".join([*map(str, original), "0"])
        detail = f"step {outcome.failed_step} fails: {body} ({outcome.reason})"
    return False, detail

