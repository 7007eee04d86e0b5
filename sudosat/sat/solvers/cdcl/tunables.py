"""Every tunable of cdcl, declared once; ``solve(cnf, **tunables)`` accepts these names.

The names are a public contract (registry, command line, studies), kept even
where the code's word differs: ``initial_phase`` sets each variable's first
phase (see :mod:`sudosat.sat.solvers.cdcl`).
"""

from __future__ import annotations

from sudosat.sat.solvers.budget import Tunable, declare

#: Every tunable, declared once. ``solve(cnf, **tunables)`` accepts these names.
TUNABLES: dict[str, Tunable] = declare(
    Tunable("var_decay", 0.95, 0.5, 0.9999, "VSIDS activity decay per conflict"),
    Tunable("restart_first", 100, 1, 1e9, "conflicts in the first Luby restart unit"),
    Tunable("reduce_first", 2000, 10, 1e9, "conflicts before the first learnt-clause cut"),
    Tunable("reduce_inc", 300, 0, 1e9, "growth of the reduction interval after each reduction"),
    Tunable("glue_lbd", 2, 0, 1e9, "learnt clauses with LBD at most this are never deleted"),
    Tunable(
        "tier2_lbd", 0, 0, 1e9,
        "learnt clauses with LBD at most this (above glue_lbd) survive a reduction when "
        "conflict analysis used them since the last one (0: no such tier)",
    ),
    Tunable("minimize", 2, 0, 2, "learnt-clause minimisation: 0 none, 1 local, 2 recursive"),
    Tunable(
        "shrink", 1, 0, 1,
        "1: after minimisation, replace each level's literals of a learnt clause by that "
        "level's UIP where no new literal is needed (all-UIP shrinking, Feng and Bacchus)",
    ),
    Tunable(
        "initial_phase", 2, 0, 2,
        "phase (the polarity a variable is first tried with): 0 false, 1 true, 2 the sign it "
        "has in more clauses (ties false; false on a formula with level-0 facts, such as a "
        "puzzle's givens)",
    ),
    Tunable(
        "restart_mode", 0, 0, 2,
        "restarts: 0 Luby only (stable), 1 glucose-style by LBD averages only (focused), "
        "2 both, in alternating modes (stable first)",
    ),
    Tunable("mode_first", 2000, 1, 1e9, "conflicts of the first mode when restart_mode is 2"),
    Tunable("mode_growth", 2.0, 1.0, 100.0, "each mode pair lasts this many times the last"),
    Tunable(
        "restart_margin", 1.1, 1.0, 10.0,
        "focused mode restarts when the fast LBD average exceeds the slow one times this",
    ),
    Tunable("restart_min", 2, 1, 1e9, "least conflicts between two focused restarts"),
    Tunable("focused_decay", 0.9, 0.5, 0.9999, "VSIDS decay in focused mode"),
    Tunable(
        "target_phase", 1, 0, 2,
        "decide to the target phase (the longest conflict-free assignment since the last "
        "rephasing): 0 never, 1 in stable mode, 2 in both modes",
    ),
    Tunable(
        "target_first", 0, 0, 1e9,
        "conflicts a call takes before its decisions follow target phases (CaDiCaL and "
        "Kissat start without them too)",
    ),
    Tunable(
        "rephase_first", 0, 0, 1e9,
        "conflicts before the first rephasing (0: none); the k-th comes k times this later "
        "than the one before",
    ),
    Tunable(
        "chrono", 0, 0, 2,
        "backtracking after a conflict: 0 backjump (MiniSat), 1 keep the levels the next "
        "decisions would build again (trail reuse), 2 undo only the conflict's level "
        "(chronological, Nadel and Ryvchin); 1 and 2 only when the backjump would undo "
        "more than chrono_levels levels",
    ),
    Tunable(
        "chrono_levels", 0, 0, 1e9,
        "chrono 1 and 2 keep the trail only after a conflict whose backjump would undo more "
        "than this many levels (Nadel and Ryvchin use 100)",
    ),
    Tunable("random_var_freq", 0.0, 0.0, 1.0, "share of decisions on a random variable"),
    Tunable("check_model", 1, 0, 1, "1: check the model against the input before returning"),
    Tunable(
        "rescore_conflicts", 16, 0, 1e9,
        "a new question's first decision ranks the variables anew (Jeroslow-Wang products) "
        "when the calls so far averaged at least this many conflicts",
    ),
)

