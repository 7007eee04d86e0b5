"""The search: restarts, decisions and budgets on top of every other layer.

:class:`Engine` is the whole CDCL search state in literal codes;
:class:`~sudosat.sat.solvers.cdcl.solver.Solver` is its DIMACS-speaking face.

Its compiled twin, which does the same work over C arrays, is
:mod:`sudosat.sat.solvers.cdcl.compiled.engine` (see :mod:`~sudosat.sat.solvers.cdcl.cores`).
"""

from __future__ import annotations

import math

from sudosat.sat.result import Status, Stop
from sudosat.sat.solvers.budget import Deadline, OutOfTime
from sudosat.sat.solvers.cdcl.tunables import Restarts, Target
from sudosat.sat.solvers.cdcl.vivify import Vivification
from sudosat.sat.solvers.codes import Code, signed_model

# What next_assumption returns when an assumption is false (not a literal code).
FAILED = -2
# Propagations between two looks at the clock in the search (see Engine.within_budget):
# a count of work, so the clock's share of the time is the same on any machine (one call
# per this many propagations: nothing next to them), and a look comes within a
# millisecond or so of work on the benchmark's Sudoku and random sets.
LOOK_EVERY = 256
# The weights of the newest LBD in the fast and slow moving averages (Engine.note_lbd):
# CaDiCaL's defaults, windows of about 33 and 100,000 conflicts.
LBD_FAST = 0.03
LBD_SLOW = 1e-5


def luby(y: float, x: int) -> float:
    """The x-th term (from 0) of the Luby sequence scaled by powers of `y`.

    >>> [int(luby(2, i)) for i in range(7)]
    [1, 1, 2, 1, 1, 2, 4]
    """
    size, seq = 1, 0
    while size < x + 1:
        seq += 1
        size = 2 * size + 1
    while size - 1 != x:
        size = (size - 1) >> 1
        seq -= 1
        x = x % size
    return y**seq


