"""The CDCL solver (`cdcl`): answers, models, limits, options, Sudoku."""

from __future__ import annotations

import itertools
import random
import time
import warnings
from array import array
from unittest.mock import ANY

import pysat.solvers as pysat_solvers
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from sudosat.errors import SolverError
from sudosat.sat.cnf import CNF, parse_dimacs
from sudosat.sat.formulas import pigeonhole, random_kcnf
from sudosat.sat.result import Status, Stop
from sudosat.sat.solvers import cdcl, registry
from sudosat.sat.solvers.budget import Deadline, settings_from
from sudosat.sat.solvers.cdcl import TUNABLES, luby, solve
from sudosat.sat.solvers.cdcl.tunables import Backtrack, Restarts
from sudosat.sat.solvers.codes import to_code
from tests.clock import cpu_spent, late_by_at_most
from tests.conftest import generated_lines, hard_puzzles, vu_rules_file

# Every test runs on both cdcl cores: the pure-Python reference and its compiled twin.
pytestmark = pytest.mark.usefixtures("cdcl_core")


def reference_sat(cnf: CNF) -> bool:
    """PySAT's Minisat22 verdict."""
    with pysat_solvers.Solver(name="m22", bootstrap_with=cnf.clauses) as oracle:
        return oracle.solve()


def brute_force_sat(cnf: CNF) -> bool:
    clauses = cnf.clauses
    for bits in itertools.product((False, True), repeat=cnf.num_vars):
        if all(any(bits[abs(q) - 1] == (q > 0) for q in clause) for clause in clauses):
            return True
    return False


# -- small and degenerate formulas ------------------------------------------------------


def test_empty_formula_is_sat_with_every_variable_false():
    result = registry.solve(CNF(num_vars=3), "cdcl")
    assert result.status is Status.SAT
    assert result.model == [-1, -2, -3]


def test_formula_with_an_empty_clause_is_unsat():
    assert solve(CNF([[1, 2], []])).status is Status.UNSAT


def test_opposite_units_are_unsat():
    assert solve(CNF([[3], [-3]])).status is Status.UNSAT


def test_unused_variables_get_a_value():
    result = registry.solve(CNF([[2, 5]], num_vars=9), "cdcl")
    assert len(result.model) == 9
    assert [abs(q) for q in result.model] == list(range(1, 10))


def test_duplicate_and_complementary_literals():
    cnf = CNF([[1, 1, 1], [2, -2, 3], [-2, -2], [4, 4, -4, 5, 5], [-1, 2, 3, -1]], num_vars=5)
    result = registry.solve(cnf, "cdcl")
    assert result.status is Status.SAT
    assert result.model[:3] == [1, -2, 3]


def test_duplicated_unit_and_binary_clauses():
    cnf = CNF([[1, 1], [-1, 2], [-1, 2], [-2, -2, -3], [3, 1]])
    result = registry.solve(cnf, "cdcl")
    assert result.model[:3] == [1, 2, -3]


def test_small_unsat_needs_learning():
    cnf = CNF([[a, b] for a in (1, -1) for b in (2, -2)])
    result = solve(cnf)
    assert result.status is Status.UNSAT


@given(
    st.integers(1, 6).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(
                st.lists(st.integers(1, n).flatmap(lambda v: st.sampled_from([v, -v])), max_size=5),
                max_size=14,
            ),
        )
    )
)
def test_agrees_with_brute_force_on_small_formulas(case):
    num_vars, clauses = case
    cnf = CNF(clauses, num_vars)
    result = registry.solve(cnf, "cdcl")  # registry.solve checks any model against the formula
    assert (result.status is Status.SAT) == brute_force_sat(cnf)


def _reference_load(cnf: CNF) -> tuple[list[list[int]], list[int], list[list]]:
    """Implication lists, units and ternary lists as a clause-by-clause reading defines them.

    Duplicate literals are dropped first and tautologies skipped, so a clause
    such as [1, 1, 2] is the binary clause [1, 2].
    """
    code = {v: 2 * v for v in range(1, cnf.num_vars + 1)}
    code.update({-v: 2 * v + 1 for v in range(1, cnf.num_vars + 1)})
    bins: list[list[int]] = [[] for _ in range(2 * cnf.num_vars + 2)]
    terns: list[list] = [[] for _ in range(2 * cnf.num_vars + 2)]
    units = []
    for clause in cnf:
        distinct = list(dict.fromkeys(clause))
        if any(-lit in distinct for lit in distinct):
            continue  # a tautology
        if len(distinct) == 2:
            a, b = code[distinct[0]], code[distinct[1]]
            bins[a ^ 1].append(b)
            bins[b ^ 1].append(a)
        elif len(distinct) == 3:
            a, b, c = (code[lit] for lit in distinct)
            tern = (a, b, c)  # the clause's tuple, shared by its three entries
            terns[a ^ 1].append((b, c, tern))
            terns[b ^ 1].append((a, c, tern))
            terns[c ^ 1].append((a, b, tern))
        elif len(distinct) == 1:
            units.append(code[distinct[0]])
    return bins, units, terns


