"""Measure the live workbench: ``python -m live.measure --csv FILE`` (after ``make live``).

Builds the site twice into a scratch folder (cold: an empty cache, npm's own
cache too, so Pyodide is downloaded; warm: the same cache again), then serves
the built site on a loopback port and opens it in Debian's Chromium
(Playwright through ``executable_path``, a fresh profile each time, so every
opening is a first visit). It prints, and writes to the CSV (``metric``,
``run``, ``value``), with the machine's load average before and after:

* the build's time, cold and warm;
* the site's size, on disk and gzip-packed;
* the time to the first answer after opening the page (``--repeat`` times),
  split into Pyodide's start and sudosat's import;
* the time per switch at order 3 (``boxes`` off and on again, ``--switches`` times);
* the time to answer order 4 (a 16x16 board of the workbench's own, solved);
* with ``--jupyterlite SITE``, a JupyterLite build of ``explore.ipynb`` for
  comparison: its size, and the time until its notebook view is drawn;
* encode (afresh, no cache) + solve with cdcl of the course's 9x9 example and
  the first 16x16 board of ``data/instances.txt``, in the browser's Pyodide
  and in this CPython: the fastest of seven runs each (wall clock), the one
  least disturbed by whatever else the machine runs.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from live.build import OUT, ROOT, build, site_bytes
from live.serve import make_server
from sudosat.report.export import PDF_FLAGS

# the report's Chromium flags (a headless browser that calls no other host), less the printing ones
FLAGS = [flag for flag in PDF_FLAGS if not flag.startswith(("--no-pdf", "--disable-pdf", "--virt"))]
# encode + solve, timed the same way in Pyodide and in CPython; prints one JSON line
BENCH = """
import json, time
from sudosat.sat.solvers.registry import solve
from sudosat.sudoku.board import COURSE_EXAMPLE, Board
from sudosat.sudoku.encoding import encode

boards = {"9x9": Board.parse(COURSE_EXAMPLE), "16x16": Board.parse(LINE16)}
times = {}
for name, board in boards.items():
    runs = []
    for _ in range(7):
        began = time.perf_counter()
        assert solve(encode(board, "course", cache=False).cnf, "cdcl").is_sat
        runs.append((time.perf_counter() - began) * 1000.0)
    times[name] = min(runs)  # the fastest run: the least disturbed by other work
