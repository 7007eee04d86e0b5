"""Every figure reads cleanly: no two texts on top of each other, no legend over the data.

Each plotting function of the report draws with representative data (the
committed experiment's results, and small tables shaped like the studies'),
and the renderer says where every text landed: tick labels, axis labels,
titles, the suptitle, annotations and each legend (as one box). No two of
those boxes may overlap (a one-pixel margin is allowed for anti-aliasing), and
no data point may sit under a legend or a note. Log axes whose data span less than a
decade are drawn too: matplotlib's default labels them "3×10¹4×10¹".
"""

from __future__ import annotations

import itertools
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest
from matplotlib.transforms import Bbox

from sudosat.report import (
    heuristics_page,
    plots,
    reduction,
    results_page,
    scaling_page,
    solvers_page,
    study_plots,
)
from sudosat.report.io import load_results
from sudosat.studies import grid as gridstudy
from tests.test_gridstudy import BUDGET, known_table  # noqa: F401 (a fixture used below)

matplotlib.use("Agg")
ROOT = Path(__file__).resolve().parent.parent


def rendered(figure):
    """Draw `figure` as the report saves it (Agg, the project's style); return the renderer."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    if not isinstance(figure.canvas, FigureCanvasAgg):
        FigureCanvasAgg(figure)
    with matplotlib.rc_context(plots.STYLE):
        figure.canvas.draw()
    return figure.canvas.get_renderer()


def text_boxes(figure) -> list[tuple[str, Bbox]]:
    """(what, where) of every visible text of `figure`, each legend as one box."""
    renderer = rendered(figure)
    found = []

    def add(name, artist):
        text = artist.get_text().strip() if artist is not None else ""
        if text and artist.get_visible():
            found.append((f"{name} {text!r}", artist.get_window_extent(renderer)))

    for k, ax in enumerate(figure.axes):
        for axis in (ax.xaxis, ax.yaxis):
            for tick in axis._update_ticks():  # the ticks drawn: those inside the view
                add(f"axes {k} tick", tick.label1)
                add(f"axes {k} tick", tick.label2)
            add(f"axes {k} axis label", axis.label)
        for title in (ax.title, ax._left_title, ax._right_title):
            add(f"axes {k} title", title)
        for text in ax.texts:
            add(f"axes {k} text", text)
        legend = ax.get_legend()
        if legend is not None and legend.get_visible():
            found.append((f"axes {k} legend", legend.get_window_extent(renderer)))
    for legend in figure.legends:
        found.append(("figure legend", legend.get_window_extent(renderer)))
    add("suptitle", figure._suptitle)
    return found


def overlapping(figure) -> list[str]:
    """Pairs of texts of `figure` whose boxes overlap by more than a pixel."""
    boxes = [(name, box.padded(-1.0)) for name, box in text_boxes(figure)]
    return [
        f"{a} overlaps {b}"
        for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2)
        if box_a.width > 0 and box_b.width > 0 and box_a.overlaps(box_b)
    ]


def covered_points(figure) -> list[str]:
    """Data points drawn under a legend or a note (a text) of `figure`."""
    renderer = rendered(figure)
    legends = [ax.get_legend() for ax in figure.axes] + list(figure.legends)
    boxes = [legend.get_window_extent(renderer) for legend in legends if legend is not None]
    boxes += [text.get_window_extent(renderer) for ax in figure.axes for text in ax.texts]
    found = []
    for k, ax in enumerate(figure.axes):
        marked = [line for line in ax.lines if line.get_marker() not in (None, "None", "")]
        points = [line.get_xydata() for line in marked]
        points += [c.get_offsets() for c in ax.collections if len(c.get_offsets())]
        for xy in points:
            xy = np.asarray(xy, dtype=float)
            xy = xy[np.isfinite(xy).all(axis=1)] if len(xy) else xy
            if not len(xy):
                continue
            shown = ax.transData.transform(xy)
            inside_axes = ax.bbox.padded(1.0)
            for x, y in shown:
                if inside_axes.contains(x, y) and any(b.contains(x, y) for b in boxes):
                    found.append(f"axes {k}: a point at ({x:.0f}, {y:.0f}) px under a text")
    return found


def assert_clean(figure) -> None:
    assert overlapping(figure) == []
    assert covered_points(figure) == []
    matplotlib.pyplot.close(figure)


# -- the checks find what they are for -----------------------------------------------


def test_the_checks_find_colliding_labels_and_a_covering_legend():
    figure, ax = plots.new_figure(4.0, 3.0)
    ax.plot(np.linspace(30, 45, 30), np.linspace(30, 45, 30), marker="o", label="data")
    ax.set_xscale("log")
    ax.text(0.5, 0.5, "one", transform=ax.transAxes)
    ax.text(0.5, 0.5, "two", transform=ax.transAxes)
    ax.legend(loc="center", markerscale=4)
    found = overlapping(figure)
    assert any("'one'" in pair and "'two'" in pair for pair in found)
    assert covered_points(figure)
    matplotlib.pyplot.close(figure)


def test_tidy_log_ticks_label_a_narrow_span_with_plain_numbers():
    """Under a decade, matplotlib's labels collide ("3×10¹4×10¹"); tidied, they do not."""
    figure, ax = plots.new_figure(3.0, 2.5)
    ax.plot([25, 95], [25, 95])
    ax.set_xscale("log")
    ax.set_yscale("log")
    assert any("times10" in pair for pair in overlapping(figure))  # matplotlib's default
    plots.tidy_log_ticks(ax)
    assert overlapping(figure) == []
    xs = [t.get_text() for t in ax.xaxis.get_ticklabels() if t.get_text()]
    assert xs and not any("times" in x for x in xs), xs  # plain numbers: 40, 60, ...
    matplotlib.pyplot.close(figure)


