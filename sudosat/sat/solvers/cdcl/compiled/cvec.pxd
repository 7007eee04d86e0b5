# cython: language_level=3
"""The twin's building blocks: growable C vectors, clause blocks, reason tags, the lazy heap.

The reference keeps Python lists; the twin keeps these, with the same
contents in the same order (every append is a push at the end, every
filter keeps order), so that every loop visits what the reference's does.
Everything here is inline: each module that cimports it compiles its own copy.
"""

from libc.stdint cimport intptr_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy


ctypedef struct IntVec:
    int* data
    int size
    int cap

ctypedef struct PtrVec:  # of stored clauses (see clause_new)
    int** data
    int size
    int cap

ctypedef struct Tern:  # the reference's (b, c, clause) entry of terns[p]
    int b
    int c
    int* clause

ctypedef struct TernVec:
    Tern* data
    int size
    int cap

ctypedef struct Entry:  # the reference's heap tuple (-activity, v)
    double key
    int var

ctypedef struct Heap:
    Entry* data
    int size
    int cap

ctypedef struct Frame:  # one step of redundant's depth-first walk: a reason, where in it, whose
    intptr_t reason
    int pos
    int lit

ctypedef struct FrameVec:
    Frame* data
    int size
    int cap


cdef inline void* grown(void* data, int* cap, int need, size_t item) except NULL:
    """`data` reallocated to hold at least `need` items (doubling), `cap` updated."""
    cdef int new_cap = cap[0] * 2 if cap[0] else 4
    if new_cap < need:
        new_cap = need
    cdef void* block = realloc(data, <size_t>new_cap * item)
    if block == NULL:
        raise MemoryError()
    cap[0] = new_cap
    return block


cdef inline int ivec_push(IntVec* v, int x) except -1:
    if v.size == v.cap:
        v.data = <int*>grown(v.data, &v.cap, v.size + 1, sizeof(int))
    v.data[v.size] = x
    v.size += 1
    return 0


cdef inline int ivec_reserve(IntVec* v, int need) except -1:
    if need > v.cap:
        v.data = <int*>grown(v.data, &v.cap, need, sizeof(int))
    return 0


cdef inline int pvec_push(PtrVec* v, int* c) except -1:
    if v.size == v.cap:
        v.data = <int**>grown(v.data, &v.cap, v.size + 1, sizeof(int*))
    v.data[v.size] = c
    v.size += 1
    return 0


cdef inline int tvec_push(TernVec* v, int b, int c, int* clause) except -1:
    if v.size == v.cap:
        v.data = <Tern*>grown(v.data, &v.cap, v.size + 1, sizeof(Tern))
    v.data[v.size].b = b
    v.data[v.size].c = c
    v.data[v.size].clause = clause
    v.size += 1
    return 0


cdef inline int fvec_push(FrameVec* v, intptr_t reason, int pos, int lit) except -1:
    if v.size == v.cap:
        v.data = <Frame*>grown(v.data, &v.cap, v.size + 1, sizeof(Frame))
    v.data[v.size].reason = reason
    v.data[v.size].pos = pos
    v.data[v.size].lit = lit
    v.size += 1
    return 0


# -- clauses -------------------------------------------------------------------------
# A stored clause (input of four literals or more, learnt of three or more, or an input
# ternary clause) is an int* to its literals; the two words before them hold its LBD
# (clause_lbd: 0 for an input clause, DEAD once deleted) and its size (clause_size). Its
# address is
# its identity, as the list object's is in the reference.

cdef enum:
    DEAD = -1


cdef inline int* clause_new(const int* lits, int size, int lbd) except NULL:
    cdef int* block = <int*>malloc((size + 2) * sizeof(int))
    if block == NULL:
        raise MemoryError()
    block[0] = lbd
    block[1] = size
    memcpy(block + 2, lits, size * sizeof(int))
    return block + 2


cdef inline void clause_free(int* c) noexcept:
    free(c - 2)


cdef inline int clause_size(const int* c) noexcept:
    return (c - 1)[0]


cdef inline int clause_lbd(const int* c) noexcept:
    return (c - 2)[0]


cdef inline void set_clause_size(int* c, int size) noexcept:
    (c - 1)[0] = size


cdef inline void set_clause_lbd(int* c, int lbd) noexcept:
    (c - 2)[0] = lbd


# -- reasons -------------------------------------------------------------------------
# reason[v] (the reference's Reason): 0 for None (a decision, an assumption or a level-0
# fact); odd, (lit << 1) | 1, for a binary clause's other literal (the reference's int);
# else the address of a stored or ternary clause (the reference's list or tuple). A
# conflict is 0 (none), a clause's address, or BINARY_CONFLICT: the reference's fresh
# [q, false_lit], kept in State.bin_conflict.

cdef enum:
    NO_REASON = 0
    BINARY_CONFLICT = 1


cdef inline intptr_t binary_reason(int lit) noexcept:
    return ((<intptr_t>lit) << 1) | 1


cdef inline int* reason_lits(intptr_t r, int* single, int* size) noexcept:
    """The literals the reference iterates for a reason: ``(r,)`` or the whole clause."""
    if r & 1:
        single[0] = <int>(r >> 1)
        size[0] = 1
        return single
    size[0] = clause_size(<int*>r)
    return <int*>r


# -- the heap ------------------------------------------------------------------------
# The reference's heapq of (-activity, v) tuples with lazy re-insertion: a min-heap in the
# tuples' order pops the same sequence whatever its layout, and every push and pop here
# matches one there, so its size (stale entries included) is the reference's len(heap).

cdef inline bint before(Entry a, Entry b) noexcept:
    return a.key < b.key or (a.key == b.key and a.var < b.var)


cdef inline void sift_down(Heap* h, int i, Entry e) noexcept:
    cdef int n = h.size
    cdef int child
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and before(h.data[child + 1], h.data[child]):
            child += 1
        if not before(h.data[child], e):
            break
        h.data[i] = h.data[child]
        i = child
    h.data[i] = e


cdef inline int heap_push(Heap* h, double key, int var) except -1:
    cdef Entry e
    cdef int i, parent
    if h.size == h.cap:
        h.data = <Entry*>grown(h.data, &h.cap, h.size + 1, sizeof(Entry))
    e.key = key
    e.var = var
    i = h.size
    h.size += 1
    while i > 0:
        parent = (i - 1) >> 1
        if not before(e, h.data[parent]):
            break
        h.data[i] = h.data[parent]
        i = parent
    h.data[i] = e
    return 0


cdef inline Entry heap_pop(Heap* h) noexcept:
    """The least entry, removed. Pre: the heap is not empty."""
    cdef Entry top = h.data[0]
    h.size -= 1
    if h.size > 0:
        sift_down(h, 0, h.data[h.size])
    return top


cdef inline void heapify(Heap* h) noexcept:
    cdef int i
    for i in range(h.size // 2 - 1, -1, -1):
        sift_down(h, i, h.data[i])