# Variables whose numbers are multiples of 256 write zero bytes into the literal array
# next to small ones: the loader's byte-level search for separators must not be fooled.
_AWKWARD_VARS = [1, 2, 3, 255, 256, 257, 512, 513]


@pytest.mark.reference_core
@given(
    st.lists(
        st.lists(st.sampled_from(_AWKWARD_VARS).flatmap(lambda v: st.sampled_from([v, -v])),
                 min_size=1, max_size=4),
        max_size=60,
    )
)
@example([[1, 2, 3], [256, -512, 3], [-1, 1, 2], [2, 2, 3], [255, 256, 257], [1, 2]])
def test_loader_reads_runs_of_binary_and_ternary_clauses_like_one_at_a_time(clauses):
    """Runs of binary and ternary clauses are found in the raw bytes: same lists, same order."""
    cnf = CNF(clauses, max(_AWKWARD_VARS))
    solver = cdcl.Engine(cnf.num_vars, settings_from("cdcl", TUNABLES, {}))
    solver.load(cnf.flat)
    bins, units, terns = _reference_load(cnf)
    assert solver.bins == bins
    assert solver.terns == terns
    if solver.ok:
        assert set(units) <= set(solver.trail)


@pytest.mark.reference_core
@given(
    st.integers(1, 5).flatmap(
        lambda n: st.lists(
            st.lists(st.integers(1, n).flatmap(lambda v: st.sampled_from([v, -v])), max_size=4),
            max_size=40,
        ).map(lambda clauses: (n, clauses))
    )
)
@example((2, [[1, 2], [1, -2], [], [2]]))  # an empty clause inside a run of binary clauses
@example((3, [[1, 2], [1, 2], [3, -3], [2, 2], [-1, 3], [1, 2, 3]]))
def test_loader_reads_runs_of_binary_clauses_like_one_clause_at_a_time(case):
    """Runs of binary clauses are read by slicing: same lists, same order, same units."""
    num_vars, clauses = case
    cnf = CNF(clauses, num_vars)
    solver = cdcl.Engine(num_vars, settings_from("cdcl", TUNABLES, {}))
    solver.load(cnf.flat)
    bins, units, terns = _reference_load(cnf)
    assert solver.bins == bins
    assert solver.terns == terns
    if [] in clauses:
        assert not solver.ok
    elif solver.ok:  # every unit clause's literal is on the trail (unless they clash)
        assert set(units) <= set(solver.trail)


# -- agreement with the reference on random 3-CNF ---------------------------------------------


def _agreement(count: int, seed: int) -> tuple[int, int]:
    rng = random.Random(seed)
    sat = unsat = 0
    for _ in range(count):
        num_vars = rng.randint(20, 120)
        cnf = random_kcnf(rng, num_vars, round(num_vars * rng.uniform(3.5, 5.0)))
        result = registry.solve(cnf, "cdcl", seed=rng.randrange(3))
        assert result.status is not Status.UNKNOWN
        assert (result.status is Status.SAT) == reference_sat(cnf), cnf.to_dimacs()
        sat += result.status is Status.SAT
        unsat += result.status is Status.UNSAT
    return sat, unsat


def test_agrees_with_pysat_on_random_kcnf():
    sat, unsat = _agreement(250, seed=11)
    assert sat > 50 and unsat > 50


@pytest.mark.slow
def test_agrees_with_pysat_on_3000_random_kcnf():
    sat, unsat = _agreement(3000, seed=2026)
    assert sat > 800 and unsat > 800


