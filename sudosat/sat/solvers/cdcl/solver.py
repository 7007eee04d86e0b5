"""The incremental :class:`Solver`: MiniSat's and PySAT's shape over the engine.

Clauses added between calls, assumptions decided first, one level each
(MiniSat's ``solve(assumps)``), the failed subset from final conflict analysis
(``analyzeFinal``); the assumption levels a next call shares are kept, not
decided again. Signed DIMACS literals at this boundary, literal codes inside.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

from sudosat.errors import SolverError
from sudosat.sat.cnf import CNF
from sudosat.sat.result import Result, Status, Stop
from sudosat.sat.solvers.base import verify_result
from sudosat.sat.solvers.budget import (
    Deadline,
    OutOfTime,
    budget_keywords,
    collector_paused,
    settings_from,
)
from sudosat.sat.solvers.cdcl.chrono import ChronoEngine
from sudosat.sat.solvers.cdcl.cores import choose, compiled_module
from sudosat.sat.solvers.cdcl.engine import Engine
from sudosat.sat.solvers.cdcl.loader import RunCache
from sudosat.sat.solvers.cdcl.model_check import ModelChecker
from sudosat.sat.solvers.cdcl.reasons import Clause, Implication, ProofStep
from sudosat.sat.solvers.cdcl.state import NO_DEADLINE
from sudosat.sat.solvers.cdcl.tunables import TUNABLES, Backtrack
from sudosat.sat.solvers.codes import Code, to_codes, to_dimacs, to_dimacs_list

__all__ = ["Observer", "Solver"]


class Observer(Protocol):
    """What :class:`Solver` tells an ``observer`` (either method may be missing).

    Literals are signed DIMACS integers; levels count decisions (0: none).
    """

    def decided(self, literal: int, level: int, trail_size: int) -> None:
        """The heuristic decided `literal`, opening `level`; the trail held `trail_size`."""

    def learnt(self, clause: list[int], backjump_level: int, level: int) -> None:
        """A conflict at `level` taught `clause` (asserting literal first), which asserts at
        `backjump_level`: the search jumps back there (with the tunable ``chrono``, it may
        keep levels above it)."""


class ObservedEngine(Engine):
    """The engine with an observer (see :class:`Solver`): two methods wrapped, nothing else.

    Decisions are reported from :meth:`pick_branch_lit` and learnt clauses
    from :meth:`analyze`, so the search loop itself is the plain engine's.
    """

    def __init__(
        self, num_vars: int, settings: dict, seed: int, proof: bool, observer: Observer
    ) -> None:
        super().__init__(num_vars, settings, seed, proof)
        self.on_decided = getattr(observer, "decided", None)
        self.on_learnt = getattr(observer, "learnt", None)

    def pick_branch_lit(self) -> Code:
        lit = super().pick_branch_lit()
        if lit >= 0 and self.on_decided is not None:
            self.on_decided(to_dimacs(lit), len(self.trail_lim) + 1, len(self.trail))
        return lit

    def analyze(self, confl: Implication) -> tuple[Clause, int, int]:
        learnt, back, lbd = super().analyze(confl)
        if self.on_learnt is not None:
            self.on_learnt(to_dimacs_list(learnt), back, len(self.trail_lim))
        return learnt, back, lbd


class ObservedChronoEngine(ObservedEngine, ChronoEngine):
    """The observed engine that keeps the trail after conflicts (tunable ``chrono``)."""


class Solver:
    """Our CDCL solver as an object that stays loaded: MiniSat's and PySAT's shape.

    Clauses are added once; each :meth:`solve` may assume literals for that
    call only. Learnt clauses, VSIDS activities, saved phases and level-0
    facts carry over from call to call (every learnt clause follows from the
    clauses alone, never from assumptions, so it stays valid).

    Parameters
    ----------
    cnf : CNF, optional
        Clauses to start with (more with :meth:`add_clause`, :meth:`append_formula`).
    seed : int
        Seeds the solver's only random source (0: fully deterministic).
    proof : bool
        Log a DRAT proof; an UNSAT :class:`Result` then carries it (see :meth:`solve`).
    observer : object, optional
        Told of the search as it runs (for tracing and teaching; see
        :class:`Observer`): ``observer.decided(literal, level, trail_size)``
        at each decision of the branching heuristic (assumptions are not
        reported) and ``observer.learnt(clause, backjump_level, level)`` at
        each learnt clause, literals as signed DIMACS integers. Either method
        may be left out. None (the default) costs nothing: the plain engine
        runs.
    runs : RunCache, optional
        Big runs of binary clauses remembered from earlier solvers, shared with
        them (a process solving puzzle after puzzle loads each set of rules from
        it; see :class:`~sudosat.sat.solvers.cdcl.loader.RunCache`).
    core : str, optional
        ``"auto"`` (the compiled twin when it is built and runs these settings),
        ``"python"`` (the reference) or ``"compiled"`` (the twin, or an error when
        it is not built); None reads ``SUDOSAT_CORE`` (see
        :mod:`~sudosat.sat.solvers.cdcl.cores`). The attribute :attr:`core` says
        which core runs and why.
    **tunables
        Any name of :data:`TUNABLES`.

    Attributes
    ----------
    core : Choice
        The core this solver runs (``core.name``: ``"compiled"`` or
        ``"python"``) and why (``core.reason``).

    Raises
    ------
    SolverError
        An unknown or out-of-range tunable, an unknown core, or ``"compiled"``
        where the twin is not built.

    Examples
    --------
    >>> class Count:
    ...     decisions = 0
    ...     def decided(self, literal, level, trail_size):
    ...         self.decisions += 1
    >>> counter = Count()
    >>> Solver(CNF([[1, 2], [-1, 2]]), observer=counter).solve().status, counter.decisions
    (<Status.SAT: 'SAT'>, 1)
    >>> with Solver(CNF([[1, 2], [-1, 3]])) as s:
    ...     s.solve([-3]).status, s.get_model()
    ...     s.solve([1, -3]).status, s.get_core()
    ...     s.add_clause([-2])
    ...     s.solve([-3]).status, s.get_core()
    (<Status.SAT: 'SAT'>, [-1, 2, -3])
    (<Status.UNSAT: 'UNSAT'>, [1, -3])
    (<Status.UNSAT: 'UNSAT'>, [-3])
    """

    def __init__(
        self,
        cnf: CNF | None = None,
        *,
        seed: int = 0,
        proof: bool = False,
        observer: Observer | None = None,
        runs: RunCache | None = None,
        core: str | None = None,
        **tunables: float,
    ) -> None:
        self.settings = settings_from("cdcl", TUNABLES, tunables)
        self.core = choose(core, self.settings, observed=observer is not None)
        # The twin, the observer and the backtracking that keeps the trail are served
        # by classes chosen here, once, so that the default search runs exactly the
        # plain engine's code.
        keeps_trail = self.settings["chrono"] != Backtrack.BACKJUMP
        self._engine: Engine | None
        if self.core.name == "compiled":
            twin = compiled_module()
            assert twin is not None  # choose() names the twin only when it is built
            self._engine = twin.Engine(0, self.settings, seed, proof)
        elif observer is None:
            self._engine = (ChronoEngine if keeps_trail else Engine)(0, self.settings, seed, proof)
        else:
            observed = ObservedChronoEngine if keeps_trail else ObservedEngine
            self._engine = observed(0, self.settings, seed, proof, observer)
        self._engine.runs = runs
        self._formula = CNF()  # every clause added, for the model check and the proof filter
        self._model: list[int] | None = None
        self._core: list[int] | None = None
        self._checker: ModelChecker | None = None
        self._checks = 0
        # CPU seconds (time.process_time) of loading clauses, of searching, and of every
        # public call whole (checks and proofs included), over the solver's life.
        self._cpu = {"load": 0.0, "search": 0.0, "calls": 0.0}
        if cnf is not None:
            self.append_formula(cnf)

    def __enter__(self) -> Solver:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.delete()

    def delete(self) -> None:
        """Free the solver's tables (PySAT's name); the object is unusable afterwards."""
        self._engine = None

    def _live_engine(self) -> Engine:
        """The engine; raises :class:`SolverError` once :meth:`delete` freed it."""
        engine = self._engine
        if engine is None:
            raise SolverError("cdcl: this solver was deleted")
        return engine

    # -- clauses ------------------------------------------------------------------

    @property
    def num_vars(self) -> int:
        """The highest variable seen in a clause or an assumption."""
        return self._live_engine().num_vars

    @property
    def num_clauses(self) -> int:
        """Input clauses added so far (learnt clauses not counted)."""
        return self._formula.num_clauses

    def add_clause(self, clause: list[int] | tuple[int, ...]) -> None:
        """Add one clause of signed DIMACS literals (it holds for every later call)."""
        self.append_formula(CNF([list(clause)]))

    def append_formula(self, formula: CNF | list) -> None:
        """Add every clause of `formula` (a :class:`CNF` or a list of clauses).

        Raises
        ------
        ValueError
            A clause holds the literal 0.
        """
        cnf = formula if isinstance(formula, CNF) else CNF(formula)
        with collector_paused(), self._charged("load"):
            self._append(cnf)

    def load(self, cnf: CNF, deadline: Deadline) -> bool:
        """Load `cnf` into this fresh solver for one question under `deadline`; False if it passed.

        For a solver that lives for one call (:func:`~sudosat.sat.solvers.cdcl.one_shot.solve`):
        `cnf` itself becomes the solver's formula, not a copy (a big formula's
        copy costs a good part of its loading), so nobody may change it while
        the solver lives, and no assumption may name a variable beyond it.
        Loading looks at `deadline` between chunks of its work and stops early
        enough to free what it built before the deadline: by a share of the
        loading time so far (:data:`~sudosat.sat.solvers.cdcl.state.FREE_SHARE`).
        After False the solver holds part of the formula: :meth:`delete` it.

        Raises
        ------
        SolverError
            The solver holds clauses already (use :meth:`append_formula`).
        """
        engine = self._live_engine()
        if self._formula.num_clauses or engine.num_vars:
            raise SolverError("cdcl: load() is for a fresh solver; add clauses with append_formula")
        engine.set_budget(deadline, None, None)
        engine.load_began = deadline.now()
        try:
            with collector_paused(), self._charged("load"):
                self._append(cnf, adopt=True)
        except OutOfTime:
            return False
        finally:
            engine.load_began = None
            engine.set_budget(NO_DEADLINE, None, None)
        return True

    @contextmanager
    def _charged(self, part: str | None = None) -> Iterator[None]:
        """Add the block's CPU time to the calls' total, and to `part` (``load``) if given."""
        began = time.process_time()
        try:
            yield
        finally:
            spent = time.process_time() - began
            self._cpu["calls"] += spent
            if part is not None:
                self._cpu[part] += spent

    def _append(self, cnf: CNF, adopt: bool = False) -> None:
        """Add `cnf`'s clauses; with `adopt`, keep `cnf` itself as the formula (no copy).

        Adopting is for a solver that lives for one call on a formula nobody
        changes meanwhile, and asks no assumption beyond its variables
        (:meth:`load`): a big formula's copy would cost as much as a good part
        of its loading.
        """
        engine = self._live_engine()
        engine.cancel_until(0)  # clauses are added at level 0 (assumption levels may remain)
        engine.grow(cnf.num_vars)
        # Only a one-shot load runs under a deadline (load): growing the tables for a
        # big formula takes a while.
        if not engine.in_time():
            raise OutOfTime
        if not self._formula.num_clauses:
            self._formula = cnf if adopt else cnf.copy()
        else:
            self._formula.extend(cnf)
        if self._formula.num_vars != engine.num_vars:
            self._formula.num_vars = engine.num_vars
        if not engine.trail and not engine.trail_lim:
            engine.load(cnf.flat)  # nothing decided yet: the bulk loader applies
            return
        for clause in cnf:
            engine.add_codes(to_codes(clause))

    def forget_learnts(self, keep_lbd: int = 0) -> int:
        """Delete the learnt clauses (of three literals or more) whose LBD exceeds `keep_lbd`.

        Between unrelated questions on the same clauses (the next puzzle on the
        same rules) the learnt clauses of the last one are valid but mostly
        useless, and each costs watch visits (``benchmarks/incremental.py``
        compares keeping and dropping them). Returns how many went.
        """
        engine = self._live_engine()
        with self._charged():
            engine.cancel_until(0)
            return engine.forget_learnts(keep_lbd)

    def next_question(self, keep_lbd: int = 0) -> int:
        """Get ready for an unrelated question on the same clauses (the next puzzle on the rules).

        Drops the long learnt clauses (:meth:`forget_learnts`) and, when the
        calls so far took many conflicts (tunable ``rescore_conflicts``), has
        the next call rank the variables anew on what its assumptions leave
        (see :meth:`Engine.expect_new_question`). Answers stay the same; only
        the search's order changes. Returns how many learnt clauses went.
        """
        dropped = self.forget_learnts(keep_lbd)
        with self._charged():
            self._live_engine().expect_new_question()
        return dropped

    # -- solving -------------------------------------------------------------------

    def solve(
        self,
        assumptions=(),
        *,
        deadline: Deadline | None = None,
        max_conflicts: int | None = None,
        max_propagations: int | None = None,
    ) -> Result:
        """Decide the clauses with the `assumptions` (signed literals) holding for this call.

        Parameters
        ----------
        assumptions : sequence of int
            Signed literals that hold for this call only.
        deadline : Deadline, optional
            When this call stops (on the deadline's own clock, wall or CPU);
            None for no limit.
        max_conflicts, max_propagations : int, optional
            Work budgets for this call (MiniSat's ``setConfBudget`` and
            ``setPropBudget``): the call stops after that many more conflicts,
            or at the first decision once that many more literals were
            propagated. The same budgets on the same clauses stop at the same
            point on any machine.

        Returns
        -------
        Result
            SAT with a model that satisfies every clause and every assumption
            (checked unless ``check_model=0``); UNSAT, where :meth:`get_core`
            names the assumptions that failed (empty: the clauses alone are
            unsatisfiable); UNKNOWN when a budget ran out, never UNSAT, its
            ``stop`` saying which (``TIME``, ``CONFLICTS``, ``PROPAGATIONS``).
            Stats count this call only: the counters, ``search_cpu_ms`` and
            ``search_wall_ms`` (the search itself, its model read; not the
            model check or the proof). With ``proof=True``, an UNSAT result's
            ``proof`` is a DRAT proof of the clauses added so far plus the
            core as unit clauses (check it with
            :func:`~sudosat.sat.solvers.cdcl.proof.certify` on :meth:`proof_formula`).

        Raises
        ------
        SolverError
            A zero or non-integer assumption, or a negative budget.
        """
        began_cpu, started = time.process_time(), time.perf_counter()
        try:
            return self._solve(assumptions, deadline or NO_DEADLINE,
                               *_checked_budgets(max_conflicts, max_propagations),
                               started=started)
        finally:
            self._cpu["calls"] += time.process_time() - began_cpu

    def _solve(
        self,
        assumptions,
        deadline: Deadline,
        max_conflicts: int | None,
        max_propagations: int | None,
        *,
        started: float,
    ) -> Result:
        """:meth:`solve` once its arguments are checked; `started` is its ``perf_counter``."""
        engine = self._live_engine()
        assumptions = list(assumptions)
        for lit in assumptions:
            if not isinstance(lit, int) or lit == 0:
                raise SolverError(f"cdcl: an assumption must be a non-zero integer, got {lit!r}")
            engine.grow(abs(lit))
        # An adopted formula stays as it is: its one call has no assumptions (see _append).
        if self._formula.num_vars != engine.num_vars:
            self._formula.num_vars = engine.num_vars
        codes = to_codes(assumptions)
        before = engine.counters()
        engine.set_budget(deadline, max_conflicts, max_propagations)
        search_cpu, search_wall = time.process_time(), time.perf_counter()
        try:
            with collector_paused():
                engine.cancel_until(_shared_prefix(engine.assumptions, codes))
                status = engine.solve(codes)
                model = engine.model() if status is Status.SAT else None
                # Keep the assumption levels: the next call re-decides only from the
                # first assumption that differs (levels 1..k hold assumptions 1..k).
                keep = len(codes) if status is not Status.UNKNOWN else 0
                engine.cancel_until(min(keep, len(engine.trail_lim)))
        finally:
            search_cpu = time.process_time() - search_cpu
            search_wall = time.perf_counter() - search_wall
            self._cpu["search"] += search_cpu
            stopped = engine.stopped
            engine.set_budget(NO_DEADLINE, None, None)
        stats: dict[str, float] = {k: v - before[k] for k, v in engine.counters().items()}
        stats.update(search_cpu_ms=search_cpu * 1000.0, search_wall_ms=search_wall * 1000.0)
        result = Result(status, model, stats, 0.0, "cdcl", stop=stopped, core=self.core.name)
        self._model = model
        self._core = None
        if status is Status.UNSAT:
            self._core = to_dimacs_list(engine.core or [])
            if engine.proof is not None:
                result.proof = self.proof_text()
        if model is not None and self.settings["check_model"] and not self._check(
                result, model, assumptions, deadline):
            # T passed while the check indexed the formula: an unchecked model is no answer,
            # and one after T would be none either.
            result.status, result.model, result.stop = Status.UNKNOWN, None, Stop.TIME
            self._model = None
        result.elapsed_ms = (time.perf_counter() - started) * 1000.0
        return result

    def _check(self, result: Result, model: list[int], assumptions: list[int],
               deadline: Deadline) -> bool:
        """Fail loudly unless the model satisfies every input clause and every assumption;
        False, the model unchecked, when `deadline` passed first.

        The first check scans the flat formula in C (:func:`verify_result`): the
        cheapest way for a solver that answers once. From the second on, an index
        of the formula (:class:`ModelChecker`) makes each check read only the
        clauses a true literal could break. Building it costs about one scan of the
        formula, so it is built under `deadline`, a block at a time, and what one
        call indexed the next one keeps. `model` is ``result.model``.
        """
        if self._checker is None and self._checks < 1:
            verify_result(self._formula, result, "cdcl")
        else:
            if self._checker is None:
                self._checker = ModelChecker()
            in_time = (lambda: not deadline.expired()) if deadline.limited else None
            if not self._checker.catch_up(self._formula, in_time):
                return False
            broken = self._checker.first_broken(model)
            if broken is not None:
                raise SolverError(f"cdcl returned a wrong model: it falsifies {broken}")
            result.model_checked = True
        self._checks += 1
        unmet = [q for q in assumptions if model[abs(q) - 1] != q]
        if unmet:
            raise SolverError(f"cdcl returned a model that breaks the assumption {unmet[0]}")
        return True

    def get_model(self) -> list[int] | None:
        """The last SAT answer's model (one signed literal per variable), else None."""
        return self._model

    def get_core(self) -> list[int] | None:
        """After UNSAT: the assumptions (signed, in the given order) that failed; else None.

        Their conjunction with the clauses is unsatisfiable. It is not always
        the smallest such set (MiniSat's final conflict analysis, no minimisation).
        """
        return self._core

    # -- proofs ----------------------------------------------------------------------

    def proof_formula(self) -> CNF:
        """What the last UNSAT proof refutes: the clauses added so far plus the core as units."""
        cnf = self._formula.copy()
        for lit in self._core or []:
            cnf.add_clause([lit])
        return cnf

    def proof_text(self) -> str:
        """The DRAT proof logged so far, ending with the empty clause (``proof=True`` only).

        A learnt clause equal to an input clause is never shown deleted:
        checkers such as dratify delete every copy, and the input clause may
        have been added after the learnt one was deleted.
        """
        engine = self._live_engine()
        if engine.proof is None:
            raise SolverError("cdcl: this solver was made without proof=True")
        inputs = None
        if any(kind is ProofStep.DELETE for kind, _ in engine.proof):
            inputs = {frozenset(to_codes(clause)) for clause in self._formula}
        return engine.proof_text(inputs)

    def stats(self) -> dict[str, float | str]:
        """The solver's counters and CPU time since it was made (every call together).

        Beside the counters: ``load_cpu_ms`` (loading clauses), ``search_cpu_ms``
        (searching, as each :meth:`solve`'s stats count it) and ``cpu_ms``, the
        whole of every call (loading, searching, checking models, writing
        proofs): what ``time.process_time`` shows around them. Milliseconds.
        ``core`` and ``core_reason`` say which core ran and why (:attr:`core`).
        """
        cpu = self._cpu
        return {**self._live_engine().counters(), "load_cpu_ms": cpu["load"] * 1000.0,
                "search_cpu_ms": cpu["search"] * 1000.0, "cpu_ms": cpu["calls"] * 1000.0,
                "core": self.core.name, "core_reason": self.core.reason}


def _shared_prefix(old: list[Code], new: list[Code]) -> int:
    """How many assumptions the two lists share from the start."""
    k = 0
    for a, b in zip(old, new, strict=False):
        if a != b:
            break
        k += 1
    return k


def _checked_budgets(
    max_conflicts: int | None, max_propagations: int | None
) -> tuple[int | None, int | None]:
    """The two work budgets, each None or a non-negative int (checked by the shared rule)."""
    checked = budget_keywords(max_conflicts, max_propagations)
    return checked.get("max_conflicts"), checked.get("max_propagations")
