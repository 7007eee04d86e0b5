"""The branching heuristic: VSIDS activities in a lazy heap, first scores, phases.

VSIDS is kept in :mod:`heapq` (C) with lazy re-insertion instead of an
indexed heap written in Python: ``heap_key[v]`` is the activity of ``v``'s
live entry (-1: none), and an entry whose key differs is stale and skipped.
Activities start from occurrence counts as in Chaff or, when level 0 holds
facts, from Jeroslow–Wang products of the formula they leave. A variable's
phase is the literal it is decided to: its first one by the tunable
``initial_phase``, then the value it last had (phase saving), or its target
phase: its value in the longest conflict-free trail so far (CaDiCaL's and
Kissat's, after Biere and Fleury), which :meth:`Heuristic.rephase` resets.

Its compiled twin, which does the same work over C arrays, is
:mod:`sudosat.sat.solvers.cdcl.compiled.heuristic` (see :mod:`~sudosat.sat.solvers.cdcl.cores`).
"""

from __future__ import annotations

from heapq import heapify, heappop
from itertools import compress, islice, repeat
from operator import add, gt, mul, not_, sub, xor

from sudosat.sat.solvers.cdcl.propagation import Propagation
from sudosat.sat.solvers.cdcl.tunables import Phase
from sudosat.sat.solvers.codes import Code


