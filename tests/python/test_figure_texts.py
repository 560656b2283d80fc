"""No text of any figure the analysis draws overlaps another: every kind of figure (the functions in analysis/ that
return a Figure — each named below, and a test fails when a new one is not), drawn with the Agg backend as the
commands draw it, footers included, and every pair of non-empty texts' boxes (titles, footers, tick and axis labels,
legend entries, annotations; label_boxes.py measures them with the renderer) kept apart by more than a pixel.

The figures: timelines of the hand-made traces in data/ and of real catalogue runs (one per lock family, and with the
long titles the report and the search report give a replayed run); sweep curves (one line per property, per variant,
per value of a second key) and heat maps (a few cells with intervals, a few dozen with rates, over 150 with none)
from small real sweeps of tests/data/gap-story.toml, whose pause misses runs, so that their footers carry warnings
and their marks are drawn; the side-by-side matrix over five stories and nine services with outlined cells; and the
efficiency curves. Everything runs in a few seconds: the sweeps are a few seeds per cell.
"""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import pytest

from analysis import compare_plot, efficiency_plot, style, sweep_plots, timeline
from analysis.sweep_data import load
from analysis.trace import load as load_trace
from label_boxes import overlapping_texts

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
GAP = ROOT / "tests" / "data" / "gap-story.toml"

# Every function of analysis/ that returns a Figure, and where this file draws it.
DRAWN = {"timeline.draw": "test_timelines_keep_their_texts_apart",
         "timeline.draw_with_tooltips": "test_timelines_keep_their_texts_apart (timeline.draw is its figure)",
         "sweep_plots.draw_curve": "test_sweep_plots_keep_their_texts_apart",
         "sweep_plots.draw_heatmap": "test_sweep_plots_keep_their_texts_apart",
         "compare_plot.draw": "test_the_compare_matrix_keeps_its_texts_apart",
         "efficiency_plot.draw": "test_the_efficiency_curves_keep_their_texts_apart"}


def figure_functions() -> set[str]:
    """module.function for every function in analysis/*.py whose return annotation names Figure."""
    found = set()
    for path in sorted((ROOT / "analysis").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.returns is not None and \
                    "Figure" in ast.unparse(node.returns):
                found.add(f"{path.stem}.{node.name}")
    return found


def test_every_kind_of_figure_is_drawn_here():
    assert figure_functions() == set(DRAWN)


def assert_apart(fig) -> None:
    assert overlapping_texts(fig) == []


# --- timelines ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["single_node_gc_pause", "redlock_clock_jump", "every_line_type",
                                  "redlock_extend_slew", "master_replica_failover", "master_replica_replicated",
                                  "sentinel_split_brain", "oversell_incident"])
def test_timelines_of_the_hand_made_traces_keep_their_texts_apart(name):
    with style.context():
        assert_apart(timeline.draw(load_trace(DATA / f"{name}.jsonl")))


