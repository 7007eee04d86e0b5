"""The live workbench: its Python (``sudosat.workbench.page``), its site, its server, a browser.

The page's Python is driven here in CPython, request by request, as the page's
worker drives it in Pyodide. The site is built into a temporary folder from the
current sources (Pyodide's tarball from the cache in ``build/live-cache/``,
fetched from the npm registry when absent): it must hold exactly what its lock
lists. Then Debian's Chromium opens it through Playwright over a loopback
server (``executable_path``, a fresh profile; nothing is downloaded for the
browser), step by step: the first answer, a family switched off (the verdict
turns), a cell typed (the board is solved again), a clash, order 4. Every
request is logged and must go to 127.0.0.1, for a file the lock lists; the
console must show no error.

Without Chromium or Playwright, or when the npm registry cannot be reached to
build the site, the browser tests skip and say why.
"""

from __future__ import annotations

import io
import json
import shutil
import statistics
import threading
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from live import build as livebuild
from live import serve as liveserve
from live.measure import FLAGS
from sudosat.sudoku.board import COURSE_EXAMPLE, Board
from sudosat.workbench.page import CHANGES, Session, choices

ROOT = Path(__file__).resolve().parent.parent
# Generous bounds for a loaded CI machine; docs/performance.md gives what a quiet one takes.
FIRST_ANSWER_S = 180
ANSWER_S = 60


# -- the page's Python, in CPython ---------------------------------------------------------


@pytest.fixture
def session() -> Session:
    return Session(time_limit_ms=20_000)


def test_the_first_answer_is_the_course_example_encoded_as_in_the_course(session):
    answer = session.respond({"changed": "start"})
    state = answer["state"]
    assert state["text"] == COURSE_EXAMPLE and state["encoding"] == "course"
    assert state["switches"]["uniqueness"] and not state["switches"]["coverage"]
    assert answer["puzzle"] == COURSE_EXAMPLE
    assert set(answer["views"]) == {"status", "verdict", "counts", "excerpt", "download", "answer"}
    assert "sudosat-valid" in answer["views"]["answer"]
    assert "download" in answer["views"]["download"] and not answer["download_later"]
    solution = answer["board"]["hint"]
    assert Board(3, solution).clashes() == [] and answer["board"]["bad"] == []


def test_a_switch_names_the_encoding_and_an_encoding_moves_the_switches(session):
    state = session.respond({"changed": "start"})["state"]
    off = session.respond(
        {**state, "changed": "switches", "switches": {**state["switches"], "uniqueness": False}}
    )
    assert off["state"]["encoding"] == "minimal"  # the course without uniqueness
    boxes = session.respond(
        {**off["state"], "changed": "switches", "switches": {**state["switches"], "boxes": False}}
    )
    assert boxes["state"]["encoding"] == "custom"
    assert "sudosat-no" in boxes["views"]["verdict"]
    back = session.respond({**boxes["state"], "changed": "encoding", "encoding": "course-seq"})
    assert back["state"]["switches"]["boxes"] and back["state"]["switches"]["amo"] == "seq"
    reduced = session.respond({**back["state"], "changed": "encoding", "encoding": "optimised"})
    assert not reduced["state"]["switches_enabled"]


def test_a_typed_cell_rewrites_the_line_and_a_wrong_one_is_refused_by_name(session):
    answer = session.respond({"changed": "start"})
    cells = [str(v or "") for v in answer["board"]["given"]]
    empty = cells.index("")
    cells[empty] = str(answer["board"]["hint"][empty])
    typed = session.respond({**answer["state"], "changed": "cell", "cells": cells})
    assert typed["board"]["given"][empty] == answer["board"]["hint"][empty]
    assert typed["puzzle"] is None and "sudosat-valid" in typed["views"]["answer"]
    cells[empty] = "x"
    refused = session.respond({**answer["state"], "changed": "cell", "cells": cells})
    assert refused["state"] is None and refused["bad"] == [empty]
    assert f"cell ({empty // 9 + 1}, {empty % 9 + 1})" in refused["views"]["status"]


