"""What every solver shares: the model check, the result's clock, the compaction of lying headers.

A solver is a function ``solve(cnf, *, deadline=None, seed=0, **options)
-> Result``, `deadline` a :class:`~sudosat.sat.solvers.budget.Deadline` (None: no
limit) that its loop reads on the deadline's own clock; one that honours the
work budgets also takes ``max_conflicts`` and ``max_propagations`` (the
registry passes them only when set, and refuses them for the others). It never
raises for UNSAT, a time-out or a spent budget (those are results, their
:class:`~sudosat.sat.result.Stop` set where the loop stopped); it raises
:class:`~sudosat.errors.SolverError` when it cannot run at all.
The registry of names (:mod:`sudosat.sat.solvers.registry`) sits above every
solver; this module sits below them all and imports none.

This layer knows nothing of Sudoku.
"""

from __future__ import annotations

import time
import warnings
from array import array
from collections.abc import Callable

from sudosat.errors import SolverError
from sudosat.sat.cnf import CNF, DimacsWarning
from sudosat.sat.result import Result, Status, Stop

__all__ = ["Compaction", "Laps", "make_result", "renumbered_proof", "verify_result"]

# A formula is solved on its used variables only when its header declares far
# more than its literals could use: then the solvers' per-variable arrays are
# sized from what is there, not from a header that may lie by millions.
_COMPACT_MIN_UNUSED = 100_000


class Compaction:
    """A formula renumbered onto the variables its clauses use, and the way back.

    Attributes
    ----------
    cnf : CNF
        The same clauses over variables 1..k, in the order of the originals.
    origin : array
        ``origin[i - 1]`` is the original number of compact variable ``i``.
    num_vars : int
        The original formula's variable count.
    """

    __slots__ = ("cnf", "origin", "num_vars")

    def __init__(self, cnf: CNF, origin: array, num_vars: int) -> None:
        self.cnf, self.origin, self.num_vars = cnf, origin, num_vars

    @classmethod
    def of(cls, cnf: CNF) -> Compaction | None:
        """The compaction of `cnf` when its header is far larger than its clauses need, else None.

        The test costs O(1): a formula with L literal occurrences uses at most L
        variables, so only a header above ``2 L + 100,000`` is worth renumbering.
        A :class:`~sudosat.sat.cnf.DimacsWarning` says what was done.
        """
        if cnf.num_vars <= 2 * cnf.num_literals + _COMPACT_MIN_UNUSED:
            return None
        compact = cls.onto_used(cnf)
        used = len(compact.origin)
        warnings.warn(
            f"the formula declares {cnf.num_vars:,} variables but its clauses use "
            f"{used:,}: the solver works on those, and the model sets the other "
            f"{cnf.num_vars - used:,} false",
            DimacsWarning,
            stacklevel=3,
        )
        return compact

    @classmethod
    def onto_used(cls, cnf: CNF) -> Compaction:
        """`cnf` renumbered onto the variables its clauses use, whatever its header says."""
        used = sorted(set(map(abs, cnf.flat)) - {0})
        number = {var: index for index, var in enumerate(used, start=1)}
        flat = array(
            "i", [number[lit] if lit > 0 else -number[-lit] if lit else 0 for lit in cnf.flat]
        )
        return cls(CNF.from_flat(flat, len(used)), array("q", used), cnf.num_vars)

    def extend(self, model: list[int]) -> list[int]:
        """A model of the compact formula as a model of the original (unused variables false)."""
        full = list(range(-1, -self.num_vars - 1, -1))
        origin = self.origin
        for lit in model:
            var = origin[abs(lit) - 1]
            full[var - 1] = var if lit > 0 else -var
        return full

    def restore(self, result: Result) -> Result:
        """`result` of the compact formula made the original's: its model and proof renumbered.

        The unused variables occur in no clause, so the extended model (them
        false) satisfies the original exactly when the compact one satisfies
        the compact formula.
        """
        if result.model is not None:
            result.model = self.extend(result.model)
        if result.proof:
            result.proof = self.proof_in_original(result.proof)
        return result

    def proof_in_original(self, proof: str) -> str:
        """A DRAT proof over the compact variables, in the original formula's numbers."""
        origin = self.origin
        return renumbered_proof(proof, lambda var: origin[var - 1])

    def proof_in_compact(self, proof: str) -> str:
        """A DRAT proof over the original variables, in the compact numbers.

        A variable the formula does not use (a proof may add some) takes the
        next number after the compact ones.
        """
        number = {var: index for index, var in enumerate(self.origin, start=1)}

        def compact(var: int) -> int:
            found = number.get(var)
            if found is None:
                found = number[var] = len(number) + 1
            return found

        return renumbered_proof(proof, compact)