@pytest.fixture(scope="module")
def catalogue_trace(locksim_bin, tmp_path_factory):
    out = tmp_path_factory.mktemp("catalogue")

    def run(scenario: str, variant: str):
        path = out / f"{scenario}.{variant}.jsonl"
        done = subprocess.run([str(locksim_bin), "run", str(ROOT / "scenarios" / f"{scenario}.toml"), "--variant",
                               variant, "--trace", str(path)], capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert done.returncode == 0, done.stderr
        return load_trace(path)
    return run


@pytest.mark.parametrize("scenario, variant, title", [
    ("single-node-gc-pause", "fenced", None),
    ("redlock-clock-jump", "base", None),
    ("etcd-leader-failover", "base", None),
    ("zookeeper-partition", "base", None),
    ("chubby-lock-delay", "base", None),
    ("fencing-multistep-collection", "base", None),
    # The report's replayed sweep run and a search finding, titled as report.py and search_report.py title them.
    ("single-node-gc-pause", "base",
     "single-node-gc-pause · fault.c1-gc-pause.length=uniform(5s, 25s), lock.ttl=10s · seed 18446744073709551557"),
    ("redlock-crash-restart", "base", "found-3: P1 grant-exclusive, P2 belief-exclusive (a crash of C at 1.204s "
                                      "restarting after 310ms, c1 cut from D and E)"),
])
def test_timelines_keep_their_texts_apart(catalogue_trace, scenario, variant, title):
    with style.context():
        assert_apart(timeline.draw(catalogue_trace(scenario, variant), variant=variant, title=title))


# --- sweep plots --------------------------------------------------------------------------------------------------


def sweep(locksim_bin: Path, out: Path, *args: str, scenario: Path = GAP) -> Path:
    done = subprocess.run([str(locksim_bin), "sweep", str(scenario), *args, "--threads", "2", "--out", str(out)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    return out


CONTENTION = ROOT / "scenarios" / "transactional-contention.toml"
LATENCIES = "service.backend.latency=5ms..160ms*2"  # docs/compare.md's efficiency sweep, on a log axis


@pytest.fixture(scope="module")
def sweeps(locksim_bin, tmp_path_factory) -> dict[str, Path]:
    """Small real sweeps, each with its manifest. Of gap-story: the pause's window (it fires in every run, about half
    or a tenth of them) against the TTL; the same for a second variant; two grids of pause lengths and TTLs. Of
    transactional-contention: docs/compare.md's four variants against the backend's latency."""
    out = tmp_path_factory.mktemp("sweeps")
    windows = "fault.late-pause.at=uniform(0s, 8s),uniform(0s, 80s),uniform(0s, 400s)"
    made = {"windows": sweep(locksim_bin, out / "windows.csv", "--vary", windows, "--vary", "lock.ttl=5s,10s,20s",
                             "--seeds", "12"),
            "nearly": sweep(locksim_bin, out / "nearly.csv", "--variant", "nearly", "--vary", "lock.ttl=5s,10s,20s",
                            "--seeds", "12"),
            "medium": sweep(locksim_bin, out / "medium.csv", "--vary", "lock.ttl=2s..16s:2s", "--vary",
                            "fault.late-pause.length=5s..25s:5s", "--seeds", "3"),
            "large": sweep(locksim_bin, out / "large.csv", "--vary", "lock.ttl=1s..13s:1s", "--vary",
                           "fault.late-pause.length=1s..13s:1s", "--seeds", "2")}
    base = out / "windows-80s.csv"
    sweep(locksim_bin, base, "--set", "fault.late-pause.at=uniform(0s, 80s)", "--vary", "lock.ttl=5s,10s,20s",
          "--seeds", "12")
    both = out / "variants.csv"  # two variants, concatenated as a user would (one header each)
    both.write_text(base.read_text() + made["nearly"].read_text())
    (out / "variants.csv.json").write_text((out / "windows-80s.csv.json").read_text())
    made["variants"] = both
    for variant in ("base", "no-lock", "pauses", "no-lock-pauses"):
        made[f"contention-{variant}"] = sweep(locksim_bin, out / f"contention-{variant}.csv", "--variant", variant,
                                              "--vary", LATENCIES, "--seeds", "2", scenario=CONTENTION)
    return made


def curve(csv: Path, x: str, **kw):
    plan = sweep_plots.curve_series(sweep_plots.load(csv), x, **kw)
    sweep_plots.annotate(plan, csv, [plan.prop] if plan.prop else plan.sweep.properties)
    return sweep_plots.draw_curve(plan)


def heatmap(csv: Path, x: str, y: str, **kw):
    plan = sweep_plots.heat_grid(sweep_plots.load(csv), x, y, **kw)
    sweep_plots.annotate(plan, csv, [plan.prop])
    return sweep_plots.draw_heatmap(plan)


@pytest.mark.parametrize("kind", ["curve-by-property", "curve-by-variant", "curve-by-key", "curve-of-a-service",
                                  "heatmap-few-cells", "heatmap-dozens", "heatmap-hundreds"])
def test_sweep_plots_keep_their_texts_apart(sweeps, kind):
    at = "fault.late-pause.at"
    make = {
        "curve-by-property": lambda: curve(sweeps["windows"], "lock.ttl", where=[f"{at}=uniform(0s, 80s)"]),
        "curve-by-variant": lambda: curve(sweeps["variants"], "lock.ttl", by="variant"),
        "curve-by-key": lambda: curve(sweeps["windows"], "lock.ttl", by=at, properties=["belief-exclusive"]),
        "curve-of-a-service": lambda: curve(sweeps["contention-pauses"], "service.backend.latency"),
        "heatmap-few-cells": lambda: heatmap(sweeps["windows"], "lock.ttl", at, prop="grant-exclusive"),
        "heatmap-dozens": lambda: heatmap(sweeps["medium"], "lock.ttl", "fault.late-pause.length"),
        "heatmap-hundreds": lambda: heatmap(sweeps["large"], "lock.ttl", "fault.late-pause.length"),
    }[kind]
    with style.context():
        fig = make()
        # Their pause fired in too few runs somewhere: the footer carries a warning.
        assert any(t.get_text().startswith("warning:") for t in fig.texts) == (kind != "curve-of-a-service")
        assert_apart(fig)


# --- the side-by-side matrix and the efficiency curves -------------------------------------------------------


def test_the_compare_matrix_keeps_its_texts_apart():
    """Five stories against nine services, some cells outlined (a fault that fired in half their runs), so that the
    footer has its second line."""
    stories = ["compare-gc-pause", "compare-failover", "compare-holder-partition", "compare-clock-jump",
               "compare-crash-restart"]
    services = ["base", "sentinel", "redlock", "etcd", "zookeeper", "zookeeper-obey-lost", "chubby", "redis-fenced",
                "etcd-fenced"]
    m = compare_plot.Matrix(stories, services, {}, {})
    for i, s in enumerate(stories):
        for j, v in enumerate(services):
            m.runs[(s, v)] = 1000
            for k, (pid, _) in enumerate(compare_plot.PROPERTIES):
                count = (0, 3, 640, 1000)[(i + j + k) % 4]
                m.rates[(s, v, pid)], m.violations[(s, v, pid)] = count / 1000, count
            m.fired[(s, v)] = [("the-fault", 500 if (i + j) % 3 == 0 else 1000)]
    with style.context():
        fig = compare_plot.draw(m)
        assert compare_plot.gaps(m) and any("dashed outline" in t.get_text() for t in fig.texts)
        assert_apart(fig)


def test_the_efficiency_curves_keep_their_texts_apart(sweeps):
    """docs/compare.md's figure: four sweeps, a log x axis, a footer naming every file."""
    csvs = [sweeps[f"contention-{v}"] for v in ("base", "no-lock", "pauses", "no-lock-pauses")]
    with style.context():
        assert_apart(efficiency_plot.draw([load(c) for c in csvs], "service.backend.latency"))
