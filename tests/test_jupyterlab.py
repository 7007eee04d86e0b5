"""The encoding workbench in a real JupyterLab, driven through Debian's Chromium by Playwright.

JupyterLab runs from the venv on a loopback port with a throw-away token, over
a temporary copy of ``notebooks/explore.ipynb`` (the browser may autosave; the
repository's notebook stays untouched). The test runs all cells, checks that
the live workbench shows the course example with the course encoding, flips
switches, edits a cell, types a line key by key (solved once: typing is
debounced), and reads what the page shows.
Screenshots go to the test's temporary folder, printed at the end.

Without Chromium or Python Playwright the test skips and says why; it never
downloads a browser (no ``playwright install``).
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest

from sudosat.sudoku.board import COURSE_EXAMPLE

ROOT = Path(__file__).resolve().parent.parent
EMPTY_3 = "3 " + "0" * 81
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
]
# Records whether the status line ever says "solving…" (it may last only milliseconds).
SAW_SOLVING = """() => {
  window.sawSolving = false;
  new MutationObserver(() => {
    const status = document.querySelector('.sudosat-status');
    if (status && status.textContent.includes('solving')) window.sawSolving = true;
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""
# Counts how often the status line turns to "solving…" while the line field holds `line`:
# a late solve of the line before it (a busy machine may space the events of one edit by
# more than the debounce) is not a solve of the line being typed.
COUNT_SOLVES = """(line) => {
  window.solves = 0;
  let was = false;
  const field = () => [...document.querySelectorAll('.widget-text')]
    .find(w => (w.querySelector('label') || {}).textContent === 'line');
  new MutationObserver(() => {
    const status = document.querySelector('.sudosat-status');
    const now = !!status && status.textContent.includes('solving');
    const input = field() && field().querySelector('input');
    if (now && !was && input && input.value === line) window.solves += 1;
    was = now;
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""
WAIT_MS = 30_000  # the longest any single step may take (kernel start, run all)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def chromium() -> str:
    found = shutil.which("chromium")
    if found is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    pytest.importorskip("playwright.sync_api", reason="Python Playwright is not installed")
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def lab(chromium, tmp_path_factory) -> Iterator[tuple[str, Path]]:
    """A JupyterLab server over a copy of explore.ipynb; yields (notebook URL, folder)."""
    jupyter_lab = Path(sys.executable).with_name("jupyter-lab")
    if not jupyter_lab.is_file():
        pytest.skip(f"jupyter-lab is not installed beside {sys.executable}")
    folder = tmp_path_factory.mktemp("lab")
    notebook = nbformat.read(ROOT / "notebooks" / "explore.ipynb", as_version=4)
    for cell in notebook.cells:  # the kernel starts in the copy's folder, outside the project
        if "parameters" in cell.metadata.get("tags", []):
            cell.source += f"\ninstances = {str(ROOT / 'data' / 'instances.txt')!r}"
    nbformat.write(notebook, folder / "explore.ipynb")
    _quiet_settings(folder / "settings")
    token, port = secrets.token_hex(16), _free_port()
    env = dict(
        os.environ,
        PYTHONPATH=str(ROOT),
        JUPYTER_CONFIG_DIR=str(folder / "config"),
        JUPYTER_RUNTIME_DIR=str(folder / "runtime"),
        JUPYTER_DATA_DIR=str(folder / "data"),
        JUPYTERLAB_SETTINGS_DIR=str(folder / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(folder / "workspaces"),
    )
    command = [
        str(jupyter_lab),
        "--no-browser",
        "--allow-root",
        f"--IdentityProvider.token={token}",
        f"--port={port}",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.root_dir={folder}",
        "--LabApp.expose_app_in_browser=True",
    ]
    log = (folder / "lab.log").open("w")
    server = subprocess.Popen(
        command, cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    try:
        _wait_for_server(f"http://127.0.0.1:{port}/api/status?token={token}", server, folder)
        yield f"http://127.0.0.1:{port}/lab/tree/explore.ipynb?token={token}", folder
    finally:
        os.killpg(server.pid, signal.SIGTERM)  # the server and its kernel
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        log.close()


def _quiet_settings(folder: Path) -> None:
    """Start the notebook's own kernel without asking, and fetch no news (offline)."""
    for plugin, setting in (
        ("notebook-extension/tracker", '{"autoStartDefaultKernel": true}'),
        ("apputils-extension/notification", '{"fetchNews": "false"}'),
    ):
        path = folder / "@jupyterlab" / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(setting)


def _wait_for_server(url: str, server: subprocess.Popen, folder: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"jupyter-lab exited: {(folder / 'lab.log').read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    pytest.fail("jupyter-lab did not answer within 30 s")


def _open_notebook(page, url: str) -> None:
    """Load the notebook at `url` and wait for its idle kernel, the notebook focused."""
    page.goto(url)
    page.wait_for_function("window.jupyterapp && document.querySelector('.jp-Notebook') !== null")
    page.get_by_text("Python 3 (ipykernel) | Idle").wait_for()
    page.locator(".jp-Notebook").first.click()


def _checkbox(page, label: str):
    return page.locator(".widget-checkbox", has_text=label).locator("input[type=checkbox]")


def _select(page, label: str):
    return page.locator(".widget-dropdown", has=page.locator(f"label:text-is('{label}')")).locator(
        "select"
    )


def test_workbench_in_jupyterlab(chromium, lab, tmp_path):
    from playwright.sync_api import expect, sync_playwright

    url, _ = lab
    started = time.monotonic()
    shots = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=FLAGS, headless=True)
        page = browser.new_page(viewport={"width": 1500, "height": 2400})
        page.set_default_timeout(WAIT_MS)
        expect.set_options(timeout=WAIT_MS)
        try:
            _open_notebook(page, url)
            print("page loaded", time.monotonic() - started, flush=True)
            page.get_by_role("menuitem", name="Run", exact=True).click()
            page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
            print("run all sent", time.monotonic() - started, flush=True)

            # After Run All: the live workbench on the course example, course encoding.
            status = page.locator(".sudosat-status")
            expect(status).to_contain_text("cdcl: SAT")
            line = page.locator(".widget-text", has=page.locator("label:text-is('line')")).locator(
                "input"
            )
            expect(line).to_have_value(COURSE_EXAMPLE)
            expect(_select(page, "encoding")).to_have_value("course")
            live = page.locator(".jp-OutputArea-output", has=page.locator(".sudosat-status"))
            expect(live.locator(".sudosat-counts-box")).to_contain_text("Formula: course")
            expect(live.locator("[data-total-clauses]")).to_have_attribute(
                "data-total-clauses", "11772"
            )
            expect(live.locator(".sudosat-valid")).to_be_visible()
            answer_rows = live.locator(".sudosat-valid ~ .sudosat-wb-scroll table.sudosat-board tr")
            expect(answer_rows.first).to_have_text("816435279")  # the course's solution
            expect(answer_rows.last).to_have_text("382659714")
            expect(page.get_by_text("2,916 fewer than").first).to_be_attached()  # the snapshot
            shots.append(_shot(page, tmp_path, "1-run-all"))

            # Uniqueness off: 2,916 clauses fewer, still a valid board, still correct.
            _checkbox(page, "uniqueness").uncheck()
            expect(live.locator("[data-total-clauses]")).to_have_attribute(
                "data-total-clauses", "8856"
            )
            expect(live.locator(".sudosat-delta")).to_contain_text("2,916 fewer")
            expect(live.locator(".sudosat-valid")).to_be_visible()
            expect(live.locator(".sudosat-verdict")).to_contain_text(
                "uniqueness follows from completeness and validity"
            )
            expect(_select(page, "encoding")).to_have_value("minimal")
            shots.append(_shot(page, tmp_path, "2-no-uniqueness"))
            _checkbox(page, "uniqueness").check()

            # Product and sequential at-most-one: auxiliary variables, fewer clauses, solved.
            for amo, clauses in (("product", "7,884"), ("seq", "7,560")):
                live.get_by_role("button", name=amo, exact=True).click()
                expect(live.locator(".sudosat-counts-box")).to_contain_text(
                    f"Formula: course-{amo}"
                )
                expect(live.locator(".sudosat-counts-box")).to_contain_text(clauses)
                expect(live.locator(".sudosat-counts-box")).not_to_contain_text("+ 0 auxiliary")
                expect(live.locator(".sudosat-valid")).to_be_visible()
            shots.append(_shot(page, tmp_path, "3-seq"))
            live.get_by_role("button", name="pairwise", exact=True).click()
            expect(live.locator(".sudosat-counts-box")).to_contain_text("Formula: course")

            # Edit a cell: the line follows, and the board is solved again.
            first_cell = live.locator(".sudosat-cell input").first
            expect(first_cell).to_have_attribute("placeholder", "8")
            first_cell.fill("8")
            expect(line).to_have_value("3 8" + COURSE_EXAMPLE[3:])
            expect(live.locator("[data-total-clauses]")).to_have_attribute(
                "data-total-clauses", "11773"
            )
            expect(live.locator(".sudosat-valid")).to_be_visible()

            # Typing is debounced: a line typed key by key is solved once, and the
            # order (and the grid) follow it.
            page.evaluate(COUNT_SOLVES, "2 1000002000300004")
            line.fill("2 ")
            line.press_sequentially("1000002000300004", delay=40)
            expect(live.locator(".sudosat-cell input")).to_have_count(16)
            expect(status).to_contain_text("cdcl: SAT")
            expect(live.locator(".sudosat-valid")).to_be_visible()
            page.wait_for_timeout(1000)  # room for a late, unwanted second solve
            assert page.evaluate("window.solves") == 1

            # An empty board without box validity: the solver's board breaks boxes.
            page.evaluate(SAW_SOLVING)
            line.fill(EMPTY_3)
            expect(live.locator(".sudosat-counts-box")).to_contain_text("11,745")
            _checkbox(page, "validity: boxes").uncheck()
            expect(live.locator(".sudosat-verdict")).to_contain_text("not a correct encoding")
            expect(live.locator(".sudosat-invalid")).to_be_visible()
            broken = live.locator("td.broken[data-units*='box 1']")
            expect(broken.first).to_be_visible()
            expect(live.locator(".sudosat-invalid ~ ul")).to_contain_text("box 1 holds")
            shots.append(_shot(page, tmp_path, "4-no-box-validity"))
            assert page.evaluate("window.sawSolving"), "the page never said 'solving…'"
        finally:
            browser.close()
    elapsed = time.monotonic() - started
    # The session's length is reported, not bounded: a busy machine stretches it, and
    # pytest-timeout already stops a session that hangs.
    print(f"browser session {elapsed:.1f} s; screenshots: {', '.join(map(str, shots))}")


def _shot(page, folder: Path, name: str) -> Path:
    path = folder / f"workbench-{name}.png"
    page.locator(".sudosat-status").scroll_into_view_if_needed()
    page.screenshot(path=str(path), full_page=False)
    return path


# For every grid cell: scroll it into view (as a reader would, with the notebook's or the
# board's own scroll bar) and ask the browser which element is drawn at its centre. A
# cell clipped by an ancestor without a scroll bar is never drawn there. scrollIntoView
# also scrolls what no reader would: an ancestor whose overflow is hidden, or one of the
# small boxes inside the workbench (ipywidgets boxes scroll, so a squeezed box of the
# board shows one column and hides the rest behind a scroll bar of its own). A cell
# reached only that way counts as hidden: inside the workbench's output, only the board's
# own scroll box (.sudosat-grid-scroll) may scroll.
HIDDEN_CELLS = """(root) => {
  const shut = (value) => value === 'hidden' || value === 'clip';
  const allowed = (el, style, axis) =>
    root.contains(el) && el !== root
      ? el.classList.contains('sudosat-grid-scroll') : !shut(style[axis]);
  const cells = [...root.querySelectorAll('.sudosat-cell input')];
  const hidden = [];
  const why = [];
  const name = (el) => el ? `${el.tagName}.${[...el.classList].join('.')}` : 'nothing';
  cells.forEach((cell, index) => {
    cell.scrollIntoView({block: 'center', inline: 'center'});
    let forced = false;
    for (let el = cell.parentElement; el; el = el.parentElement) {
      const style = getComputedStyle(el);
      if ((el.scrollLeft && !allowed(el, style, 'overflowX')) ||
          (el.scrollTop && !allowed(el, style, 'overflowY'))) {
        forced = name(el);
        el.scrollLeft = 0;
        el.scrollTop = 0;
      }
    }
    const box = cell.getBoundingClientRect();
    const seen = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    const drawn = seen && (seen === cell || cell.contains(seen));
    if (forced || box.width < 4 || box.height < 4 || !drawn) {
      hidden.push(index);
      if (why.length < 3) why.push(forced ? `scrolled ${forced}` : `covered by ${name(seen)}`);
    }
  });
  return {cells: cells.length, hidden: hidden.slice(0, 20), count: hidden.length, why};
}"""


def test_every_cell_of_orders_5_and_6_can_be_seen(chromium, lab, tmp_path):
    """Every cell of the largest boards is visible, or reachable with a scroll bar.

    The window is 1,000 px wide with JupyterLab's file browser open, narrower
    than the 36 columns of an order-6 board: the board must scroll in its own
    box, not squeeze its boxes (which then each scrolled a column at a time).
    The order change's duration is printed, not bounded: a busy machine
    stretches it; ``tests/test_widgets.py`` bounds the work it does.
    """
    from playwright.sync_api import expect, sync_playwright

    url, _ = lab
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=FLAGS, headless=True)
        page = browser.new_page(viewport={"width": 1000, "height": 1200})
        page.set_default_timeout(WAIT_MS * 2)
        expect.set_options(timeout=WAIT_MS * 2)
        try:
            _open_notebook(page, url)
            page.get_by_role("menuitem", name="Run", exact=True).click()
            page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
            status = page.locator(".sudosat-status")
            expect(status).to_contain_text("cdcl: SAT")
            live = page.locator(".jp-OutputArea-output", has=page.locator(".sudosat-status"))
            line = live.locator(".widget-text", has=page.locator("label:text-is('line')"))
            for order in (5, 6):
                started = time.monotonic()
                _select(page, "order").select_option(str(order))
                expect(line.locator("input")).to_have_value(re.compile(rf"^{order} "))
                expect(live.locator(".sudosat-cell input")).to_have_count(order**4)
                expect(status).to_contain_text("cdcl: SAT")
                print(f"order {order}: solved and shown {time.monotonic() - started:.1f} s")
                found = live.evaluate(HIDDEN_CELLS)
                _shot(page, tmp_path, f"order-{order}")
                assert found["cells"] == order**4
                assert found["count"] == 0, f"order {order}: hidden cells {found}"
        finally:
            browser.close()
