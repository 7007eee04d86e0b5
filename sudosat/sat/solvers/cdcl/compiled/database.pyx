# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Twin of :mod:`sudosat.sat.solvers.cdcl.database`: learnt-clause reduction, level-0 simplification.

Deleted clauses are marked DEAD, filtered out of their watches' lists (order
kept) and freed; the learnt list keeps the reference's order, sorted by
(LBD, -index) at each reduction.
"""

from libc.stdint cimport intptr_t
from libc.stdlib cimport free, malloc, qsort

from sudosat.sat.solvers.cdcl.compiled.cvec cimport (
    DEAD,
    IntVec,
    PtrVec,
    clause_lbd,
    clause_size,
    ivec_push,
    ivec_reserve,
    pvec_push,
    set_clause_lbd,
    set_clause_size,
)

from sudosat.sat.solvers.budget import OutOfTime

cdef enum:
    DROP_CHUNK = 8192  # the reference's: free literals filtered between two looks at the clock


ctypedef struct Ranked:  # a learnt clause's sort key in reduce_db
    int lbd
    int index


cdef int by_lbd_then_newest(const void* a, const void* b) noexcept nogil:
    """The reference's sort key (lbd[i], -i)."""
    cdef const Ranked* x = <const Ranked*>a
    cdef const Ranked* y = <const Ranked*>b
    if x.lbd != y.lbd:
        return -1 if x.lbd < y.lbd else 1
    return -1 if x.index > y.index else (1 if x.index < y.index else 0)