json.dumps(times)
"""
ORDER_4 = "data/instances.txt"  # its first board of order 4 is the 16x16 of BENCH


def bench_code() -> str:
    """:data:`BENCH` with the 16x16 board written in (the page has no data folder)."""
    lines = (ROOT / ORDER_4).read_text().splitlines()
    return BENCH.replace("LINE16", repr(next(line for line in lines if line.startswith("4 "))))


IN_PAGE = """async ([index, archive, code]) => {
  const { loadPyodide } = await import(index + "pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: index });
  const data = await (await fetch(archive)).arrayBuffer();
  const site = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
  pyodide.unpackArchive(data, "zip", { extractDir: site });
  return pyodide.runPython(code);
}"""


def packed_bytes(site: Path) -> int:
    """The site gzip-packed file by file (what a server that compresses sends)."""
    return sum(len(gzip.compress(p.read_bytes(), 6)) for p in site.rglob("*") if p.is_file())


def _browser(playwright: Any, profile: str) -> Any:
    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("measure: headless Chromium is not installed (apt-get install chromium)")
    return playwright.chromium.launch_persistent_context(
        profile, executable_path=chromium, args=FLAGS, headless=True,
        viewport={"width": 1200, "height": 1400},
    )


def _answered(page: Any, seen: int) -> dict[str, Any]:
    page.wait_for_function(f"Number(document.body.dataset.answers || 0) > {seen}", timeout=300_000)
    return page.evaluate("window.sudosatTimes.answers.at(-1)")


def measure_page(url: str, repeat: int, switches: int) -> dict[str, Any]:
    """First answers (fresh profiles), switches at order 3 and order 4, in Chromium."""
    from playwright.sync_api import sync_playwright

    first, ready, phases, switch_ms, order4 = [], [], [], [], {}
    with sync_playwright() as playwright:
        for attempt in range(repeat):
            with tempfile.TemporaryDirectory() as profile:
                context = _browser(playwright, profile)
                page = context.new_page()
                page.goto(url)
                _answered(page, 0)
                times = page.evaluate("window.sudosatTimes")
                first.append(times["firstAnswer"])
                ready.append(times["ready"])
                phases.append(times["start"])
                if attempt == repeat - 1:
                    for k in range(switches):
                        seen = int(page.evaluate("document.body.dataset.answers"))
                        box = "input[data-family=boxes]"
                        page.uncheck(box) if k % 2 == 0 else page.check(box)
                        switch_ms.append(_answered(page, seen)["ms"])
                    seen = int(page.evaluate("document.body.dataset.answers"))
                    page.select_option("#order", "4")
                    order4 = _answered(page, seen)
                    order4["status"] = page.inner_text("#status")
                context.close()
    return {
        "first_answer_ms": first,
        "python_ready_ms": ready,
        "start_phases_ms": phases,
        "switch_ms": switch_ms,
        "order4": order4,
    }


def measure_bench(url: str) -> dict[str, Any]:
    """Encode + solve in the browser's Pyodide (main thread of a page with no app)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        context = _browser(playwright, profile)
        page = context.new_page()
        page.goto(url + "config.json")
        text = page.evaluate(IN_PAGE, [url + "pyodide/", url + "sudosat.zip", bench_code()])
        context.close()
    printed = bench_code().replace("json.dumps(times)", "print(json.dumps(times))")
    done = subprocess.run(
        [sys.executable, "-c", printed],
        capture_output=True, text=True, check=True,
    )
    return {"pyodide_ms": json.loads(text), "cpython_ms": json.loads(done.stdout)}


def measure_jupyterlite(site: Path, repeat: int) -> dict[str, Any]:
    """A built JupyterLite site: its size, and when its notebook view shows explore's cells.

    The view is timed from opening ``notebooks/index.html?path=explore.ipynb``
    to its first cell drawn, before any kernel starts: a lower bound on the
    time to a first answer there.
    """
    from playwright.sync_api import sync_playwright

    files = [p for p in site.rglob("*") if p.is_file()]
    found: dict[str, Any] = {
        "jupyterlite_bytes": sum(p.stat().st_size for p in files),
        "jupyterlite_bytes_without_maps": sum(
            p.stat().st_size for p in files if p.suffix != ".map"
        ),
        "jupyterlite_view_ms": [],
    }
    server = make_server(0, reports=site, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/notebooks/index.html?path=explore.ipynb"
    with sync_playwright() as playwright:
        for _ in range(repeat):
            with tempfile.TemporaryDirectory() as profile:
                context = _browser(playwright, profile)
                page = context.new_page()
                began = time.perf_counter()
                page.goto(url)
                page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=300_000)
                found["jupyterlite_view_ms"].append((time.perf_counter() - began) * 1000.0)
                context.close()
    server.shutdown()
    return found


def measure_builds() -> dict[str, float]:
    """Seconds to build the site with an empty cache (a download), then with that cache."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        os.environ["NPM_CONFIG_CACHE"] = str(folder / "npm")  # npm's own cache, empty too
        try:
            began = time.perf_counter()
            build(folder / "cold", folder / "cache")
            cold = time.perf_counter() - began
            began = time.perf_counter()
            build(folder / "warm", folder / "cache")
            warm = time.perf_counter() - began
        finally:
            del os.environ["NPM_CONFIG_CACHE"]
    return {"build_cold_s": cold, "build_warm_s": warm}


def rows(found: dict[str, Any]) -> list[tuple[str, int, float]]:
    """The measurements as (metric, run, value) rows: times in ms or s as named, sizes in bytes."""
    table: list[tuple[str, int, float]] = []
    for metric in ("build_cold_s", "build_warm_s", "site_bytes", "site_packed_bytes"):
        table.append((metric, 1, found[metric]))
    for metric in ("first_answer_ms", "switch_ms"):
        table += [(metric, run, value) for run, value in enumerate(found[metric], start=1)]
    for run, phases in enumerate(found["start_phases_ms"], start=1):
        table += [(f"start_{name}_ms", run, value) for name, value in phases.items()]
    table.append(("order4_ms", 1, found["order4"]["ms"]))
    for where in ("pyodide", "cpython"):
        table += [(f"encode_solve_{size}_{where}_ms", 1, ms)
                  for size, ms in found[f"{where}_ms"].items()]
    if "jupyterlite_bytes" in found:
        table += [(metric, 1, found[metric])
                  for metric in ("jupyterlite_bytes", "jupyterlite_bytes_without_maps")]
        table += [("jupyterlite_view_ms", run, value)
                  for run, value in enumerate(found["jupyterlite_view_ms"], start=1)]
    load = found["load_average"]
    table += [("load_before", 1, load["before"][0]), ("load_after", 1, load["after"][0]),
              ("cores", 1, load["cores"])]
    return table


def main(argv: list[str] | None = None) -> int:
    """Print the measurements as JSON, then in words."""
    summary = (__doc__ or "").split("\n")[0]
    parser = argparse.ArgumentParser(prog="python -m live.measure", description=summary)
    parser.add_argument("--site", type=Path, default=OUT)
    parser.add_argument("--repeat", type=int, default=3, help="fresh openings of the page")
    parser.add_argument("--switches", type=int, default=10, help="switches at order 3")
    parser.add_argument("--csv", type=Path, help="write the rows here too")
    parser.add_argument("--jupyterlite", type=Path, metavar="SITE",
                        help="also measure this JupyterLite build of explore.ipynb")
    args = parser.parse_args(argv)
    if not (args.site / "index.html").is_file():
        print(f"measure: no site in {args.site}: run `make live` first", file=sys.stderr)
        return 1
    server = make_server(0, live=args.site, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/live/"
    load_before = os.getloadavg()
    began = time.perf_counter()
    found: dict[str, Any] = measure_builds()
    found.update(site_bytes=site_bytes(args.site), site_packed_bytes=packed_bytes(args.site))
    found.update(measure_page(url, args.repeat, args.switches))
    found.update(measure_bench(url))
    if args.jupyterlite is not None:
        found.update(measure_jupyterlite(args.jupyterlite, args.repeat))
    after = os.getloadavg()
    found["load_average"] = {"before": load_before, "after": after, "cores": os.cpu_count()}
    found["took_s"] = time.perf_counter() - began
    server.shutdown()
    print(json.dumps(found, indent=1))
    if args.csv is not None:
        with args.csv.open("w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["metric", "run", "value"])
            writer.writerows(
                (metric, run, value if isinstance(value, int) else f"{value:.6g}")
                for metric, run, value in rows(found)
            )
    py, cp = found["pyodide_ms"], found["cpython_ms"]
    print(
        f"build {found['build_cold_s']:.1f} s cold, {found['build_warm_s']:.1f} s warm; "
        f"site {found['site_bytes'] / 1e6:.1f} MB ({found['site_packed_bytes'] / 1e6:.1f} MB "
        f"packed); first answer {', '.join(f'{ms / 1000:.1f}' for ms in found['first_answer_ms'])}"
        f" s; a switch at order 3: median {statistics.median(found['switch_ms']):.0f} ms, max "
        f"{max(found['switch_ms']):.0f} ms; order 4 answered in {found['order4']['ms']:.0f} ms; "
        + "; ".join(f"{n}: {py[n]:.0f} ms in Pyodide, {cp[n]:.0f} ms in CPython "
                    f"({py[n] / cp[n]:.1f}x)" for n in py)
        + f"; load average {load_before[0]:.1f} before, {found['load_average']['after'][0]:.1f} "
        f"after, on {os.cpu_count()} cores"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
