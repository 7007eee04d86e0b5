"""Vivification of learnt clauses: the engine's layer that shortens them by propagation.

As in CaDiCaL and Kissat (after Piette, Hamadi and Saïs, and Luo et al.), a
learnt clause ``(l1 ∨ … ∨ lk)`` is *vivified* at level 0 by assuming its
literals false one by one, each on a decision level of its own, and
propagating after each:

* a literal already false is implied false by the ones before it: it leaves
  the clause;
* a literal already true is implied by the negation of the ones before it:
  the clause becomes those and it, the rest leaves;
* a conflict means the literals assumed so far cannot all be false: the
  clause becomes those.

Each shorter clause is implied by unit propagation on the clauses (RUP), so a
DRAT proof adds it and deletes the old one. A round runs at a restart (level
0) every ``vivify_interval`` conflicts when the tunable ``vivify`` is on; it
takes the learnt clauses it has not tried yet, lowest LBD first, and stops
once it has propagated ``vivify_effort`` times the literals the search
propagated since the last round. The phases saved before a round are put back
after it: its assignments are not the search's.
"""

from __future__ import annotations

from sudosat.sat.solvers.cdcl.database import ClauseDatabase
from sudosat.sat.solvers.cdcl.reasons import Clause
from sudosat.sat.solvers.codes import Code


class Vivification(ClauseDatabase):
    """The engine's vivification layer: :meth:`vivify` and its schedule."""

    def vivify_due(self) -> bool:
        """Whether a vivification round is due (tunable ``vivify`` on and enough conflicts)."""
        return bool(self.settings["vivify"]) and self.conflicts >= self.next_vivify

    def vivify(self) -> None:
        """One round of vivification of learnt clauses (see the module's docstring).

        Pre: decision level 0, the trail propagated without conflict. Post:
        level 0, propagated; every learnt clause tried is the same or shorter
        (one of two literals moved to ``bins``, of one literal a level-0 fact);
        ``ok`` is False when a level-0 fact it found makes the clauses
        unsatisfiable. The proof logs each shorter clause before the old one's
        deletion.
        """
        self.next_vivify = self.conflicts + self.settings["vivify_interval"]
        spent_before = self.propagations
        budget = self.settings["vivify_effort"] * (spent_before - self.vivify_mark)
        tried = self.vivified
        lbd = self.lbd
        order = sorted((i for i, clause in enumerate(self.learnts) if id(clause) not in tried),
                       key=lambda i: (lbd[i], -i))
        phases = list(self.phase)
        shorter: dict[int, list[Code]] = {}
        for i in order:
            if self.propagations - spent_before >= budget:
                break
            clause = self.learnts[i]
            tried.add(id(clause))
            if self.locked(clause):
                continue
            kept = self.vivify_clause(clause)
            if kept is not None:
                shorter[i] = kept
        self.cancel_until(0)
        self.phase[:] = phases
        self.vivify_mark = self.propagations
        self.vivified_rounds += 1
        if shorter:
            self.replace_learnts(shorter)
        live = set(map(id, self.learnts))
        self.vivified = {key for key in tried if key in live}

    def vivify_clause(self, clause: Clause) -> list[Code] | None:
        """The shorter clause that propagation proves for `clause`, or None (no gain).

        Pre: level 0, propagated. Post: back at level 0, propagated (the
        levels it opened are undone). Each literal is read in the clause's
        order as it stands when the round begins.
        """
        literals = list(clause)
        val = self.val
        kept: list[Code] = []
        for lit in literals:
            value = val[lit]
            if value == 1:
                if self.trail_lim and self.level[lit >> 1] > 0:
                    kept.append(lit)  # implied true by the negation of the ones before
                    break
                self.cancel_until(0)
                return None  # true at level 0: satisfied, left to simplify
            if value == -1:
                continue  # false at level 0, or implied false by the ones before: it goes
            kept.append(lit)
            self.trail_lim.append(len(self.trail))
            self.assign(lit ^ 1, None)
            if self.propagate() is not None:
                break  # the literals so far cannot all be false
        self.cancel_until(0)
        if len(kept) >= len(literals) or not kept:
            return None
        return kept

    def replace_learnts(self, shorter: dict[int, list[Code]]) -> None:
        """Put the shorter clauses in place of the learnt clauses they vivify.

        `shorter` maps an index of ``learnts`` to its shorter literals. Pre:
        level 0, propagated. The old clauses leave their watch lists; a
        shorter one of three literals or more keeps its list object (and
        reasons or tiers that name it), one of two goes to ``bins``, one of
        one becomes a level-0 fact, propagated at once.
        """
        learnts, lbd = self.learnts, self.lbd
        self.unwatch({id(learnts[i]) for i in shorter}, [learnts[i] for i in shorter])
        units: list[Code] = []
        keep: list[Clause] = []
        keep_lbd: list[int] = []
        watches, bins = self.watches, self.bins
        for i, clause in enumerate(learnts):
            new = shorter.get(i)
            if new is None:
                keep.append(clause)
                keep_lbd.append(lbd[i])
                continue
            self.vivified_literals += len(clause) - len(new)
            if self.proof is not None:
                self.log_add(new)
                self.log_delete(clause)
            if len(new) >= 3:
                clause[:] = new
                watches[new[0]].append(clause)
                watches[new[1]].append(clause)
                keep.append(clause)
                keep_lbd.append(min(lbd[i], len(new) - 1))
            elif len(new) == 2:
                a, b = new
                bins[a ^ 1].append(b)
                bins[b ^ 1].append(a)
            else:
                units.append(new[0])
        self.learnts, self.lbd = keep, keep_lbd
        self.vivify_units(units)

    def vivify_units(self, units: list[Code]) -> None:
        """Make the level-0 facts vivification found true and propagate them (a conflict,
        or a fact already false: ``ok`` False). Pre: level 0."""
        val = self.val
        for lit in units:
            if val[lit] == -1:
                self.ok = False
                return
            if not val[lit]:
                self.assign(lit, None)
        if units and self.propagate() is not None:
            self.ok = False