# -- every figure of the report --------------------------------------------------------


@pytest.fixture(scope="module")
def results() -> pd.DataFrame:
    return load_results(ROOT / "reports" / "data" / "results.csv")


def narrow(results: pd.DataFrame) -> pd.DataFrame:
    """The results with every time between 30 and 45 ms: log axes under one decade."""
    out = results.copy()
    out["total_wall_ms"] = 30 + (out["total_wall_ms"].rank(pct=True) * 15)
    return out


@pytest.mark.parametrize("span", ["measured", "under a decade"])
@pytest.mark.parametrize("plot", ["per_instance", "scatter", "scatter search", "scatter overhead",
                                  "cactus"])
def test_results_figures(results, plot, span):
    """No text on another (an axis label over a title, the overhead scatter's once)."""
    data = results if span == "measured" else narrow(results)
    solvers = list(dict.fromkeys(data["solver"]))
    figure = {
        "per_instance": lambda: results_page.plot_per_instance(data, 10_000),
        "scatter": lambda: results_page.plot_scatter(data, solvers[0], solvers[-1], 10_000),
        "scatter search": lambda: results_page.plot_scatter(data, solvers[0], solvers[-1],
                                                            10_000, "search_cpu_ms"),
        "scatter overhead": lambda: results_page.plot_scatter(data, "cdcl", "pysat:minisat22",
                                                              10_000, "overhead_cpu_ms"),
        "cactus": lambda: results_page.plot_cactus(data, 10_000),
    }[plot]()
    assert_clean(figure)


def study_table() -> pd.DataFrame:
    rows = []
    for solver, encoding, order, alpha, board in itertools.product(
        ("cdcl", "pysat:minisat22"), ("course", "optimised"), (2, 3, 4), (0.0, 0.5), (0, 1)
    ):
        rows.append({
            "solver": solver, "encoding": encoding, "order": order, "alpha": alpha,
            "board": board, "status": "SAT", "clauses": 100 * 4**order,
            "variables": 10 * 4**order, "total_cpu_ms": 30.0 + 3 * order + board,
            "solve_cpu_ms": 5.0 * order**3,
        })  # fmt: skip
    return pd.DataFrame(rows)


@pytest.mark.parametrize("x", ["order", "alpha"])
def test_study_figures(x):
    table = study_table()
    assert_clean(study_plots.plot_time(table, x))
    assert_clean(study_plots.plot_time(table, x, time="solve_cpu_ms"))
    assert_clean(study_plots.plot_size(table, x))


@pytest.mark.parametrize("measure", ["median_cpu_ms", "median_conflicts"])
def test_scaling_cells_figure(known_table, measure):  # noqa: F811 (the imported fixture)
    summary = gridstudy.summarise(known_table)
    figure = scaling_page.plot_grid_cells(summary, "s", BUDGET, measure)
    title = figure._suptitle.get_text()
    labels = [t.get_text() for t in figure.legends[0].get_texts()]
    # the lower bounds are named in the legend, not written on the data
    assert any(label.startswith("half or more undecided") for label in labels)
    assert not figure.axes[0].texts
    if measure == "median_cpu_ms":  # no median time is 0: the title promises no 0
        assert "zero" not in title
        assert not any(label.startswith("budget") for label in labels)  # no budget in ms
    else:
        assert "zero is drawn at 0" in title
        assert f"budget: {BUDGET:,} conflicts" in labels
    assert_clean(figure)


def test_scaling_growth_figure(known_table):  # noqa: F811 (the imported fixture)
    summary = gridstudy.summarise(known_table)
    fits = gridstudy.fit_growth(summary, "s", "median_cpu_ms") + gridstudy.fit_growth(
        summary, "s", "clauses"
    )
    assert_clean(scaling_page.plot_grid_growth(summary, fits, "s"))


def test_reduction_figures():
    assert_clean(reduction.plot_family_counts(reduction.family_table(range(1, 7), 3)))
    boards = reduction.order3_sample(str(ROOT / "data" / "instances.txt"), 4)
    table = reduction.encodings_table(boards, ["course", "minimal", "extended", "optimised"])
    assert_clean(reduction.plot_encodings(table))


def test_solvers_figure():
    costs = solvers_page.component_costs((1, 2, 3)).table
    assert_clean(solvers_page.plot_component_costs(costs))


# -- printed, every text of the report's own figures is at least 8 points -----------------


