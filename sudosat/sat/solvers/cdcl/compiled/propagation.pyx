# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Twin of :mod:`sudosat.sat.solvers.cdcl.propagation`: unit propagation and backjumping.

The same three steps per true literal ``p``, in the same order, over the same
lists: ``bins[p]``, ``terns[p]``, then ``watches[¬p]``, whose clauses are
rewritten (watch swaps, moves) and whose list is rebuilt in place exactly as
the reference's ``keep`` list is, the rest of it kept after a conflict.
"""

from libc.stdint cimport intptr_t

from sudosat.sat.solvers.cdcl.compiled.cvec cimport (
    BINARY_CONFLICT,
    IntVec,
    PtrVec,
    Tern,
    TernVec,
    binary_reason,
    clause_size,
    heap_push,
    pvec_push,
)


ctypedef struct Assigning:  # what the three steps of propagate write an implied literal to
    signed char* val
    int* level
    intptr_t* reason
    int* trail
    int size  # of the trail
    int current  # the decision level


cdef inline void imply(Assigning* at, int lit, intptr_t why) noexcept:
    """Make `lit` true at the current level with reason `why`, on the trail."""
    at.val[lit] = 1
    at.val[lit ^ 1] = -1
    at.level[lit >> 1] = at.current
    at.reason[lit >> 1] = why
    at.trail[at.size] = lit
    at.size += 1


cdef inline bint binaries(Assigning* at, IntVec* implied, int false_lit, int* pair) noexcept:
    """(1) Binary clauses {¬p, q}: every q in bins[p] must be true; True at a conflict,
    then `pair` is the reference's [q, false_lit]."""
    cdef signed char* val = at.val
    cdef int i, q
    for i in range(implied.size):
        q = implied.data[i]
        if val[q] == 1:
            continue
        if val[q]:
            pair[0] = q
            pair[1] = false_lit
            return True
        imply(at, q, binary_reason(false_lit))
    return False


cdef inline intptr_t ternaries(Assigning* at, TernVec* entries) noexcept:
    """(2) Ternary input clauses {¬p, b, c}: a unit when one of b, c is false, the other
    free (their values' sum is -1 only then, -2 for two false ones); the conflict or 0."""
    cdef signed char* val = at.val
    cdef int i, b
    cdef Tern* tern
    for i in range(entries.size):
        tern = &entries.data[i]
        b = tern.b
        if val[b] + val[tern.c] >= 0:
            continue
        if val[b]:  # b false: c is implied, or the clause is falsified
            if val[tern.c]:
                return <intptr_t>tern.clause
            b = tern.c
        imply(at, b, <intptr_t>tern.clause)
    return 0


cdef inline intptr_t watched(Assigning* at, PtrVec* watches, int false_lit) except? -1:
    """(3) Stored clauses watching false_lit: each finds another non-false literal to
    watch, or stays (satisfied by its other watch, unit, or falsified). The list is
    rebuilt in place as the reference's keep, the rest kept after a conflict."""
    cdef signed char* val = at.val
    cdef PtrVec* watchers = &watches[false_lit]
    cdef int** ws = watchers.data
    cdef int n = watchers.size, i = 0, j = 0, k, other, lit
    cdef int* clause
    cdef intptr_t conflict = 0
    while i < n:
        clause = ws[i]
        i += 1
        other = clause[0]
        if other == false_lit:  # the false watch goes to position 1
            other = clause[1]
            clause[0] = other
            clause[1] = false_lit
        if val[other] == 1:  # the other watch is true: it blocks the scan
            ws[j] = clause
            j += 1
            continue
        lit = clause[2]  # most moves find their new watch here, without a loop
        if val[lit] != -1:
            clause[1] = lit
            clause[2] = false_lit
            pvec_push(&watches[lit], clause)
            continue
        for k in range(3, clause_size(clause)):
            lit = clause[k]
            if val[lit] != -1:
                clause[1] = lit
                clause[k] = false_lit
                pvec_push(&watches[lit], clause)
                break
        else:  # no literal to watch instead: unit or falsified, the watch stays
            ws[j] = clause
            j += 1
            if val[other]:
                conflict = <intptr_t>clause
                while i < n:  # the reference's keep.extend(rest)
                    ws[j] = ws[i]
                    j += 1
                    i += 1
                break
            imply(at, other, <intptr_t>clause)
    watchers.size = j
    return conflict


cdef class Propagation(Loading):
    """The engine's propagation layer (the reference's Propagation)."""

    cdef intptr_t propagate(self) except? -1:
        """Unit propagation of the trail from ``qhead`` (the reference's propagate).

        Returns 0, or the conflict: a clause's address, or BINARY_CONFLICT with
        the reference's ``[q, false_lit]`` in ``bin_conflict``. Raises only
        MemoryError (a watch list that cannot grow). The three steps per true
        literal are inline functions: one call of each per literal costs nothing.
        """
        cdef Assigning at
        at.val = self.val
        at.level = self.level
        at.reason = self.reason
        at.trail = self.ctrail.data
        at.size = self.ctrail.size
        at.current = self.ctrail_lim.size
        cdef int start = self.qhead, qhead = self.qhead, p
        cdef intptr_t conflict = 0
        while qhead < at.size:
            p = self.ctrail.data[qhead]
            qhead += 1
            if binaries(&at, &self.bins[p], p ^ 1, self.bin_conflict):
                conflict = BINARY_CONFLICT
                break
            conflict = ternaries(&at, &self.terns[p])
            if conflict:
                break
            conflict = watched(&at, self.watches, p ^ 1)
            if conflict:
                break
        # Without a conflict every literal is propagated; with one, those up to p.
        self.ctrail.size = at.size
        self.propagations += qhead - start
        self.qhead = qhead
        return conflict

    cpdef cancel_until(self, int lvl):
        """Undo every assignment above decision level `lvl` (the reference's cancel_until):
        each undone variable keeps its last value as its phase and is pushed back on the
        heap when its activity is not its live entry's."""
        if self.ctrail_lim.size <= lvl:
            return
        cdef int lim = self.ctrail_lim.data[lvl]
        cdef int i, lit, v
        cdef double a
        cdef int* trail = self.ctrail.data
        for i in range(lim, self.ctrail.size):
            lit = trail[i]
            self.val[lit] = 0
            self.val[lit ^ 1] = 0
            v = lit >> 1
            self.phase[v] = lit
            a = self.activity[v]
            if a != self.heap_key[v]:
                self.heap_key[v] = a
                heap_push(&self.heap, -a, v)
        self.ctrail.size = lim
        self.ctrail_lim.size = lvl
        self.qhead = lim
