"""Keeping the trail after a conflict: chronological backtracking and trail reuse.

MiniSat's engine backjumps: after learning a clause it undoes every level
above the one where the clause is unit. With the tunable ``chrono`` the
search keeps more of the trail (:meth:`ChronoEngine.backtrack_level`):

* ``chrono="reuse"`` (:attr:`~.tunables.Backtrack.REUSE`), trail reuse: keep
  the levels that the decisions after a backjump would build again (CaDiCaL
  reuses the trail so at restarts);
* ``chrono="chrono"`` (:attr:`~.tunables.Backtrack.CHRONO`), chronological
  backtracking (Nadel and Ryvchin, SAT 2018): undo the conflict's level only.

Either applies only when the backjump would undo more than
``chrono_levels`` levels. The learnt clause's literal is then asserted at
its own level (the highest of the clause's other literals) on top of
higher levels: the trail is *out of order*. From then on a literal's level
is the highest of its reason's other literals, not the level whose part of
the trail holds it; a conflict is analysed at the level it lies at; and a
backtrack keeps the literals of levels it does not undo, propagating them
again (a clause they made unit may have lost its implied literal).

This is a subclass, chosen once per solver (see
:class:`~sudosat.sat.solvers.cdcl.solver.Solver`), so that the default
search runs the plain engine's code and pays nothing for it.
``benchmarks/backtracking.py`` measures both against backjumping.
"""

from __future__ import annotations

import math
from heapq import heappop

from sudosat.sat.solvers.cdcl.engine import Engine
from sudosat.sat.solvers.cdcl.reasons import Clause, Implication
from sudosat.sat.solvers.cdcl.tunables import Backtrack
from sudosat.sat.solvers.codes import Code


class ChronoEngine(Engine):
    """The engine that keeps the trail after a conflict (tunable ``chrono`` 1 or 2)."""

    def propagate(self) -> Implication | None:
        """:meth:`Engine.propagate`, then the levels of what it implied out of order; a
        conflict is left at the level it lies at, the highest of its literals' (Nadel and
        Ryvchin's rule), for the search to analyse it there (level 0: UNSAT)."""
        start = self.qhead
        conflict = super().propagate()
        if self.out_of_order:
            self.settle_levels(start)
            if conflict is not None:
                self.cancel_until(self.highest_level(conflict))
        return conflict

    def settle_levels(self, first: int) -> None:
        """Give each implied literal from trail position `first` on its own level.

        Propagation writes the current level; on a trail out of order an
        implied literal's level is the highest of its reason's other
        literals, which may be lower. Those lie earlier on the trail, so one
        pass in trail order settles every level (one settled before keeps it).
        """
        level, reason, var_of = self.level, self.reason, self.var_of
        highest_level = self.highest_level
        for lit in self.trail[first:]:
            v = var_of[lit]
            why = reason[v]
            if isinstance(why, int):  # a binary clause's other literal
                level[v] = level[var_of[why]]
            elif why is not None:  # (None: the decision this propagation started from)
                level[v] = highest_level(why, lit)

    def highest_level(self, lits: Implication, but: Code = -1) -> int:
        """The highest level among the assigned literals `lits` other than `but` (0 if none)."""
        level, var_of = self.level, self.var_of
        return max([level[var_of[q]] for q in lits if q != but], default=0)

    def backtrack_level(self, back: int) -> int:
        """The level to backtrack to after a conflict whose clause asserts at level `back`."""
        current = len(self.trail_lim)
        if current - back <= self.settings["chrono_levels"]:
            return back
        if self.settings["chrono"] == Backtrack.REUSE:
            return self.rebuilt_levels(back)
        return current - 1

    def record(self, learnt: Clause, lbd: int) -> None:
        """:meth:`Engine.record`, its literal at the clause's own level: that of learnt[1],
        the highest of the others, which puts the trail out of order when below the
        current level."""
        super().record(learnt, lbd)
        at = self.level[learnt[1] >> 1] if len(learnt) > 1 else 0
        if at < len(self.trail_lim):
            self.level[learnt[0] >> 1] = at
            self.out_of_order = True

    def rebuilt_levels(self, back: int) -> int:
        """The highest level below the current one that the decisions after a backjump to
        `back` would build again (`back` when none): the trail up to it can stay.

        After backjumping to `back`, the heuristic decides the free variable of
        highest activity, to its phase. Levels back + 1 .. k can be kept when
        each of their decisions outranks every variable a backjump to k would
        leave free, and would be decided to the value it has: deciding them
        again, in any order, would propagate what is on the trail now (the
        learnt clause's literal aside, which the caller asserts on top).
        Assumption levels are rebuilt as they are. Pre: ``back`` < current
        level.
        """
        trail, trail_lim, var_of = self.trail, self.trail_lim, self.var_of
        activity, heap, key, val = self.activity, self.heap, self.heap_key, self.val
        top = len(trail_lim) - 1
        if top <= back:
            return back
        # The best free variable; stale and assigned entries go, as a decision drops them.
        free_best = 0.0
        while heap:
            a, v = heap[0]
            if -a != key[v]:
                heappop(heap)
            elif val[2 * v]:
                heappop(heap)
                key[v] = -1.0
            else:
                free_best = -a
                break
        # above[k]: the best activity free after a backjump to level k (for k > back: a
        # backjump to back itself is what the caller does without this).
        above = [0.0] * (top + 1)
        best = free_best
        pos = len(trail)
        for k in range(top, back, -1):
            start = trail_lim[k]
            if pos > start:
                best = max(best, max([activity[var_of[q]] for q in trail[start:pos]]))
                pos = start
            above[k] = best
        assumed = len(self.assumptions)
        # Phase saving would decide each variable to the value it has; a target may not.
        target = self.target if self.use_target else None
        weakest = math.inf
        kept = back
        for k in range(back + 1, top + 1):
            if k > assumed:
                decision = trail[trail_lim[k - 1]]
                v = var_of[decision]
                if target is not None and target[v] != decision:
                    break
                weakest = min(weakest, activity[v])
            if weakest >= above[k]:
                kept = k
        return kept

    def cancel_until(self, lvl: int) -> None:
        """:meth:`Engine.cancel_until`; out of order, the literals of levels up to `lvl`
        above ``trail_lim[lvl]`` stay, moved down in their order, to be propagated again."""
        trail_lim = self.trail_lim
        if not self.out_of_order or len(trail_lim) <= lvl:
            super().cancel_until(lvl)
            return
        trail, level, var_of, val = self.trail, self.level, self.var_of, self.val
        kept = [lit for lit in trail[trail_lim[lvl] :] if level[var_of[lit]] <= lvl]
        super().cancel_until(lvl)  # undoes them too, leaving their levels and reasons
        for lit in kept:
            val[lit] = 1
            val[lit ^ 1] = -1
        trail += kept  # qhead is where they start: they are propagated again
        # At level 0 every literal left is at level 0: the trail is in order again.
        self.out_of_order = lvl > 0
