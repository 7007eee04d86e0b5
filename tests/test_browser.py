"""Open the rendered report in headless Chromium: every page loads with its images.

A small report is built in a temporary folder (the experiment and the report
notebooks on three boards), so the test does not depend on an earlier
``make report``. Each page is copied with a probe script that counts the
images the browser actually decoded, and Chromium's ``--dump-dom`` reads the
counts back. A screenshot of each page is kept beside the pages as evidence.
Without Chromium the test skips and says why.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sudosat import reportbuild
from sudosat.solvers.base import Deadline
from sudosat.solvers.external import ProcessOutput, run_program

ROOT = Path(__file__).resolve().parent.parent
PROBE = """<script>
window.addEventListener("load", () => {
  const images = Array.from(document.images);
  const broken = images.filter((i) => !(i.complete && i.naturalWidth > 0)).length;
  document.body.setAttribute("data-probe", images.length + "/" + broken);
});
</script>"""

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def chromium() -> str:
    found = reportbuild.find_chromium()
    if found is None:
        pytest.skip("headless Chromium is not installed (Debian: apt-get install chromium)")
    return found


@pytest.fixture(scope="module")
def small_report(tmp_path_factory, chromium) -> Path:
    base = tmp_path_factory.mktemp("browser")
    instances = base / "tiny.txt"
    instances.write_text("2 1000002000300004\n2 0100000230000000\n2 1100000000000000\n")
    settings = reportbuild.Settings(
        root=ROOT,
        instances=str(instances),
        time_limit_ms=5000,
        reports=base / "reports",
        figures=base / "figures",
        build=base / "executed",
        jobs=1,
        quick=True,
        pdf=True,
        overrides={"experiment": {"solvers": "cdcl,pysat:minisat22"}},
    )
    assert reportbuild.build(settings, only=("experiment", "report")) == 0
    return base / "reports"


def _browser(chromium: str, profile: Path, *args: str) -> ProcessOutput:
    """Run Chromium in its own process group, killed whole after a minute at most."""
    flags = [flag for flag in reportbuild.PDF_FLAGS if flag != "--no-pdf-header-footer"]
    command = [chromium, *flags, f"--user-data-dir={profile}", "--hide-scrollbars", *args]
    profile.mkdir(parents=True, exist_ok=True)
    done = run_program(command, profile, Deadline(60_000), "chromium")
    assert not done.timed_out, "Chromium did not finish within a minute"
    return done


def _probe(chromium: str, page: Path, tmp_path: Path) -> tuple[int, int]:
    probed = page.with_name(f"probe-{page.name}")
    probed.write_text(page.read_text().replace("</body>", PROBE + "</body>", 1))
    done = _browser(chromium, tmp_path / "profile", "--dump-dom", probed.as_uri())
    found = re.search(r'data-probe="(\d+)/(\d+)"', done.stdout)
    assert found, f"the page did not finish loading: {done.stderr[-500:]}"
    return int(found.group(1)), int(found.group(2))


@pytest.mark.parametrize("name, least", [("index", 2), ("report", 4), ("experiment", 0)])
def test_page_loads_with_every_image_in_chromium(chromium, small_report, tmp_path, name, least):
    page = small_report / f"{name}.html"
    images, broken = _probe(chromium, page, tmp_path)
    assert images >= least and broken == 0, f"{name}: {images} images, {broken} broken"
    shot = small_report / f"screenshot-{name}.png"
    _browser(
        chromium,
        tmp_path / "profile-shot",
        "--window-size=1200,1600",
        f"--screenshot={shot}",
        page.as_uri(),
    )
    assert shot.stat().st_size > 10_000  # a rendered page, not a blank one


def test_pdf_is_printed_for_each_page(small_report):
    for name in ("experiment", "report"):
        pdf = small_report / f"{name}.pdf"
        assert pdf.read_bytes()[:5] == b"%PDF-"
    assert 'href="report.pdf"' in (small_report / "index.html").read_text()