class Heuristic(Propagation):
    """The engine's decision layer: which variable next, with which phase."""

    def init_heap(self) -> None:
        """Put every used, unassigned variable in the heap (activity ties: lower index first)."""
        self.init_activity()
        if self.seed:
            jitter = self.rng.random
            self.activity = [a + jitter() * 1e-5 for a in self.activity]
        self.rebuild_heap()

    def init_activity(self) -> None:
        """Start each activity at a static score, scaled into [0, 1).

        One conflict's bump (at least 1) outweighs it: the score orders the
        first decisions and breaks ties between equally bumped variables.
        Pre: level 0, propagated (:meth:`solve` propagates the level-0 facts
        first).

        With level-0 facts (a Sudoku's givens), the score is the
        :meth:`jw_products` of the formula they leave: occurrence counts tie
        every Sudoku variable, the products rank first the cells with fewest
        candidates. Without any (random 3-SAT), it is the variable's number of
        occurrences, as in Chaff's original VSIDS; there the products were no
        better, so a formula without facts keeps the order it had. With
        ``initial_phase`` occurrences (the default), each variable of such a formula
        first takes the phase of the sign it has in more clauses.
        ``benchmarks/cdcl_ab.py`` compares such choices by their conflict
        totals and CPU time.
        """
        if self.trail:
            scores = self.jw_products()
            top = max(scores)
            scale = 0.5 / top if top else 0.0
            self.activity = [score * scale for score in scores]
            return
        in_long = [0] * len(self.val)  # per literal code: its long clauses
        for clause in self.clauses:
            for lit in clause:
                in_long[lit] += 1
        # Binary and ternary clauses holding ¬p are listed under p; the occurrences of
        # v and of ¬v (v = 1..n) are summed by map in C: this runs at the start of every
        # one-shot call.
        under = list(map(add, map(len, self.bins), map(len, self.terns)))
        positive = list(map(add, in_long[2::2], under[3::2]))
        negative = list(map(add, in_long[3::2], under[2::2]))
        counts = [0, *map(add, positive, negative)]
        scale = 1.0 / (max(counts) + 1)
        self.activity = [count * scale for count in counts]
        if self.settings["initial_phase"] == Phase.OCCURRENCES:
            # The more frequent sign first, ties false: 2v + 1 - (positive > negative).
            odd = range(3, 2 * len(positive) + 2, 2)
            self.phase[1:] = map(sub, odd, map(gt, positive, negative))

    def jw_products(self) -> list[float]:
        """Per variable (index 0 unused), ``J(x) * J(¬x)``: Jeroslow–Wang weights multiplied.

        ``J(l)`` sums ``2**-k`` over the clauses holding ``l`` that the current
        assignment does not satisfy, ``k`` their free literals (Jeroslow and
        Wang: short clauses weigh most); learnt clauses do not count, except
        binary ones. The product ranks first a variable whose two values both
        shorten short clauses, as lookahead solvers (march) rank theirs. On a
        Sudoku's course CNF the givens leave each cell an at-least-one clause of
        its candidates, so the first decisions fall on the cells with fewest
        candidates. Pre: propagated, at level 0 or with only the call's
        assumptions decided (:meth:`rescore`).
        """
        val = self.val
        value = val.__getitem__
        # under[p]: the weight of the clauses that hold ¬p (bins[p] and terns[p]
        # list such clauses by their other literals); J(l) is under[l ^ 1].
        under = [0.0] * len(val)
        bins, terns = self.bins, self.terns
        if not self.trail_lim and self.bins_trail == len(self.trail):
            # Just after a level-0 simplification pruned the satisfied binary clauses
            # (the first call on a Sudoku's givens): a free literal's list holds only free
            # literals, so its weight is its length, summed for every literal in C
            # (an assigned literal's weight is 0).
            under[2:] = map(mul, map(mul, map(len, islice(bins, 2, None)),
                                     map(not_, islice(val, 2, None))), repeat(0.25))
            free = []
        else:
            free = list(compress(range(2, len(val)), map(not_, islice(val, 2, None))))  # in C
            for p in free:
                implied = bins[p]
                if implied:
                    # The other literal of a binary clause listed under a free p is true
                    # (the clause is satisfied) or free, never false: propagation would
                    # have set p false. The sum counts the true ones.
                    under[p] = 0.25 * (len(implied) - sum(map(value, implied)))
        if any(terns):
            if not free:
                free = list(compress(range(2, len(val)), map(not_, islice(val, 2, None))))
            for p in free:
                pairs = terns[p]
                if pairs:
                    for b, c, _ in pairs:
                        vb, vc = val[b], val[c]
                        if vb != 1 and vc != 1:
                            under[p] += 0.5 ** (1 + (not vb) + (not vc))
        for clause in self.clauses:
            values = list(map(value, clause))
            if 1 not in values:
                weight = 0.5 ** values.count(0)
                for lit in clause:
                    if not val[lit]:
                        under[lit ^ 1] += weight
        return [0.0, *map(mul, under[2::2], under[3::2])]

    def rebuild_heap(self) -> None:
        """Rebuild the heap from scratch. Post: exactly one live entry per free used variable."""
        activity, used, val, key = self.activity, self.used, self.val, self.heap_key
        free = [v for v in range(1, self.num_vars + 1) if used[v] and not val[2 * v]]
        key[:] = [-1.0] * len(key)
        for v in free:
            key[v] = activity[v]
        heap = [(-activity[v], v) for v in free]
        heapify(heap)
        self.heap = heap

    def pick_branch_lit(self) -> Code:
        """The next decision literal, or -1 when every used variable is assigned.

        Post: the returned literal is unassigned; its sign is the saved phase.
        """
        freq = self.settings["random_var_freq"]
        val = self.val
        if freq and self.rng.random() < freq:
            free = [v for v in range(1, self.num_vars + 1) if self.used[v] and not val[2 * v]]
            if free:
                v = self.rng.choice(free)
                return self.phase[v]
        heap = self.heap
        key = self.heap_key
        while heap:
            a, v = heappop(heap)
            if -a == key[v]:
                key[v] = -1.0
            if not val[2 * v]:
                target = self.target
                if target is not None and self.use_target:
                    return target[v]
                return self.phase[v]
        return -1

    def note_consistent(self, size: int) -> None:
        """Record the trail's first `size` literals as target and best phase if longest so far.

        Called at a conflict with `size` the start of the conflict's level: the
        trail below it was propagated without a conflict. A recorded phase is
        the saved phases with those literals written over them (CaDiCaL's and
        Kissat's target and best phases); when both are recorded at once they
        share one list (only ever replaced, never changed in place).
        """
        if size <= self.target_len and size <= self.best_len:
            return
        recorded = list(self.phase)
        var_of = self.var_of
        for lit in islice(self.trail, size):
            recorded[var_of[lit]] = lit
        if size > self.target_len:
            self.target, self.target_len = recorded, size
        if size > self.best_len:
            self.best, self.best_len = recorded, size

    def rephase(self) -> None:
        """Reset the saved phases (Biere's rephasing), and forget the target phase.

        The k-th rephasing (from 0) takes, in turn, the original phases, their
        inversions, then cycles through best, original, best, inverted, best,
        flipped (every saved phase negated); "best" is the longest
        conflict-free assignment since the last best rephasing, which then
        starts anew. Pre: level 0. The next is due ``rephase_first`` times
        (k + 2) conflicts later.
        """
        count = self.rephases
        kind = "OI"[count] if count < 2 else "BOBIBF"[(count - 2) % 6]
        phase = self.phase
        if kind == "B" and self.best is not None:
            phase[:] = self.best
            self.best, self.best_len = None, 0
        elif kind == "O":
            phase[:] = self.first_phase
        elif kind == "I":
            phase[:] = map(xor, self.first_phase, repeat(1, len(phase)))
        elif kind == "F":
            phase[:] = map(xor, phase, repeat(1, len(phase)))
        self.target, self.target_len = None, 0
        self.rephases = count + 1
        self.next_rephase = self.conflicts + self.settings["rephase_first"] * (count + 2)

    def rescale(self) -> None:
        """Scale every activity down by 1e100 (they only grow) and rebuild the heap."""
        self.activity = [x * 1e-100 for x in self.activity]
        self.var_inc *= 1e-100
        self.rebuild_heap()

    def rescore(self) -> None:
        """Set the activities to the :meth:`jw_products` of the current assignment, and the heap.

        Scaled to half of one conflict's bump, as :meth:`init_activity` scales
        the first scores: the next conflict's bumps outweigh them. Pre: no
        decision beyond the call's assumptions; propagated.
        """
        scores = self.jw_products()
        top = max(scores)
        scale = 0.5 * self.var_inc / top if top else 0.0
        self.activity = [score * scale for score in scores]
        self.rebuild_heap()

    def trim_heap(self) -> None:
        """Rebuild the heap when most of its entries are assigned variables.

        Called when many variables may have just been fixed: by a call's first
        heuristic decision once its assumptions hold (a puzzle's givens fix
        most variables) and by a level-0 simplification that fixed many; each
        assigned variable's entry would cost a pop.
        """
        free = self.num_vars - len(self.trail)
        if len(self.heap) > 2 * free + 64:
            self.rebuild_heap()

    def expect_new_question(self) -> None:
        """Rank the variables anew at the next call's first free decision, if calls cost enough.

        The activities of one question (one puzzle under its givens) say little
        about the next. :meth:`rescore` ranks the variables on what the next
        call's assumptions leave, as the first call ranks them on the level-0
        facts; it reads every clause, so it is worth its time only when calls
        take many conflicts (the tunable ``rescore_conflicts``;
        ``benchmarks/rescore.py`` compares both ways).
        """
        self.rescore_next = self.conflicts_per_call >= self.settings["rescore_conflicts"]