cdef class ClauseDatabase(Analysis):
    """The engine's clause-database layer (the reference's ClauseDatabase)."""

    cdef bint locked(self, int* clause) noexcept:
        """True when `clause` is the reason of its first literal's current value."""
        return self.val[clause[0]] == 1 and self.reason[clause[0] >> 1] == <intptr_t>clause

    cdef int reduce_db(self) except -1:
        """Delete about half of the learnt clauses, those of highest LBD first (oldest first
        among equals); glue and reason clauses stay (the reference's reduce_db)."""
        cdef int n = self.learnts.size, j, out = 0
        cdef int doomed_from = n - n // 2
        cdef int* clause
        cdef PtrVec dead
        dead.data = NULL
        dead.size = dead.cap = 0
        cdef Ranked* order = <Ranked*>malloc((n if n else 1) * sizeof(Ranked))
        if order == NULL:
            raise MemoryError()
        cdef int** kept = <int**>malloc((n if n else 1) * sizeof(int*))
        if kept == NULL:
            free(order)
            raise MemoryError()
        try:
            for j in range(n):
                order[j].lbd = clause_lbd(self.learnts.data[j])
                order[j].index = j
            qsort(order, n, sizeof(Ranked), by_lbd_then_newest)
            for j in range(n):
                clause = self.learnts.data[order[j].index]
                if j >= doomed_from and clause_lbd(clause) > self.set_glue_lbd and not self.locked(clause):
                    self.delete_clause(clause)
                    pvec_push(&dead, clause)
                else:
                    kept[out] = clause
                    out += 1
            for j in range(out):
                self.learnts.data[j] = kept[j]
            self.learnts.size = out
            self.unwatch(&dead)
        finally:
            free(order)
            free(kept)
            free(dead.data)
        return 0

    cdef int delete_clause(self, int* clause) except -1:
        """Count and log a deleted clause, and mark it DEAD (unwatch frees it)."""
        self.deleted += 1
        if self.proof is not None:
            self.log_delete(clause, clause_size(clause))
        set_clause_lbd(clause, DEAD)
        return 0

    cdef int unwatch(self, PtrVec* dead) except -1:
        """Remove the `dead` clauses from the watch lists of their watches, and free them."""
        cdef IntVec touched
        touched.data = NULL
        touched.size = touched.cap = 0
        cdef int i, k, lit, j
        cdef int* clause
        cdef PtrVec* ws
        try:
            for i in range(dead.size):
                clause = dead.data[i]
                for k in range(2):
                    lit = clause[k]
                    if not self.lit_mark[lit]:
                        self.lit_mark[lit] = 1
                        ivec_push(&touched, lit)
            for i in range(touched.size):
                lit = touched.data[i]
                self.lit_mark[lit] = 0
                ws = &self.watches[lit]
                j = 0
                for k in range(ws.size):
                    if clause_lbd(ws.data[k]) != DEAD:
                        ws.data[j] = ws.data[k]
                        j += 1
                ws.size = j
            for i in range(dead.size):
                self.drop_clause(dead.data[i])
        finally:
            free(touched.data)
        return 0

    def forget_learnts(self, keep_lbd=0):
        """Delete the learnt clauses whose LBD exceeds `keep_lbd`; how many went (the
        reference's forget_learnts). Pre: level 0."""
        cdef double keep = keep_lbd
        cdef int i, out = 0
        cdef int* clause
        cdef PtrVec dead
        dead.data = NULL
        dead.size = dead.cap = 0
        try:
            for i in range(self.learnts.size):
                clause = self.learnts.data[i]
                if clause_lbd(clause) > keep:
                    self.delete_clause(clause)
                    pvec_push(&dead, clause)
                else:
                    self.learnts.data[out] = clause
                    out += 1
            self.learnts.size = out
            self.unwatch(&dead)
            return dead.size
        finally:
            free(dead.data)

    cdef int simplify(self) except -1:
        """Level-0 simplification (the reference's simplify). Raises OutOfTime from
        drop_satisfied_binaries, with the watches rebuilt already."""
        cdef int i
        cdef int* clause
        if self.proof is not None:
            self.log_level0_units()
        for i in range(self.clauses.size):
            clause = self.clauses.data[i]
            self.watches[clause[0]].size = 0
            self.watches[clause[1]].size = 0
        for i in range(self.learnts.size):
            clause = self.learnts.data[i]
            self.watches[clause[0]].size = 0
            self.watches[clause[1]].size = 0
        self.simplify_list(&self.clauses, False)
        self.simplify_list(&self.learnts, True)
        self.watch_from(&self.clauses, 0)
        self.watch_from(&self.learnts, 0)
        if self.ctrail.size >= self.bins_trail + self.num_vars // 8:
            self.drop_satisfied_binaries()
            self.bins_trail = self.ctrail.size
            self.trim_heap()  # many variables became fixed: each entry would cost a pop
        self.simp_trail = self.ctrail.size
        return 0

    cdef int drop_satisfied_binaries(self) except -1:
        """Remove from ``bins`` of free literals the implied literals true at level 0, in
        chunks with a look at the clock between two (the reference's)."""
        cdef IntVec free_lits
        free_lits.data = NULL
        free_lits.size = free_lits.cap = 0
        cdef int start, i, k, j, p
        cdef IntVec* implied
        try:
            for p in range(2, 2 * self.num_vars + 2):
                if not self.val[p]:
                    ivec_push(&free_lits, p)
            for start in range(0, free_lits.size, DROP_CHUNK):
                if start and not self.in_time():
                    raise OutOfTime
                for i in range(start, min(start + DROP_CHUNK, free_lits.size)):
                    implied = &self.bins[free_lits.data[i]]
                    j = 0
                    for k in range(implied.size):
                        if self.val[implied.data[k]] != 1:
                            implied.data[j] = implied.data[k]
                            j += 1
                    implied.size = j
        finally:
            free(free_lits.data)
        return 0

    cdef int simplify_list(self, PtrVec* clauses, bint learnt) except -1:
        """`clauses` without those satisfied at level 0, false literals stripped; those left
        with two literals move to ``bins`` (the reference's _simplify_list)."""
        cdef int i, k, n, out = 0, size, value
        cdef bint satisfied, falsified
        cdef int* clause
        cdef int* rest
        for i in range(clauses.size):
            clause = clauses.data[i]
            size = clause_size(clause)
            satisfied = falsified = False
            for k in range(size):
                value = self.val[clause[k]]
                if value == 1:
                    satisfied = True
                    break
                if value == -1:
                    falsified = True
            if satisfied:
                if learnt:
                    self.delete_clause(clause)
                self.drop_clause(clause)
                continue
            if falsified:
                ivec_reserve(&self.buffer, size)
                rest = self.buffer.data
                n = 0
                for k in range(size):
                    if not self.val[clause[k]]:
                        rest[n] = clause[k]
                        n += 1
                if learnt and self.proof is not None:
                    self.log_add(rest, n)
                    self.log_delete(clause, size)
                if n == 2:
                    ivec_push(&self.bins[rest[0] ^ 1], rest[1])
                    ivec_push(&self.bins[rest[1] ^ 1], rest[0])
                    self.drop_clause(clause)
                    continue
                for k in range(n):
                    clause[k] = rest[k]
                set_clause_size(clause, n)
            clauses.data[out] = clause
            out += 1
        clauses.size = out
        return 0
