"""Every tunable of cdcl, declared once; ``solve(cnf, **tunables)`` accepts these names.

The names are a public contract (registry, command line, studies), kept even
where the code's word differs: ``initial_phase`` sets each variable's first
phase (see :mod:`sudosat.sat.solvers.cdcl`).

A tunable that picks a way of working is a :class:`Mode`: its values are the
members of an enum (:class:`Restarts`, :class:`Phase`, :class:`Target`,
:class:`Backtrack`, :class:`Minimize`), given by name or, as they always were,
by number, and the settings hold the member.

Examples
--------
>>> from sudosat.sat.solvers.budget import settings_from
>>> settings = settings_from("cdcl", TUNABLES, {"restart_mode": "alternate", "chrono": 1})
>>> settings["restart_mode"], settings["chrono"]
(<Restarts.ALTERNATE: 2>, <Backtrack.REUSE: 1>)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from sudosat.errors import SolverError
from sudosat.sat.solvers.budget import Tunable, declare


class Restarts(IntEnum):
    """``restart_mode``: when the search restarts."""

    LUBY = 0
    """Luby's sequence only: stable mode throughout."""
    GLUCOSE = 1
    """Glucose-style, when recent LBDs exceed the long-run average: focused mode throughout."""
    ALTERNATE = 2
    """Both, in alternating stable and focused modes (stable first)."""


class Phase(IntEnum):
    """``initial_phase``: the polarity a variable is first tried with."""

    FALSE = 0
    TRUE = 1
    OCCURRENCES = 2
    """The sign it has in more clauses (ties false; false on a formula with level-0 facts)."""


class Target(IntEnum):
    """``target_phase``: when decisions follow the target phase."""

    NEVER = 0
    STABLE = 1
    """In stable mode only."""
    ALWAYS = 2
    """In both modes."""


class Backtrack(IntEnum):
    """``chrono``: how far the search backs up after a conflict."""

    BACKJUMP = 0
    """To the learnt clause's asserting level (MiniSat)."""
    REUSE = 1
    """Keep the levels the next decisions would build again (trail reuse)."""
    CHRONO = 2
    """Undo only the conflict's level (chronological, Nadel and Ryvchin)."""


class Minimize(IntEnum):
    """``minimize``: how learnt clauses are minimised."""

    NONE = 0
    LOCAL = 1
    RECURSIVE = 2


@dataclass(frozen=True)
class Mode(Tunable):
    """A tunable whose values are named: the members of `modes`, by name or by number.

    Attributes
    ----------
    modes : type of IntEnum
        The values allowed; ``low`` and ``high`` are its first and last numbers.
    """

    modes: type[IntEnum] = IntEnum

    @classmethod
    def of(cls, name: str, default: IntEnum, doc: str) -> Mode:
        """The mode tunable `name`, whose values are the members of `default`'s enum."""
        modes = type(default)
        return cls(name, default, int(min(modes)), int(max(modes)), doc, modes=modes)

    def check(self, solver: str, value: object) -> IntEnum:
        """The member `value` names (in any case) or numbers; a SolverError lists them otherwise."""
        member = None
        if isinstance(value, str):
            member = self.modes.__members__.get(value.upper())
        elif isinstance(value, int | float) and not isinstance(value, bool):
            member = next((m for m in self.modes if m.value == value), None)
        if member is None:
            names = ", ".join(f"{m.name.lower()} ({m.value})" for m in self.modes)
            raise SolverError(f"{solver}: option {self.name}={value!r} is not one of {names}")
        return member


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
    Mode.of("minimize", Minimize.RECURSIVE, "learnt-clause minimisation: none, local, recursive"),
    Tunable(
        "shrink", 1, 0, 1,
        "1: after minimisation, replace each level's literals of a learnt clause by that "
        "level's UIP where no new literal is needed (all-UIP shrinking, Feng and Bacchus)",
    ),
    Tunable(
        "vivify", 0, 0, 1,
        "1: now and then at a restart, shorten learnt clauses by propagating their literals' "
        "negations one by one (vivification, as in CaDiCaL and Kissat)",
    ),
    Tunable("vivify_interval", 2000, 1, 1e9, "conflicts between two vivification rounds"),
    Tunable(
        "vivify_effort", 0.1, 0.0, 10.0,
        "a vivification round propagates at most this share of the literals the search "
        "propagated since the last round",
    ),
    Mode.of(
        "initial_phase", Phase.OCCURRENCES,
        "phase (the polarity a variable is first tried with): false, true, or occurrences: the "
        "sign it has in more clauses (ties false; false on a formula with level-0 facts, such "
        "as a puzzle's givens)",
    ),
    Mode.of(
        "restart_mode", Restarts.LUBY,
        "restarts: luby only (stable), glucose-style by LBD averages only (focused), or "
        "alternate: both, in alternating modes (stable first)",
    ),
    Tunable("mode_first", 2000, 1, 1e9, "conflicts of the first mode when restart_mode alternates"),
    Tunable("mode_growth", 2.0, 1.0, 100.0, "each mode pair lasts this many times the last"),
    Tunable(
        "restart_margin", 1.1, 1.0, 10.0,
        "focused mode restarts when the fast LBD average exceeds the slow one times this",
    ),
    Tunable("restart_min", 2, 1, 1e9, "least conflicts between two focused restarts"),
    Tunable("focused_decay", 0.9, 0.5, 0.9999, "VSIDS decay in focused mode"),
    Mode.of(
        "target_phase", Target.STABLE,
        "decide to the target phase (the longest conflict-free assignment since the last "
        "rephasing): never, in stable mode, or always (in both modes)",
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
    Mode.of(
        "chrono", Backtrack.BACKJUMP,
        "backtracking after a conflict: backjump (MiniSat), reuse: keep the levels the next "
        "decisions would build again (trail reuse), or chrono: undo only the conflict's level "
        "(chronological, Nadel and Ryvchin); reuse and chrono only when the backjump would "
        "undo more than chrono_levels levels",
    ),
    Tunable(
        "chrono_levels", 0, 0, 1e9,
        "chrono reuse and chrono keep the trail only after a conflict whose backjump would "
        "undo more than this many levels (Nadel and Ryvchin use 100)",
    ),
    Tunable("random_var_freq", 0.0, 0.0, 1.0, "share of decisions on a random variable"),
    Tunable("check_model", 1, 0, 1, "1: check the model against the input before returning"),
    Tunable(
        "rescore_conflicts", 16, 0, 1e9,
        "a new question's first decision ranks the variables anew (Jeroslow-Wang products) "
        "when the calls so far averaged at least this many conflicts",
    ),
)

