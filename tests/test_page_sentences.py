"""The built pages read well: no sentence said twice on a page, no document cited beyond the clone.

The pages are generated: a sentence template filled in a loop can say the same
thing twice ("propagation alone decides 0 of its 30 boards"), and a comment
copied into prose can cite a document outside the repository. The test reads
the committed ``reports/*.html`` (what a reader opens right after cloning) and
looks at the prose only:

- tables, code and preformatted blocks (``table``, ``pre``, ``code``), scripts,
  styles, the navigation bar and figures' SVG are removed before reading: a
  table cell or a line of code may rightly repeat;
- the rest is split into sentences at ``.``, ``!`` or ``?`` followed by a
  blank, and each sentence into clauses at ``;`` (a generated list joined by
  semicolons repeats within one sentence);
- sentences and clauses of fewer than six words ("See the table.") are
  ignored: short fragments repeat in any text.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from tests.test_standalone import outside_references

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "reports").glob("*.html"))
MIN_WORDS = 6
SKIPPED_TAGS = ("table", "pre", "code", "script", "style", "svg", "nav", "math")


def prose(html: str) -> str:
    """The visible prose of a page: its text without tables, code, scripts and navigation."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    for tag in soup(list(SKIPPED_TAGS)):
        tag.decompose()
    return re.sub(r"\s+", " ", soup.get_text(" ")).strip()


def pieces(text: str) -> list[str]:
    """Sentences and their ``;`` clauses of at least :data:`MIN_WORDS` words, normalised."""
    found = []
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        parts = [sentence, *sentence.split(";")] if ";" in sentence else [sentence]
        for part in parts:
            words = re.findall(r"[\w%.,×·−-]+", part.lower())
            if len(words) >= MIN_WORDS:
                found.append(" ".join(words).rstrip("."))
    return found


def repeated(text: str) -> list[str]:
    """The sentences or clauses of `text` that occur more than once."""
    return sorted(piece for piece, count in Counter(pieces(text)).items() if count > 1)


def test_the_reader_finds_repeats_and_skips_tables_code_and_short_fragments():
    page = (
        "<p>Propagation alone decides 0 of its 30 boards. See the table. See the table.</p>"
        "<p>minimal has fewer clauses; propagation alone decides 0 of its 30 boards.</p>"
        "<table><tr><td>the same cell text is here twice</td></tr>"
        "<tr><td>the same cell text is here twice</td></tr></table>"
        "<pre>x = 1  # a line of code said twice\nx = 1  # a line of code said twice</pre>"
    )
    assert repeated(prose(page)) == ["propagation alone decides 0 of its 30 boards"]
    assert repeated(prose("<p>One sentence of six words here. Another one of six words.</p>")) == []


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_no_sentence_is_said_twice_on_a_page(page):
    twice = repeated(prose(page.read_text(encoding="utf-8")))
    assert twice == [], f"{page.name} says these twice:\n" + "\n".join(twice)


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_no_page_cites_a_document_outside_the_repository(page):
    from bs4 import BeautifulSoup

    text = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").get_text("\n")
    assert outside_references(text) == []


def test_the_report_has_pages():
    assert len(PAGES) >= 7, "reports/*.html is missing: the built report is committed"


def test_the_encodings_sentence_says_each_count_once():
    import pandas as pd

    from sudosat.report.reduction import ratios_sentence

    table = pd.DataFrame(
        {"variables": [100, 100, 100, 31], "clauses": [100, 75, 102, 15], "boards": [30] * 4,
         "decided by propagation": [0, 0, 8, 8]},
        index=pd.Index(["course", "minimal", "extended", "optimised"], name="encoding"))
    text = ratios_sentence(table)
    assert repeated(text) == []
    assert "course and minimal: 0 of 30; extended and optimised: 8 of 30." in text
    assert "optimised has 0.15 times its clauses and 0.31 times its variables" in text
    assert ratios_sentence(table.iloc[:1]).startswith("Boards that propagation alone decides")
    assert ratios_sentence(table, "other") == ""
