"""The live page as a reader meets it: from the report, from a file, on a course's site.

The page's Python is checked first in CPython (what it refuses before any work,
the DIMACS it writes slice by slice). Then ``make site`` builds the one folder a
course publishes (the report at its root, the live page in ``live/``), and a
plain static server (``python -m http.server``, started in the folder's parent,
so the site lives under the sub-path ``/site/``) serves it to Debian's Chromium
through Playwright (``executable_path``; nothing is downloaded for the browser).
Every request to another host is refused and recorded, so the pages run as they
would offline, and none may be made. In the browser:

* the live page is one click from the report's index, and answers;
* opened from ``file://``, the index and the live page each say within 2 s, in
  one line, how to open the page (over http, or on the course's site);
* the DIMACS of an order-5 board is saved as a file, the same bytes as
  CPython writes, and MiniSat (PySAT's, or Debian's ``minisat``) solves it;
* Stop ends an order-6 solve: the page's own clock measures the time from the
  click to the worker told to end and the page free (asserted under 1 s: it is
  the page's thread alone, which the solve does not load); the test's clock, the
  round trip through Playwright (asserted only under a generous bound) and the
  time until the browser reports the worker's thread gone (under 1.9 s: a busy
  worker that ignored the Stop would run on for the 2 s Chromium grants it);
  the board stays, and the next change solves it in a fresh Python;
* a time limit out of its label's bounds, and boards beyond the page's orders,
  are refused before any work, in words naming the page's own controls.

Without Chromium, Playwright, ``make`` or the npm registry (to fetch Pyodide once
into ``build/live-cache/``), the browser tests skip and say why.
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from live import build as livebuild
from sudosat.report import build as reportbuild
from sudosat.report.pages import PAGES, Settings
from sudosat.sudoku.board import Board, check_solution
from sudosat.sudoku.encoding import encode
from sudosat.workbench.compute import ORDERS
from sudosat.workbench.page import LIMIT_MS, Session, choices

ROOT = Path(__file__).resolve().parent.parent
# Generous bounds for a loaded machine; the printed lines say what this one took.
FIRST_ANSWER_S = 180
ANSWER_S = 120
FILE_WORDS_S = 2.0  # what the page promises, opened as a file
STOP_S = 1.0  # what Stop promises, on the page's own clock
STOP_ROUND_TRIP_S = 10.0  # the same seen from the test, through Playwright, on a loaded machine
# The stopped worker's thread must end before the 2 s Chromium grants a busy worker after
# terminate(): its Python stopped itself (0.2-0.6 s measured at a load of 10 on 2 cores).
WORKER_GONE_S = 1.9
HOSTS = ("http://127.0.0.1:", "file://", "data:", "blob:")
FLAGS = [  # a headless browser that calls no other host
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def _line(order: int, given: dict[int, int] | None = None) -> str:
    """A numeric instance line of `order`, empty but for `given` (cell -> value)."""
    cells = [0] * order**4
    for cell, value in (given or {}).items():
        cells[cell] = value
    return f"{order} " + " ".join(map(str, cells))


# -- the page's Python, in CPython ---------------------------------------------------------


@pytest.fixture
def session() -> tuple[Session, dict[str, Any]]:
    live = Session()
    return live, live.respond({"changed": "start"})["state"]


@pytest.mark.parametrize("order", [7, 8, 9])
def test_a_board_beyond_the_pages_orders_is_refused_before_any_work(session, order):
    live, state = session
    began = time.perf_counter()
    answer = live.respond({**state, "changed": "text", "text": _line(order)})
    assert time.perf_counter() - began < 5  # parsing only: order 8 took minutes when solved
    assert answer["state"] is None and f"order {order} is beyond this page" in answer["error"]
    said = answer["error"]
    assert "'order'" in said and "'line'" in said and f"1 to {max(ORDERS)}" in said
    assert "--" not in said  # the page has no command-line flags
    assert live.outcome.built is None or live.outcome.board.order <= max(ORDERS)


@pytest.mark.parametrize("limit", [-5, 0, 99, 3_600_001, 99_999_999, "x", float("nan")])
def test_a_time_limit_out_of_its_bounds_is_refused_naming_the_field(session, limit):
    live, state = session
    answer = live.respond({**state, "changed": "setting", "time_limit_ms": limit})
    assert answer["state"] is None and "'limit'" in answer["error"]
    assert "100 to 3,600,000" in answer["error"]


def test_the_limits_bounds_are_offered_and_accepted(session):
    live, state = session
    assert choices()["limit_ms"] == LIMIT_MS
    for limit in (LIMIT_MS["min"], LIMIT_MS["max"]):
        answer = live.respond({**state, "changed": "setting", "time_limit_ms": limit})
        assert answer["state"]["time_limit_ms"] == limit


def test_cells_typed_but_not_answered_ride_with_the_next_setting(session):
    live, state = session
    shown = live.respond({**state, "changed": "text"})
    cells = [str(value or "") for value in shown["board"]["given"]]
    empty = cells.index("")
    cells[empty] = str(shown["board"]["hint"][empty])
    answer = live.respond({**state, "changed": "setting", "solver": "dpll", "cells": cells})
    assert answer["board"]["given"][empty] == shown["board"]["hint"][empty]
    assert answer["state"]["solver"] == "dpll"
    # a change that brings its own board ignores them
    again = live.respond({**state, "changed": "text", "cells": cells})
    assert again["board"]["given"][empty] == 0


@pytest.mark.parametrize("text", ["3 11" + "0" * 79, None])
def test_the_dimacs_slices_make_the_whole_dimacs(session, text):
    live, state = session
    answer = live.respond({**state, "changed": "text", "text": text or state["text"]})
    assert answer["state"] is not None
    written = "".join(live.dimacs_parts())
    assert written == live.outcome.built.cnf.to_dimacs()
    assert live.dimacs_name() == "sudoku-order3-course.cnf"
    assert list(Session().dimacs_parts()) == [] and Session().dimacs_name() == ""


def test_an_order_5_answer_offers_the_dimacs_as_a_file_not_as_code(session):
    live, state = session
    answer = live.respond({**state, "changed": "order", "order": 5})
    assert answer["download_later"]
    assert "saves it as a file" in answer["views"]["download"]
    assert "write_dimacs" not in answer["views"]["download"]


# -- the report's index: the generator -----------------------------------------------------


def test_the_index_links_the_live_page_and_says_what_to_do_from_a_file(tmp_path):
    index = reportbuild.index_html(PAGES, Settings(root=tmp_path), {}, {})
    entry = next(item for item in index.split("<li>") if "The encoding workbench" in item)
    assert 'href="live/"' in entry and 'id="live-file"' in entry and "make serve" in entry
    assert 'location.protocol === "file:"' in index
    assert "snapshot here" not in index


def test_the_committed_index_links_the_live_page():
    index = (ROOT / "reports" / "index.html").read_text(encoding="utf-8")
    assert 'href="live/" id="live-link"' in index and 'id="live-file"' in index


# -- the published folder, served by a plain static server ----------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """``make site`` into a scratch folder: the report and the live page under one root."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    folder = tmp_path_factory.mktemp("course") / "site"
    done = subprocess.run(
        ["make", "-s", "site", f"SITE={folder}"], cwd=ROOT, capture_output=True, text=True,
        timeout=900,
    )
    if done.returncode != 0 and re.search(r"could not fetch|npm is needed", done.stderr):
        pytest.skip(f"the live site cannot be built here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    return folder


@pytest.fixture(scope="module")
def served(site) -> Iterator[str]:
    """``python -m http.server`` in the site's parent folder; yields the site's URL (a sub-path)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
        cwd=site.parent, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/{site.name}/"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(url, timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("headless Chromium is not installed (Debian: apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, args=FLAGS, headless=True)
        yield launched
        launched.close()


class Visit:
    """A fresh browser context on one page: every request recorded, other hosts refused."""

    def __init__(self, browser: Any) -> None:
        self.context = browser.new_context(
            accept_downloads=True, viewport={"width": 1200, "height": 1400}
        )
        self.requests: list[str] = []
        self.refused: list[str] = []
        self.console: list[str] = []
        self.closed: list[float] = []  # when each web worker ended (test's clock)
        self.context.on("request", lambda request: self.requests.append(request.url))
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("worker", lambda worker: worker.on(
            "close", lambda _: self.closed.append(time.perf_counter())))
        self.page.on("pageerror", lambda error: self.console.append(f"pageerror: {error}"))
        self.page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))

    def _route(self, route: Any) -> None:
        if route.request.url.startswith(HOSTS):
            route.continue_()
        else:
            self.refused.append(route.request.url)
            route.abort()

    def answers(self) -> int:
        return int(self.page.evaluate("Number(document.body.dataset.answers || 0)"))

    def next_answer(self, seen: int, timeout_s: float = ANSWER_S) -> dict[str, Any]:
        self.page.wait_for_function(
            f"Number(document.body.dataset.answers || 0) > {seen}", timeout=timeout_s * 1000
        )
        return self.page.evaluate("window.sudosatTimes.answers.at(-1)")

    def change(self, action: Any, timeout_s: float = ANSWER_S) -> dict[str, Any]:
        """Do `action` (a change) and return the answer it brought."""
        seen = self.answers()
        action()
        return self.next_answer(seen, timeout_s)

    def outside(self, base: str) -> list[str]:
        """Requests that left the site: refused ones, and any not under `base`."""
        return self.refused + [
            url for url in self.requests if url.startswith("http") and not url.startswith(base)
        ]

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def visit(browser) -> Iterator[Visit]:
    opened = Visit(browser)
    yield opened
    opened.close()


@pytest.fixture
def live_page(visit, served) -> Visit:
    """The live page over http, its first answer arrived."""
    visit.page.goto(served + "live/")
    visit.next_answer(0, FIRST_ANSWER_S)
    return visit


@pytest.mark.slow
def test_make_site_gives_one_folder_holding_the_report_and_the_live_page(site):
    for page in PAGES:
        assert (site / f"{page.name}.html").is_file(), page.name
    assert (site / "index.html").read_bytes() == (ROOT / "reports" / "index.html").read_bytes()
    assert livebuild.check(site / "live") == []
    with_code = [path.name for path in site.glob("*-code.html")]
    assert len(with_code) == len(PAGES)


@pytest.mark.slow
def test_from_the_index_over_http_the_live_page_is_one_click_away_and_answers(visit, served):
    page = visit.page
    began = time.perf_counter()
    page.goto(served + "index.html")
    assert page.locator("#live-file").is_hidden()  # over http there is nothing to explain
    page.click("#live-link")
    page.wait_for_url(served + "live/")
    visit.next_answer(0, FIRST_ANSWER_S)
    first_s = time.perf_counter() - began
    assert "cdcl: SAT" in page.inner_text("#status")
    assert page.locator("#answer .sudosat-valid").count() == 1
    assert not visit.outside(served), visit.outside(served)
    errors = [line for line in visit.console if line.startswith(("error", "pageerror"))]
    assert not errors, errors
    print(f"index -> live page: first answer {first_s:.1f} s after opening the index "
          f"(a plain static server, under {served.split('/', 3)[3]}; "
          f"{len(visit.requests)} requests, none elsewhere)")


@pytest.mark.slow
def test_opened_as_files_the_index_and_the_live_page_say_what_to_do_at_once(visit, site):
    page = visit.page
    began = time.perf_counter()
    page.goto((site / "index.html").as_uri())
    page.wait_for_selector("#live-file", state="visible", timeout=FILE_WORDS_S * 1000)
    index_s = time.perf_counter() - began
    said = page.inner_text("#live-file")
    assert "\n" not in said.strip() and "make serve" in said and "http://" in said
    assert "published site" in said
    page.click("#live-link")  # stays: a file:// live page cannot run
    assert page.url.endswith("/index.html")

    began = time.perf_counter()
    page.goto((site / "live" / "index.html").as_uri())
    page.wait_for_function(
        "document.getElementById('status').textContent.includes('make serve')",
        timeout=FILE_WORDS_S * 1000,
    )
    live_s = time.perf_counter() - began
    page.wait_for_timeout(1500)  # and it stays said: no spinner replaces it
    status = page.inner_text("#status")
    assert "make serve" in status and "published site" in status and "⏳" not in status
    assert "\n" not in status.strip()
    assert index_s < FILE_WORDS_S and live_s < FILE_WORDS_S
    print(f"from file://: the index says it in {index_s:.2f} s, the live page in {live_s:.2f} s")


@pytest.mark.slow
def test_an_order_5_dimacs_downloads_as_a_file_that_minisat_solves(live_page, served, tmp_path):
    page = live_page.page
    live_page.change(lambda: page.select_option("#order", "5"))
    line = page.input_value("#line")
    assert page.is_visible("#prepare") and "write_dimacs" not in page.inner_text("#download")
    began = time.perf_counter()
    with page.expect_download(timeout=ANSWER_S * 1000) as download:
        page.click("#prepare")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    written_s = time.perf_counter() - began
    assert saved.name == "sudoku-order5-course.cnf"
    assert "save the whole DIMACS" in page.inner_text("#download")

    # the same bytes as CPython writes for the same board
    cpython = Session()
    cpython.respond({"changed": "start", "text": line})
    assert saved.read_text() == "".join(cpython.dimacs_parts())

    model = _minisat(saved)
    puzzle = Board.parse(line)
    solution = encode(puzzle, "course").decode(model)
    assert check_solution(puzzle, solution) is None
    assert not live_page.outside(served), live_page.outside(served)
    print(f"order-5 DIMACS: {saved.stat().st_size / 1e6:.1f} MB written and saved in "
          f"{written_s:.1f} s; MiniSat solved it")


def _minisat(cnf: Path) -> list[int]:
    """A model of `cnf` from PySAT's MiniSat, or from Debian's ``minisat``."""
    try:
        from pysat.formula import CNF
        from pysat.solvers import Minisat22
    except ImportError:
        program = shutil.which("minisat")
        if program is None:
            pytest.skip("no MiniSat here (PySAT, or Debian's minisat)")
        out = cnf.with_suffix(".out")
        done = subprocess.run([program, str(cnf), str(out)], capture_output=True, timeout=300)
        assert done.returncode == 10, done.stdout
        return [int(lit) for lit in out.read_text().split()[1:] if lit != "0"]
    with Minisat22(bootstrap_with=CNF(from_file=str(cnf)).clauses) as solver:
        assert solver.solve()
        return list(solver.get_model() or [])


@pytest.mark.slow
def test_stop_ends_an_order_6_solve_and_keeps_the_board(live_page):
    page = live_page.page
    live_page.change(lambda: page.select_option("#order", "6"))
    live_page.change(lambda: _set_limit(page, LIMIT_MS["max"]))
    assert len(page.workers) == 1 and not live_page.closed

    # DPLL on this board: a search of many seconds; a cell typed meanwhile waits for it
    cells = page.locator("#grid input")
    assert cells.count() == 36**2
    index = next(k for k in range(36**2) if not cells.nth(k).input_value())
    value = cells.nth(index).get_attribute("placeholder")
    seen = live_page.answers()
    page.select_option("#solver", "dpll")
    cells.nth(index).fill(value)
    page.wait_for_function("!document.getElementById('stop').disabled")
    page.wait_for_timeout(2500)  # Python is building or searching
    assert live_page.answers() == seen, "the solve ended before Stop: pick a longer one"
    before = (_grid(page), page.input_value("#line"))

    clicked = time.perf_counter()
    page.click("#stop")
    page.wait_for_function("document.getElementById('status').textContent.includes('stopped')")
    round_trip_s = time.perf_counter() - clicked
    page.wait_for_timeout(1000)
    stop = page.evaluate("window.sudosatTimes.stops.at(-1)")
    assert stop["stop_ms"] / 1000 < STOP_S
    assert round_trip_s < STOP_ROUND_TRIP_S
    closed = live_page.closed
    assert closed and closed[0] - clicked < WORKER_GONE_S  # the solve itself ended
    assert page.is_disabled("#stop")
    assert (_grid(page), page.input_value("#line")) == before  # the board stays
    assert page.input_value("#order") == "6" and live_page.answers() == seen

    # the next change solves the board as the page shows it, typed cell included, in a fresh Python
    answer = live_page.change(lambda: page.select_option("#solver", "cdcl"))
    assert "cdcl: SAT" in page.inner_text("#status")
    assert Board.parse(page.input_value("#line")).cells[index] == int(value)
    restart = page.evaluate("window.sudosatTimes.restarts.at(-1)")
    print(f"Stop: {stop['stop_ms']:.1f} ms on the page's clock after {stop['ran_ms'] / 1000:.1f} s "
          f"of solving, {round_trip_s * 1000:.0f} ms through Playwright, the worker closed "
          f"{(closed[0] - clicked) * 1000:.0f} ms after the click; Python ready again in "
          f"{restart / 1000:.1f} s; the next answer {answer['ms'] / 1000:.1f} s")


def _set_limit(page: Any, value: Any) -> None:
    """Type `value` into the limit and leave the field, as a reader does (one change event)."""
    page.fill("#limit", str(value))
    page.locator("#limit").blur()


def _grid(page: Any) -> list[str]:
    return page.eval_on_selector_all("#grid input", "inputs => inputs.map(i => i.value)")


@pytest.mark.slow
def test_the_limit_is_bounded_as_its_label_says_and_big_orders_are_refused(live_page):
    page = live_page.page
    label = page.inner_text("label:has(#limit)")
    assert "100 to 3,600,000" in label
    for wrong in ("-5", "99999999"):
        seen = live_page.answers()
        _set_limit(page, wrong)
        page.wait_for_timeout(300)
        assert live_page.answers() == seen  # nothing was sent
        assert "✗" in page.inner_text("#limit-note") and "limit" in page.inner_text("#status")
    answer = live_page.change(lambda: _set_limit(page, 5000))
    assert "✗" not in page.inner_text("#limit-note") and "cdcl: SAT" in page.inner_text("#status")
    assert answer["changed"] == "setting"

    for order in (7, 8, 9):
        began = time.perf_counter()
        live_page.change(lambda order=order: page.fill("#line", _line(order, {0: 1})))
        took = time.perf_counter() - began
        status = page.inner_text("#status")
        assert f"order {order} is beyond this page" in status and "'order'" in status, status
        assert "--" not in status and took < 10
        assert page.input_value("#order") == "3"  # the board shown stays
    assert page.locator("#grid input").count() == 81