def test_clashing_givens_are_unsat_and_marked(session):
    state = session.respond({"changed": "start"})["state"]
    clash = "3 11" + "0" * 79
    answer = session.respond({**state, "changed": "text", "text": clash})
    assert "UNSAT" in answer["views"]["status"] and answer["board"]["bad"] == [0, 1]


def test_an_order_change_loads_that_orders_first_puzzle(session):
    state = session.respond({"changed": "start"})["state"]
    answer = session.respond({**state, "changed": "order", "order": 2})
    assert answer["board"]["order"] == 2 and answer["puzzle"] == answer["puzzles"][0][1]
    assert answer["times"]["build_ms"] > 0 and answer["times"]["solve_ms"] >= 0


def test_an_unknown_change_is_refused(session):
    with pytest.raises(ValueError, match="unknown change"):
        session.respond({"changed": "everything"})
    assert "start" in CHANGES


def test_the_choices_offer_our_solvers_and_name_the_others():
    offered = choices()
    assert {"cdcl", "dpll", "dp", "walksat", "gsat"} <= set(offered["solvers"])
    assert offered["orders"][:4] == [1, 2, 3, 4]
    assert [family["name"] for family in offered["families"]][:2] == ["completeness", "uniqueness"]
    assert offered["amo"] == ["pairwise", "seq", "product"]
    assert "course" in [numbering["name"] for numbering in offered["numberings"]]
    assert offered["style"].startswith("<style>")


# -- the site and its lock -----------------------------------------------------------------


def test_the_archive_holds_the_light_core_only_and_is_the_same_each_time():
    archive = livebuild.package_archive()
    assert archive == livebuild.package_archive()
    names = zipfile.ZipFile(io.BytesIO(archive)).namelist()
    assert "sudosat/workbench/page.py" in names and "sudosat/sat/solvers/cdcl/solver.py" in names
    assert not [n for n in names if n.split("/")[1] in livebuild.LEFT_OUT or "test" in n]


