"""The rules cache of the full encodings: the CNF of a fresh build, byte for byte."""

from __future__ import annotations

import hashlib
import io

import pytest

from sudosat.cli import main
from sudosat.run.generate import generate
from sudosat.sudoku.board import Board
from sudosat.sudoku.encoding import ENCODINGS, FORMAT_ENCODINGS, clear_rules_cache, encode
from sudosat.sudoku.encoding import build as build_module
from tests.conftest import COURSE_EXAMPLE

FULL = [name for name, spec in {**ENCODINGS, **FORMAT_ENCODINGS}.items() if not spec.reduced]

LINES = [
    "1 0",
    "1 1",
    generate(2, 0.5, seed=3).to_line(),
    "2 1100000000000000",  # clashing givens: the formula is UNSAT, still encoded
    COURSE_EXAMPLE,
    "3 " + "0" * 81,
    "3 11" + "0" * 79,
    generate(4, 0.4, seed=1).to_line(),
]

VARIANTS: dict[str, list[str]] = {
    **{name: ["--encoding", name] for name in ENCODINGS},
    **{f"{name} rcv": ["--encoding", name, "--numbering", "rcv"]
       for name in ("course", "extended", "course-seq")},
    "vu": ["--format", "vu", "--with-rules"],
    "dartmouth": ["--format", "dartmouth"],
}
"""Every registered encoding, three in the rcv numbering, and the two other formats."""

# sha256 (first 16 hex digits) of what `sudosat encode - VARIANT` writes (exit code, then
# output) for every line of LINES, concatenated, one digest per variant, as the encoder wrote
# them before the rules cache existed. A new encoding has none yet, and a changed one fails
# by name; after a change meant to alter the formulas, regenerate them with
#     .venv/bin/python -m tests.test_encoding_cache
# and paste what it prints here.
BEFORE_THE_CACHE = {
    "course": "05667f31a88a883e",
    "minimal": "399cf7db85706bac",
    "extended": "4cf4906b224411ff",
    "optimised": "a0e7a678c834ba52",
    "course-seq": "2e0511996351fc45",
    "course-product": "c7b0a809fcbdfd88",
    "optimised-seq": "8d783ea7b73d65df",
    "optimised-product": "e661d0a3b33b6255",
    "course rcv": "01913574e71a1dc8",
    "extended rcv": "b01536bd6713384e",
    "course-seq rcv": "e996f0adeb68ab43",
    "vu": "b01536bd6713384e",  # the extended encoding's rules in the rcv numbering
    "dartmouth": "a4af87c3612bd850",
}


def cli_output(line: str, variant: list[str]) -> bytes:
    """The exit code and everything `sudosat encode - VARIANT` writes for `line`."""
    import sys

    stdin, stdout = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = io.StringIO(line + "\n"), io.StringIO()
    try:
        code = main(["encode", "-", *variant])
        written = sys.stdout.getvalue()
    finally:
        sys.stdin, sys.stdout = stdin, stdout
    return f"{code}\n{written}".encode()


def digest(variant: list[str]) -> str:
    """The digest of one variant's outputs over every line of LINES."""
    outputs = b"".join(cli_output(line, variant) for line in LINES)
    return hashlib.sha256(outputs).hexdigest()[:16]


@pytest.mark.parametrize("name", list(VARIANTS))
def test_encode_output_is_byte_identical_to_the_encoder_before_the_cache(name):
    assert name in BEFORE_THE_CACHE, f"no digest for {name}: see BEFORE_THE_CACHE"
    clear_rules_cache()
    cold = digest(VARIANTS[name])  # builds the rules
    warm = digest(VARIANTS[name])  # copies them
    assert cold == warm == BEFORE_THE_CACHE[name]


@pytest.mark.parametrize("name", FULL)
@pytest.mark.parametrize("line", LINES)
def test_a_cached_encoding_equals_a_fresh_build(name, line):
    board = Board.parse(line)
    fresh = encode(board, name, cache=False)
    for _ in range(2):  # the first call may build the rules, the second copies them
        cached = encode(board, name)
        assert cached.cnf == fresh.cnf
        assert cached.cnf.clauses == fresh.cnf.clauses
        assert cached.cnf.comments == fresh.cnf.comments
        assert cached.family_counts == fresh.family_counts
        assert list(cached.family_counts) == list(fresh.family_counts)  # the order too
        assert cached.num_cell_vars == fresh.num_cell_vars
        assert cached.cnf.has_empty_clause == fresh.cnf.has_empty_clause


@pytest.mark.parametrize("name", ["course", "extended", "course-seq"])
def test_altering_a_returned_cnf_cannot_corrupt_the_cache(name):
    board = Board.parse(COURSE_EXAMPLE)
    fresh = encode(board, name, cache=False)
    spoiled = encode(board, name)
    spoiled.cnf.add_clause([1, -2, 3])
    spoiled.cnf.flat[0] = -spoiled.cnf.flat[0]
    spoiled.cnf.comments.append("spoiled")
    spoiled.family_counts["completeness"] = -1
    spoiled.cnf.num_vars += 5
    again = encode(board, name)
    assert again.cnf == fresh.cnf and again.cnf.comments == fresh.cnf.comments
    assert again.family_counts == fresh.family_counts
    assert again.cnf is not spoiled.cnf and again.cnf.flat is not spoiled.cnf.flat
    other = encode(Board.parse("3 " + "0" * 81), name)
    assert other.cnf == encode(Board.parse("3 " + "0" * 81), name, cache=False).cnf


def test_a_build_stopped_by_its_check_caches_nothing():
    clear_rules_cache()

    class Stop(Exception):
        pass

    def stop() -> None:
        raise Stop

    with pytest.raises(Stop):
        encode(Board.parse(COURSE_EXAMPLE), "course", check=stop)
    assert not build_module._RULES
    assert encode(Board.parse(COURSE_EXAMPLE), "course").cnf == encode(
        Board.parse(COURSE_EXAMPLE), "course", cache=False
    ).cnf


def test_rules_beyond_the_cache_budget_are_built_each_time_and_not_kept(monkeypatch):
    clear_rules_cache()
    monkeypatch.setattr(build_module, "RULES_CACHE_ENTRIES", 1000)
    board = Board.parse(COURSE_EXAMPLE)  # 9x9 rules: about 36,000 entries
    assert encode(board, "course").cnf == encode(board, "course", cache=False).cnf
    assert not build_module._RULES
    small = Board.parse("2 " + "0" * 16)  # 4x4 rules: about 1,200 entries, also too many
    encode(small, "course")
    one = Board.parse("1 0")
    encode(one, "course")
    assert list(build_module._RULES) == [(1, "course")]


def test_the_cache_drops_the_least_recently_used_rules_first(monkeypatch):
    clear_rules_cache()
    monkeypatch.setattr(build_module, "RULES_CACHE_ENTRIES", 3000)
    small = Board.parse("2 " + "0" * 16)
    for name in ("course", "minimal", "course", "extended"):
        encode(small, name)
    kept = list(build_module._RULES)
    total = sum(len(rules.cnf.flat) for rules in build_module._RULES.values())
    assert total <= 3000 and kept[-1] == (2, "extended") and (2, "minimal") not in kept


if __name__ == "__main__":  # print BEFORE_THE_CACHE afresh (see its comment)
    for variant_name, variant in VARIANTS.items():
        print(f'    "{variant_name}": "{digest(variant)}",')
