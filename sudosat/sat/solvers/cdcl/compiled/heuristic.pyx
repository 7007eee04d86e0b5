# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: extra_compile_args = -ffp-contract=off
"""Twin of :mod:`sudosat.sat.solvers.cdcl.heuristic`: VSIDS in a lazy heap, first scores, phases.

The heap holds the reference's ``(-activity, v)`` entries (see :mod:`.cvec`),
pushed and popped where the reference pushes and pops them. Scores and
activities are the same doubles from the same operations in the same order
(Jeroslow–Wang sums clause by clause, literal by literal); the random stream
is the reference's own ``random.Random``, called the same way.
"""

from libc.math cimport pow
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy

from sudosat.sat.solvers.cdcl.compiled.cvec cimport (
    Entry,
    TernVec,
    clause_size,
    grown,
    heap_pop,
    heapify,
)

from sudosat.sat.solvers.cdcl.tunables import Phase


cdef double* zeros(size_t count) except NULL:
    cdef double* block = <double*>calloc(count if count else 1, sizeof(double))
    if block == NULL:
        raise MemoryError()
    return block


cdef class Heuristic(Propagation):
    """The engine's decision layer (the reference's Heuristic)."""

    cdef int init_heap(self) except -1:
        """Every used, unassigned variable in the heap, after the first scores (and the
        seed's jitter, one random number per activity, index 0 too)."""
        cdef int i
        self.init_activity()
        if self.seeded:
            for i in range(self.num_vars + 1):
                self.activity[i] = self.activity[i] + <double>self.rng_random() * 1e-5
        self.rebuild_heap()
        return 0

    cdef int init_activity(self) except -1:
        """Each activity at a static score in [0, 1) (the reference's init_activity):
        Jeroslow–Wang products with level-0 facts, occurrence counts without."""
        if not self.ctrail.size:
            return self.occurrence_activity()
        return self.jw_activity(0.5)

    cdef int jw_activity(self, double most) except -1:
        """Each activity at its jw_products score scaled so the largest is `most` (all 0.0
        when every score is): ``scores[i] * (most / top)``, as the reference computes it."""
        cdef int i, n = self.num_vars
        cdef double top, scale
        cdef double* scores = zeros(n + 1)
        try:
            self.jw_products(scores)
            top = scores[0]
            for i in range(1, n + 1):
                if scores[i] > top:
                    top = scores[i]
            scale = most / top if top else 0.0
            for i in range(n + 1):
                self.activity[i] = scores[i] * scale
        finally:
            free(scores)
        return 0

    cdef int occurrence_activity(self) except -1:
        """Chaff's scores: each variable's occurrences (init_activity without facts), and
        with initial_phase occurrences its more frequent sign first (ties false)."""
        cdef int n = self.num_vars, v, i, k
        cdef long long positive, negative, top = 0
        cdef double scale
        cdef int* c
        cdef double* counts = zeros(n + 1)
        cdef long long* in_long = <long long*>calloc(2 * n + 2, sizeof(long long))
        if in_long == NULL:
            free(counts)
            raise MemoryError()
        cdef bint occurrences = self.set_initial_phase == Phase.OCCURRENCES
        try:
            for i in range(self.clauses.size):
                c = self.clauses.data[i]
                for k in range(clause_size(c)):
                    in_long[c[k]] += 1
            for v in range(1, n + 1):
                positive = in_long[2 * v] + self.bins[2 * v + 1].size
                positive += self.terns[2 * v + 1].size
                negative = in_long[2 * v + 1] + self.bins[2 * v].size
                negative += self.terns[2 * v].size
                counts[v] = <double>(positive + negative)
                if positive + negative > top:
                    top = positive + negative
                if occurrences:
                    self.phase[v] = 2 * v + 1 - (positive > negative)
            scale = 1.0 / <double>(top + 1)
            for v in range(n + 1):
                self.activity[v] = counts[v] * scale
        finally:
            free(counts)
            free(in_long)
        return 0

    cdef int jw_products(self, double* scores) except -1:
        """Per variable, ``J(x) * J(¬x)`` (the reference's jw_products), into `scores`."""
        cdef int n = self.num_vars, p, i, k, free_count, lit
        cdef long long total
        cdef signed char* val = self.val
        cdef signed char vb, vc
        cdef bint satisfied, any_terns = False
        cdef TernVec* pairs
        cdef int* c
        cdef double weight
        cdef double* under = zeros(2 * n + 2)
        try:
            if not self.ctrail_lim.size and self.bins_trail == self.ctrail.size:
                for p in range(2, 2 * n + 2):  # just after pruning: a list's length
                    under[p] = <double>(self.bins[p].size if not val[p] else 0) * 0.25
            else:
                for p in range(2, 2 * n + 2):
                    if not val[p] and self.bins[p].size:
                        total = 0
                        for i in range(self.bins[p].size):
                            total += val[self.bins[p].data[i]]
                        under[p] = 0.25 * <double>(self.bins[p].size - total)
            for p in range(2 * n + 2):
                if self.terns[p].size:
                    any_terns = True
                    break
            if any_terns:
                for p in range(2, 2 * n + 2):
                    if val[p]:
                        continue
                    pairs = &self.terns[p]
                    for i in range(pairs.size):
                        vb = val[pairs.data[i].b]
                        vc = val[pairs.data[i].c]
                        if vb != 1 and vc != 1:
                            under[p] += pow(0.5, 1 + (vb == 0) + (vc == 0))
            for i in range(self.clauses.size):
                c = self.clauses.data[i]
                satisfied = False
                free_count = 0
                for k in range(clause_size(c)):
                    if val[c[k]] == 1:
                        satisfied = True
                        break
                    free_count += val[c[k]] == 0
                if satisfied:
                    continue
                weight = pow(0.5, free_count)
                for k in range(clause_size(c)):
                    lit = c[k]
                    if not val[lit]:
                        under[lit ^ 1] += weight
            scores[0] = 0.0
            for p in range(1, n + 1):
                scores[p] = under[2 * p] * under[2 * p + 1]
        finally:
            free(under)
        return 0

    cdef int rebuild_heap(self) except -1:
        """The heap from scratch: one live entry per free used variable."""
        cdef int v, n = self.num_vars
        for v in range(n + 1):
            self.heap_key[v] = -1.0
        if self.heap.cap < n:
            self.heap.data = <Entry*>grown(self.heap.data, &self.heap.cap, n, sizeof(Entry))
        self.heap.size = 0
        for v in range(1, n + 1):
            if self.used[v] and not self.val[2 * v]:
                self.heap_key[v] = self.activity[v]
                self.heap.data[self.heap.size].key = -self.activity[v]
                self.heap.data[self.heap.size].var = v
                self.heap.size += 1
        heapify(&self.heap)
        return 0

    cdef int pick_branch_lit(self) except -2:
        """The next decision literal, or -1 when every used variable is assigned."""
        cdef Entry e
        cdef int v
        if self.set_random_var_freq and self.rng_random() < self.set_random_var_freq:
            v = self.random_pick()
            if v:
                return self.phase[v]
        while self.heap.size:
            e = heap_pop(&self.heap)
            v = e.var
            if -e.key == self.heap_key[v]:
                self.heap_key[v] = -1.0
            if not self.val[2 * v]:
                if self.target_len and self.use_target:
                    return self.target[v]
                return self.phase[v]
        return -1

    cdef int random_pick(self) except -2:
        """A free used variable drawn by ``rng.choice``, or 0 when none is free."""
        free_vars = [v for v in range(1, self.num_vars + 1)
                     if self.used[v] and not self.val[2 * v]]
        return self.rng.choice(free_vars) if free_vars else 0

    cdef int note_consistent(self, int size) except -1:
        """Record the trail's first `size` literals as target and best phase if longest so
        far (the reference's note_consistent: both get the same copy)."""
        cdef int i, n = self.num_vars
        cdef int* recorded
        if size <= self.target_len and size <= self.best_len:
            return 0
        recorded = self.target if size > self.target_len else self.best
        memcpy(recorded, self.phase, (n + 1) * sizeof(int))
        for i in range(size):
            recorded[self.ctrail.data[i] >> 1] = self.ctrail.data[i]
        if size > self.target_len:
            self.target_len = size
        if size > self.best_len:
            if recorded != self.best:
                memcpy(self.best, recorded, (n + 1) * sizeof(int))
            self.best_len = size
        return 0

    cdef int rephase(self) except -1:
        """Reset the saved phases (original, inverted, then best, original, best, inverted,
        best, flipped in turn) and forget the target phase (the reference's rephase)."""
        cdef long long count = self.rephases
        cdef int i, n = self.num_vars
        kind = "OI"[count] if count < 2 else "BOBIBF"[(count - 2) % 6]
        if kind == "B" and self.best_len:
            memcpy(self.phase, self.best, (n + 1) * sizeof(int))
            self.best_len = 0
        elif kind == "O":
            memcpy(self.phase, self.first_phase, (n + 1) * sizeof(int))
        elif kind == "I":
            for i in range(n + 1):
                self.phase[i] = self.first_phase[i] ^ 1
        elif kind == "F":
            for i in range(n + 1):
                self.phase[i] ^= 1
        self.target_len = 0
        self.rephases = count + 1
        self.next_rephase = self.conflicts + self.set_rephase_first * (count + 2)
        return 0

    cdef int rescale(self) except -1:
        """Scale every activity down by 1e100 and rebuild the heap."""
        cdef int i
        for i in range(self.num_vars + 1):
            self.activity[i] = self.activity[i] * 1e-100
        self.var_inc *= 1e-100
        return self.rebuild_heap()

    cdef int rescore(self) except -1:
        """Activities from the current assignment's jw_products, half a bump at most."""
        self.jw_activity(0.5 * self.var_inc)  # (0.5 * var_inc) / top, as the reference
        return self.rebuild_heap()

    cdef int trim_heap(self) except -1:
        """Rebuild the heap when most of its entries are assigned variables."""
        if self.heap.size > 2 * (self.num_vars - self.ctrail.size) + 64:
            self.rebuild_heap()
        return 0

    def expect_new_question(self):
        """Rank the variables anew at the next call's first free decision, if calls cost enough."""
        self.rescore_next = self.conflicts_per_call >= self.set_rescore_conflicts