def renumbered_proof(proof: str, number: Callable[[int], int]) -> str:
    """DRAT proof text with every variable ``v`` written as ``number(v)``.

    A line is an optional ``d``, literals and the closing ``0``; signs, the
    ``d`` and the ``0`` stay as they are.

    Examples
    --------
    >>> renumbered_proof("d 5 -7 0\\n-5 0\\n0\\n", {5: 1, 7: 2}.__getitem__)
    'd 1 -2 0\\n-1 0\\n0\\n'
    """
    lines = []
    for line in proof.splitlines():
        words = line.split()
        head = ["d"] if words[:1] == ["d"] else []
        lits = words[len(head):]
        mapped = [str(number(int(w))) if w[0] != "-" else f"-{number(-int(w))}"
                  for w in lits[:-1]]
        lines.append(" ".join([*head, *mapped, *lits[-1:]]))
    return "\n".join(lines) + "\n"


def verify_result(cnf: CNF, result: Result, who: str | None = None) -> None:
    """Fail loudly when a SAT answer's model does not satisfy `cnf`; else mark it checked.

    Every solver's answer goes through here once: a solver that checks its own
    model calls it, and :func:`solve` calls it again, which then costs nothing
    (``result.model_checked`` is set after the first successful check).

    Parameters
    ----------
    who : str, optional
        How the error names the solver (default: ``solver 'NAME'``).

    Raises
    ------
    SolverError
        An unknown status, or a model that is missing, incomplete, or falsifies a clause.
    """
    who = who or f"solver {result.solver!r}"
    if result.status is not Status.SAT:
        if result.status is Status.UNSAT or result.status is Status.UNKNOWN:
            return
        raise SolverError(f"{who} returned an unknown status {result.status!r}")
    if result.model is None:
        raise SolverError(f"{who} answered SAT without a model")
    if result.model_checked:
        return
    try:
        cnf.check_model(result.model)
    except ValueError as exc:
        raise SolverError(f"{who} returned a wrong model: {exc}") from None
    result.model_checked = True


def make_result(
    status: Status, model: list[int] | None, stats: dict, started: float, solver: str,
    stop: Stop,
) -> Result:
    """Build a Result whose ``elapsed_ms`` runs from `started` (a ``time.perf_counter()``)."""
    return Result(status, model, stats, (time.perf_counter() - started) * 1000.0, solver,
                  stop=stop)


class Laps:
    """CPU and wall time of the consecutive parts of a solver call, in milliseconds.

    An in-process solver times its loading and its search apart, each on both
    clocks: ``time.process_time`` for CPU, ``time.perf_counter`` for wall.

    Examples
    --------
    >>> sorted(Laps().lap("search"))
    ['search_cpu_ms', 'search_wall_ms']
    """

    def __init__(self) -> None:
        self.cpu, self.wall = time.process_time(), time.perf_counter()

    def lap(self, part: str) -> dict[str, float]:
        """``{part}_cpu_ms`` and ``{part}_wall_ms`` since the last lap (or the start)."""
        cpu, wall = time.process_time(), time.perf_counter()
        spent = {f"{part}_cpu_ms": (cpu - self.cpu) * 1000.0,
                 f"{part}_wall_ms": (wall - self.wall) * 1000.0}
        self.cpu, self.wall = cpu, wall
        return spent
