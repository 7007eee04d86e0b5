"""Conflict analysis: first-UIP learning, minimisation, recording, the final conflict.

First-UIP conflict analysis with recursive (MiniSat "deep") minimisation of
the learnt clause, then, with the tunable ``shrink``, all-UIP shrinking; its
LBD (the number of levels it spans) is kept for the clause database.
``analyze_final`` is MiniSat's analyzeFinal: the failed assumptions of an
UNSAT answer under assumptions.

Its compiled twin, which does the same work over C arrays, is
:mod:`sudosat.sat.solvers.cdcl.compiled.analysis` (see :mod:`~sudosat.sat.solvers.cdcl.cores`).
"""

from __future__ import annotations

from collections.abc import Iterator

from sudosat.sat.solvers.cdcl.heuristic import Heuristic
from sudosat.sat.solvers.cdcl.reasons import Clause, Implication, Reason, reason_literals
from sudosat.sat.solvers.cdcl.state import LEVEL_BITS
from sudosat.sat.solvers.cdcl.tunables import Minimize
from sudosat.sat.solvers.codes import Code


class Analysis(Heuristic):
    """The engine's learning layer: from a conflict to an asserting clause on the trail."""

    def analyze(self, confl: Implication) -> tuple[Clause, int, int]:
        """First-UIP learning from a conflict at the current level.

        Pre: every literal of ``confl`` is false; current level > 0; ``seen`` is
        all zero. Post: returns (learnt, backtrack level, LBD); learnt[0] is the
        asserting literal (the negated UIP), learnt[1] has the highest level
        among the rest; ``seen`` is all zero again.
        """
        seen, level, reason, trail = self.seen, self.level, self.reason, self.trail
        var_of = self.var_of
        activity = self.activity
        inc = self.var_inc
        dl = len(self.trail_lim)
        if dl >= len(self.level_bit):
            self.more_levels(dl)
        level_bit = self.level_bit
        # The learnt clause's literals below the current level. Here and below, list
        # appends are spelled out: CPython 3.11 inlines `xs.append(x)`, and calls a
        # bound `append` kept in a local.
        found: list[Code] = []
        abstract = 0  # their levels, hashed to 32 bits (see redundant)
        path = 0
        # The trail walked down from its end: a reverse iterator costs less per step
        # than an index, and each walk resumes where the last one stopped.
        walk = reversed(trail)
        lits = confl
        pv = 0  # the variable whose reason `lits` is (0, never seen, for the conflict)
        # Every clause resolved, for the tiered reduction (reduce_db); recorded only when
        # that tier is on, so the default search neither pays the append nor keeps the
        # clauses alive until the next reduction.
        touched = self.touched if self.settings["tier2_lbd"] else None
        in_order = not self.out_of_order
        while True:
            if touched is not None:
                touched.append(lits)
            for q in lits:
                v = var_of[q]
                if not seen[v]:
                    lv = level[v]
                    if lv >= dl:
                        seen[v] = 1
                        activity[v] += inc
                        path += 1
                    elif lv:  # level-0 literals are left out
                        seen[v] = 1
                        activity[v] += inc
                        found.append(q)
                        abstract |= level_bit[lv]
            # Unmarked only now: its own literal, first in its reason, was skipped as
            # seen, which costs less than a slice without it. The trail walk is below
            # it already, and no earlier reason holds it, so the late mark is never read.
            seen[pv] = 0
            # A marked literal of the current level lies below: `path` counts them. On
            # a trail out of order the clause's marked lower-level literals may lie
            # among them, told apart by their level; in order they all lie deeper.
            if in_order:
                for p in walk:
                    if seen[var_of[p]]:
                        break
            else:
                for p in walk:
                    if seen[var_of[p]] and level[var_of[p]] >= dl:
                        break
            pv = var_of[p]
            path -= 1
            if not path:
                break
            r = reason[pv]
            # An implied literal's reason is never None, and mypy narrows `__class__ is
            # int` in its own branch only (bool would take the other): telling it so (a
            # cast, an assert) would cost work per literal.
            lits = (r,) if r.__class__ is int else r  # type: ignore[assignment]
        seen[pv] = 0
        # An activity is at most inc / (1 - var_decay) (a geometric series of
        # bumps), so checking inc alone keeps every activity far from overflow.
        if inc > 1e100:
            self.rescale()
        return self.finish_learnt(p ^ 1, found, abstract)

    def finish_learnt(
        self, asserting: Code, found: list[Code], abstract: int
    ) -> tuple[Clause, int, int]:
        """The learnt clause of :meth:`analyze`: `asserting` and `found` minimised, ordered.

        Pre: ``seen`` marks exactly the variables of `found` (the clause's
        literals below the current level), `abstract` their levels (see
        :meth:`redundant`). Post: (learnt, backtrack level, LBD), learnt[0]
        is `asserting`, learnt[1] has the highest level among the rest;
        ``seen`` is all zero again.
        """
        seen, level, var_of = self.seen, self.level, self.var_of
        if not found:
            return [asserting], 0, 1
        if len(found) > 1 and self.settings["minimize"] != Minimize.NONE:
            kept = self.minimize(found, abstract)
        else:
            kept = found
            for q in found:
                seen[var_of[q]] = 0
        # The backtrack level, where out[1] goes, and the LBD: bit 0 of `levels`
        # stands for the current level (the UIP's), above every level of `kept`.
        # A counted index: enumerate, or indexing the clause, costs more.
        i = best = top = 0
        levels = 1
        for q in kept:
            i += 1  # noqa: SIM113
            lv = level[var_of[q]]
            levels |= 1 << lv
            if lv > top:
                best, top = i, lv
        lbd = levels.bit_count()
        # Shrinking keeps the levels (so the LBD and the backtrack level): only where
        # a level holds two literals or more, and then only out[1]'s place moves.
        if len(kept) >= lbd and self.settings["shrink"] and not self.out_of_order:
            kept, best = self.shrink(kept, top)
        out = [asserting, *kept]
        out[1], out[best] = out[best], out[1]
        return out, top, lbd

    def shrink(self, kept: list[Code], top: int) -> tuple[list[Code], int]:
        """All-UIP shrinking (Feng and Bacchus, SAT 2020): each level's literals in `kept`
        replaced by one, the negation of that level's UIP among them, where resolving with
        reasons needs no literal of a lower level that the clause lacks.

        The clause keeps its levels, so its LBD and backjump level stay; it is
        shorter, and still follows from the formula by unit propagation (each
        level's literals follow from its UIP and the clause's lower levels).
        Pre: `kept` are the learnt clause's literals below the current level,
        two or more of them on some level, `top` the highest of their levels;
        the trail in order, ``seen`` all zero. Post: returns the shrunk literals
        (each level's where its first literal was) and the place, counted from
        1, of the first one of level `top`; ``seen`` all zero again.
        """
        level, var_of, seen = self.level, self.var_of, self.seen
        blocks: dict[int, list[Code]] = {}
        for q in kept:  # marked and grouped by level in one pass
            v = var_of[q]
            seen[v] = 1
            lv = level[v]
            block = blocks.get(lv)
            if block is None:
                blocks[lv] = [q]
            else:
                block.append(q)
        out: list[Code] = []
        block_uip = self.block_uip
        best = 0
        for lv, block in blocks.items():
            if lv == top:
                best = len(out) + 1
            if len(block) == 1:
                out.append(block[0])
                continue
            uip = block_uip(lv, len(block))
            if uip < 0:
                out += block
            else:
                out.append(uip ^ 1)
        for q in kept:
            seen[var_of[q]] = 0
        return out, best

    def block_uip(self, lv: int, count: int) -> Code:
        """The UIP of the `count` marked literals of level `lv`, or -1 when there is none
        without a literal of a lower level that is not marked (see :meth:`shrink`).

        The level's part of the trail is walked down from its end; each marked
        literal but the last open one is replaced by the other literals of its
        reason, marked in turn (those of level 0 are left out). The last one
        left open is the UIP, a true literal. Post: only the marks there were
        before remain.
        """
        seen, level, reason, var_of = self.seen, self.level, self.reason, self.var_of
        trail_lim = self.trail_lim
        marked: list[int] = []
        uip = -1
        for p in reversed(self.trail[trail_lim[lv - 1] : trail_lim[lv]]):
            v = var_of[p]
            if not seen[v]:
                continue
            count -= 1
            if not count:
                uip = p
                break
            r = reason[v]  # not None: a decision is its level's first literal, the last open
            for x in (r,) if r.__class__ is int else r:  # type: ignore[union-attr]
                w = var_of[x]
                if seen[w]:  # marked, or v itself (its own literal in a stored reason)
                    continue
                lw = level[w]
                if lw == lv:
                    seen[w] = 1
                    marked.append(w)
                    count += 1
                elif lw:  # a lower level's literal the clause lacks: no shrinking here
                    count = -1
                    break
            if count < 0:
                break
        for w in marked:
            seen[w] = 0
        return uip

    def more_levels(self, top: int) -> None:
        """Make ``level_bit`` cover levels 0..top (analyze checks its level first).

        Its values repeat every 32 levels, so it is built by repetition, in C.
        """
        self.level_bit = LEVEL_BITS * (top // 32 + 1)

    def minimize(self, found: list[Code], abstract: int) -> list[Code]:
        """The literals of `found` not implied by the others (by reasons), in order.

        Pre: ``seen`` marks exactly the variables of `found` (1); ``abstract``
        has bit ``level & 31`` set for the level of each of them. Post:
        ``seen`` is all zero again.
        """
        reason, level, seen, var_of = self.reason, self.level, self.seen, self.var_of
        level_bit = self.level_bit
        if self.settings["minimize"] != Minimize.RECURSIVE:
            kept = [q for q in found if not self._locally_redundant(q)]
        else:
            kept = []
            settled: list[Code] = []  # what redundant marks, to unmark
            redundant = self.redundant
            for q in found:
                r = reason[var_of[q]]
                if r is None:
                    kept.append(q)
                    continue
                # The first step of redundant(q), inlined: most literals are settled by
                # their reason's own literals (marked, or failing at once), without a
                # call. A whole reason is read: its first literal is q's own, marked.
                for x in (r,) if r.__class__ is int else r:  # type: ignore[union-attr]
                    v = var_of[x]
                    mark = seen[v]
                    if mark == 1 or not level[v]:
                        continue
                    if (
                        mark or reason[v] is None or not level_bit[level[v]] & abstract
                        or not redundant(x, abstract, settled)
                    ):
                        kept.append(q)
                        break
            for q in settled:
                seen[var_of[q]] = 0
        for q in found:
            seen[var_of[q]] = 0
        return kept

    def _locally_redundant(self, q: Code) -> bool:
        """True when the reason of the false literal `q` holds only marked or level-0 literals."""
        r = self.reason[q >> 1]
        if r is None:
            return False
        seen, level = self.seen, self.level
        return all(seen[x >> 1] or not level[x >> 1] for x in reason_literals(r, q ^ 1))

    def redundant(self, p: Code, abstract: int, toclear: list[Code]) -> bool:
        """True when the (false) literal `p` follows from marked literals by reasons.

        Pre: ``seen`` is 1 for the literals of the learnt clause and those
        proved redundant so far, 2 for those proved not to be; `p` is unmarked
        at a level > 0 in ``abstract``, with a reason. Post: every literal this
        call settles, `p` too, is marked (1 or 2) and recorded in ``toclear``,
        so no later call explores it again (MiniSat's ``litRedundant`` with its
        "failed" marks): a depth-first walk along reasons, the path kept as
        frames (the reason's iterator, literal). A literal fails when it is
        unmarked at a level > 0 and is a decision or lies at a level the clause
        lacks (``abstract``); then so does every literal on the path to it.
        """
        seen, level, reason, var_of = self.seen, self.level, self.reason, self.var_of
        level_bit = self.level_bit
        path: list[tuple[Iterator[Code], Code]] = []
        # A literal is marked 1 on entry: only its own reason's first literal (its
        # negation) could meet it before its walk ends, and is skipped so, without a
        # slice. A failure marks it 2 (below).
        v = var_of[p]
        seen[v] = 1
        toclear.append(p)
        r = reason[v]
        # Not None by the precondition; mypy keeps int in the else branch (see analyze).
        it = iter((r,) if r.__class__ is int else r)  # type: ignore[arg-type]
        while True:
            for q in it:
                v = var_of[q]
                mark = seen[v]
                if mark == 1 or not level[v]:
                    continue
                r = reason[v]
                if mark or r is None or not level_bit[level[v]] & abstract:
                    seen[var_of[p]] = 2
                    for _, x in path:
                        seen[var_of[x]] = 2
                    return False
                path.append((it, p))
                p = q
                seen[v] = 1
                toclear.append(q)
                it = iter((r,) if r.__class__ is int else r)  # type: ignore[arg-type]
                break
            else:
                if not path:
                    return True
                it, p = path.pop()

    def record(self, learnt: Clause, lbd: int) -> None:
        """Store a learnt clause and assert its first literal.

        Pre: backtracked to the level where learnt[0] is the only unassigned
        literal. Post: learnt[0] is true with the clause as its reason.
        """
        self.learnt_count += 1
        if self.proof is not None:
            self.log_add(learnt)
        size = len(learnt)
        first = learnt[0]
        why: Reason
        if size > 2:
            why = learnt
            self.learnts.append(learnt)
            self.lbd.append(lbd)
            watches = self.watches
            watches[first].append(learnt)
            watches[learnt[1]].append(learnt)
        elif size == 2:
            why = learnt[1]
            bins = self.bins
            bins[first ^ 1].append(why)
            bins[why ^ 1].append(first)
        else:
            why = None
        self.assign(first, why)  # once per conflict: a call is small beside the analysis

    def analyze_final(self, p: Code) -> list[Code]:
        """The assumptions that force `p` false (MiniSat's analyzeFinal), `p` included.

        Pre: ``val[p]`` is false; every decision on the trail is an assumption.
        Post: returns the failed subset of the assumptions in their given order;
        ``seen`` is all zero again. Their conjunction with the clauses is
        unsatisfiable, and unit propagation alone shows it.
        """
        core = {p}
        seen, level, reason, trail = self.seen, self.level, self.reason, self.trail
        if level[p >> 1] and self.trail_lim:
            seen[p >> 1] = 1
            for i in range(len(trail) - 1, self.trail_lim[0] - 1, -1):
                x = trail[i] >> 1
                if not seen[x]:
                    continue
                seen[x] = 0
                r = reason[x]
                if r is None:
                    core.add(trail[i])  # a decision: one of the assumptions
                    continue
                for q in reason_literals(r, trail[i]):
                    if level[q >> 1]:
                        seen[q >> 1] = 1
        return [q for q in dict.fromkeys(self.assumptions) if q in core]