def test_versions_are_pinned_once():
    pins = livebuild.pins()
    assert set(pins) == {"pyodide"}
    assert pins["pyodide"]["version"].count(".") == 2
    assert pins["pyodide"]["integrity"].startswith("sha512-")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The live site built from the current sources (Pyodide from the cache or npm)."""
    out = tmp_path_factory.mktemp("live") / "site"
    try:
        livebuild.build(out)
    except livebuild.FetchError as exc:
        pytest.skip(f"the live site cannot be built here: {exc}")
    return out


def test_the_site_ships_exactly_what_its_lock_lists(site, tmp_path):
    assert livebuild.check(site) == []
    lock = json.loads((site / "lock.json").read_text())
    pinned = {f"npm:{name}@{pin['version']}" for name, pin in livebuild.pins().items()}
    for name, entry in lock["files"].items():
        assert entry["from"].split(" ")[0] in {"live/page", "sudosat", *pinned}, name
    pyodide_lock = json.loads((site / "pyodide" / "pyodide-lock.json").read_text())
    assert pyodide_lock["packages"] == {}  # the site ships no Pyodide package
    assert livebuild.site_bytes(site) < 40e6
    # a file the lock does not list, or a changed one, is found
    copy = tmp_path / "copy"
    shutil.copytree(site, copy)
    (copy / "extra.js").write_text("")
    (copy / "style.css").write_text("")
    assert livebuild.check(copy) == [
        "extra.js: shipped but not in the lock",
        "style.css: differs from the lock",
    ]


@pytest.fixture(scope="module")
def server(site, tmp_path_factory) -> Iterator[str]:
    """The site (and an empty report) on a free loopback port; yields the live page's URL."""
    reports = tmp_path_factory.mktemp("reports")
    (reports / "index.html").write_text("<p>report</p>")
    httpd = liveserve.make_server(0, reports=reports, live=site, quiet=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/live/"
    httpd.shutdown()
    httpd.server_close()


def test_the_server_serves_the_report_and_the_live_site_with_their_types(server):
    with urllib.request.urlopen(server + "pyodide/pyodide.asm.wasm") as response:
        assert response.headers["Content-Type"] == "application/wasm"
    with urllib.request.urlopen(server + "pyodide/pyodide.mjs") as response:
        assert response.headers["Content-Type"] == "text/javascript"
    with urllib.request.urlopen(server.removesuffix("live/")) as response:
        assert response.read() == b"<p>report</p>"
    with urllib.request.urlopen(server.removesuffix("/")) as response:  # redirected to /live/
        assert b"workbench" in response.read()


# -- in Chromium ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def page(server, tmp_path_factory):
    """A fresh headless Chromium on the live page; yields (page, requests, console)."""
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("headless Chromium is not installed (Debian: apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    profile = tmp_path_factory.mktemp("profile")
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=chromium, args=FLAGS, headless=True,
            viewport={"width": 1200, "height": 1400},
        )
        page = context.new_page()
        requests: list[str] = []
        console: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        context.on("request", lambda request: requests.append(request.url))  # the worker's
        page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
        page.on("pageerror", lambda error: console.append(f"pageerror: {error}"))
        page.on("worker", lambda worker: worker.on("console", lambda m: console.append(
            f"{m.type}: {m.text}")))
        yield page, requests, console
        context.close()


def _answers(page) -> int:
    return int(page.evaluate("Number(document.body.dataset.answers || 0)"))


def _next_answer(page, seen: int, timeout_s: float = ANSWER_S) -> dict:
    page.wait_for_function(
        f"Number(document.body.dataset.answers || 0) > {seen}", timeout=timeout_s * 1000
    )
    return page.evaluate("window.sudosatTimes.answers[window.sudosatTimes.answers.length - 1]")


@pytest.mark.slow
def test_the_live_page_answers_switches_and_resolves_an_edit_offline(page, server):
    page, requests, console = page
    began = time.perf_counter()
    page.goto(server)
    _next_answer(page, 0, FIRST_ANSWER_S)
    first_s = time.perf_counter() - began
    assert "cdcl: SAT" in page.inner_text("#status")
    assert "correct encoding" in page.inner_text("#verdict")
    assert page.locator("#answer .sudosat-valid").count() == 1
    assert page.input_value("#encoding") == "course"
    unavailable = page.inner_text("#unavailable")
    assert "zchaff" in unavailable and "pysat:" in unavailable and "exec:minisat" in unavailable

    # a family switched off: the verdict turns, the encoding is the switches' own
    seen = _answers(page)
    page.uncheck("input[data-family=boxes]")
    switch = _next_answer(page, seen)
    assert page.locator("#verdict .sudosat-no").count() == 1
    assert "nothing stops a symbol repeating in boxes" in page.inner_text("#verdict")
    assert page.input_value("#encoding") == "custom"
    seen = _answers(page)
    page.check("input[data-family=boxes]")
    _next_answer(page, seen)
    assert page.input_value("#encoding") == "course"
    assert page.locator("#verdict .sudosat-ok").count() == 1

    # another of our solvers, another numbering
    seen = _answers(page)
    page.select_option("#solver", "dpll")
    _next_answer(page, seen)
    assert "dpll: SAT" in page.inner_text("#status")
    seen = _answers(page)
    page.select_option("#numbering", "rcv")
    _next_answer(page, seen)
    assert page.input_value("#encoding") == "custom" and "dpll: SAT" in page.inner_text("#status")
    assert "111 " in page.inner_text("#excerpt")  # x(1,1,1) is 111 in the rcv numbering

    # a cell typed: the board is solved again with one given more
    cells = page.locator("#grid input")
    assert cells.count() == 81
    index = next(k for k in range(81) if not cells.nth(k).input_value())
    value = cells.nth(index).get_attribute("placeholder")
    seen = _answers(page)
    cells.nth(index).fill(value)
    _next_answer(page, seen)
    line = page.input_value("#line")
    assert Board.parse(line).cells[index] == int(value)
    assert "given" in (cells.nth(index).get_attribute("class") or "")
    assert page.locator("#answer .sudosat-valid").count() == 1

    # a clash typed: UNSAT, the clashing givens marked
    row = index // 9
    other = next(k for k in range(row * 9, row * 9 + 9) if not cells.nth(k).input_value())
    seen = _answers(page)
    cells.nth(other).fill(value)
    _next_answer(page, seen)
    assert "UNSAT" in page.inner_text("#status") and "clash" in page.inner_text("#status")
    assert "bad" in (cells.nth(other).get_attribute("class") or "")

    # order 4: a 16x16 board of its own, solved
    seen = _answers(page)
    page.select_option("#order", "4")
    order4 = _next_answer(page, seen)
    assert "SAT" in page.inner_text("#status") and cells.count() == 256

    base = server.removesuffix("live/")
    # blob: URLs are the page's own memory (the worker's Stop watch), never a network request
    fetched = [url for url in requests if not url.startswith("blob:" + base)]
    outside = [url for url in fetched if not url.startswith("http://127.0.0.1:")]
    assert not outside, outside
    lock = json.loads(urllib.request.urlopen(server + "lock.json").read())
    allowed = {server, *(server + name for name in lock["files"])}
    assert set(fetched) - {base} <= allowed, set(fetched) - allowed
    errors = [line for line in console if line.startswith(("error", "pageerror"))]
    assert not errors, errors
    print(f"first answer {first_s:.1f} s; a switch {switch['ms']:.0f} ms; "
          f"order 4 {order4['ms']:.0f} ms; {len(requests)} requests")


# -- the figures docs/performance.md quotes --------------------------------------------------


def test_the_live_figures_are_those_of_live_csv():
    from tests.test_readme_figures import assert_all_agree, quoted, rows

    table: dict[str, list[float]] = {}
    for row in rows("live.csv"):
        table.setdefault(row["metric"], []).append(float(row["value"]))
    one = {metric: values[0] for metric, values in table.items()}
    checks = [
        (r"load average was ([\d.]+) before and ([\d.]+) after, on (\d) cores",
         [one["load_before"], one["load_after"], one["cores"]]),
        (r"the site is ([\d.]+) MB \(([\d.]+) MB gzip-packed\)",
         [one["site_bytes"] / 1e6, one["site_packed_bytes"] / 1e6]),
        (r"\*\*Build\*\*: ([\d.]+) s cold .*?, ([\d.]+) s warm",
         [one["build_cold_s"], one["build_warm_s"]]),
        (r"after opening the page: ([\d.]+), ([\d.]+), ([\d.]+) s in three openings "
         r"\(Pyodide's start ([\d.]+), ([\d.]+), ([\d.]+) s, sudosat's import ([\d.]+), "
         r"([\d.]+), ([\d.]+) s",
         [ms / 1000 for metric in ("first_answer_ms", "start_pyodide_ms", "start_sudosat_ms")
          for ms in table[metric]]),
        (r"(\d+) switches\): (\d+) ms median, (\d+) ms at most",
         [len(table["switch_ms"]), statistics.median(table["switch_ms"]),
          max(table["switch_ms"])]),
        (r"\*\*Order 4\*\*: choosing it answered in ([\d.]+) s", [one["order4_ms"] / 1000]),
        (r"9×9 example (\d+) ms in the browser against (\d+) ms in CPython 3.11 \(([\d.]+)×\); "
         r"the first 16×16 board of `data/instances.txt` (\d+) ms against (\d+) ms \(([\d.]+)×\)",
         [one["encode_solve_9x9_pyodide_ms"], one["encode_solve_9x9_cpython_ms"],
          one["encode_solve_9x9_pyodide_ms"] / one["encode_solve_9x9_cpython_ms"],
          one["encode_solve_16x16_pyodide_ms"], one["encode_solve_16x16_cpython_ms"],
          one["encode_solve_16x16_pyodide_ms"] / one["encode_solve_16x16_cpython_ms"]]),
        (r"is ([\d.]+) MB before its kernel's .*?\(([\d.]+) MB with its source maps\), and its "
         r"notebook view alone took ([\d.]+), ([\d.]+), ([\d.]+) s",
         [one["jupyterlite_bytes_without_maps"] / 1e6, one["jupyterlite_bytes"] / 1e6,
          *(ms / 1000 for ms in table["jupyterlite_view_ms"])]),
    ]
    for pattern, measured in checks:
        stated = quoted(pattern)
        assert_all_agree(stated, measured, [pattern[:30]] * len(stated))
    assert one["site_bytes"] <= 40e6
