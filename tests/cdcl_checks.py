"""cdclkit-style checkers of cdcl's search state, for the tests (never called by the search).

Each returns every broken invariant it finds, described; an empty list when
all hold.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from typing import cast

from sudosat.sat.solvers.cdcl import Engine, Implication, ReasonKind, reason_kind, reason_literals
from sudosat.sat.solvers.codes import Code


def invariant_violations(engine: Engine, propagated: bool = False) -> list[str]:
    """Every broken invariant of the search state, described; empty when all hold.

    Checked: the trail (each assigned variable on it once, both codes'
    values consistent, levels non-decreasing and matching ``trail_lim``, a
    decision opens each non-empty level), the reasons (each is unit under
    the assignment at its trail position: the implied literal first, the
    others false earlier on the trail) and the watches (each stored
    clause of three literals or more is watched by its first two literals,
    once each, and nowhere else; no other clause is watched). With
    `propagated` (no conflict pending, ``qhead == len(trail)``), also: a
    false watch has a true partner assigned no later (MiniSat's watch
    invariant; on a trail out of order, a true partner), and no clause of
    any kind is false or unit. A literal's level is the highest of its
    reason's other literals; out of order (chronological backtracking) it
    may lie below the level whose part of the trail holds it.
    """
    problems = _trail_violations(engine)
    if not problems:
        problems += _reason_violations(engine)
    problems += _watch_violations(engine, propagated and engine.ok)
    return problems


def _trail_violations(engine: Engine) -> list[str]:
    val, level, trail, trail_lim = engine.val, engine.level, engine.trail, engine.trail_lim
    problems = []
    on_trail = [q >> 1 for q in trail]
    if len(set(on_trail)) != len(on_trail):
        problems.append("a variable is on the trail twice")
    assigned = {v for v in range(1, engine.num_vars + 1) if val[2 * v]}
    if assigned != set(on_trail):
        problems.append(f"assigned but not on the trail: {sorted(assigned - set(on_trail))}")
    for v in range(1, engine.num_vars + 1):
        if val[2 * v] != -val[2 * v + 1]:
            problems.append(f"the two codes of variable {v} disagree")
    if any(val[q] != 1 for q in trail):
        problems.append("a literal on the trail is not true")
    if trail_lim != sorted(trail_lim) or (trail_lim and trail_lim[-1] > len(trail)):
        problems.append(f"trail_lim {trail_lim} is not a non-decreasing list of positions")
    levels = [level[q >> 1] for q in trail]
    if not engine.out_of_order and levels != sorted(levels):
        problems.append("levels decrease along the trail")
    for i, q in enumerate(trail):
        # Chronological backtracking leaves literals above the start of a level higher
        # than their own (out_of_order says so), never below their own level's start.
        region = bisect_right(trail_lim, i)
        if level[q >> 1] != region and not (engine.out_of_order and level[q >> 1] < region):
            problems.append(f"trail[{i}] has level {level[q >> 1]}, trail_lim says otherwise")
            break
    for k, start in enumerate(trail_lim):
        end = trail_lim[k + 1] if k + 1 < len(trail_lim) else len(trail)
        if start < end and engine.reason[trail[start] >> 1] is not None:
            problems.append(f"level {k + 1} does not open with a decision")
    if not 0 <= engine.qhead <= len(trail):
        problems.append(f"qhead {engine.qhead} is outside the trail")
    return problems


def _reason_violations(engine: Engine) -> list[str]:
    val, reason = engine.val, engine.reason
    position = {q >> 1: i for i, q in enumerate(engine.trail)}
    problems = []
    for i, p in enumerate(engine.trail):
        r = reason[p >> 1]
        kind = reason_kind(r)
        if kind is ReasonKind.DECISION:
            continue
        if kind is ReasonKind.CLAUSE and p not in cast(Implication, r):
            problems.append(f"the reason of trail[{i}] does not hold it")
        if isinstance(r, list) and r[0] != p:
            problems.append(f"the stored reason clause of trail[{i}] does not imply it first")
        others = reason_literals(cast(Code | Implication, r), p)
        for q in others:
            if val[q] != -1 or position.get(q >> 1, len(engine.trail)) >= i:
                problems.append(f"the reason of trail[{i}] is not unit at its position")
                break
        implied_at = max((engine.level[q >> 1] for q in others), default=0)
        if engine.level[p >> 1] != implied_at:
            problems.append(f"trail[{i}] has level {engine.level[p >> 1]}, its reason's "
                            f"other literals at most {implied_at}")
    return problems


def _watch_violations(engine: Engine, propagated: bool) -> list[str]:
    val, level = engine.val, engine.level
    problems = []
    stored = engine.clauses + engine.learnts
    expected: Counter[tuple[Code, int]] = Counter()
    for clause in stored:
        if len(clause) < 3 or len(set(clause)) != len(clause):
            problems.append(f"stored clause {clause} is short or repeats a literal")
            continue
        expected[clause[0], id(clause)] += 1
        expected[clause[1], id(clause)] += 1
    actual = Counter((lit, id(c)) for lit, ws in enumerate(engine.watches) for c in ws)
    if actual != expected:
        problems.append(f"watch lists differ from positions 0 and 1: {actual - expected}"
                        f" extra, {expected - actual} missing")
    if propagated and engine.qhead == len(engine.trail):
        for clause in stored:
            for w, other in ((clause[0], clause[1]), (clause[1], clause[0])):
                # On a trail in order the true partner came no later; out of order,
                # a false watch below it is propagated again when a backjump undoes it.
                if val[w] == -1 and not (val[other] == 1 and (
                    engine.out_of_order or level[other >> 1] <= level[w >> 1])):
                    problems.append(f"clause {clause} has a false watch and no true one")
        problems += _missed_implications(engine, stored)
    return problems


def _missed_implications(engine: Engine, stored: list) -> list[str]:
    """Clauses of every kind (stored, binary, ternary) that are false or unit: propagation
    left them behind."""
    val = engine.val
    binaries = [(p ^ 1, q) for p, implied in enumerate(engine.bins) for q in implied]
    ternaries = [tern for pairs in engine.terns for _, _, tern in pairs]
    problems = []
    for clause in (*stored, *binaries, *ternaries):
        values = [val[q] for q in clause]
        if 1 not in values and values.count(0) < 2:
            problems.append(f"clause {list(clause)} is {'unit' if 0 in values else 'false'}")
    return problems

