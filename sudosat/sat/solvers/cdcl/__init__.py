"""Our CDCL solver: conflict-driven clause learning in pure Python, after MiniSat's core.

The main loop (:meth:`Engine.solve` and :meth:`Engine.search`)::

    loop:                                   # one restart per pass
        conflict = propagate()              # unit propagation of the trail
        if conflict:
            if level == 0: return UNSAT
            note the conflict-free trail below this level (target and best phases)
            learnt = analyze(conflict)      # first UIP, minimised, shrunk; its LBD
            backjump; record(learnt)        # the learnt clause asserts its literal
            average the LBD in (fast and slow moving averages)
            if restart due: cancel_until(0); continue with the next restart
        else:
            if out of budget: return UNKNOWN        # time, conflicts, propagations
            simplify at level 0; reduce learnt clauses when due
            decide: next assumption, else pick_branch_lit()  (none left: SAT)
    at each restart: switch mode when due; rephase when due; vivify learnt clauses when due

Restarts (tunable ``restart_mode``) come in stable mode by the Luby sequence
(the default, alone) and in focused mode when the recent LBDs run above the
long-run ones (Glucose's rule); with both, the two modes alternate for
geometrically growing numbers of conflicts (CaDiCaL and Kissat). In stable
mode a decision takes the variable's *target phase* (``target_phase``): its
value in the longest conflict-free trail of the call so far, the saved phase
for a variable off that trail. Rephasing (``rephase_first``) resets the saved
phases now and then to the original, inverted, best or flipped ones. Each
learnt clause is shrunk (``shrink``): the literals of a level that holds
several give way to that level's UIP where no new literal is needed. Learnt
clauses are cut by LBD, optionally in three tiers (``tier2_lbd``).

One concern per file; :class:`Engine` is one class built in layers, each file
a subclass of the one before it:

* :mod:`.state` — the tables in MiniSat's layout (literal codes ``2v`` and
  ``2v + 1``, negation ``lit ^ 1``, flat per-literal lists), growth, the clock;
* :mod:`.reasons` — clause, reason and proof-step shapes;
* :mod:`.proof` — DRAT logging, and :func:`certify` (the ``dratify`` checker);
* :mod:`.loader` — reading DIMACS arrays into binary implication lists,
  ternary occurrence lists and watched clauses; :class:`RunCache`;
* :mod:`.propagation` — ``propagate`` (two watched literals, blocking
  literal) and ``cancel_until``;
* :mod:`.heuristic` — VSIDS in a lazy heap, first scores, phases, target
  phases and rephasing;
* :mod:`.analysis` — first-UIP learning, minimisation, shrinking,
  ``analyze_final``;
* :mod:`.database` — learnt-clause reduction by LBD (and tiers), level-0
  simplification;
* :mod:`.vivify` — vivification of learnt clauses at restarts (tunable
  ``vivify``, off by default);
* :mod:`.engine` — restarts and modes, search, assumptions, budgets
  (:class:`Engine`);
* :mod:`.chrono` — chronological backtracking and trail reuse (tunable
  ``chrono``): :class:`ChronoEngine`, a subclass the solver takes only then;
* :mod:`.solver` — the incremental :class:`Solver` (PySAT's shape);
* :mod:`.model_check` — the independent model check of answers (indexed under the deadline);
* :mod:`.one_shot` — :func:`solve`, one call on a fresh solver;
* :mod:`.tunables` — :data:`TUNABLES`, every tunable declared once, the modes by name;
* :mod:`.cores` — which core runs: this pure-Python engine (the reference, and
  what runs in the browser) or its compiled twin, :mod:`.compiled`, the same
  files in Cython doing the same search over C arrays wherever it is built.

Where each engine method lives::

    State.grow, assign, in_time, watch_all               state.py
    log_add, log_delete, log_level0_units, proof_text    proof.py
    load, add_codes, add_ternary                         loader.py
    propagate, cancel_until                              propagation.py
    init_heap, jw_products, rebuild_heap, pick_branch_lit,
    note_consistent, rephase, rescale, rescore           heuristic.py
    analyze, finish_learnt, shrink, minimize, redundant,
    record, analyze_final                                analysis.py
    reduce_db, forget_learnts, simplify                  database.py
    vivify                                               vivify.py
    search, solve, set_budget, within_budget, note_lbd,
    switch_mode, next_assumption, prepare_first_call     engine.py
    ChronoEngine: backtrack_level, propagate, record,
    cancel_until (the trail kept), settle_levels          chrono.py

A variable's *phase* is the polarity it is first tried with (the tunable
``initial_phase``), and then the value it last had (phase saving), unless its
target phase rules (above).

Budgets: a call's time limit (a :class:`~sudosat.sat.solvers.budget.Deadline`,
wall or CPU clock) is read every so many units of work (propagations in the
search, clauses or lists while loading), never at a machine-tuned rate;
``max_conflicts`` and ``max_propagations`` (MiniSat's ``setConfBudget`` /
``setPropBudget``) stop a call reproducibly. A call out of budget answers
UNKNOWN, its :class:`~sudosat.sat.result.Stop` (``TIME``, ``CONFLICTS``,
``PROPAGATIONS``) set where the loop stopped, as every solver's is.

Examples
--------
>>> from sudosat.sat.cnf import CNF
>>> solve(CNF([[1, 2], [-1, 2], [-2, 3]])).model  # 2 first (most frequent), true (2 of 3)
[-1, 2, 3]
>>> solve(CNF([[1], [-1]]), proof=True).proof
'0\\n'
>>> solve(CNF([[1, 2], [-1, 2], [1, -2], [-1, -2]]), max_conflicts=0).stop
<Stop.CONFLICTS: 'conflicts'>
"""

from __future__ import annotations

from sudosat.sat.solvers.cdcl.chrono import ChronoEngine
from sudosat.sat.solvers.cdcl.engine import Engine, luby
from sudosat.sat.solvers.cdcl.loader import RunCache
from sudosat.sat.solvers.cdcl.one_shot import solve
from sudosat.sat.solvers.cdcl.proof import certify
from sudosat.sat.solvers.cdcl.reasons import (
    Clause,
    Implication,
    ProofStep,
    Reason,
    ReasonKind,
    reason_kind,
    reason_literals,
)
from sudosat.sat.solvers.cdcl.solver import Observer, Solver
from sudosat.sat.solvers.cdcl.tunables import (
    TUNABLES,
    Backtrack,
    Minimize,
    Mode,
    Phase,
    Restarts,
    Target,
)

__all__ = [
    "TUNABLES",
    "Backtrack",
    "ChronoEngine",
    "Clause",
    "Engine",
    "Implication",
    "Minimize",
    "Mode",
    "Observer",
    "Phase",
    "ProofStep",
    "Reason",
    "ReasonKind",
    "Restarts",
    "RunCache",
    "Solver",
    "Target",
    "certify",
    "luby",
    "reason_kind",
    "reason_literals",
    "solve",
]
