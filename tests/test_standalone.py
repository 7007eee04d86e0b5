"""The repository stands alone: nothing in it points at a tracker or a document it lacks.

Code, tests, notebooks, benchmarks and docs state what they rely on: a reader of a clone
cannot follow a tracker's number or a course document the repository does not hold. The
patterns are built from pieces so that this file does not match itself.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("sudosat", "tests", "notebooks", "benchmarks", "docs", "scripts", "data")
OUTSIDE_REFERENCES = re.compile(
    "|".join(
        (
            r"(?i:\b" + "iss" + r"ues? #?\d+)",  # a tracker's issue number
            r"\b" + "SP" + r"EC\b",  # the course's specification (in capitals), not in the clone
            "DES" + r"IGN\.md",
            r"(?i:review " + "finding)",
            r"\.\./" + "shared",
            r"\b" + "shared/" + r"(?:data|zchaff|hooks)\b",  # the course's folder beside the clone
        )
    )
)
TEXT_SUFFIXES = {".py", ".ipynb", ".md", ".txt", ".toml", ".cfg", ".sh", ""}


def tracked_files() -> list[Path]:
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--", *FOLDERS], cwd=ROOT, capture_output=True, text=True,
            check=True,
        ).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files cannot be listed")
    return [ROOT / name for name in listed if name and Path(name).suffix in TEXT_SUFFIXES]


def outside_references(text: str) -> list[str]:
    """The matches of :data:`OUTSIDE_REFERENCES` in `text`, one per line that has one."""
    return [match.group(0) for match in map(OUTSIDE_REFERENCES.search, text.splitlines())
            if match]  # fmt: skip


def test_the_pattern_finds_what_it_is_for():
    assert outside_references("see iss" + "ue 12, and SP" + "EC §3") == ["iss" + "ue 12"]
    assert outside_references("x\nread DES" + "IGN.md\n") == ["DES" + "IGN.md"]
    assert outside_references("../sha" + "red/data/top.txt") == ["../sha" + "red"]
    assert outside_references("see sha" + "red/zchaff/README.md") == ["sha" + "red/zchaff"]
    assert outside_references("SPECIAL_KINDS, special, 12 issues were fixed") == []


def test_no_file_points_outside_the_repository():
    found = []
    for path in tracked_files():
        if not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE_REFERENCES.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:120]}")
    assert found == [], f"{len(found)} references a clone cannot follow:\n" + "\n".join(found)