def with_cpu(results: pd.DataFrame) -> pd.DataFrame:
    """The results with CPU times made up from the wall-clock ones (a table older than them
    has none), for the figures drawn on CPU time."""
    total = results["total_wall_ms"] * 0.9
    return results.assign(total_cpu_ms=total, encode_cpu_ms=0.05 * total,
                          load_cpu_ms=0.3 * total, search_cpu_ms=0.4 * total,
                          decode_cpu_ms=0.02 * total)


def test_time_split_figure(results):
    assert_clean(results_page.plot_time_split(with_cpu(results)))


def own_figures(results: pd.DataFrame) -> dict:
    """The figures of the reduction, solvers, experiment and results pages, drawn from data."""
    solvers = list(dict.fromkeys(results["solver"]))
    many = pd.concat([results.assign(line=results["line"] + 100 * k) for k in range(4)])
    costs = pd.DataFrame(
        {"literals": [2, 840, 24_098], "encoder CPU ms": [0.07, 0.3, 2.8],
         "solver CPU ms": [0.1, 0.4, 5.4]}, index=pd.Index([1, 2, 3], name="order"))
    boards = reduction.order3_sample(str(ROOT / "data" / "instances.txt"), 4)
    encodings = reduction.encodings_table(boards, ["course", "minimal", "extended", "optimised"])
    return {
        "per instance": lambda: results_page.plot_per_instance(results, 10_000),
        "per instance, 228 lines": lambda: results_page.plot_per_instance(many, 10_000),
        "scatter": lambda: results_page.plot_scatter(results, solvers[0], solvers[-1], 10_000),
        "cactus": lambda: results_page.plot_cactus(results, 10_000),
        "time split": lambda: results_page.plot_time_split(with_cpu(results)),
        "families": lambda: reduction.plot_family_counts(reduction.family_table(range(1, 7), 3)),
        "encodings": lambda: reduction.plot_encodings(encodings),
        "components": lambda: solvers_page.plot_component_costs(costs),
    }


def test_every_text_of_the_pages_figures_prints_at_eight_points_or_more(results):
    assert texts_under_eight_points(own_figures(results)) == {}


def test_a_figure_wider_than_the_page_prints_its_text_smaller():
    """The control: the per-instance figure was once 12 inches wide, its text 5 points printed."""
    figure, ax = plots.new_figure(12.1, 4.2)
    ax.set_xticks([1, 2], ["1", "2"], fontsize=8)
    assert plots.smallest_printed_text_pt(figure) == pytest.approx(8 * plots.PRINTED_WIDTH_IN
                                                                   / 12.1)
    matplotlib.pyplot.close(figure)


def heuristics_results() -> pd.DataFrame:
    rng = np.random.default_rng(3)
    rows = []
    for puzzle in range(40):
        grade = ("easy", "unique", "hard")[puzzle % 3]
        for solver in ("moms", "dlis", "dp"):
            decisions = int(rng.integers(0, 3000))
            stopped = solver == "dlis" and puzzle % 7 == 0  # by the budget
            rows.append({
                "puzzle": puzzle, "grade": grade, "solver": solver, "decisions": decisions,
                "status": "UNKNOWN" if stopped else "SAT",
                "stop": "propagations" if stopped else "answered",
                "solve_cpu_ms": 2000.0 if stopped else float(rng.uniform(1, 1500)),
            })  # fmt: skip
    return pd.DataFrame(rows)


def test_heuristics_figures():
    results = heuristics_results()
    assert_clean(heuristics_page.plot_pairs(results))
    assert_clean(heuristics_page.plot_distributions(results))


def study_figures(known) -> dict:
    """The figures of the scaling and heuristics pages, drawn from data shaped like theirs."""
    summary = gridstudy.summarise(known)
    fits = gridstudy.fit_growth(summary, "s", "median_cpu_ms") + gridstudy.fit_growth(
        summary, "s", "clauses")
    results = heuristics_results()
    return {
        "scaling cells (time)": lambda: scaling_page.plot_grid_cells(summary, "s", BUDGET),
        "scaling cells (conflicts)": lambda: scaling_page.plot_grid_cells(
            summary, "s", BUDGET, "median_conflicts"),
        "scaling growth": lambda: scaling_page.plot_grid_growth(summary, fits, "s"),
        "heuristics pairs": lambda: heuristics_page.plot_pairs(results),
        "heuristics distributions": lambda: heuristics_page.plot_distributions(results),
    }


def test_every_text_of_the_studies_figures_prints_at_eight_points_or_more(known_table):  # noqa: F811
    assert texts_under_eight_points(study_figures(known_table)) == {}


def texts_under_eight_points(figures: dict) -> dict[str, float]:
    """Figure name -> its smallest printed text in points, for those under 8 pt at page width."""
    small = {}
    for name, draw in figures.items():
        figure = draw()
        assert figure.get_figwidth() <= plots.PAGE_WIDTH_IN, name
        size = plots.smallest_printed_text_pt(figure)
        if size < plots.SMALLEST_PRINTED_PT:
            small[name] = round(size, 1)
        matplotlib.pyplot.close(figure)
    return small
