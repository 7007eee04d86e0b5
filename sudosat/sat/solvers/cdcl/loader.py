"""Loading clauses: the engine's loader layer and the cache of runs it may share.

Binary clauses live only in implication lists: ``bins[p]`` holds every literal
implied when ``p`` becomes true (a Sudoku's CNF is almost all binary, so most
propagation never touches a clause object). Input ternary clauses (all of
random 3-SAT) live in full occurrence lists ``terns``; longer clauses are
lists watched at positions 0 and 1. The loader reads the zero-terminated
DIMACS array itself and converts whole runs of same-width clauses in C.

Its compiled twin, which does the same work over C arrays, is
:mod:`sudosat.sat.solvers.cdcl.compiled.loader` (see :mod:`~sudosat.sat.solvers.cdcl.cores`).
"""

from __future__ import annotations

from array import array
from operator import add, or_, xor

from sudosat.sat.solvers.budget import OutOfTime
from sudosat.sat.solvers.cdcl.proof import ProofLog
from sudosat.sat.solvers.cdcl.reasons import Clause
from sudosat.sat.solvers.codes import Code, code_table

_RUN = 0x4000  # binary clauses the loader adds between two looks at the clock


def _run_end(codes: array, start: int, limit: int, width: int) -> int:
    """The end of the run of clauses of `width` literals that begins at `start` in `codes`.

    `codes` is zero-terminated clauses of DIMACS literals (an array).

    Pre: ``codes[start:start + 2 * (width + 1)]`` is two such clauses (`width`
    non-zero literals and a 0, each). Returns the first index after the longest
    run of such clauses, at most `limit`. Each position of the clauses (first
    literal, second, ..., the 0) is sliced out whole and searched as raw bytes
    in C for the first clause that breaks the pattern: a handful of C calls
    however long the run (an ``in`` test on an array would make a Python int
    of every element).
    """
    stride = width + 1
    stop = start + stride * ((limit - start) // stride)
    size = codes.itemsize
    ends = int.from_bytes(codes[start + width : stop : stride].tobytes(), "little")
    # The lowest set bit of the little-endian number is in the first non-zero word.
    clauses = ((ends & -ends).bit_length() - 1) // (8 * size) if ends else (stop - start) // stride
    for k in range(width):
        literals = codes[start + k : start + stride * clauses : stride].tobytes()
        clauses = min(clauses, _first_zero_word(literals, size))
    return start + stride * clauses


def _first_zero_word(data: bytes, size: int) -> int:
    """The index of the first `size`-byte word of `data` that is 0, or the word count.

    Zero bytes can also straddle two non-zero words (5 then 256, little-endian):
    only a hit at a word boundary counts.
    """
    zero = bytes(size)
    at = data.find(zero)
    while at >= 0 and at % size:
        at = data.find(zero, at + 1)
    return len(data) // size if at < 0 else at // size


class RunCache:
    """Big runs of binary clauses loaded before, by their DIMACS bytes, and what each adds.

    A process that solves puzzle after puzzle loads the same rules each time;
    a run met for the third time is added from here without converting it
    (:meth:`Loading._add_run`). A run is noted as seen the first time and
    grouped the second, so a formula loaded once pays only for hashing it.

    Its owner is whoever makes the engines that share it: the one-shot
    :func:`~sudosat.sat.solvers.cdcl.one_shot.solve` keeps one for its calls;
    an engine without one (an incremental :class:`Solver`, which loads once)
    hashes nothing. Bounded: at most `size` runs seen and `size` grouped, the
    oldest dropped first.
    """

    #: Runs shorter than this many clauses are not remembered.
    MIN_RUN = 1024
    #: Grouped runs are found by the bytes of their first PREFIX DIMACS words.
    PREFIX = 3 * 64

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self.seen: dict[bytes, bool] = {}
        # prefix bytes -> (the run's bytes, per code what it appends, per variable if used)
        self.grouped: dict[bytes, tuple[bytes, list[list[Code]], list[bool]]] = {}

    def _remember(self, table: dict, key: bytes, value) -> None:
        """Store `value` under `key`, dropping the oldest entry beyond :attr:`size`."""
        if len(table) >= self.size:
            del table[next(iter(table))]
        table[key] = value

    def find(
        self, flat: array, start: int, limit: int
    ) -> tuple[int, list[list[Code]], list[bool]] | None:
        """The grouped run at ``flat[start:]`` ending by `limit`: (its end, what it adds), or None.

        Found by the bytes of its first clauses, then compared whole, byte for
        byte (one C call), so the run's end need not be searched for.
        """
        if start + 3 * self.MIN_RUN > limit:
            return None
        entry = self.grouped.get(flat[start : start + self.PREFIX].tobytes())
        if entry is None:
            return None
        run, appended, occurs = entry
        stop = start + len(run) // flat.itemsize
        if stop > limit or flat[start:stop].tobytes() != run:
            return None
        return stop, appended, occurs

    def seen_before(self, key: bytes) -> bool:
        """Whether the run `key` (its DIMACS bytes) was seen; note it as seen if not."""
        if self.seen.get(key):
            return True
        self._remember(self.seen, key, True)
        return False

    def store(
        self, key: bytes, itemsize: int, appended: list[list[Code]], occurs: list[bool]
    ) -> None:
        """File what the run `key` adds, under its first :attr:`PREFIX` words."""
        self._remember(self.grouped, key[: self.PREFIX * itemsize], (key, appended, occurs))


def _group_run(firsts: list[Code], seconds: list[Code]) -> tuple[list[list[Code]], list[bool]]:
    """What the run {firsts[i], seconds[i]} adds: per literal code, the literals it
    appends to that code's implication list, in order; per variable, whether it
    occurs (both lists cover codes and variables up to the run's highest)."""
    top = max(max(firsts), max(seconds)) | 1
    appended: list[list[Code]] = [[] for _ in range(top + 1)]
    for a, b in zip(firsts, seconds, strict=True):
        appended[a ^ 1].append(b)
        appended[b ^ 1].append(a)
    occurs = [False] * (top // 2 + 1)
    for lit in {*firsts, *seconds}:
        occurs[lit >> 1] = True
    return appended, occurs


class Loading(ProofLog):
    """The engine's loader layer: input clauses into ``bins``, ``terns`` and watched lists."""

    runs: RunCache | None = None  # set by the engine's owner to share remembered runs

    def load(self, flat: array) -> None:
        """Read a zero-terminated DIMACS literal array into the solver.

        Pre: decision level 0, nothing loaded. Post: binary clauses are in
        ``bins``, longer ones watched on positions 0 and 1, unit clauses on the
        trail (not yet propagated); ``ok`` is False when an empty clause or two
        opposite units were read. Raises :class:`OutOfTime` when the deadline
        passes meanwhile (the clock is read between runs of binary clauses,
        every 16,384 clauses, and after each huge clause).
        """
        # The clauses are read from the DIMACS array itself and converted clause by
        # clause (table[x] is codes.to_code(x), inlined): a run of binary clauses met
        # before is then added from its memo without converting it at all.
        table = code_table(self.num_vars)
        if not isinstance(flat, array) or flat.typecode != "i":
            flat = array("i", flat)
        if flat and flat[-1] != 0:
            flat = flat + array("i", [0])
        used, clauses = self.used, self.clauses
        first_new = len(clauses)
        units: list[Code] = []
        add_ternary = self.add_ternary
        index = flat.index
        start = 0
        end_all = len(flat)
        in_time = self.in_time
        count = 0
        while start < end_all:
            stop = self._add_uniform_run(flat, start, table, units)
            if stop:
                start = stop
                if not in_time():
                    raise OutOfTime
                continue
            end = index(0, start)
            length = end - start
            if length == 2:
                self._add_binary(table[flat[start]], table[flat[start + 1]], units)
            elif length == 3:
                a = table[flat[start]]
                b = table[flat[start + 1]]
                c = table[flat[start + 2]]
                if a ^ b > 1 and a ^ c > 1 and b ^ c > 1:  # distinct, no tautology
                    add_ternary(a, b, c)
                    used[a >> 1] = used[b >> 1] = used[c >> 1] = True
                else:
                    self._add_long([a, b, c], units)
            elif length > 3:
                self._add_long(list(map(table.__getitem__, flat[start:end])), units)
                if length > 0x3FFF and not in_time():
                    raise OutOfTime  # a huge clause alone can take a while
            elif length == 1:
                units.append(table[flat[start]])
            else:
                self.ok = False
            start = end + 1
            count += 1
            if not count & 0x3FFF and not in_time():
                raise OutOfTime
        for lit in units:
            used[lit >> 1] = True
            value = self.val[lit]
            if value < 0:
                self.ok = False
            elif value == 0:
                self.assign(lit, None)
        self.watch_all(clauses[first_new:])
        self.heap_stale = True

    def _add_uniform_run(
        self, flat: array, start: int, table: list[Code], units: list[Code]
    ) -> int:
        """Add the run of binary or ternary clauses at `start`; the index after it, or 0.

        A run is two clauses of the same width or more (Sudoku's CNF is mostly
        long runs of binary clauses, random 3-SAT one run of ternary ones); it
        is sliced and converted in C, at most :data:`_RUN` clauses at a time so
        that the caller reads the clock often enough. 0: no such run starts here.
        """
        end_all = len(flat)
        if (
            start + 5 < end_all
            and flat[start + 2] == 0 == flat[start + 5]
            and flat[start] and flat[start + 1] and flat[start + 3] and flat[start + 4]
        ):
            limit = min(end_all, start + 3 * _RUN)
            stop = self._add_remembered_run(flat, start, limit)
            if stop < 0:
                stop = _run_end(flat, start, limit, 2)
                self._add_run(flat, start, stop, table, units)
            return stop
        if (
            start + 7 < end_all
            and flat[start + 3] == 0 == flat[start + 7]
            and flat[start] and flat[start + 1] and flat[start + 2]
            and flat[start + 4] and flat[start + 5] and flat[start + 6]
        ):
            stop = _run_end(flat, start, min(end_all, start + 4 * _RUN), 3)
            self._add_ternary_run(flat, start, stop, table, units)
            return stop
        return 0

    def add_codes(self, clause: Clause) -> None:
        """Add one input clause between solves, against what level 0 already knows.

        Pre: decision level 0 (its trail may still await propagation). Post: a
        clause satisfied at level 0 is dropped, its false literals are removed;
        what remains is stored like a loaded clause (a unit goes on the trail,
        an empty clause sets ``ok`` False). Watches never sit on false literals.
        """
        val = self.val
        if any(val[q] == 1 for q in clause):
            return
        rest = [q for q in clause if not val[q]]
        units: list[Code] = []
        if not rest:
            self.ok = False
        elif len(rest) == 1:
            units.append(rest[0])
        elif len(rest) == 2:
            self._add_binary(rest[0], rest[1], units)
        else:
            before = len(self.clauses)
            self._add_long(rest, units)
            self.watch_all(self.clauses[before:])
        for lit in units:
            self.used[lit >> 1] = True
            if not val[lit]:
                self.assign(lit, None)
        self.heap_stale = True

    def _add_binary(self, a: Code, b: Code, units: list[Code]) -> None:
        """Add the input clause {a, b}: a unit when a == b, nothing when a tautology."""
        if a ^ b > 1:
            self.bins[a ^ 1].append(b)
            self.bins[b ^ 1].append(a)
            self.used[a >> 1] = self.used[b >> 1] = True
        elif a == b:
            units.append(a)

    def _add_run(
        self, flat: array, start: int, stop: int, table: list[Code], units: list[Code]
    ) -> None:
        """Add the run of binary clauses ``flat[start:stop]`` (DIMACS, each ``a b 0``).

        With a :class:`RunCache`, a run met for the third time (the same Sudoku
        rules, instance after instance) is added from it, found by the run's
        DIMACS bytes before any conversion: per implication list, the literals
        the run appends, in the same order, so each list grows by one
        concatenation instead of one ``append`` per clause.
        """
        runs = self.runs
        key = None
        if runs is not None and stop - start >= 3 * runs.MIN_RUN:
            key = flat[start:stop].tobytes()
        code = table.__getitem__
        firsts = list(map(code, flat[start:stop:3]))
        seconds = list(map(code, flat[start + 1 : stop : 3]))
        self._add_binaries(firsts, seconds, units, key, flat.itemsize)

    def _add_remembered_run(self, flat: array, start: int, limit: int) -> int:
        """Add the remembered run that starts at `start`, if any; the index after it, else -1.

        The run must end by `limit` (see :meth:`RunCache.find`).
        """
        found = None if self.runs is None else self.runs.find(flat, start, limit)
        if found is None:
            return -1
        stop, appended, occurs = found
        self._add_memo(appended, occurs)
        return stop

    def _add_binaries(
        self,
        firsts: list[Code],
        seconds: list[Code],
        units: list[Code],
        key: bytes | None,
        itemsize: int,
    ) -> None:
        """Add the binary clauses {firsts[i], seconds[i]} in order (see :meth:`_add_run`).

        `key` is the run's DIMACS bytes, of `itemsize`-byte words (None: not to
        be remembered).
        """
        if min(map(xor, firsts, seconds)) <= 1:  # a duplicate literal or a tautology: one by one
            for a, b in zip(firsts, seconds, strict=True):
                self._add_binary(a, b, units)
            return
        runs = self.runs
        if key is not None and runs is not None and runs.seen_before(key):
            appended, occurs = _group_run(firsts, seconds)
            runs.store(key, itemsize, appended, occurs)
            self._add_memo(appended, occurs)
            return
        bins, used = self.bins, self.used
        for a, b in zip(firsts, seconds, strict=True):
            bins[a ^ 1].append(b)
            bins[b ^ 1].append(a)
        for lit in {*firsts, *seconds}:
            used[lit >> 1] = True

    def _add_ternary_run(
        self, flat: array, start: int, stop: int, table: list[Code], units: list[Code]
    ) -> None:
        """Add the run of ternary clauses ``flat[start:stop]`` (DIMACS, each ``a b c 0``).

        The literals are converted in C, and the whole run is tested at once for a
        repeated literal or a tautology (then it is added clause by clause).
        """
        code = table.__getitem__
        firsts = list(map(code, flat[start:stop:4]))
        seconds = list(map(code, flat[start + 1 : stop : 4]))
        thirds = list(map(code, flat[start + 2 : stop : 4]))
        if min(min(map(xor, firsts, seconds)), min(map(xor, firsts, thirds)),
               min(map(xor, seconds, thirds))) <= 1:
            for a, b, c in zip(firsts, seconds, thirds, strict=True):
                self._add_long([a, b, c], units)
            return
        terns = self.terns
        # add_ternary, inlined: a call per clause costs more instructions on random 3-SAT
        # (benchmarks/instructions.py counts them). The tuple zip makes is the
        # clause's shared tuple.
        for clause in zip(firsts, seconds, thirds, strict=True):
            a, b, c = clause
            terns[a ^ 1].append((b, c, clause))
            terns[b ^ 1].append((a, c, clause))
            terns[c ^ 1].append((a, b, clause))
        used = self.used
        for lit in {*firsts, *seconds, *thirds}:
            used[lit >> 1] = True

    def _add_memo(self, appended: list[list[Code]], occurs: list[bool]) -> None:
        """Add a remembered run (see :func:`_group_run`): every list grows in one C pass.

        Each implication list is replaced by its concatenation with what the run
        appends (nothing outside the loader holds these lists while it runs).
        """
        bins, used = self.bins, self.used
        bins[: len(appended)] = map(add, bins[: len(appended)], appended)
        used[: len(occurs)] = map(or_, used[: len(occurs)], occurs)

    def _add_long(self, clause: Clause, units: list[Code]) -> None:
        """Store a clause of three or more literals: drop duplicates, skip tautologies."""
        variables = {lit >> 1 for lit in clause}
        if len(variables) == len(clause):  # the usual case: no repeated variable at all
            used = self.used
            for v in variables:
                used[v] = True
            if len(clause) == 3:
                self.add_ternary(clause[0], clause[1], clause[2])
            else:
                self.clauses.append(clause)
            return
        present = set(clause)
        if len(present) != len(clause):
            clause = list(dict.fromkeys(clause))
        # A set, not the list: `in` on a list is quadratic in the clause's length,
        # and a clause may hold every variable; this is linear.
        if any(lit ^ 1 in present for lit in clause):
            return
        used = self.used
        for lit in clause:
            used[lit >> 1] = True
        if len(clause) == 2:
            self._add_binary(clause[0], clause[1], units)
        elif len(clause) == 1:
            units.append(clause[0])
        elif len(clause) == 3:
            self.add_ternary(clause[0], clause[1], clause[2])
        else:
            self.clauses.append(clause)

    def add_ternary(self, a: Code, b: Code, c: Code) -> None:
        """Index the input clause {a, b, c} under the negation of each of its literals.

        Random 3-SAT is all ternary clauses. Full occurrence lists cost more
        visits than two watches but a visit only reads two values: no watch
        moves, no list rebuilt. The three entries share the clause's tuple,
        which propagation names as the reason (or conflict) when a visit
        implies (or falsifies), instead of building a tuple each time.
        """
        terns = self.terns
        clause = (a, b, c)
        terns[a ^ 1].append((b, c, clause))
        terns[b ^ 1].append((a, c, clause))
        terns[c ^ 1].append((a, b, clause))

