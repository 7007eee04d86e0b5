# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: extra_compile_args = -ffp-contract=off
"""Twin of :mod:`sudosat.sat.solvers.cdcl.analysis`: first-UIP learning, minimisation, shrinking.

The learnt clause is built in ``State.learnt`` with the reference's layout:
the asserting literal first, the rest in the order analysis found them,
minimisation keeping that order, shrinking in per-level blocks in first-seen
level order, then ``out[1]`` swapped with the first literal of the highest
level. Its backjump level and LBD go to ``learnt_back`` and ``learnt_lbd``.
"""

from libc.limits cimport INT_MAX
from libc.stdint cimport intptr_t
from libc.string cimport memcpy, memset

from sudosat.sat.solvers.cdcl.compiled.cvec cimport (
    BINARY_CONFLICT,
    NO_REASON,
    binary_reason,
    clause_new,
    clause_size,
    fvec_push,
    ivec_push,
    ivec_reserve,
    pvec_push,
    reason_lits,
)

from sudosat.sat.solvers.cdcl.tunables import Minimize

cdef int NONE = Minimize.NONE
cdef int RECURSIVE = Minimize.RECURSIVE


cdef inline int reason_size(intptr_t r) noexcept:
    """How many literals the reference iterates for a reason (see cvec.reason_lits)."""
    return 1 if r & 1 else clause_size(<int*>r)


cdef inline int reason_lit(intptr_t r, int pos) noexcept:
    """Literal `pos` of that iteration."""
    return <int>(r >> 1) if r & 1 else (<int*>r)[pos]


