# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Twin of :mod:`sudosat.sat.solvers.cdcl.loader`: input clauses into bins, terns and watches.

The reference converts whole runs of same-width clauses at once and may add
a run it met before from its :class:`~sudosat.sat.solvers.cdcl.loader.RunCache`;
each way appends, list by list, what adding the clauses one by one in order
would. The twin adds them one by one, in C, and walks the array in the same
runs, so that it looks at the clock where the reference does without a cache.
"""

from array import array

from sudosat.sat.solvers.cdcl.compiled.cvec cimport (
    NO_REASON,
    clause_new,
    ivec_push,
    ivec_reserve,
    pvec_push,
    tvec_push,
)

from sudosat.sat.solvers.budget import OutOfTime

cdef enum:
    RUN = 0x4000  # the reference's _RUN: clauses of one run between two looks at the clock
    EVERY = 0x3FFF  # the clock is read every EVERY + 1 clauses read one by one


cdef int run_end(const int* flat, int start, int limit, int width) noexcept:
    """The end of the run of `width`-literal clauses at `start`, at most `limit` (the
    reference's _run_end): the clauses before the first that is not `width` non-zero
    literals and a 0."""
    cdef int stride = width + 1
    cdef int clauses = (limit - start) // stride
    cdef int i, k, at
    for i in range(clauses):
        at = start + i * stride
        if flat[at + width] != 0:
            return at
        for k in range(width):
            if flat[at + k] == 0:
                return at
    return start + clauses * stride


cdef class Loading(ProofLog):
    """The engine's loader layer (the reference's Loading)."""

    def load(self, flat):
        """Read a zero-terminated DIMACS literal array into the solver (the reference's load).

        Raises :class:`OutOfTime` when the deadline passes meanwhile.
        """
        if not isinstance(flat, array) or flat.typecode != "i":
            flat = array("i", flat)
        if len(flat) and flat[len(flat) - 1] != 0:
            flat = flat + array("i", [0])
        cdef const int[::1] view = flat
        cdef int end_all = view.shape[0]
        cdef const int* codes = &view[0] if end_all else NULL
        cdef int first_new = self.clauses.size
        cdef int start = 0, stop, end, count = 0, i, lit
        self.units.size = 0
        while start < end_all:
            stop = self.uniform_run(codes, start, end_all)
            if stop:
                start = stop
                if not self.in_time():
                    raise OutOfTime
                continue
            end = start
            while codes[end] != 0:
                end += 1
            self.add_clause_at(codes, start, end - start)
            if end - start > EVERY and not self.in_time():
                raise OutOfTime  # a huge clause alone can take a while
            start = end + 1
            count += 1
            if not count & EVERY and not self.in_time():
                raise OutOfTime
        for i in range(self.units.size):
            lit = self.units.data[i]
            self.used[lit >> 1] = 1
            if self.val[lit] < 0:
                self.ok = False
            elif self.val[lit] == 0:
                self.assign(lit, NO_REASON)
        self.watch_from(&self.clauses, first_new)
        self.heap_stale = True

    cdef int code_of(self, int lit) except -1:
        """The code of a DIMACS literal (the reference's code_table lookup)."""
        if lit > self.num_vars or -lit > self.num_vars:
            raise IndexError(f"literal {lit} beyond the {self.num_vars} variables")
        return 2 * lit if lit > 0 else 1 - 2 * lit

    cdef int add_clause_at(self, const int* flat, int start, int length) except -1:
        """Add the clause of `length` literals at ``flat[start]``, as the reference's load."""
        cdef int k
        if length == 2:
            self.add_binary(self.code_of(flat[start]), self.code_of(flat[start + 1]))
        elif length >= 3:  # add_long stores a ternary clause of three variables as is
            ivec_reserve(&self.buffer, length)
            for k in range(length):
                self.buffer.data[k] = self.code_of(flat[start + k])
            self.add_long(self.buffer.data, length)
        elif length == 1:
            ivec_push(&self.units, self.code_of(flat[start]))
        else:
            self.ok = False
        return 0

    cdef int uniform_run(self, const int* flat, int start, int end_all) except -1:
        """Add the run of binary or ternary clauses at `start`; the index after it, or 0
        (the reference's _add_uniform_run, without a run cache)."""
        cdef int stop, at
        if (start + 5 < end_all and flat[start + 2] == 0 and flat[start + 5] == 0
                and flat[start] and flat[start + 1] and flat[start + 3] and flat[start + 4]):
            stop = run_end(flat, start, min(end_all, start + 3 * RUN), 2)
            for at in range(start, stop, 3):
                self.add_clause_at(flat, at, 2)
            return stop
        if (start + 7 < end_all and flat[start + 3] == 0 and flat[start + 7] == 0
                and flat[start] and flat[start + 1] and flat[start + 2]
                and flat[start + 4] and flat[start + 5] and flat[start + 6]):
            stop = run_end(flat, start, min(end_all, start + 4 * RUN), 3)
            for at in range(start, stop, 4):
                self.add_clause_at(flat, at, 3)
            return stop
        return 0

    def add_codes(self, clause):
        """Add one input clause (literal codes) between solves, against level 0 (the
        reference's add_codes)."""
        cdef int q, i, lit, n = 0
        cdef int top = 2 * self.num_vars + 1
        for q in clause:
            if q < 2 or q > top:
                raise IndexError(f"literal code {q} beyond the {self.num_vars} variables")
            if self.val[q] == 1:
                return
        ivec_reserve(&self.buffer, len(clause))
        for q in clause:
            if not self.val[q]:
                self.buffer.data[n] = q
                n += 1
        self.units.size = 0
        if n == 0:
            self.ok = False
        elif n == 1:
            ivec_push(&self.units, self.buffer.data[0])
        elif n == 2:
            self.add_binary(self.buffer.data[0], self.buffer.data[1])
        else:
            before = self.clauses.size
            self.add_long(self.buffer.data, n)
            self.watch_from(&self.clauses, before)
        for i in range(self.units.size):
            lit = self.units.data[i]
            self.used[lit >> 1] = 1
            if not self.val[lit]:
                self.assign(lit, NO_REASON)
        self.heap_stale = True

    cdef int add_binary(self, int a, int b) except -1:
        """Add the input clause {a, b}: a unit when a == b, nothing when a tautology."""
        if a ^ b > 1:
            ivec_push(&self.bins[a ^ 1], b)
            ivec_push(&self.bins[b ^ 1], a)
            self.used[a >> 1] = self.used[b >> 1] = 1
        elif a == b:
            ivec_push(&self.units, a)
        return 0

    cdef int add_long(self, int* lits, int size) except -1:
        """Store a clause of three or more literals: drop duplicates (the first of each
        stays), skip tautologies (the reference's _add_long). `lits` may be rewritten."""
        cdef char* mark = self.lit_mark
        cdef bint repeated = False, tautology = False
        cdef int i, lit, n = 0
        for i in range(size):
            lit = lits[i]
            if mark[lit] or mark[lit ^ 1]:
                repeated = True
            mark[lit] = 1
        if not repeated:  # the usual case: no repeated variable at all
            for i in range(size):
                mark[lits[i]] = 0
                self.used[lits[i] >> 1] = 1
            if size == 3:
                self.add_ternary(lits[0], lits[1], lits[2])
            else:
                pvec_push(&self.clauses, clause_new(lits, size, 0))
            return 0
        for i in range(size):
            lit = lits[i]
            if mark[lit ^ 1]:
                tautology = True
            if mark[lit] == 1:  # its first occurrence
                mark[lit] = 2
                lits[n] = lit
                n += 1
        for i in range(n):
            mark[lits[i]] = 0
        if tautology:
            return 0
        for i in range(n):
            self.used[lits[i] >> 1] = 1
        if n == 2:
            self.add_binary(lits[0], lits[1])
        elif n == 1:
            ivec_push(&self.units, lits[0])
        elif n == 3:
            self.add_ternary(lits[0], lits[1], lits[2])
        else:
            pvec_push(&self.clauses, clause_new(lits, n, 0))
        return 0

    cdef int add_ternary(self, int a, int b, int c) except -1:
        """Index the input clause {a, b, c} under the negation of each of its literals; the
        three entries share the clause's block, its reason or conflict as it stands."""
        cdef int lits[3]
        lits[0] = a
        lits[1] = b
        lits[2] = c
        cdef int* clause = clause_new(lits, 3, 0)
        pvec_push(&self.ternaries, clause)
        tvec_push(&self.terns[a ^ 1], b, c, clause)
        tvec_push(&self.terns[b ^ 1], a, c, clause)
        tvec_push(&self.terns[c ^ 1], a, b, clause)
        return 0
