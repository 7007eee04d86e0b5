"""The workbench's switches, derived from the family declarations and the registered encodings.

Nothing here lists the clause families. The switches are the families the registered
encodings write (:func:`sudosat.sudoku.encoding.written_families`), in declared
order, each labelled from its declaration (:mod:`sudosat.sudoku.encoding.families`);
a family declared over several unit kinds whose parts are declared kind by kind
(``validity``: ``rows``, ``columns``, ``boxes``) is offered as those parts, and the
givens are a setting of their own (written as unit clauses, or substituted). The
presets are read from the registry the same way (:func:`preset`), and the verdict
on a combination (:func:`verdict`) from each family's rule and shape. A family
registered after import, or an encoding, is offered on the next call.

An encoding the switches cannot rebuild clause for clause is refused in one line
(:func:`preset`): one that writes a family of givens other than ``givens``, a
family whose name is a setting of the switches, no givens, or its families in
another order than the declared one with the givens last.

Examples
--------
>>> [switch.name for switch in family_switches()]
['completeness', 'uniqueness', 'rows', 'columns', 'boxes', 'coverage']
>>> Switches(uniqueness=False) == preset("minimal"), matching_encoding(Switches(amo="seq"))
(True, 'course-seq')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sudosat.errors import EncodingError
from sudosat.sat.amo import AMO_METHODS
from sudosat.sudoku.encoding import ENCODINGS, EncodingSpec, get_encoding, written_families
from sudosat.sudoku.encoding import families as declared
from sudosat.sudoku.encoding.families import DECLARED, KINDS, Rule, Shape
from sudosat.sudoku.numbering import NUMBERINGS

GIVENS = "givens"
"""The family of the givens: the ``givens`` setting says whether it is written."""

GIVENS_MODES = {
    "units": "one unit clause per given",
    "simplify": "substituted into the other clauses (no clause of their own)",
}

SETTINGS = ("givens", "amo", "numbering")
"""The switches that are no clause family: how the givens enter, how at-most-one groups are
written, the variable numbering."""


# -- the families offered ----------------------------------------------------------


@dataclass(frozen=True)
class FamilySwitch:
    """One clause family the workbench switches on and off.

    Attributes
    ----------
    name : str
        The family's name, a key of :data:`~sudosat.sudoku.encoding.families.DECLARED`.
    label : str
        The words beside the switch (the declaration's ``switch_label``).
    title : str
        What the family says (the declaration's ``label``).
    """

    name: str
    label: str
    title: str


def family_switches() -> list[FamilySwitch]:
    """The families the workbench switches, in the order it writes them (the givens aside).

    Every family a registered encoding writes
    (:func:`~sudosat.sudoku.encoding.written_families`), in declared order,
    except the givens (the ``givens`` setting) and a family the workbench
    cannot show (:func:`unshowable`); a family over several unit kinds whose
    parts are declared kind by kind (``validity``) is offered as those parts
    (``rows``, ``columns``, ``boxes``). The registries are read on each call.

    Examples
    --------
    >>> [(s.name, s.label) for s in family_switches()][1:3]
    [('uniqueness', 'uniqueness'), ('rows', 'validity: rows')]
    """
    names: dict[str, None] = {}
    for name in written_families():
        if name != GIVENS and not unshowable(DECLARED[name]):
            names.update(dict.fromkeys(_parts(DECLARED[name])))
    return [FamilySwitch(name, DECLARED[name].switch_label, DECLARED[name].label)
            for name in names]


def unshowable(family: declared.Family) -> str:
    """Why the workbench cannot offer `family` as a switch; empty when it can."""
    if family.name in (*SETTINGS[1:], "on") or hasattr(Switches, family.name):
        return f"{family.name!r} names a setting of the workbench's switches"
    if family.shape is Shape.GIVENS and family.name != GIVENS:
        return f"the givens enter through the workbench's {GIVENS!r} setting alone"
    return ""


def _parts(family: declared.Family) -> tuple[str, ...]:
    """The declared families that split `family` by unit kind, in the order of
    :func:`~sudosat.sudoku.board.units` (its clauses, in its order); else `family` itself."""
    if family.shape is Shape.UNITS and len(family.kinds) > 1:
        parts = [
            next((other.name for other in DECLARED.values() if other.rule is family.rule
                  and other.shape is Shape.UNITS and other.kinds == (kind,)), "")
            for kind in KINDS if kind in family.kinds
        ]
        if all(parts):
            return tuple(parts)
    return (family.name,)


def _course_on() -> set[str]:
    """The families the course encoding writes, as switches: every switch's default."""
    return {part for name in ENCODINGS["course"].families if name != GIVENS
            for part in _parts(DECLARED[name])}


# -- the switches ------------------------------------------------------------------


@dataclass(frozen=True, init=False)
class Switches:
    """Which families the workbench writes, and how.

    Made from keywords: one per family of :func:`family_switches` (true writes
    it; a family not named is as in the course encoding) and the settings.

    Attributes
    ----------
    on : tuple of str
        The families switched on, in writing order (the givens aside).
    givens : {'units', 'simplify'}
    amo : {'pairwise', 'seq', 'product'}
        How at-most-one groups are written (:mod:`sudosat.sat.amo`).
    numbering : str
        A key of :data:`sudosat.sudoku.numbering.NUMBERINGS`.

    Examples
    --------
    >>> Switches(uniqueness=False).on
    ('completeness', 'rows', 'columns', 'boxes')
    >>> Switches(coverage=True, amo="seq").families()[-2:]
    ['coverage', 'givens']
    """

    on: tuple[str, ...]
    givens: str
    amo: str
    numbering: str

    def __init__(
        self,
        *,
        givens: str = "units",
        amo: str = "pairwise",
        numbering: str = "course",
        **families: bool,
    ) -> None:
        offered = [switch.name for switch in family_switches()]
        unknown = [name for name in families if name not in offered]
        if unknown:
            raise EncodingError(f"no clause family {unknown[0]!r} to switch; the workbench "
                                f"switches {', '.join(offered)}")
        if givens not in GIVENS_MODES:
            raise EncodingError(f"givens must be one of {', '.join(GIVENS_MODES)}")
        if amo not in AMO_METHODS:
            raise EncodingError(f"at-most-one must be one of {', '.join(AMO_METHODS)}")
        if numbering not in NUMBERINGS:
            raise EncodingError(f"numbering must be one of {', '.join(NUMBERINGS)}")
        default = _course_on()
        on = tuple(name for name in offered if families.get(name, name in default))
        for name, value in (("on", on), ("givens", givens), ("amo", amo),
                            ("numbering", numbering)):
            object.__setattr__(self, name, value)

    def families(self) -> list[str]:
        """The families switched on, in writing order (``givens`` last, when written)."""
        return [*self.on, *([GIVENS] if self.givens == "units" else [])]

    def settings(self) -> dict[str, bool | str]:
        """Every switch by name: each family's (true when on), then the settings.

        The live page's form of the switches: ``Switches(**switches.settings())``
        is `switches`.
        """
        on = {switch.name: switch.name in self.on for switch in family_switches()}
        return {**on, "givens": self.givens, "amo": self.amo, "numbering": self.numbering}


def preset(name: str) -> Switches | None:
    """The switches that rebuild the registered full encoding `name`; None for a reduced one.

    Raises
    ------
    EncodingError
        In one line, when the switches cannot rebuild the encoding (see :func:`unshowable`).

    Examples
    --------
    >>> "uniqueness" in preset("minimal").on, preset("course-seq").amo, preset("optimised")
    (False, 'seq', None)
    """
    spec = get_encoding(name)
    if spec.reduced:
        return None
    rebuilt = _rebuilt(spec)
    if isinstance(rebuilt, str):
        raise EncodingError(rebuilt)
    return rebuilt


def _rebuilt(spec: EncodingSpec) -> Switches | str:
    """The switches that rebuild the full encoding `spec` clause for clause, or why none can."""
    cannot = f"the workbench cannot show the {spec.name} encoding"
    for name in spec.families:
        why = unshowable(DECLARED[name])
        if why:
            return f"{cannot}: its clause family {name!r} has no switch ({why})"
    if GIVENS not in spec.families:
        return f"{cannot}: it writes no {GIVENS} family, and the workbench always has the givens"
    written = [part for name in spec.families if name != GIVENS
               for part in _parts(DECLARED[name])]
    flags: dict[str, Any] = {switch.name: switch.name in written for switch in family_switches()}
    switches = Switches(**flags, amo=spec.amo)
    if switches.families() != [*written, GIVENS]:
        return (f"{cannot}: it writes {', '.join(spec.families)}, and the workbench writes "
                "families in their declared order, the givens last")
    return switches


def matching_encoding(switches: Switches) -> str | None:
    """The registered encoding these switches rebuild exactly, if any."""
    for name, spec in ENCODINGS.items():
        if not spec.reduced and _rebuilt(spec) == switches:
            return name
    return None


def verdict(switches: Switches) -> tuple[bool, str]:
    """Whether every model of the switched formula is a solution, and why (orders >= 2).

    Every solution satisfies every family, so the formula is a correct encoding
    exactly when its models are all solutions. That needs (a) every cell to
    hold exactly one symbol: completeness with uniqueness, or completeness with
    one validity kind (N² cells, N² symbols each at most once: counting leaves
    one symbol per cell), or uniqueness with coverage (N² symbols each present
    among N² cells of at most one symbol each); and (b) for each unit kind,
    validity or coverage (with (a), either gives "exactly once"). A formula
    without any at-most-one family is satisfied by "every cell holds every
    symbol", one without completeness and coverage by "every cell is empty".
    Each family switched on counts by its declaration: its rule (at least or
    at most one) over cells or over units of some kinds.

    Returns
    -------
    (correct, reason) : tuple of bool and str
    """
    on = [DECLARED[name] for name in switches.on]

    def cells(rule: Rule) -> bool:
        return any(f.rule is rule and f.shape is Shape.CELLS for f in on)

    def kinds(rule: Rule) -> set[str]:
        return {k for f in on if f.rule is rule and f.shape is Shape.UNITS for k in f.kinds}

    completeness, uniqueness = cells(Rule.AT_LEAST_ONE), cells(Rule.AT_MOST_ONE)
    validity, coverage = kinds(Rule.AT_MOST_ONE), kinds(Rule.AT_LEAST_ONE)
    exact = (completeness and (uniqueness or bool(validity))) or (uniqueness and bool(coverage))
    missing = [_kind_words(kind) for kind in KINDS if kind not in validity | coverage]
    if exact and not missing:
        why = []
        if completeness and not uniqueness:
            why.append("uniqueness follows from completeness and validity")
        if coverage and validity != set(KINDS):
            why.append("coverage with one symbol per cell gives what validity would")
        if uniqueness and coverage and not completeness:
            why.append("completeness follows from uniqueness and coverage")
        return True, "correct encoding: every model is a solution" + (
            f" ({'; '.join(why)})" if why else ""
        )
    reasons = []
    if not exact:
        if not (uniqueness or validity):
            reasons.append("no at-most-one family: a cell may hold several symbols")
        elif not (completeness or coverage):
            reasons.append("neither completeness nor coverage: cells may stay empty")
        else:
            reasons.append("nothing forces one symbol per cell")
    if missing:
        reasons.append(f"nothing stops a symbol repeating in {' or '.join(missing)}")
    return False, "not a correct encoding: " + "; ".join(reasons)


def _kind_words(kind: str) -> str:
    """The units of `kind` in words: the name of the family declared over that kind alone."""
    return next((f.name for f in DECLARED.values() if f.kinds == (kind,)), kind)