cdef class Analysis(Heuristic):
    """The engine's learning layer (the reference's Analysis)."""

    cdef int analyze(self, intptr_t confl) except -1:
        """First-UIP learning from a conflict at the current level (the reference's analyze).

        Pre: every literal of `confl` is false; current level > 0; ``seen`` all
        zero. Post: the learnt clause in ``learnt``; ``seen`` all zero again.
        """
        cdef signed char* seen = self.seen
        cdef int* level = self.level
        cdef double* activity = self.activity
        cdef int* trail = self.ctrail.data
        cdef double inc = self.var_inc
        cdef int dl = self.ctrail_lim.size
        cdef unsigned int abstract = 0  # the levels of `found`, hashed to 32 bits
        cdef int single[1]
        cdef int path = 0, walk = self.ctrail.size, pv = 0, p = 0, i, n, q, v, lv
        cdef int* lits
        self.ensure_levels(dl)
        self.found.size = 0  # the learnt clause's literals below the current level
        if confl == BINARY_CONFLICT:
            lits = self.bin_conflict
            n = 2
        else:
            lits = <int*>confl
            n = clause_size(lits)
        while True:
            for i in range(n):
                q = lits[i]
                v = q >> 1
                if not seen[v]:
                    lv = level[v]
                    if lv >= dl:
                        seen[v] = 1
                        activity[v] += inc
                        path += 1
                    elif lv:  # level-0 literals are left out
                        seen[v] = 1
                        activity[v] += inc
                        ivec_push(&self.found, q)
                        abstract |= 1u << (lv & 31)
            # Unmarked only now: its own literal, in its reason, was skipped as seen.
            seen[pv] = 0
            while True:  # the trail walked down from where the last walk stopped
                walk -= 1
                p = trail[walk]
                if seen[p >> 1]:
                    break
            pv = p >> 1
            path -= 1
            if not path:
                break
            lits = reason_lits(self.reason[pv], single, &n)
        seen[pv] = 0
        if inc > 1e100:
            self.rescale()
        return self.finish_learnt(p ^ 1, abstract)

    cdef int finish_learnt(self, int asserting, unsigned int abstract) except -1:
        """The learnt clause: `asserting` and ``found`` minimised, shrunk, ordered (the
        reference's finish_learnt). Pre: ``seen`` marks exactly the variables of ``found``."""
        cdef int i, best = 0, top = 0, lbd
        cdef int* learnt
        self.learnt.size = 0
        if not self.found.size:
            ivec_push(&self.learnt, asserting)
            self.learnt_back = 0
            self.learnt_lbd = 1
            return 0
        if self.found.size > 1 and self.set_minimize != NONE:
            self.minimize(abstract)
        else:
            ivec_reserve(&self.kept, self.found.size)
            memcpy(self.kept.data, self.found.data, self.found.size * sizeof(int))
            self.kept.size = self.found.size
            for i in range(self.found.size):
                self.seen[self.found.data[i] >> 1] = 0
        lbd = self.count_levels(&best, &top)
        # Shrinking keeps the levels (so the LBD and the backtrack level): only where a
        # level holds two literals or more, and then only out[1]'s place moves.
        if self.kept.size >= lbd and self.set_shrink:
            best = self.shrink(top)
        ivec_reserve(&self.learnt, self.kept.size + 1)
        learnt = self.learnt.data
        learnt[0] = asserting
        memcpy(learnt + 1, self.kept.data, self.kept.size * sizeof(int))
        self.learnt.size = self.kept.size + 1
        learnt[1], learnt[best] = learnt[best], learnt[1]
        self.learnt_back = top
        self.learnt_lbd = lbd
        return 0

    cdef int count_levels(self, int* best, int* top) except -1:
        """The LBD of asserting + ``kept`` (1 + their distinct levels); sets `top`, their
        highest level, and `best`, the place (from 1) of its first literal."""
        cdef int i, lv, distinct = 0
        self.next_stamp()
        for i in range(self.kept.size):
            lv = self.level[self.kept.data[i] >> 1]
            if self.lvl_stamp[lv] != self.stamp:
                self.lvl_stamp[lv] = self.stamp
                distinct += 1
            if lv > top[0]:
                best[0] = i + 1
                top[0] = lv
        return distinct + 1

    cdef int next_stamp(self) except -1:
        """A fresh mark for the per-level tables (they are cleared when marks run out)."""
        if self.stamp == INT_MAX:
            memset(self.lvl_stamp, 0, self.lvl_cap * sizeof(int))
            self.stamp = 0
        self.stamp += 1
        return 0

    cdef int shrink(self, int top) except -1:
        """All-UIP shrinking of ``kept`` (the reference's shrink); returns the place, from
        1, of the first literal of level `top`. Pre: ``seen`` all zero; post: again."""
        cdef int n = self.kept.size, i, j, q, lv, count, uip, pos = 0, out = 0, best = 0
        cdef int nlev = 0
        cdef int* kept = self.kept.data
        ivec_reserve(&self.buffer, n)  # the levels in first-seen order
        ivec_reserve(&self.settled, n)  # kept grouped by level, blocks in that order
        ivec_reserve(&self.found, n)  # the shrunk literals
        cdef int* order = self.buffer.data
        cdef int* grouped = self.settled.data
        cdef int* shrunk = self.found.data
        self.next_stamp()
        for i in range(n):  # marked and counted by level in one pass
            self.seen[kept[i] >> 1] = 1
            lv = self.level[kept[i] >> 1]
            if self.lvl_stamp[lv] != self.stamp:
                self.lvl_stamp[lv] = self.stamp
                self.lvl_count[lv] = 0
                order[nlev] = lv
                nlev += 1
            self.lvl_count[lv] += 1
        for j in range(nlev):
            self.lvl_fill[order[j]] = pos
            pos += self.lvl_count[order[j]]
        for i in range(n):
            lv = self.level[kept[i] >> 1]
            grouped[self.lvl_fill[lv]] = kept[i]
            self.lvl_fill[lv] += 1
        pos = 0
        for j in range(nlev):
            lv = order[j]
            count = self.lvl_count[lv]
            if lv == top:
                best = out + 1
            uip = -1 if count == 1 else self.block_uip(lv, count)
            if uip < 0:
                memcpy(shrunk + out, grouped + pos, count * sizeof(int))
                out += count
            else:
                shrunk[out] = uip ^ 1
                out += 1
            pos += count
        for i in range(n):
            self.seen[kept[i] >> 1] = 0
        memcpy(kept, shrunk, out * sizeof(int))
        self.kept.size = out
        return best

    cdef int block_uip(self, int lv, int count) except -2:
        """The UIP of the `count` marked literals of level `lv`, or -1 when there is none
        without a lower level's literal that is not marked (the reference's block_uip)."""
        cdef signed char* seen = self.seen
        cdef int* trail = self.ctrail.data
        cdef int low = self.ctrail_lim.data[lv - 1]
        cdef int at = self.ctrail_lim.data[lv]
        cdef int uip = -1, p, v, w, lw, k, n
        cdef int* lits
        cdef int single[1]
        self.marked.size = 0
        while at > low:
            at -= 1
            p = trail[at]
            v = p >> 1
            if not seen[v]:
                continue
            count -= 1
            if not count:
                uip = p
                break
            lits = reason_lits(self.reason[v], single, &n)  # a reason: v is not the decision
            for k in range(n):
                w = lits[k] >> 1
                if seen[w]:  # marked, or v itself (its own literal in a stored reason)
                    continue
                lw = self.level[w]
                if lw == lv:
                    seen[w] = 1
                    ivec_push(&self.marked, w)
                    count += 1
                elif lw:  # a lower level's literal the clause lacks: no shrinking here
                    count = -1
                    break
            if count < 0:
                break
        for k in range(self.marked.size):
            seen[self.marked.data[k]] = 0
        return uip

    cdef int minimize(self, unsigned int abstract) except -1:
        """``kept``: the literals of ``found`` not implied by the others by reasons, in
        order (the reference's minimize). Post: ``seen`` all zero again."""
        cdef signed char* seen = self.seen
        cdef int* level = self.level
        cdef intptr_t* reason = self.reason
        cdef int i, k, n, q, x, v
        cdef signed char mark
        cdef intptr_t r
        cdef int* lits
        cdef int single[1]
        self.kept.size = 0
        if self.set_minimize != RECURSIVE:
            for i in range(self.found.size):
                q = self.found.data[i]
                if not self.locally_redundant(q):
                    ivec_push(&self.kept, q)
        else:
            self.settled.size = 0  # what redundant marks, to unmark
            for i in range(self.found.size):
                q = self.found.data[i]
                r = reason[q >> 1]
                if r == NO_REASON:
                    ivec_push(&self.kept, q)
                    continue
                # The first step of redundant(q), inlined: most literals are settled by
                # their reason's own literals (its first one is q's own, marked).
                lits = reason_lits(r, single, &n)
                for k in range(n):
                    x = lits[k]
                    v = x >> 1
                    mark = seen[v]
                    if mark == 1 or not level[v]:
                        continue
                    if (mark or reason[v] == NO_REASON
                            or not (1u << (level[v] & 31)) & abstract
                            or not self.redundant(x, abstract)):
                        ivec_push(&self.kept, q)
                        break
            for i in range(self.settled.size):
                seen[self.settled.data[i] >> 1] = 0
        for i in range(self.found.size):
            seen[self.found.data[i] >> 1] = 0
        return 0

    cdef bint locally_redundant(self, int q) noexcept:
        """True when the reason of the false literal `q` holds only marked or level-0
        literals (besides q's own)."""
        cdef intptr_t r = self.reason[q >> 1]
        cdef int k, n, x
        cdef int single[1]
        if r == NO_REASON:
            return False
        cdef int* lits = reason_lits(r, single, &n)
        for k in range(n):
            x = lits[k]
            if x != (q ^ 1) and not self.seen[x >> 1] and self.level[x >> 1]:
                return False
        return True

    cdef bint redundant(self, int p, unsigned int abstract) except -1:
        """True when the false literal `p` follows from marked literals by reasons (the
        reference's redundant: a depth-first walk, its path kept in ``frames``; every
        literal it settles is marked 1 or 2 and listed in ``settled``)."""
        cdef signed char* seen = self.seen
        cdef int* level = self.level
        cdef intptr_t* reason = self.reason
        cdef int v = p >> 1, q, pos = 0, k
        cdef signed char mark
        cdef intptr_t r, rq
        cdef bint deeper
        seen[v] = 1
        ivec_push(&self.settled, p)
        r = reason[v]
        self.frames.size = 0
        while True:
            deeper = False
            while pos < reason_size(r):
                q = reason_lit(r, pos)
                pos += 1
                v = q >> 1
                mark = seen[v]
                if mark == 1 or not level[v]:
                    continue
                rq = reason[v]
                if mark or rq == NO_REASON or not (1u << (level[v] & 31)) & abstract:
                    seen[p >> 1] = 2
                    for k in range(self.frames.size):
                        seen[self.frames.data[k].lit >> 1] = 2
                    return False
                fvec_push(&self.frames, r, pos, p)
                p = q
                seen[v] = 1
                ivec_push(&self.settled, q)
                r = rq
                pos = 0
                deeper = True
                break
            if not deeper:
                if not self.frames.size:
                    return True
                self.frames.size -= 1
                r = self.frames.data[self.frames.size].reason
                pos = self.frames.data[self.frames.size].pos
                p = self.frames.data[self.frames.size].lit

    cdef int record(self) except -1:
        """Store ``learnt`` and assert its first literal (the reference's record)."""
        cdef int* learnt = self.learnt.data
        cdef int size = self.learnt.size
        cdef int first = learnt[0]
        cdef intptr_t why = NO_REASON
        cdef int* clause
        self.learnt_count += 1
        if self.proof is not None:
            self.log_add(learnt, size)
        if size > 2:
            clause = clause_new(learnt, size, self.learnt_lbd)
            why = <intptr_t>clause
            pvec_push(&self.learnts, clause)
            pvec_push(&self.watches[first], clause)
            pvec_push(&self.watches[learnt[1]], clause)
        elif size == 2:
            why = binary_reason(learnt[1])
            ivec_push(&self.bins[first ^ 1], learnt[1])
            ivec_push(&self.bins[learnt[1] ^ 1], first)
        self.assign(first, why)
        return 0

    cdef list analyze_final(self, int p):
        """The assumptions that force `p` false, `p` included, in their given order (the
        reference's analyze_final). Post: ``seen`` all zero again."""
        core = {p}
        cdef int i, k, n, x, q
        cdef int* trail = self.ctrail.data
        cdef int* lits
        cdef int single[1]
        if self.level[p >> 1] and self.ctrail_lim.size:
            self.seen[p >> 1] = 1
            for i in range(self.ctrail.size - 1, self.ctrail_lim.data[0] - 1, -1):
                x = trail[i] >> 1
                if not self.seen[x]:
                    continue
                self.seen[x] = 0
                if self.reason[x] == NO_REASON:
                    core.add(trail[i])  # a decision: one of the assumptions
                    continue
                lits = reason_lits(self.reason[x], single, &n)
                for k in range(n):
                    q = lits[k]
                    if q != trail[i] and self.level[q >> 1]:
                        self.seen[q >> 1] = 1
        assumptions = [self.assumed.data[i] for i in range(self.assumed.size)]
        return [q for q in dict.fromkeys(assumptions) if q in core]
