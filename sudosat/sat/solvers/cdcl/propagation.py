"""Unit propagation and backjumping: the engine's propagation layer.

Each variable's value, level and reason are written when it is assigned
(``val``, ``level``, ``reason``) and the literal goes on the ``trail``;
``trail_lim[k]`` is where decision level k + 1 starts there, and ``qhead``
how much of the trail is propagated.

Its compiled twin, which does the same work over C arrays, is
:mod:`sudosat.sat.solvers.cdcl.compiled.propagation` (see :mod:`~sudosat.sat.solvers.cdcl.cores`).
"""

from __future__ import annotations

from collections.abc import Iterator
from heapq import heappush

from sudosat.sat.solvers.cdcl.loader import Loading
from sudosat.sat.solvers.cdcl.reasons import Clause, Implication
from sudosat.sat.solvers.codes import Code


def unpropagated(trail: list[Code], start: int) -> Iterator[Code]:
    """The literals of `trail` from index `start` on, and those appended while they are read.

    A list iterator compares its position with the list's length at every
    step, so it also yields what propagation appends; its position is set to
    `start` (``__setstate__``, as unpickling does) instead of walking there. No
    literal then pays for an index and a length test in :meth:`~Propagation.propagate`:
    a plain ``while qhead < len(trail)`` loop cost 1-6 % of the solver's CPU time
    (``benchmarks/results/cdcl_ab_index_loop.csv``).
    """
    pending = iter(trail)
    # typeshed types iter(list) as a plain Iterator, without list_iterator's __setstate__.
    pending.__setstate__(start)  # type: ignore[attr-defined]
    return pending


class Propagation(Loading):
    """The engine's propagation layer: :meth:`propagate` and :meth:`cancel_until`."""

    def propagate(self) -> Implication | None:
        """Unit propagation of every literal on the trail from ``qhead``.

        Pre: watched literals are clause[0] and clause[1]; ``trail[:qhead]`` is
        propagated. Post: returns None with ``qhead == len(trail)``, or the
        conflicting clause (a list or tuple of false literals; a fresh 2-list
        for a binary clause). An implied literal sits at position 0 of a
        stored reason clause, anywhere in an input ternary one (see
        :class:`ReasonKind`). Never reads the clock (see ``within_budget``).

        Each true literal `p` is read in three steps: (1) ``bins[p]``, binary
        clauses, the literals p implies; (2) ``terns[p]``, input ternary clauses
        holding ¬p, by their two other literals; (3) ``watches[¬p]``, stored
        clauses watching ¬p, now false. The steps are written out here, not
        called: this runs once per assigned literal, and a method per step cost
        about 15 % of the solver's CPU time
        (``benchmarks/results/cdcl_ab_split_propagate.csv``).
        """
        val, trail, level, reason = self.val, self.trail, self.level, self.reason
        watches, bins, terns = self.watches, self.bins, self.terns
        var_of, neg_of = self.var_of, self.neg_of
        current_level = len(self.trail_lim)
        start = self.qhead
        conflict: Implication | None = None
        for p in unpropagated(trail, start):
            false_lit = neg_of[p]
            # (1) Binary clauses {¬p, q}: every q in bins[p] must be true.
            implied = bins[p]
            if implied:  # a test, not an empty loop: most literals imply no binary here
                for q in implied:
                    if val[q] == 1:  # most are: the value is read again only when not
                        continue
                    if val[q]:
                        conflict = [q, false_lit]
                        break
                    val[q] = 1
                    val[neg_of[q]] = -1
                    v = var_of[q]
                    level[v] = current_level
                    reason[v] = false_lit
                    trail.append(q)
                if conflict is not None:
                    break
            # (2) Ternary input clauses {¬p, b, c}: a unit when one of b, c is false, the
            # other free. Their sum is -1 only then, and -2 only for two false ones.
            ternaries = terns[p]
            if ternaries:  # Sudoku has no ternary clauses: one test per literal
                for b, c, tern in ternaries:
                    if val[b] + val[c] >= 0:
                        continue
                    if val[b]:  # b false: c is implied, or the clause is falsified
                        if val[c]:
                            conflict = tern
                            break
                        b = c
                    val[b] = 1
                    val[neg_of[b]] = -1
                    v = var_of[b]
                    level[v] = current_level
                    reason[v] = tern  # the clause's own tuple: nothing is built
                    trail.append(b)
                if conflict is not None:
                    break
            # (3) Watched clauses (MiniSat's invariant: a stored clause is listed under
            # clause[0] and clause[1]; once propagation is done a false watch has a true
            # partner). Each clause watching false_lit finds a non-false literal to watch
            # instead (and moves to its list), or keeps this watch and is satisfied by the
            # other one, unit (it is implied) or falsified.
            watchers = watches[false_lit]
            if not watchers:
                continue
            keep: list[Clause] = []
            rest = iter(watchers)
            for clause in rest:
                other = clause[0]
                if other == false_lit:  # the false watch goes to position 1
                    other = clause[1]
                    clause[0] = other
                    clause[1] = false_lit
                if val[other] == 1:  # the other watch is true: it blocks the scan
                    keep.append(clause)
                    continue
                lit = clause[2]  # most moves find their new watch here, without a loop
                if val[lit] != -1:
                    clause[1] = lit
                    clause[2] = false_lit
                    watches[lit].append(clause)
                    continue
                for k in range(3, len(clause)):
                    lit = clause[k]
                    if val[lit] != -1:
                        clause[1] = lit
                        clause[k] = false_lit
                        watches[lit].append(clause)
                        break
                else:  # no literal to watch instead: unit or falsified, the watch stays
                    keep.append(clause)
                    if val[other]:
                        conflict = clause
                        keep.extend(rest)
                        break
                    val[other] = 1
                    val[neg_of[other]] = -1
                    v = var_of[other]
                    level[v] = current_level
                    reason[v] = clause
                    trail.append(other)
            watches[false_lit] = keep
            if conflict is not None:
                break
        # Without a conflict every literal is propagated; with one, those up to p.
        qhead = len(trail) if conflict is None else trail.index(p, start) + 1
        self.propagations += qhead - start
        self.qhead = qhead
        return conflict

    def cancel_until(self, lvl: int) -> None:
        """Undo every assignment above decision level `lvl`.

        Pre: ``lvl`` <= current level. Post: the trail ends at level ``lvl``;
        each undone variable keeps its last value as its saved phase and is
        back in the VSIDS heap with its current activity.
        """
        trail_lim = self.trail_lim
        if len(trail_lim) <= lvl:
            return
        trail = self.trail
        lim = trail_lim[lvl]
        val = self.val
        var_of, neg_of = self.var_of, self.neg_of
        phase = self.phase
        activity = self.activity
        key = self.heap_key
        heap = self.heap
        for lit in trail[lim:]:
            val[lit] = 0
            val[neg_of[lit]] = 0
            v = var_of[lit]
            phase[v] = lit
            a = activity[v]
            if a != key[v]:
                key[v] = a
                heappush(heap, (-a, v))
        del trail[lim:]
        del trail_lim[lvl:]
        self.qhead = lim

