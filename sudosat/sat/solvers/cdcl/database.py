"""The clause database: learnt-clause deletion by LBD and level-0 simplification.

Learnt clauses are cut by LBD (glue clauses, of LBD at most the tunable
``glue_lbd``, are kept forever; with ``tier2_lbd``, a middle tier is kept while
conflict analysis uses it); at level 0, clauses satisfied for good are
dropped and false literals stripped (a clause left with two literals moves to
the implication lists).

Its compiled twin, which does the same work over C arrays, is
:mod:`sudosat.sat.solvers.cdcl.compiled.database` (see :mod:`~sudosat.sat.solvers.cdcl.cores`).
"""

from __future__ import annotations

from itertools import compress, islice
from operator import not_

from sudosat.sat.solvers.budget import OutOfTime
from sudosat.sat.solvers.cdcl.analysis import Analysis
from sudosat.sat.solvers.cdcl.reasons import Clause

# Free literal codes drop_satisfied_binaries filters between two looks at the clock.
DROP_CHUNK = 8192


class ClauseDatabase(Analysis):
    """The engine's clause-database layer: reduce, forget, simplify."""

    def locked(self, clause: Clause) -> bool:
        """True when `clause` is the reason of its first literal's current value."""
        first = clause[0]
        return self.val[first] == 1 and self.reason[first >> 1] is clause

    def reduce_db(self) -> None:
        """Delete about half of the learnt clauses, those of highest LBD first (oldest first).

        Pre: any level. Post: glue clauses (LBD <= glue_lbd) and reason clauses
        remain; deleted clauses are gone from their watch lists and logged.
        With ``tier2_lbd`` set, the clauses are in three tiers, as in CaDiCaL
        and Kissat: glue clauses, kept for good; the middle tier (LBD at most
        ``tier2_lbd``), kept while conflict analysis resolves on them (since
        the last reduction); and the rest (the middle tier's unused ones
        among them), whose worse half goes.
        """
        glue = self.settings["glue_lbd"]
        tier2 = self.settings["tier2_lbd"]
        learnts, lbd = self.learnts, self.lbd
        # The survivors are kept in this order (best first): "oldest" is among them.
        order = sorted(range(len(learnts)), key=lambda i: (lbd[i], -i))
        candidates = order
        if tier2:
            used = set(map(id, self.touched))
            candidates = [
                i for i in order if lbd[i] > glue and (lbd[i] > tier2 or id(learnts[i]) not in used)
            ]
        self.touched.clear()
        doomed = set(candidates[len(candidates) - len(candidates) // 2 :])
        keep, keep_lbd, dead = [], [], set()
        for i in order:
            clause = learnts[i]
            if i in doomed and lbd[i] > glue and not self.locked(clause):
                dead.add(id(clause))
                self.delete_clause(clause)
            else:
                keep.append(clause)
                keep_lbd.append(lbd[i])
        self.learnts, self.lbd = keep, keep_lbd
        self.unwatch(dead, learnts)

    def delete_clause(self, clause: Clause) -> None:
        """Count and log a deleted clause (its watches are removed by :meth:`unwatch`)."""
        self.deleted += 1
        if self.proof is not None:
            self.log_delete(clause)

    def unwatch(self, dead: set[int], candidates: list[Clause]) -> None:
        """Remove the clauses whose id is in `dead` from the watch lists of their watches."""
        if not dead:
            return
        watches = self.watches
        touched = {lit for c in candidates if id(c) in dead for lit in (c[0], c[1])}
        for lit in touched:
            ws = watches[lit]
            ws[:] = [c for c in ws if id(c) not in dead]

    def forget_learnts(self, keep_lbd: int = 0) -> int:
        """Delete the learnt clauses (of three literals or more) whose LBD exceeds `keep_lbd`.

        Pre: level 0. Post: the rest keep their order; returns how many went.
        """
        dead = set()
        keep: list[Clause] = []
        keep_lbd_list: list[int] = []
        for clause, lbd in zip(self.learnts, self.lbd, strict=True):
            if lbd > keep_lbd:
                dead.add(id(clause))
                self.delete_clause(clause)
            else:
                keep.append(clause)
                keep_lbd_list.append(lbd)
        self.unwatch(dead, self.learnts)
        self.learnts, self.lbd = keep, keep_lbd_list
        return len(dead)

    def simplify(self) -> None:
        """Level-0 simplification.

        Pre: decision level 0, trail propagated without conflict. Post: no
        long clause is satisfied at level 0 or holds a false literal; watch
        lists are rebuilt; clauses that shrank to two literals moved to bins.
        Raises :class:`OutOfTime` from :meth:`drop_satisfied_binaries`, with
        the watches rebuilt already: the next call simplifies again.
        """
        if self.proof is not None:
            self.log_level0_units()
        # Only the lists of watched literals hold clauses: clearing those alone (read
        # before simplification rewrites the clauses) spares a pass over every literal.
        watches = self.watches
        for clause in (*self.clauses, *self.learnts):
            watches[clause[0]].clear()
            watches[clause[1]].clear()
        self.clauses = self._simplify_list(self.clauses, learnt=False)
        kept = self._simplify_list(self.learnts, learnt=True, lbds=self.lbd)
        self.learnts, self.lbd = kept[0], kept[1]
        self.watch_all(self.clauses)
        self.watch_all(self.learnts)
        if len(self.trail) >= self.bins_trail + self.num_vars // 8:
            self.drop_satisfied_binaries()
            self.bins_trail = len(self.trail)
            self.trim_heap()  # many variables became fixed: each entry would cost a pop
        self.simp_trail = len(self.trail)

    def drop_satisfied_binaries(self) -> None:
        """Remove from ``bins`` the implied literals that are true at level 0.

        Such a binary clause is satisfied for good, yet its entry would be read
        each time the other literal is assigned: after a Sudoku's givens, most
        entries of the free cells' lists are of this kind. Only the lists of
        free literals are filtered (the others are never read again). The
        clauses stay in a DRAT checker's database: deleting is optional there.
        """
        val, bins = self.val, self.bins
        free = list(compress(range(2, len(bins)), map(not_, islice(val, 2, None))))  # in C
        # Each list's filter stands alone, so stopping between two leaves a valid state:
        # the clock is read between chunks.
        for start in range(0, len(free), DROP_CHUNK):
            if start and not self.in_time():
                raise OutOfTime
            for p in free[start : start + DROP_CHUNK]:
                implied = bins[p]
                if implied:
                    kept = [q for q in implied if val[q] != 1]
                    if len(kept) != len(implied):
                        bins[p] = kept

    def _simplify_list(self, clauses: list[Clause], learnt: bool, lbds=None):
        """`clauses` without those satisfied at level 0, false literals stripped.

        Clauses left with two literals move to ``bins`` and out of the list;
        for learnt clauses (`learnt`) returns (clauses, their `lbds`), logging
        the deletions and the shortened copies in the proof.
        """
        val = self.val
        out: list[Clause] = []
        out_lbd: list[int] = []
        logging = self.proof is not None
        value = val.__getitem__
        for index, clause in enumerate(clauses):
            values = list(map(value, clause))  # in C: this pass runs at every restart
            if 1 in values:
                if learnt:
                    self.delete_clause(clause)
                continue
            if -1 in values:
                short = [q for q in clause if not val[q]]
                if learnt and logging:
                    self.log_add(short)
                    self.log_delete(clause)
                if len(short) == 2:
                    a, b = short
                    self.bins[a ^ 1].append(b)
                    self.bins[b ^ 1].append(a)
                    continue
                clause[:] = short
            out.append(clause)
            if learnt:
                out_lbd.append(lbds[index])
        return (out, out_lbd) if learnt else out