def test_learnt_clause_deletion_and_restarts_keep_answers_right():
    rng = random.Random(5)
    for _ in range(6):
        cnf = random_kcnf(rng, 90, 90 * 43 // 10)
        result = registry.solve(cnf, "cdcl", reduce_first=20, reduce_inc=5, restart_first=5)
        assert (result.status is Status.SAT) == reference_sat(cnf)
        assert result.stats["restarts"] > 0


@pytest.mark.parametrize("options", [{"minimize": 0}, {"minimize": 1}, {"initial_phase": 0},
                                     {"initial_phase": 1}, {"random_var_freq": 0.2},
                                     {"var_decay": 0.8}])
def test_every_setting_keeps_answers_right(options):
    rng = random.Random(7)
    for _ in range(15):
        cnf = random_kcnf(rng, 60, 60 * 43 // 10)
        result = registry.solve(cnf, "cdcl", seed=3, **options)
        assert (result.status is Status.SAT) == reference_sat(cnf)


# Settings the twin lacks run the reference core only (cores.choose): their [compiled] runs
# are skipped rather than repeat the [python] ones.
REFERENCE_ONLY = pytest.mark.reference_core

# Each search mode forced on from the first conflict, with short intervals so that every
# switch, rephasing and reduction happens within a small formula's search.
SEARCH_MODES = [
    {"restart_mode": 1},
    {"restart_mode": 1, "restart_margin": 1.0, "restart_min": 1},
    {"restart_mode": 2, "mode_first": 5, "mode_growth": 1.0},
    {"restart_mode": 2, "mode_first": 3, "target_phase": 2, "rephase_first": 4},
    {"target_phase": 0},
    {"target_phase": 1, "target_first": 7, "restart_first": 3},
    {"rephase_first": 1, "restart_first": 2},
    pytest.param({"tier2_lbd": 6, "reduce_first": 10, "reduce_inc": 5}, marks=REFERENCE_ONLY),
    pytest.param({"tier2_lbd": 1000, "reduce_first": 10, "reduce_inc": 1, "restart_mode": 2,
                  "mode_first": 9}, marks=REFERENCE_ONLY),
    pytest.param({"chrono": 1}, marks=REFERENCE_ONLY),
    pytest.param({"chrono": 1, "restart_mode": 2, "mode_first": 3, "target_phase": 2,
                  "rephase_first": 4}, marks=REFERENCE_ONLY),
    pytest.param({"chrono": 2}, marks=REFERENCE_ONLY),
    pytest.param({"chrono": 2, "chrono_levels": 3, "tier2_lbd": 6, "reduce_first": 10,
                  "reduce_inc": 5}, marks=REFERENCE_ONLY),
    {"shrink": 0},  # the first-UIP clause, not shrunk (shrinking is the default)
    pytest.param({"shrink": 1, "minimize": 0, "tier2_lbd": 6, "reduce_first": 10,
                  "reduce_inc": 5}, marks=REFERENCE_ONLY),
    pytest.param({"shrink": 1, "chrono": 2, "chrono_levels": 2, "restart_mode": 2,
                  "mode_first": 3}, marks=REFERENCE_ONLY),
    pytest.param({"vivify": 1, "vivify_interval": 5, "vivify_effort": 1.0, "restart_first": 3},
                 marks=REFERENCE_ONLY),
    pytest.param({"vivify": 1, "vivify_interval": 3, "vivify_effort": 5.0, "restart_first": 2,
                  "chrono": 2, "tier2_lbd": 6, "reduce_first": 10, "reduce_inc": 5},
                 marks=REFERENCE_ONLY),
]


@pytest.mark.parametrize("options", SEARCH_MODES)
def test_every_search_mode_agrees_with_pysat(options):
    rng = random.Random(31)
    answers = set()
    for _ in range(40):
        num_vars = rng.randint(30, 90)
        cnf = random_kcnf(rng, num_vars, round(num_vars * rng.uniform(3.9, 4.6)))
        result = registry.solve(cnf, "cdcl", seed=rng.randrange(3), **options)  # model checked
        assert (result.status is Status.SAT) == reference_sat(cnf), cnf.to_dimacs()
        answers.add(result.status)
    assert answers == {Status.SAT, Status.UNSAT}


@pytest.mark.parametrize("options", SEARCH_MODES)
def test_every_search_mode_solves_generated_sudoku(options):
    from sudosat.sudoku import board as board_module
    from sudosat.sudoku import encoding
    for line in generated_lines(4, 2):
        board = board_module.Board.parse(line)
        encoded = encoding.encode(board, "optimised")
        result = registry.solve(encoded.cnf, "cdcl", **options)
        assert board_module.check_solution(board, encoded.decode(result.model)) is None


@pytest.mark.parametrize("options", SEARCH_MODES)
def test_every_search_mode_logs_a_verified_proof(options):
    rng = random.Random(13)
    checked = 0
    while checked < 6:
        cnf = random_kcnf(rng, 50, 240)
        result = solve(cnf, proof=True, **options)
        if result.status is Status.UNSAT:
            assert cdcl.certify(cnf, result.proof) == (True, "verified")
            checked += 1


def test_chronological_backtracking_undoes_one_level_per_conflict():
    cnf = random_kcnf(random.Random(6), 80, 340)
    jumping = solve(cnf)
    chronological = solve(cnf, chrono=2)
    assert chronological.is_sat and jumping.is_sat
    # Each conflict is analysed at its own level and undoes just that one.
    assert chronological.stats["levels_jumped"] == chronological.stats["conflicts"] > 50
    assert jumping.stats["levels_jumped"] > jumping.stats["conflicts"]
    # Past the threshold only: backjumps of at most chrono_levels levels stay backjumps.
    assert solve(cnf, chrono=2, chrono_levels=10**6).stats == {
        **jumping.stats, "load_cpu_ms": ANY, "load_wall_ms": ANY, "search_cpu_ms": ANY,
        "search_wall_ms": ANY}


@pytest.mark.reference_core
def test_trail_reuse_keeps_the_levels_the_heuristic_would_decide_again():
    engine = cdcl.Solver(CNF([[v, v + 1] for v in range(1, 12, 2)]), chrono=1)._engine
    engine.prepare_first_call()
    engine.activity[1:] = [0.0] * 12
    for v, score in ((1, 10.0), (3, 9.0), (5, 1.0)):  # decisions of levels 1-3
        engine.activity[v] = score
        engine.trail_lim.append(len(engine.trail))
        engine.assign(to_code(-v), None)  # implies v + 1
        engine.propagate()
    engine.activity[7] = 5.0  # a free variable, in the heap
    engine.rebuild_heap()
    # Levels 1 and 2 outrank all that a backjump to level 2 leaves free (7's 5.0, 5's 1.0).
    assert engine.rebuilt_levels(0) == 2
    engine.activity[3] = 4.0  # now 7 comes before 3: only level 1 would be built again
    assert engine.rebuilt_levels(0) == 1
    engine.activity[4] = 20.0  # implied at level 2: a backjump to 0 would decide it first
    assert engine.rebuilt_levels(0) == 0


def _vivified(clauses: list[list[int]], candidate: list[int]) -> list[int] | None:
    """What vivification makes of `candidate` (DIMACS) against `clauses`, at level 0."""
    engine = cdcl.Solver(CNF(clauses))._engine
    assert engine.prepare_first_call()
    kept = engine.vivify_clause([to_code(lit) for lit in candidate])
    assert not engine.trail_lim  # back at level 0
    return None if kept is None else [lit // 2 * (-1 if lit % 2 else 1) for lit in kept]


@pytest.mark.reference_core
def test_vivification_cuts_a_clause_after_a_literal_the_others_imply():
    # -1 and -2 imply 3 by the input clause 1 2 3: 1 2 3 4 5 becomes 1 2 3.
    assert _vivified([[1, 2, 3], [4, 5, 6, 7]], [1, 2, 3, 4, 5]) == [1, 2, 3]


@pytest.mark.reference_core
def test_vivification_drops_a_literal_the_ones_before_make_false():
    # -1 implies -2 (clause 1 -2): 2 goes, 1 3 4 stays.
    assert _vivified([[1, -2], [3, 4, 5, 6]], [1, 2, 3, 4]) == [1, 3, 4]


@pytest.mark.reference_core
def test_vivification_stops_at_a_conflict():
    # -1 and -2 together falsify 1 2 with 3 and -3 implied: 1 2 is all that is needed.
    assert _vivified([[1, 2, 3], [1, 2, -3]], [1, 2, 4, 5]) == [1, 2]


@pytest.mark.reference_core
def test_vivification_leaves_a_clause_it_cannot_shorten():
    assert _vivified([[1, 2, 3, 4]], [1, 2, 3, 4]) is None
    assert _vivified([[1], [1, 2, 3]], [1, 5, 6]) is None  # true at level 0: simplify's


@pytest.mark.reference_core
def test_vivification_shortens_learnt_clauses_and_keeps_answers():
    cnf = pigeonhole(7, 6)
    solver = cdcl.Solver(cnf, vivify=1, vivify_interval=50, proof=True)
    result = solver.solve()
    engine = solver._engine
    assert result.is_unsat and engine.vivified_rounds > 0 and engine.vivified_literals > 0
    assert cdcl.certify(cnf, solver.proof_text()) == (True, "verified")
    # Off (the default), no round runs.
    plain = cdcl.Solver(cnf)
    assert plain.solve().is_unsat and plain._engine.vivified_rounds == 0


class LearntClauses:
    """An observer that keeps each learnt clause (DIMACS literals)."""

    def __init__(self) -> None:
        self.clauses: list[list[int]] = []
        self.backjumps: list[int] = []

    def learnt(self, clause: list[int], backjump_level: int, level: int) -> None:
        self.clauses.append(clause)
        self.backjumps.append(backjump_level)


@pytest.mark.reference_core
def test_shrinking_replaces_a_levels_literals_by_their_uip():
    # Deciding 1 (level 1) implies 2 and 3; deciding 4 (level 2) implies 5, then 6 and -6.
    # First-UIP learning gives -5 -2 -3; 2 and 3 both follow from 1 alone, the UIP of
    # level 1, and so shrinking gives -5 -1: the same levels, one literal less.
    cnf = CNF([[-1, 2], [-1, 3], [-4, 5], [-2, -3, -5, 6], [-2, -3, -5, -6]])
    learnt = {}
    for shrink in (0, 1):
        observer = LearntClauses()
        assert cdcl.Solver(cnf, observer=observer, shrink=shrink).solve([1, 4]).is_unsat
        learnt[shrink] = observer.clauses
    assert learnt == {0: [[-5, -2, -3]], 1: [[-5, -1]]}


@pytest.mark.reference_core
def test_shrinking_keeps_a_level_whose_uip_needs_a_literal_the_clause_lacks():
    # As above, but 7 is decided first (level 1), 1 at level 2 and 4 at level 3, and 3
    # follows from 1 and 7 together: resolving 3 away brings in -7, of a lower level and
    # absent from the clause, so level 2 keeps its two literals.
    cnf = CNF([[-1, 2], [-1, -7, 3], [-4, 5], [-2, -3, -5, 6], [-2, -3, -5, -6]])
    observer = LearntClauses()
    assert cdcl.Solver(cnf, observer=observer, shrink=1).solve([7, 1, 4]).is_unsat
    assert [sorted(c) for c in observer.clauses] == [[-5, -3, -2]]


@pytest.mark.reference_core
def test_shrunk_clauses_are_never_longer_and_backjump_as_far():
    # The first conflict of each formula, with and without shrinking: the searches are
    # the same up to it, and part after it.
    rng = random.Random(12)
    shorter = 0
    for index in range(30):
        cnf = pigeonhole(7, 6) if index % 3 == 0 else random_kcnf(rng, 120, 500)
        seen = {}
        for shrink in (0, 1):
            observer = LearntClauses()
            cdcl.Solver(cnf, observer=observer, shrink=shrink).solve(max_conflicts=1)
            seen[shrink] = observer
        plain, shrunk = seen[0], seen[1]
        assert len(plain.clauses) == len(shrunk.clauses) == 1
        assert plain.backjumps == shrunk.backjumps
        assert plain.clauses[0][0] == shrunk.clauses[0][0]  # the same asserting literal
        assert len(shrunk.clauses[0]) <= len(plain.clauses[0])
        shorter += len(shrunk.clauses[0]) < len(plain.clauses[0])
    assert shorter > 0


def test_focused_mode_restarts_more_often_than_luby():
    cnf = pigeonhole(8, 7)  # takes more than the budget of conflicts
    stable = solve(cnf, max_conflicts=3000)
    focused = solve(cnf, max_conflicts=3000, restart_mode=1)
    assert focused.stats["restarts"] > 2 * stable.stats["restarts"] > 0


@pytest.mark.reference_core
def test_target_phase_records_the_longest_conflict_free_trail():
    engine = cdcl.Solver(CNF([[1, 2, 3], [-1, -2], [4, 5]]))._engine
    engine.prepare_first_call()
    engine.first_phase = list(engine.phase)
    for lit in (2, 5):  # x1 true, then x2 false by [-1, -2], at levels 1 and 2
        engine.trail_lim.append(len(engine.trail))
        engine.assign(lit, None)
        assert engine.propagate() is None
    engine.note_consistent(len(engine.trail))
    assert engine.target_len == engine.best_len == 3
    assert engine.target[1] == 2 and engine.target[2] == 5  # off the trail: its saved phase
    assert engine.target[3] == engine.phase[3] and engine.target[4] == engine.phase[4]
    engine.note_consistent(1)  # shorter: kept
    assert engine.target_len == 3
    engine.cancel_until(0)
    engine.use_target = True
    assert engine.pick_branch_lit() in (2, 5)  # its target literal, whichever comes first


@pytest.mark.reference_core
def test_rephasing_takes_original_inverted_then_best_and_flipped():
    engine = cdcl.Solver(CNF([[1, 2], [-2, 3]]), rephase_first=10)._engine
    engine.prepare_first_call()
    first = engine.first_phase = list(engine.phase)
    engine.best = [0, 2, 4, 6]  # every variable true
    kinds, flipped = [], []
    for _ in range(8):
        before = list(engine.phase)
        engine.rephase()
        after = engine.phase[1:]
        kinds.append(
            "O" if after == first[1:] else "I" if after == [x ^ 1 for x in first[1:]]
            else "B" if after == [2, 4, 6] else "?"
        )
        flipped.append(after == [x ^ 1 for x in before[1:]])
        assert engine.target is None and engine.target_len == 0
    # O, I, then B O B I B F: best only once, as none is recorded after it (the later ones
    # keep the phases: I's, until F flips them back to the original ones).
    assert kinds == ["O", "I", "B", "O", "O", "I", "I", "O"]
    assert flipped == [False, True, False, False, False, True, False, True]
    assert engine.next_rephase == engine.conflicts + 10 * 9


@pytest.mark.reference_core
@pytest.mark.parametrize(("initial_phase", "first"), [(None, 1), (0, -1), (1, 1)])
def test_the_first_decision_takes_the_sign_in_more_clauses_by_default(initial_phase, first):
    """Variable 1 is the most frequent (activity) and occurs 3 times positive, once negative
    (in a long, two ternary and a binary clause); phases 0 and 1 force the sign."""
    from sudosat.sat.solvers.cdcl import Solver

    class FirstDecision:
        literal = None

        def decided(self, literal, level, trail_size):
            self.literal = literal if self.literal is None else self.literal

    options = {} if initial_phase is None else {"initial_phase": initial_phase}
    cnf = [[1, 2, 3, 4], [1, -2, 3], [1, 2, -3], [-1, -4]]
    mirrored = [[-lit if abs(lit) == 1 else lit for lit in clause] for clause in cnf]
    default_sign = {None: -1, 0: 1, 1: 1}[initial_phase]  # mirrored: 1 is mostly negated
    for clauses, expected in ((cnf, first), (mirrored, first * default_sign)):
        seen = FirstDecision()
        assert Solver(CNF(clauses), observer=seen, **options).solve().status is Status.SAT
        assert seen.literal == expected, (clauses, options)


def test_pigeonhole_7_is_unsat():
    result = solve(pigeonhole(7, 6))
    assert result.status is Status.UNSAT
    assert result.stats["conflicts"] > 0


# -- contract: stats, seeds, options, certified models -------------------------------------------


def test_stats_and_result_fields():
    result = solve(random_kcnf(random.Random(1), 50, 200))
    for key in ("decisions", "propagations", "conflicts", "restarts", "learnt", "load_cpu_ms",
                "load_wall_ms", "search_cpu_ms", "search_wall_ms"):
        assert key in result.stats
    assert result.solver == "cdcl"
    assert result.elapsed_ms > 0


def test_same_seed_same_search():
    cnf = random_kcnf(random.Random(2), 100, 426)
    first, second = solve(cnf, seed=4), solve(cnf, seed=4)
    assert first.stats["conflicts"] == second.stats["conflicts"]
    assert first.model == second.model


@pytest.mark.reference_core
def test_unknown_and_out_of_range_options_are_refused():
    with pytest.raises(SolverError, match="unknown option"):
        solve(CNF([[1]]), restart_frist=3)
    with pytest.raises(SolverError, match="outside"):
        solve(CNF([[1]]), var_decay=2.0)


@pytest.mark.reference_core
def test_modes_are_taken_by_name_or_number_and_search_alike():
    by_number = {"restart_mode": 2, "mode_first": 9, "chrono": 1, "target_phase": 2,
                 "initial_phase": 1, "minimize": 1}
    by_name = {"restart_mode": "alternate", "mode_first": 9, "chrono": "Reuse",
               "target_phase": "always", "initial_phase": "true", "minimize": "local"}
    settings = settings_from("cdcl", TUNABLES, by_name)
    assert settings["restart_mode"] is Restarts.ALTERNATE and settings["chrono"] is Backtrack.REUSE
    cnf = random_kcnf(random.Random(40), 100, 426)
    assert solve(cnf, **by_number).stats["conflicts"] == solve(cnf, **by_name).stats["conflicts"]
    for bad in (3, 1.5, "lubyy", True):
        with pytest.raises(SolverError, match=r"restart_mode=.* is not one of luby \(0\), "):
            solve(CNF([[1]]), restart_mode=bad)


@pytest.mark.reference_core
def test_every_tunable_declares_a_default_inside_its_range():
    for spec in TUNABLES.values():
        assert spec.low <= spec.default <= spec.high, spec.name


@pytest.mark.reference_core
def test_luby_sequence():
    assert [int(luby(2, i)) for i in range(15)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


@pytest.mark.reference_core
def test_a_wrong_model_fails_loudly_in_base_solve(monkeypatch):
    def all_false(self):
        return [-v for v in range(1, self.num_vars + 1)]

    monkeypatch.setattr(cdcl.Engine, "model", all_false)
    with pytest.raises(SolverError, match="wrong model"):
        registry.solve(CNF([[1, 2], [-1, 2]]), "cdcl", check_model=0)


@pytest.mark.reference_core
def test_a_wrong_assignment_fails_loudly_inside_cdcl(monkeypatch):
    # The search claims SAT without assigning anything.
    monkeypatch.setattr(cdcl.Engine, "solve", lambda self, assumptions=(): Status.SAT)
    with pytest.raises(SolverError, match="falsifies clause 2"):
        solve(CNF([[1], [2, 3], [-1, 3]]))


@pytest.mark.parametrize(("wrong", "named"), [
    ([1, 2, -3, 4], r"clause \[-2, 3\]"),  # a binary clause: read through its true literal
    ([1, -2, -3, -4], r"clause \[2, 3, 4\]"),  # a longer clause
])
@pytest.mark.reference_core
def test_a_wrong_model_fails_loudly_in_later_incremental_calls(monkeypatch, wrong, named):
    """From the second check on, models are checked through cdcl's own index of the clauses."""
    solver = cdcl.Solver(CNF([[1], [-2, 3], [2, 3, 4]]))
    assert solver.solve().is_sat and solver.solve([4]).is_sat  # both checks pass
    monkeypatch.setattr(cdcl.Engine, "model", lambda self: list(wrong))
    with pytest.raises(SolverError, match=named):
        solver.solve()


# -- time limit -----------------------------------------------------------------------------------


def test_time_limit_returns_unknown_on_pigeonhole_10():
    cnf = pigeonhole(10, 9)
    with cpu_spent() as spent:
        result = solve(cnf, deadline=Deadline(500))
    assert result.status is Status.UNKNOWN and result.stop is Stop.TIME
    assert spent.seconds < late_by_at_most(500), spent  # CPU: tests/clock.py
    assert result.model is None


def test_zero_time_limit_still_answers_unknown_without_searching():
    cpu = time.process_time()
    result = solve(pigeonhole(9, 8), deadline=Deadline(0))
    assert result.status is Status.UNKNOWN and result.stats["conflicts"] == 0
    assert time.process_time() - cpu < 0.5  # CPU time: what a busy machine cannot stretch


# -- Sudoku --------------------------------------------------------------------------------


def _rules_plus_givens(rules: CNF, line: str) -> CNF:
    """The SAT -Sn rules file (variables rcv = 100r + 10c + v) and one unit clause per given."""
    flat = array("i", rules.flat)
    for index, char in enumerate(line.strip()):
        if char not in ".0":
            flat.extend((100 * (index // 9 + 1) + 10 * (index % 9 + 1) + int(char), 0))
    return CNF.from_flat(flat, rules.num_vars)


def _read_rules() -> CNF:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its header overstates the clause count
        return parse_dimacs(vu_rules_file().read_text(), "sudoku-rules-9x9.txt")


def test_solves_hard_sudokus_from_the_rules_file():
    rules = _read_rules()
    lines = hard_puzzles(8)
    for line in lines:
        result = registry.solve(_rules_plus_givens(rules, line), "cdcl")
        assert result.status is Status.SAT
        for index, char in enumerate(line):
            if char != ".":
                assert 100 * (index // 9 + 1) + 10 * (index % 9 + 1) + int(char) in result.model


def test_contradictory_givens_are_unsat():
    rules = _read_rules()
    line = "11" + "." * 79  # the same digit twice in row 1
    assert solve(_rules_plus_givens(rules, line)).status is Status.UNSAT


def test_solves_the_course_encoding():
    from sudosat.sudoku import board as board_module
    from sudosat.sudoku import encoding
    lines = hard_puzzles(10)
    for line in lines:
        board = board_module.Board.parse(line)
        encoded = encoding.encode(board, "course")
        result = registry.solve(encoded.cnf, "cdcl")
        assert result.status is Status.SAT
        assert board_module.check_solution(board, encoded.decode(result.model)) is None


def test_solves_a_16x16_course_encoding():
    from sudosat.sudoku import board as board_module
    from sudosat.sudoku import encoding
    line = generated_lines(4, 1)[0]
    board = board_module.Board.parse(line)
    encoded = encoding.encode(board, "course")
    result = registry.solve(encoded.cnf, "cdcl")
    assert board_module.check_solution(board, encoded.decode(result.model)) is None


@pytest.mark.reference_core
def test_loader_memo_of_repeated_binary_runs_gives_the_same_lists():
    """A big run of binary clauses met again is added from a run cache: same lists."""
    rng = random.Random(14)
    clauses = [[rng.choice([v, -v]) for v in rng.sample(range(1, 301), 2)] for _ in range(3000)]
    cnf = CNF([[1, 2, 3], *clauses, [4, 5, 6]], 300)
    cache = cdcl.RunCache()
    loaded = []
    for load in range(4):  # seen, grouped, then twice from the cache
        solver = cdcl.Engine(300, settings_from("cdcl", TUNABLES, {}))
        solver.runs = cache
        if load >= 2:  # from the cache: the run's lists are never built one append at a time
            assert cache.grouped
        solver.load(cnf.flat)
        loaded.append((solver.bins, solver.used))
    assert all(entry == loaded[0] for entry in loaded[1:])
    assert loaded[0][0] == _reference_load(cnf)[0]


@pytest.mark.reference_core
def test_the_run_cache_is_bounded_and_an_engine_without_one_remembers_nothing():
    rng = random.Random(16)
    cache = cdcl.RunCache(size=2)
    for k in range(5):  # five different runs, each loaded twice (seen, then grouped)
        run = [[rng.choice([v, -v]) for v in rng.sample(range(1, 301), 2)] for _ in range(1100)]
        for _ in range(2):
            _load_into_engine(CNF([[1, 2, 3], *run, [4, 5, 6]], 300), cache)
        assert len(cache.seen) <= 2 and len(cache.grouped) == min(k + 1, 2)
    from sudosat.sat.solvers.cdcl.one_shot import ONE_SHOT_RUNS

    shared = dict(ONE_SHOT_RUNS.seen)
    fresh = [[rng.choice([v, -v]) for v in rng.sample(range(1, 301), 2)] for _ in range(1100)]
    solver = cdcl.Solver(CNF([[1, 2, 3], *fresh, [4, 5, 6]], 300))  # loads once: no cache
    assert solver._live_engine().runs is None and ONE_SHOT_RUNS.seen == shared
    one_shot = CNF([[1, 2, 3], *fresh, [4, 5, 6]], 300)
    cdcl.solve(one_shot)  # one-shot calls share theirs
    assert len(ONE_SHOT_RUNS.seen) == min(len(shared) + 1, ONE_SHOT_RUNS.size)
    fresh_run = one_shot.flat[4 : 4 + 3 * len(fresh)].tobytes()  # its bytes, the first clause off
    assert fresh_run not in shared and ONE_SHOT_RUNS.seen.get(fresh_run)


@pytest.mark.reference_core
def test_a_remembered_run_is_used_only_where_every_byte_matches():
    """The memo is found by a run's first clauses: a run that only starts the same way, or
    goes on longer or stops sooner, still loads exactly its own clauses."""
    rng = random.Random(15)
    run = [[rng.choice([v, -v]) for v in rng.sample(range(1, 301), 2)] for _ in range(3000)]
    other = [list(c) for c in run]
    other[2500] = [7, 8]  # same first clauses, one clause differs later
    variants = {
        "remembered": [[1, 2, 3], *run, [4, 5, 6]],
        "differs late": [[1, 2, 3], *other, [4, 5, 6]],
        "longer": [[1, 2, 3], *run, [9, 10], [11, -12], [4, 5, 6]],
        "shorter": [[1, 2, 3], *run[:2000], [4, 5, 6]],
        "ends in units": [*run, [13], [-14]],
    }
    cache = cdcl.RunCache()
    for _ in range(3):  # the third load of the run comes from the cache
        _load_into_engine(CNF(variants["remembered"], 300), cache)
    assert len(cache.grouped) == 1
    for name, clauses in variants.items():
        cnf = CNF(clauses, 300)
        bins, units, _ = _reference_load(cnf)
        engine = _load_into_engine(cnf, cache)
        assert engine.bins == bins, name
        assert set(units) <= set(engine.trail), name


def _load_into_engine(cnf: CNF, cache: cdcl.RunCache | None = None) -> cdcl.Engine:
    engine = cdcl.Engine(cnf.num_vars, settings_from("cdcl", TUNABLES, {}))
    engine.runs = cache
    engine.load(cnf.flat)
    return engine

