"""Sweep curves and heat maps (analysis/sweep_plots.py, analysis/units.py) from hand-made sweep CSVs.

The fixtures in data/ follow the `locksim sweep` CSV format (scenario, variant, the swept keys, runs, then
violated/rate/ci_low/ci_high per property and the liveness means):
- sweep_drift.csv — redlock-clock-drift, variants base and wide-drift-factor, clock.C.drift from 0.5% to 2% in
  0.25% steps (linear), 20 runs per cell; P1 and P2 identical, P3-P5 never violated.
- sweep_gc_grid.csv — single-node-gc-pause, variants base and fenced, lock.ttl 5s/10s/20s ×
  fault.c1-gc-pause.length 250ms/1s/4s/16s/64s (geometric), 10 runs per cell.
- sweep_never.csv — no-faults-single-node · base, lock.ttl 5s/10s/20s, 40 runs each: nothing ever violated.
- sweep_rare.csv — single-node-gc-pause · base, lock.ttl 1s/2s/4s, 1000 runs each: P2 violated 3, 1 and 0 times
  (0.3 %, 0.1 %, 0), everything else never.
- sweep_never_grid.csv — single-node-gc-pause · fenced, lock.ttl 5s/10s × fault.c1-gc-pause.length 100ms/200ms,
  10 runs per cell: nothing ever violated.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from analysis import style, sweep_plots, units
from analysis.sweep_plots import SweepError
from label_boxes import overlapping_texts

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
DRIFT = DATA / "sweep_drift.csv"
GRID = DATA / "sweep_gc_grid.csv"
NEVER = DATA / "sweep_never.csv"
RARE = DATA / "sweep_rare.csv"
NEVER_GRID = DATA / "sweep_never_grid.csv"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def cli(*args) -> subprocess.CompletedProcess:
    """The command as a user runs it (a separate interpreter)."""
    return subprocess.run([sys.executable, str(ROOT / "analysis" / "sweep_plots.py"), *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def main(capsys, *args) -> tuple[int, str]:
    """The command in this process (fast): its exit status and stderr."""
    try:
        code = sweep_plots.main([str(a) for a in args])
    except SystemExit as e:  # argparse's own errors
        code = e.code
    return code, capsys.readouterr().err


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == PNG_MAGIC
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


# --- units ---------------------------------------------------------------------------------


def test_parse_value_reads_durations_rates_numbers_and_words():
    """Canonical value texts become numbers in base units: seconds for durations, percent for rates."""
    assert units.parse_value("250ms") == units.Parsed("250ms", "duration", 0.25)
    assert units.parse_value("10s").number == 10.0
    assert math.isclose(units.parse_value("40us").number, 40e-6)
    assert units.parse_value("5000ppm") == units.Parsed("5000ppm", "rate", 0.5)
    assert units.parse_value("0.5%") == units.Parsed("0.5%", "rate", 0.5)
    assert units.parse_value("-50ppm").number == -0.005
    assert units.parse_value("3") == units.Parsed("3", "number", 3.0)
    assert units.parse_value('"monotonic"') == units.Parsed("monotonic", "text", None)
    assert units.parse_value("uniform(1ms, 5ms)").kind == "text"


def test_parse_column_picks_one_unit_per_column():
    """A column of durations all under a second is shown in ms, otherwise in s; ppm and % share percent."""
    ms = units.parse_column("lock.ttl", ["250ms", "500ms", "100ms"])
    assert (ms.kind, ms.unit, ms.order) == ("duration", "ms", ("100ms", "250ms", "500ms"))
    assert ms.number("250ms") == 250.0
    s = units.parse_column("lock.ttl", ["500ms", "10s", "2s"])
    assert (s.unit, s.order, s.number("500ms")) == ("s", ("500ms", "2s", "10s"), 0.5)
    rate = units.parse_column("clock.C.drift", ["5000ppm", "1%", "2%"])
    assert (rate.kind, rate.unit, rate.number("5000ppm")) == ("rate", "%", 0.5)
    mixed = units.parse_column("redis.expiry_clock", ["wall", "monotonic", "wall"])
    assert (mixed.kind, mixed.numeric, mixed.order) == ("text", False, ("wall", "monotonic"))
    assert "lock TTL (s)" in s.label() and "lock.ttl" in s.label()


def test_is_geometric_tells_log_axes_from_linear_ones():
    """Values growing by a constant factor (or 1-2-5 steps) want a log axis; evenly spaced ones do not."""
    assert units.is_geometric([0.25, 1, 4, 16, 64])
    assert units.is_geometric([1, 2, 5, 10, 20, 50, 100])
    assert units.is_geometric([100, 10, 1000, 10000])
    assert not units.is_geometric([0.5, 0.75, 1, 1.25, 1.5, 1.75, 2])
    assert not units.is_geometric([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    assert not units.is_geometric([1, 2])
    assert not units.is_geometric([0, 1, 10, 100])


def test_describe_key_says_what_a_key_means():
    """Axis labels name the knob in words as well as by its key."""
    assert units.describe_key("lock.ttl") == "lock TTL"
    assert units.describe_key("fault.c1-gc-pause.length") == "c1-gc-pause length"
    assert units.describe_key("clock.C.drift") == "C's clock drift"
    assert units.describe_key("resource.policy") == "resource.policy"


# --- reading and pooling ------------------------------------------------------------------------


def test_wilson_interval_matches_known_values():
    """The Wilson score interval is honest at the edges: 0/20 is not 'exactly 0 %'."""
    lo, hi = sweep_plots.wilson(0, 20)
    assert lo == 0 and math.isclose(hi, 0.16113, abs_tol=1e-4)
    lo, hi = sweep_plots.wilson(10, 10)
    assert math.isclose(lo, 0.72247, abs_tol=1e-4) and hi == 1
    lo, hi = sweep_plots.wilson(5, 10)
    assert math.isclose(lo, 0.23659, abs_tol=1e-4) and math.isclose(hi, 0.76341, abs_tol=1e-4)
    assert sweep_plots.wilson(0, 0) == (0.0, 1.0)


def test_load_reads_keys_properties_and_variants():
    """The key columns are those between 'variant' and 'runs'; texts stay texts, counts become numbers."""
    s = sweep_plots.load(GRID)
    assert s.keys == ["lock.ttl", "fault.c1-gc-pause.length"]
    assert s.properties == list(sweep_plots.PROPERTIES)
    assert s.variants == ["base", "fenced"] and s.scenarios == ["single-node-gc-pause"]
    assert s.frame["lock.ttl"].iloc[0] == "5s" and s.frame["runs"].iloc[0] == 10
    assert s.column("fault.c1-gc-pause.length").unit == "s"


def test_concatenated_shards_are_pooled(tmp_path):
    """Two shards of one cell (a repeated header between them) add their counts; the interval is recomputed."""
    lines = GRID.read_text().splitlines()
    header, row = lines[0], next(l for l in lines if l.startswith("single-node-gc-pause,base,10s,16s,"))
    path = tmp_path / "shards.csv"
    path.write_text("\n".join([header, row, header, row]) + "\n")
    s = sweep_plots.load(path)
    assert len(s.frame) == 2  # the repeated header is dropped
    table = sweep_plots.pooled(s.frame, ["variant", *s.keys], ["belief-exclusive"])
    assert len(table) == 1
    r = table.iloc[0]
    assert (r["runs"], r["belief-exclusive.violated"], r["belief-exclusive.rate"]) == (20, 20, 1.0)
    assert math.isclose(r["belief-exclusive.ci_low"], sweep_plots.wilson(20, 20)[0])


def test_not_applicable_properties_are_skipped(tmp_path):
    """A property written as '-' (not applicable) draws no line and does not break the others."""
    lines = DRIFT.read_text().splitlines()
    out = [lines[0]]
    for line in lines[1:]:
        cells = line.split(",")
        cells[11:23] = ["-"] * 12  # resource-exclusive, resource-current, invariant
        out.append(",".join(cells))
    path = tmp_path / "na.csv"
    path.write_text("\n".join(out) + "\n")
    plan = sweep_plots.curve_series(sweep_plots.load(path), "clock.C.drift", variants=["base"])
    assert len(plan.series) == 1 and plan.series[0].members == ["P1 grant-exclusive", "P2 belief-exclusive"]


# --- curves ----------------------------------------------------------------------------------------


def test_curve_merges_identical_properties_and_marks_never_violated():
    """Properties with the same rate everywhere share one labelled line instead of hiding each other."""
    plan = sweep_plots.curve_series(sweep_plots.load(DRIFT), "clock.C.drift", variants=["base"])
    assert [s.members for s in plan.series] == [
        ["P1 grant-exclusive", "P2 belief-exclusive"],
        ["P3 resource-exclusive", "P4 resource-current", "P5 invariant"]]
    p1, rest = plan.series
    assert p1.x == [0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0]
    assert p1.rate == [0, 0, 0, 15, 70, 100, 100]
    assert all(lo <= r <= hi for lo, r, hi in zip(p1.low, p1.rate, p1.high))
    assert rest.never and "no violations in 140 runs" in rest.label and not p1.never
    assert not plan.log_x  # evenly spaced
    assert "20 seeds per point" in plan.subtitle and "clock.C.drift" in plan.subtitle


def test_curve_uses_log_axis_for_geometric_values_and_states_fixed_keys():
    """Pause lengths 250ms..64s (×4 each) are drawn on a log axis; the fixed TTL is named in the subtitle."""
    plan = sweep_plots.curve_series(sweep_plots.load(GRID), "fault.c1-gc-pause.length", variants=["base"],
                                    where=["lock.ttl=10000ms"])
    assert plan.log_x
    assert plan.fixed == {"lock.ttl": "10s"}
    assert "fixed: lock.ttl = 10s" in plan.subtitle
    assert plan.series[0].x == [0.25, 1, 4, 16, 64]


def test_curve_by_variant_and_by_key():
    """--by variant draws a line per variant, --by KEY a line per value of the other key, for one property."""
    by_variant = sweep_plots.curve_series(sweep_plots.load(DRIFT), "clock.C.drift", ["grant-exclusive"], "variant")
    assert [s.label for s in by_variant.series] == ["base", "wide-drift-factor"]
    assert by_variant.series[1].rate[-1] == 45
    by_key = sweep_plots.curve_series(sweep_plots.load(GRID), "fault.c1-gc-pause.length", ["invariant"],
                                      "lock.ttl", ["base"])
    assert [s.label for s in by_key.series] == ["lock.ttl = 5s", "lock.ttl = 10s", "lock.ttl = 20s"]


def _curve_axes(csv: Path, **kw):
    with style.context():
        fig = sweep_plots.draw_curve(sweep_plots.curve_series(sweep_plots.load(csv), "lock.ttl", **kw))
    return fig.axes[0]


def test_curve_of_zeros_lies_on_the_floor_of_a_fixed_axis():
    """Nothing violated in 120 runs: the y axis is still 0–100 % (not stretched to the zero line's interval), the
    legend and the plot say how many runs found nothing, and the axis says it is fixed."""
    ax = _curve_axes(NEVER)
    assert ax.get_ylim() == (0, 100)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "all 5 properties\n(identical at every point)\n(no violations in 120 runs)"]
    assert "no violations in 120 runs" in [t.get_text() for t in ax.texts]
    assert "axis fixed at 0–100 %" in ax.get_ylabel()
    # Lines per variant judge runs of their own: P1 never broke in base's 50 runs nor in fenced's.
    plan = sweep_plots.curve_series(sweep_plots.load(GRID), "fault.c1-gc-pause.length", ["grant-exclusive"],
                                    "variant", where=["lock.ttl=10s"])
    assert [s.label for s in plan.series] == ["base\n= fenced\n(identical at every point)\n"
                                              "(no violations in 50 runs each)"]
    with style.context():
        assert "no violations in 100 runs" in [t.get_text() for t in sweep_plots.draw_curve(plan).axes[0].texts]


def test_rare_violations_are_not_stretched_into_a_trend():
    """P2 at 0.3 %, 0.1 %, 0 of 1000 runs each is drawn on the same 0–100 % axis as any other curve; the lines that
    are zero say so, the one that is not does not, and the plot does not claim nothing was found."""
    ax = _curve_axes(RARE)
    assert ax.get_ylim() == (0, 100)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "P2 belief-exclusive" in labels
    assert [l for l in labels if l != "P2 belief-exclusive"] == [
        "P1 grant-exclusive\n= P3 resource-exclusive\n= P4 resource-current\n= P5 invariant\n"
        "(identical at every point)\n(no violations in 3,000 runs)"]
    assert not any("no violations" in t.get_text() for t in ax.texts)


def test_heatmap_colour_scale_is_fixed_at_0_to_100():
    """A map of zeros is coloured as 0 on a 0–100 % scale (not stretched over its own range), its colour bar runs
    0–100 % and the subtitle says nothing was violated; a map with rates keeps the same scale."""
    plan = sweep_plots.heat_grid(sweep_plots.load(NEVER_GRID), "lock.ttl", "fault.c1-gc-pause.length", "invariant")
    assert "no violations in 40 runs" in plan.subtitle
    with style.context():
        fig = sweep_plots.draw_heatmap(plan)
        image = fig.axes[0].images[0]
        assert (image.norm.vmin, image.norm.vmax) == (0, 100)
        assert fig.axes[1].get_ylim() == (0, 100)  # the colour bar
        some = sweep_plots.draw_heatmap(sweep_plots.heat_grid(
            sweep_plots.load(GRID), "lock.ttl", "fault.c1-gc-pause.length", "belief-exclusive", "fenced"))
    assert (some.axes[0].images[0].norm.vmin, some.axes[0].images[0].norm.vmax) == (0, 100)


@pytest.mark.parametrize("make", [
    lambda: sweep_plots.draw_heatmap(sweep_plots.heat_grid(sweep_plots.load(NEVER_GRID), "lock.ttl",
                                                           "fault.c1-gc-pause.length")),
    lambda: sweep_plots.draw_heatmap(sweep_plots.heat_grid(sweep_plots.load(GRID), "lock.ttl",
                                                           "fault.c1-gc-pause.length", "invariant", "base")),
    lambda: sweep_plots.draw_curve(sweep_plots.curve_series(sweep_plots.load(NEVER), "lock.ttl")),
    lambda: sweep_plots.draw_curve(sweep_plots.curve_series(sweep_plots.load(DRIFT), "clock.C.drift",
                                                            variants=["base"])),
], ids=["heatmap-two-rows", "heatmap", "curve-of-zeros", "curve"])
def test_texts_never_overlap(make):
    """No two texts of a sweep plot overlap: a heat map's y label stays clear of the subtitle over two rows of
    cells, the 'no violations' note clear of the curve's other texts."""
    with style.context():
        assert overlapping_texts(make()) == []


def test_curve_refuses_to_average_over_an_unfixed_key():
    """A key that varies but is not drawn is an error that says how to fix it, not a silent average."""
    with pytest.raises(SweepError, match=r"lock.ttl varies too .*--where lock.ttl=VALUE"):
        sweep_plots.curve_series(sweep_plots.load(GRID), "fault.c1-gc-pause.length", variants=["base"])
    with pytest.raises(SweepError, match="2 variants"):
        sweep_plots.curve_series(sweep_plots.load(DRIFT), "clock.C.drift")


def test_curve_cli_writes_png_and_svg(tmp_path):
    """The curve command writes each --out in its format, with the sweep described in the SVG's text."""
    png, svg = tmp_path / "drift.png", tmp_path / "drift.svg"
    done = cli("curve", DRIFT, "--x", "clock.C.drift", "--variant", "base", "--out", png, "--out", svg)
    assert done.returncode == 0, done.stderr
    w, h = png_size(png)
    assert w > 1000 and h > 500
    text = svg.read_text()
    assert "redlock-clock-drift · base" in text and "20 seeds per point" in text and "Wilson" in text


def test_heatmap_grid_and_cli(tmp_path):
    """The heat map holds one property's rate per (x, y) cell, in %, with its interval; the CLI draws it."""
    plan = sweep_plots.heat_grid(sweep_plots.load(GRID), "lock.ttl", "fault.c1-gc-pause.length", "invariant",
                                 "base")
    assert plan.x_texts == ["5s", "10s", "20s"] and plan.y_texts == ["250ms", "1s", "4s", "16s", "64s"]
    assert plan.rate[3, 1] == 90 and plan.rate[0, 0] == 0  # 16s pause under a 10s TTL; 250ms under 5s
    assert plan.low[3, 1] < 90 < plan.high[3, 1]
    assert "10 seeds per cell" in plan.subtitle
    out = tmp_path / "heat.png"
    done = cli("heatmap", GRID, "--x", "lock.ttl", "--y", "fault.c1-gc-pause.length", "--property", "invariant",
               "--variant", "base", "--out", out, "--out", tmp_path / "heat.svg")
    assert done.returncode == 0, done.stderr
    assert png_size(out)[0] > 800
    assert "P5 invariant violated" in (tmp_path / "heat.svg").read_text()


def test_heatmap_marks_missing_cells(tmp_path, capsys):
    """A cell the sweep has no rows for is drawn as 'no runs', not as 0 %."""
    lines = GRID.read_text().splitlines()
    path = tmp_path / "holes.csv"
    path.write_text("\n".join(l for l in lines if not l.startswith("single-node-gc-pause,base,20s,64s,")) + "\n")
    plan = sweep_plots.heat_grid(sweep_plots.load(path), "lock.ttl", "fault.c1-gc-pause.length", "invariant", "base")
    assert math.isnan(plan.rate[4, 2])
    code, err = main(capsys, "heatmap", path, "--x", "lock.ttl", "--y", "fault.c1-gc-pause.length", "--variant",
                     "base", "--out", tmp_path / "h.svg")
    assert code == 0, err
    assert "no runs" in (tmp_path / "h.svg").read_text()


@pytest.mark.parametrize("args, message", [
    (["curve", DRIFT, "--x", "lock.ttl", "--variant", "base"], "no swept key 'lock.ttl'"),
    (["curve", DATA / "no-such.csv", "--x", "lock.ttl"], "no such file"),
    (["heatmap", GRID, "--x", "lock.ttl", "--y", "lock.ttl"], "same key"),
    (["heatmap", GRID, "--x", "lock.ttl", "--y", "fault.c1-gc-pause.length"], "choose one with --variant"),
    (["curve", DRIFT, "--x", "clock.C.drift", "--variant", "nope"], "no variant 'nope'"),
    (["curve", DRIFT, "--x", "clock.C.drift", "--variant", "base", "--where", "clock.C.drift=9%"], "no such value"),
])
def test_cli_errors_are_one_line_and_exit_2(tmp_path, capsys, args, message):
    """Bad input (missing file or column, ambiguous choice) is one line on stderr and exit status 2."""
    code, err = main(capsys, *args, "--out", tmp_path / "x.png")
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x.png").exists()


def test_cli_rejects_empty_and_header_only_files(tmp_path, capsys):
    """An empty file and a header without rows are errors, not empty plots; so is an unknown output type."""
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    done = cli("curve", empty, "--x", "lock.ttl", "--out", tmp_path / "x.png")  # once as a real process
    assert done.returncode == 2 and done.stderr.startswith("sweep_plots: ") and "empty file" in done.stderr
    header = tmp_path / "header.csv"
    header.write_text(GRID.read_text().splitlines()[0] + "\n")
    code, err = main(capsys, "curve", header, "--x", "lock.ttl", "--out", tmp_path / "x.png")
    assert code == 2 and "no rows" in err
    code, err = main(capsys, "curve", GRID, "--x", "lock.ttl", "--out", tmp_path / "x.pdf")
    assert code == 2 and "unsupported output type" in err
    code, err = main(capsys, "curve", GRID, "--out", tmp_path / "x.png")
    assert code == 2 and "--x" in err and len(err.strip().splitlines()) == 1