class Engine(Vivification):
    """The CDCL search state (create, :meth:`load`, then :meth:`solve`, again and again).

    :class:`~sudosat.sat.solvers.cdcl.solver.Solver` is the public,
    DIMACS-speaking face of it; this class works in literal codes and keeps
    everything between calls: clauses (input and learnt), activities, saved
    phases, level-0 facts, the proof log. Its methods come in layers, one file
    per concern (see :mod:`sudosat.sat.solvers.cdcl`); this one adds the
    search loop, the restarts, the assumptions and the budgets.
    """

    def set_budget(
        self, deadline: Deadline, max_conflicts: int | None, max_propagations: int | None
    ) -> None:
        """Budget the next call (MiniSat's setConfBudget / setPropBudget, and a deadline).

        Pre: between calls. Post: the next :meth:`solve` answers UNKNOWN once
        `deadline` passes, or after `max_conflicts` more conflicts or
        `max_propagations` more propagations (None: no such budget); ``stopped``
        then says which.
        """
        self.deadline = deadline
        self.conflict_limit = math.inf if max_conflicts is None else self.conflicts + max_conflicts
        self.propagation_limit = (
            math.inf if max_propagations is None else self.propagations + max_propagations
        )
        self.next_look = self.propagations  # the first decision looks
        self.stopped = Stop.ANSWERED

    def stop_for_time(self) -> None:
        """Record a stop by :class:`OutOfTime` that no work budget claimed: the deadline's."""
        if self.stopped is Stop.ANSWERED:
            self.stopped = Stop.TIME

    def within_budget(self) -> bool:
        """MiniSat's ``withinBudget()``: False (``stopped`` says why) once a budget is spent.

        The search calls it before a decision once ``propagations`` reaches
        ``next_look``: the clock is read every :data:`LOOK_EVERY` propagations,
        a rate set by work done, not by a machine's speed. Conflicts are
        also counted against their budget where they happen (:meth:`search`).
        """
        if self.conflicts >= self.conflict_limit:  # a budget of 0 conflicts: no decision
            self.stopped = Stop.CONFLICTS
            return False
        if self.propagations >= self.propagation_limit:
            self.stopped = Stop.PROPAGATIONS
            return False
        if self.deadline.expired():
            self.stopped = Stop.TIME
            return False
        self.next_look = min(self.propagations + LOOK_EVERY, self.propagation_limit)
        return True

    def search(self, budget: float) -> Status | None:
        """CDCL until SAT, UNSAT, or `budget` conflicts or, in focused mode, :meth:`note_lbd`.

        Pre: level 0 after a restart. Post: SAT leaves a full assignment of the
        used variables; UNSAT sets ``ok`` False; None means restart (level 0).
        Raises :class:`OutOfTime` when the call's budget is spent (``stopped``
        says which): the conflict budget is read after each conflict's clause
        is learnt, the others (:meth:`within_budget`) where MiniSat reads its
        budget, after a propagation that ends without a conflict, before the
        next decision (a run of conflicts is bounded by the decision level,
        each backjumping at least one level).
        """
        conflicts_here = 0
        restart = False
        track = self.settings["target_phase"] != Target.NEVER or self.settings["rephase_first"]
        focused_after = math.inf if self.stable else self.settings["restart_min"]
        # Luby alone never reads the averages.
        averaging = self.settings["restart_mode"] != Restarts.LUBY
        while True:
            conflict = self.propagate()
            if conflict is not None:
                self.conflicts += 1
                conflicts_here += 1
                if not self.trail_lim:
                    self.ok = False
                    return Status.UNSAT
                if track:
                    self.note_consistent(self.trail_lim[-1])
                learnt, back, lbd = self.analyze(conflict)
                to = self.backtrack_level(back)
                # What the backjump throws away: phase saving makes the next decisions
                # propagate most of it again (benchmarks/backjumps.py measures the share).
                self.levels_jumped += len(self.trail_lim) - to
                self.backjumped += len(self.trail) - self.trail_lim[to]
                self.cancel_until(to)
                self.record(learnt, lbd)
                self.var_inc /= self.var_decay
                if averaging and self.note_lbd(lbd) and conflicts_here >= focused_after:
                    restart = True
                if self.conflicts >= self.conflict_limit:
                    self.stopped = Stop.CONFLICTS
                    raise OutOfTime
                continue
            if restart or conflicts_here >= budget:
                self.cancel_until(0)
                return None
            if self.propagations >= self.next_look and not self.within_budget():
                raise OutOfTime
            if not self.trail_lim and len(self.trail) != self.simp_trail:
                self.simplify()
            if self.conflicts >= self.next_reduce:
                self.next_reduce += self.reduce_interval
                self.reduce_interval += self.settings["reduce_inc"]
                self.reduce_db()
            lit = self.next_assumption() if len(self.trail_lim) < len(self.assumptions) else -1
            if lit == FAILED:
                return Status.UNSAT
            if lit < 0:
                if self.heap_after_assumptions:
                    self.heap_after_assumptions = False
                    if self.rescore_now:
                        self.rescore_now = False
                        self.rescore()
                    else:
                        self.trim_heap()
                lit = self.pick_branch_lit()
                if lit < 0:
                    return Status.SAT
                self.decisions += 1
            self.trail_lim.append(len(self.trail))
            self.assign(lit, None)

    def backtrack_level(self, back: int) -> int:
        """The level to backtrack to after a conflict whose clause asserts at `back`:
        `back` itself (backjumping); :class:`.chrono.ChronoEngine` may keep more."""
        return back

    def note_lbd(self, lbd: int) -> bool:
        """Average a learnt clause's LBD in; True when focused mode would restart now.

        Glucose's restart rule with exponential moving averages (Biere and
        Fröhlich, "Evaluating CDCL restart schemes"): restart when the recent
        LBDs (the fast average) run above the long-run ones (the slow average)
        by the factor ``restart_margin``. Each average takes the plain mean
        while fewer clauses have been seen than its window, so neither starts
        biased towards 0.
        """
        seen = self.lbd_seen = self.lbd_seen + 1
        self.lbd_fast += (lbd - self.lbd_fast) * max(LBD_FAST, 1.0 / seen)
        self.lbd_slow += (lbd - self.lbd_slow) * max(LBD_SLOW, 1.0 / seen)
        return self.lbd_fast > self.settings["restart_margin"] * self.lbd_slow

    def switch_mode(self) -> None:
        """Turn stable mode into focused mode or back (``restart_mode`` alternate), at a restart.

        Stable mode: Luby restarts, VSIDS decay ``var_decay``, target phases
        (``target_phase`` stable or always); focused mode: restarts by :meth:`note_lbd`,
        decay ``focused_decay``, target phases only with ``target_phase`` always.
        Each mode pair lasts ``mode_growth`` times as many conflicts as the last.
        """
        settings = self.settings
        self.stable = not self.stable
        if self.stable:
            self.mode_length *= settings["mode_growth"]
        self.var_decay = settings["var_decay"] if self.stable else settings["focused_decay"]
        self.use_target = self.target_wanted()
        self.next_switch = self.conflicts + self.mode_length

    def target_wanted(self) -> bool:
        """Whether decisions follow the target phase now (see ``target_phase``).

        Only once the current call has taken ``target_first`` conflicts: a
        question that takes few (a 9×9 puzzle) is searched as it was without
        target phases; CaDiCaL and Kissat, too, begin without them.
        """
        settings = self.settings
        mode = settings["target_phase"]
        return (
            (mode == Target.ALWAYS or (mode == Target.STABLE and self.stable))
            and self.conflicts - self.call_conflicts >= settings["target_first"]
        )

    def next_assumption(self) -> Code:
        """The next assumption to decide, -1 when all hold, or FAILED (``core`` set).

        Pre: every decision level so far holds one assumption (MiniSat's order:
        assumption k is decided at level k + 1). An assumption already true
        gets an empty level of its own; a false one ends the call.
        """
        assumptions, val, trail_lim = self.assumptions, self.val, self.trail_lim
        while len(trail_lim) < len(assumptions):
            p = assumptions[len(trail_lim)]
            if val[p] == 1:
                trail_lim.append(len(self.trail))
            elif val[p]:
                self.core = self.analyze_final(p)
                return FAILED
            else:
                return p
        return -1

    def prepare_first_call(self) -> bool:
        """Propagate the level-0 facts, simplify, and score the variables: the first call's start.

        The first activities score the formula the level-0 facts leave
        (:meth:`init_activity`), so those facts are propagated first; a
        conflict there is the clauses' own (False: UNSAT), as it would be in
        search. The search would simplify first thing anyway; before the
        scores, it shortens what they read. Raises :class:`OutOfTime` between
        the steps (each reads the whole formula): every step can run again,
        so a later call starts over where this one stopped. Pre:
        level 0 or assumption levels. Post: level 0; True, or False for UNSAT.
        """
        self.cancel_until(0)
        if self.propagate() is not None:
            self.conflicts += 1
            self.ok = False
            return False
        if not self.in_time():
            raise OutOfTime
        self.simplify()
        if not self.in_time():
            raise OutOfTime
        self.init_heap()
        self.first_phase = list(self.phase)
        return True

    def solve(self, assumptions: list[Code] | tuple = ()) -> Status:
        """Restart loop, under `assumptions` (literal codes, decided first).

        Stable mode restarts by the Luby sequence (its index counts this call's
        stable restarts), focused mode by :meth:`note_lbd`; between two
        searches the mode switches and the phases are reset when due
        (:meth:`switch_mode`, :meth:`rephase`). Target and best phases are each
        call's own.

        Pre: level 0, loaded. Post: SAT (the trail is a full assignment, to be
        read before :meth:`cancel_until` (0)), UNSAT (``ok`` False when the
        clauses alone are unsatisfiable, else ``core`` is the failed subset of
        the assumptions) or UNKNOWN (:class:`OutOfTime` from
        :meth:`prepare_first_call` or :meth:`search`: a budget ran out, and
        ``stopped`` says which; the state is consistent, at any level).
        """
        self.core = None
        if not self.ok:
            self.core = []
            return Status.UNSAT
        if not self.started:
            try:
                if not self.prepare_first_call():
                    self.core = []
                    return Status.UNSAT
            except OutOfTime:
                self.stop_for_time()
                return Status.UNKNOWN
            self.started = True
        elif self.heap_stale:
            self.rebuild_heap()
        self.heap_stale = False
        self.assumptions = list(assumptions)
        # Only the call right after expect_new_question ranks anew, even if it ends
        # before any free decision (an assumption fails, or propagation solves it).
        self.rescore_now, self.rescore_next = self.rescore_next, False
        self.heap_after_assumptions = bool(assumptions) or self.rescore_now
        unit = self.settings["restart_first"]
        conflicts_before = self.call_conflicts = self.conflicts
        # The target and best phases are each question's own: none is carried over.
        self.target = self.best = None
        self.target_len = self.best_len = 0
        self.use_target = self.target_wanted()
        restarts = 0  # this call's stable restarts: its Luby index
        while True:
            try:
                status = self.search(luby(2, restarts) * unit if self.stable else math.inf)
            except OutOfTime:
                self.stop_for_time()
                return Status.UNKNOWN
            if status is not None:
                if status is Status.UNSAT and not self.ok:
                    self.core = []
                spent = self.conflicts - conflicts_before
                self.conflicts_per_call = 0.75 * self.conflicts_per_call + 0.25 * spent
                return status
            self.restarts += 1
            restarts += self.stable
            if self.conflicts >= self.next_switch:
                self.switch_mode()
            if self.conflicts >= self.next_rephase:
                self.rephase()
            if self.vivify_due():
                self.vivify()
                if not self.ok:
                    self.core = []
                    return Status.UNSAT
            if not self.use_target:
                self.use_target = self.target_wanted()
            if len(self.heap) > 3 * self.num_vars + 100:
                self.rebuild_heap()  # drop the stale entries lazy re-insertion leaves behind

    # -- answers --------------------------------------------------------------------------

    def model(self) -> list[int]:
        """One signed literal per variable; unassigned (unused) variables read as false.

        The values are only read: the solver may go on (incremental use).
        """
        return signed_model(self.val, self.num_vars)

    def counters(self) -> dict[str, float]:
        """The counters since the engine was made."""
        return {
            "decisions": self.decisions,
            "propagations": self.propagations,
            "conflicts": self.conflicts,
            "restarts": self.restarts,
            "learnt": self.learnt_count,
            "deleted": self.deleted,
            "backjumped": self.backjumped,
            "levels_jumped": self.levels_jumped,
        }

