"""How often a lock story breaks as one or two of its knobs move: curves and heat maps from a sweep.

``locksim sweep`` runs one scenario many times — every combination of the
swept keys (a cell), several seeds per cell — and writes one CSV row per
variant and cell::

    scenario,variant,<key1>,...,<keyK>,runs,
    grant-exclusive.violated,grant-exclusive.rate,grant-exclusive.ci_low,grant-exclusive.ci_high,
    ... the same four for belief-exclusive, resource-exclusive, resource-current, invariant ...,
    sessions.mean,acquire_attempts.mean,acquire_ok_rate.mean,acquire_latency_ms.mean,
    longest_stuck_ms.mean,unheld_ms.mean,expired_grants.mean

Key columns hold each swept value's canonical text ("10s", "250ms",
"5000ppm", "0.5%"); ``analysis/units.py`` turns a column into numbers on one
unit. ``<p>.rate`` is the share of the cell's runs that violated property p,
``ci_low``/``ci_high`` its 95 % Wilson score interval — the interval that
stays honest at 0 of 20 and 20 of 20, where the normal approximation says
"exactly 0 %". Several sweeps over the same keys can be concatenated (one
header or several); rows that repeat a cell (shards of one sweep) are pooled:
their counts add up and the interval is recomputed.

Two pictures:

- ``curve``: the violation rate against one key, a line per property (or per
  variant, or per value of a second key, with ``--by``), its Wilson interval
  shaded, on a log axis when the values grow geometrically. Properties whose
  rates are identical at every point share one line (the legend says so)
  instead of hiding each other. The y axis is always 0–100 %: scaled to the
  data, a curve of zeros or of rates under 1 % would fill the plot and read
  as a trend. A line that is 0 everywhere says so in the legend ("no
  violations in 140 runs"), and so does the plot when every line is.
- ``heatmap``: one property of one variant over two keys, the rate as colour
  on cividis (sequential, colour-blind safe, readable in greyscale) on a
  scale fixed at 0–100 % (never stretched to the data's largest rate, which
  would paint a map of zeros in the full range), each cell annotated with its
  rate (and interval when there are few cells); a map of zeros says "no
  violations in N runs".

Every other key must be fixed, by the sweep or with ``--where KEY=VALUE``;
a plot never averages over a knob silently.

CLI::

    /usr/bin/python3 analysis/sweep_plots.py curve results.csv --x clock.C.drift --out drift.png [--out drift.svg]
        [--property grant-exclusive ...] [--variant base ...] [--by property|variant|KEY] [--where KEY=VALUE ...]
        [--log-x | --linear-x] [--title TEXT]
    /usr/bin/python3 analysis/sweep_plots.py heatmap results.csv --x lock.ttl --y fault.c1-gc-pause.length
        --property invariant [--variant base] [--where KEY=VALUE ...] --out heat.png [--title TEXT]

Exit status: 0 drawn; 2 bad input (missing file or column, empty sweep, bad option), one line on stderr.
"""

from __future__ import annotations

import argparse
import functools
import math
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence, Union

if __package__ in (None, ""):  # run as a script: make `analysis` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
if __name__ == "__main__":  # a command: say what to install rather than fail inside the imports below
    from analysis.dependencies import exit_if_missing
    exit_if_missing("sweep_plots")

import matplotlib.colors  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib import colormaps  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402  (no pyplot: no global state)
from matplotlib.patches import Rectangle  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator  # noqa: E402

from analysis.command_line import OneLineParser  # noqa: E402
from analysis import provenance, style, units  # noqa: E402
from analysis.sweep_data import (  # noqa: E402  (load, wilson, pooled, SweepError...: re-exported, the plots' inputs)
    MEANS, Sweep, SweepError, check_fixed, load, most_violated, pooled, prop_label, runs_text, select, series_name,
    wilson)
from analysis.trace import PROPERTIES  # noqa: E402

__all__ = ["SweepError", "Sweep", "Series", "load", "wilson", "pooled", "curve_series", "draw_curve",
           "heat_grid", "draw_heatmap", "render", "main", "MEANS", "HEATMAP_CMAP", "RATE_AXIS_MAX"]

OUTPUT_SUFFIXES = (".png", ".svg")
HEATMAP_CMAP = "cividis"
# Rates are drawn in percent on scales fixed at 0..100, whatever the data: autoscaled, an all-zero curve or map (or
# one of rates under 1 %) would be stretched over the whole range and look like a trend.
RATE_AXIS_MAX = 100.0

# One look per property, the same in every locksim plot: colour (Okabe-Ito, never vermillion — that means "this
# instance went wrong"), marker and dash, so lines stay apart in greyscale too.
PROPERTY_LOOK = {
    "grant-exclusive": (style.OKABE_ITO["blue"], "o", "-"),
    "belief-exclusive": (style.OKABE_ITO["orange"], "s", (0, (5, 2))),
    "resource-exclusive": (style.OKABE_ITO["bluish_green"], "^", (0, (6, 2, 1.5, 2))),
    "resource-current": (style.OKABE_ITO["reddish_purple"], "D", (0, (1.5, 1.5))),
    "invariant": (style.OKABE_ITO["sky_blue"], "v", (0, (8, 2, 1.5, 2, 1.5, 2))),
}
SERIES_COLOURS = [style.OKABE_ITO[c] for c in ("blue", "orange", "bluish_green", "reddish_purple", "sky_blue",
                                                "black", "yellow")]
SERIES_MARKERS = ["o", "s", "^", "D", "v", "P", "X"]
SERIES_DASHES = ["-", (0, (5, 2)), (0, (6, 2, 1.5, 2)), (0, (1.5, 1.5)), (0, (8, 2, 1.5, 2, 1.5, 2)), "-", "-"]


# --- curve -----------------------------------------------------------------------


@dataclass
class Series:
    """One line of a curve: x values (in the x column's unit, or positions when categorical) and rates in %."""

    label: str
    x: list[float]
    x_text: list[str]
    rate: list[float]
    low: list[float]
    high: list[float]
    runs: list[float]
    colour: str
    marker: str
    dash: object
    members: list[str] = field(default_factory=list)  # properties merged into this line (identical rates)
    # Per member: its property and each point's cell (scenario, variant, each key's value), to find its story gaps.
    sources: list[tuple[str, list[tuple]]] = field(default_factory=list)

    @property
    def never(self) -> bool:
        return all(r == 0 for r in self.rate)

    def in_doubt(self, gaps: set) -> list[bool]:
        """Per point: whether a fault its story needs fired in too few of its runs (``gaps``: (cell, property))."""
        return [any((cells[i], prop) in gaps for prop, cells in self.sources) for i in range(len(self.x))]


@dataclass
class CurvePlan:
    sweep: Sweep
    x: units.Column
    by: str
    series: list[Series]
    fixed: dict[str, str]  # keys held at one value (by the sweep or --where)
    title: str
    subtitle: str
    log_x: bool
    gap_marks = "hollow markers: the points these warnings concern"
    prop: Optional[str] = None  # the one property drawn, with --by variant or --by KEY
    notes: list[str] = field(default_factory=list)  # at the figure's foot: warnings, then what was run
    gaps: set = field(default_factory=set)  # (cell, property) where the story may not have happened: drawn hollow

    def marks_drawn(self) -> bool:
        return any(any(s.in_doubt(self.gaps)) for s in self.series)


def curve_series(sweep: Sweep, x: str, properties: Sequence[str] = (), by: str = "property",
                 variants: Sequence[str] = (), where: Sequence[str] = (), log_x: Optional[bool] = None,
                 title: Optional[str] = None, merge_identical: bool = True) -> CurvePlan:
    """What a curve shows, without drawing it: the lines, the fixed keys, the title (testable on its own)."""
    xcol = sweep.column(x)
    for p in properties:
        if p not in sweep.properties:
            raise SweepError(f"{sweep.source}: no property {p!r} (it has: {', '.join(sweep.properties)})")
    sel, _ = select(sweep, where, variants)
    multi_scenario = len(sel.scenarios) > 1
    if by == "property":
        if len(sel.variants) > 1 or multi_scenario:
            raise SweepError(f"{sweep.source}: {len(sel.variants)} variants ({', '.join(sel.variants)}): choose one "
                             f"with --variant, or draw one line per variant with --by variant")
        fixed = check_fixed(sel, [x], " or draw a heat map")
        props = list(properties) or list(sel.properties)
        table = pooled(sel.frame, ["scenario", "variant", x], props)
        groups = [(prop_label(p), p, table) for p in props]
    else:
        if by != "variant":
            sel.column(by)  # must be a key
            if by == x:
                raise SweepError("--by names the same key as --x")
        if len(properties) > 1:
            raise SweepError(f"--by {by} draws one property; name one with --property (not {len(properties)})")
        prop = properties[0] if properties else most_violated(sel)
        if by == "variant":
            fixed = check_fixed(sel, [x], " or draw a heat map")
            table = pooled(sel.frame, ["scenario", "variant", x], [prop])
            names = list(dict.fromkeys(zip(table["scenario"], table["variant"])))
            groups = [(series_name(s, v, multi_scenario), prop,
                       table[(table["scenario"] == s) & (table["variant"] == v)]) for s, v in names]
        else:
            if len(sel.variants) > 1 or multi_scenario:
                raise SweepError(f"{sweep.source}: {len(sel.variants)} variants ({', '.join(sel.variants)}): "
                                 f"choose one with --variant")
            fixed = check_fixed(sel, [x, by], " or draw a heat map")
            table = pooled(sel.frame, ["scenario", "variant", by, x], [prop])
            bycol = sel.column(by)
            groups = [(f"{by} = {value}", prop, table[table[by] == value]) for value in bycol.order
                      if (table[by] == value).any()]
        properties = [prop]

    xs_all = [t for t in xcol.order if (sel.frame[x] == t).any()]
    position = {t: (xcol.number(t) if xcol.numeric else float(i)) for i, t in enumerate(xs_all)}
    series: list[Series] = []
    for i, (label, prop, rows) in enumerate(groups):
        rows = rows.assign(_pos=rows[x].map(position)).sort_values("_pos")
        rows = rows[rows[f"{prop}.rate"].notna()]
        if rows.empty:
            continue  # not applicable to this scenario
        if by == "property":
            colour, marker, dash = PROPERTY_LOOK.get(prop, (SERIES_COLOURS[i % 7], SERIES_MARKERS[i % 7], "-"))
        else:
            colour, marker, dash = SERIES_COLOURS[i % 7], SERIES_MARKERS[i % 7], SERIES_DASHES[i % 7]
        cells = [tuple(row[k] if k in row.index else fixed[k] for k in ["scenario", "variant", *sel.keys])
                 for _, row in rows.iterrows()]
        series.append(Series(label=label, x=list(rows["_pos"]), x_text=list(rows[x]),
                             rate=[100 * r for r in rows[f"{prop}.rate"]],
                             low=[100 * r for r in rows[f"{prop}.ci_low"]],
                             high=[100 * r for r in rows[f"{prop}.ci_high"]],
                             runs=list(rows["runs"]), colour=colour, marker=marker, dash=dash, members=[label],
                             sources=[(prop, cells)]))
    if not series:
        raise SweepError(f"{sweep.source}: nothing to draw (the chosen properties are not applicable here)")
    if merge_identical:
        merged: list[Series] = []
        for s in series:
            twin = next((m for m in merged if m.x == s.x and np.allclose(m.rate, s.rate) and m.runs == s.runs), None)
            if twin is None:
                merged.append(s)
            else:
                twin.members.append(s.label)
                twin.sources += s.sources
        for m in merged:
            if len(m.members) > 1 and len(merged) == 1 and len(m.members) > 3:
                what = {"property": "properties", "variant": "variants"}.get(by, f"values of {by}")
                m.label = f"all {len(m.members)} {what}\n(identical at every point)"
            elif len(m.members) > 1:
                m.label = "\n= ".join(m.members) + "\n(identical at every point)"
        series = merged
    for s in series:
        if s.never:
            # Properties are judged on the same runs; variants and values of a key each have their own.
            each = " each" if len(s.members) > 1 and by != "property" else ""
            note = f"(no violations in {_count(sum(s.runs))} runs{each})"
            s.label += f"\n{note}" if "\n" in s.label else f"  {note}"

    if log_x is None:
        log_x = xcol.numeric and units.is_geometric(position.values())
    if log_x and (not xcol.numeric or min(position.values()) <= 0):
        raise SweepError(f"--log-x: {x} has values that are not positive numbers")
    scenario = " + ".join(sel.scenarios)
    what = units.describe_key(x)
    if by == "property":
        head = f"{scenario} · {sel.variants[0]}: how often each property breaks as {what} varies"
    else:
        head = f"{scenario}: {prop_label(properties[0])} violated, by {by}, as {what} varies"
        if by != "variant":
            head = f"{scenario} · {sel.variants[0]}: {prop_label(properties[0])} violated, by {by}, as {what} varies"
    extras = [f"{k} = {v}" for k, v in fixed.items()]
    runs = [r for s in series for r in s.runs]
    sub = [f"swept {x}: {len(xs_all)} value{'s' if len(xs_all) != 1 else ''} "
           f"({xs_all[0]} … {xs_all[-1]})" if len(xs_all) > 1 else f"{x} = {xs_all[0]}",
           runs_text(runs, "point"), "shaded: 95 % Wilson interval"]
    if extras:
        sub.append("fixed: " + ", ".join(extras))
    return CurvePlan(sel, xcol, by, series, fixed, title or head, " · ".join(s for s in sub if s), log_x,
                     None if by == "property" else properties[0])


def _plain(x: float, _pos=None) -> str:
    return units.format_number(x)


def draw_curve(plan: CurvePlan) -> Figure:
    """The curve figure. Call inside ``style.context()`` (``render`` does)."""
    fig = Figure(figsize=(9.0, 4.8))
    ax = fig.add_axes([0.08, 0.14, 0.62, 0.70])
    n = len(plan.series)
    for i, s in enumerate(plan.series):
        ax.fill_between(s.x, s.low, s.high, color=s.colour, alpha=0.13, lw=0, zorder=2)
        ax.plot(s.x, s.low, color=s.colour, lw=0.5, alpha=0.5, zorder=2)
        ax.plot(s.x, s.high, color=s.colour, lw=0.5, alpha=0.5, zorder=2)
        # Later lines are drawn thinner and on top, so a line that runs over an earlier one leaves it showing
        # around its edges instead of hiding it.
        lw = 1.6 + 1.4 * (n - 1 - i) / max(n - 1, 1)
        ms = 5.0 + 3.0 * (n - 1 - i) / max(n - 1, 1)
        ax.plot(s.x, s.rate, color=s.colour, ls=s.dash, lw=lw, marker=s.marker, ms=ms, mec="white", mew=0.7,
                label=s.label, zorder=3 + i * 0.01, clip_on=False)
        doubt = s.in_doubt(plan.gaps)
        if any(doubt):  # hollow: a point whose story may not have happened in enough of its runs
            ax.plot([x for x, d in zip(s.x, doubt) if d], [r for r, d in zip(s.rate, doubt) if d], ls="none",
                    marker=s.marker, ms=ms, mfc="white", mec=s.colour, mew=1.5, zorder=3.5 + i * 0.01, clip_on=False)
    # Fixed, never scaled to the data: 0 stays on the floor and 2 % looks like 2 %.
    ax.set_ylim(0, RATE_AXIS_MAX)
    ax.yaxis.set_major_locator(FixedLocator([0, 20, 40, 60, 80, 100]))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{v:g} %"))
    what = "the property" if plan.prop is None else plan.prop
    ax.set_ylabel(f"share of runs that violate {what}\n(axis fixed at 0–100 %)")
    if all(s.never for s in plan.series):
        if plan.by == "property":  # every line judges the same runs
            total = sum(plan.series[0].runs)
        else:  # variants and values of a key each have their own runs (a merged line stands for several)
            total = sum(sum(s.runs) * len(s.members) for s in plan.series)
        ax.text(0.5, 0.5, f"no violations in {_count(total)} runs", transform=ax.transAxes, ha="center", va="center",
                fontsize=11, color=style.NOTE)
    ax.set_xlabel(plan.x.label())
    xs = sorted({x for s in plan.series for x in s.x})
    if plan.log_x:
        ax.set_xscale("log")
        ax.xaxis.set_minor_locator(NullLocator())
    if not plan.x.numeric:
        texts = {x: t for s in plan.series for x, t in zip(s.x, s.x_text)}
        ax.xaxis.set_major_locator(FixedLocator(xs))
        ax.set_xticklabels([texts[x] for x in xs])
    elif len(xs) <= 12 or plan.log_x:
        ticks = xs if len(xs) <= 12 else _thin(xs, 12)
        ax.xaxis.set_major_locator(FixedLocator(ticks))
        ax.xaxis.set_major_formatter(FuncFormatter(_plain))
    lo, hi = xs[0], xs[-1]
    if plan.log_x:
        pad = (hi / lo) ** 0.03 if hi > lo else 1.2
        ax.set_xlim(lo / pad, hi * pad)
    else:
        pad = 0.03 * (hi - lo) if hi > lo else 0.5
        ax.set_xlim(lo - pad, hi + pad)
    ax.grid(color=style.GRID, lw=0.6, zorder=0)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.tick_params(axis="both", labelsize=8.5)
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0, labelspacing=0.9, handlelength=3.2,
              title="property" if plan.by == "property" else plan.by, title_fontsize=8.5, alignment="left")
    fig.text(0.08, 0.965, plan.title, fontsize=12, fontweight="bold", va="top", ha="left")
    fig.text(0.08, 0.905, plan.subtitle, fontsize=8.5, color=style.NOTE, va="top", ha="left")
    _draw_notes(fig, plan.notes, 0.08, 150)
    return fig


def _draw_notes(fig: Figure, notes: Sequence[str], x: float, width: int) -> None:
    """Warnings and provenance under everything else in the figure (tight bounding boxes take them in)."""
    if not notes:
        return
    lines = [w for n in notes for w in textwrap.wrap(n, width, break_on_hyphens=False, subsequent_indent="  ")]
    style.footer(fig, x, "\n".join(lines), fontsize=7, color=style.NOTE, linespacing=1.3)


def annotate(plan, csv: Union[str, Path], properties: Sequence[str], report=None) -> list[str]:
    """Gives ``plan`` its notes — story warnings for the cells it draws (and which marks show them), then the
    manifest's provenance — and the cells to mark. Returns the warnings (``report``, if given, is called with each:
    the command line prints them on stderr)."""
    manifest = provenance.load_manifest(csv)
    warnings = provenance.story_warnings(plan.sweep.frame, plan.sweep.keys, properties, manifest)
    mark_gaps(plan, manifest)
    for w in warnings:
        if report is not None:
            report(w)
    marks = [plan.gap_marks] if plan.marks_drawn() else []
    plan.notes = ["warning: " + w for w in warnings] + marks + provenance.provenance_lines(manifest)
    return warnings


def mark_gaps(plan, manifest: Optional[dict]) -> None:
    """Gives ``plan`` the cells to mark (hollow points, dashed outlines): where a fault its story needs fired in too
    few runs for the number drawn to mean what it shows (provenance.story_gaps)."""
    gaps = provenance.story_gaps(plan.sweep.frame, plan.sweep.keys, plan.sweep.properties, manifest)
    plan.gaps = {(g.cell, p) for g in gaps for p in g.held + g.understated}


def _thin(xs: Sequence[float], most: int) -> list[float]:
    step = math.ceil(len(xs) / most)
    picked = list(xs[::step])
    if picked[-1] != xs[-1]:
        picked[-1] = xs[-1]
    return picked


def _count(n: float) -> str:
    """A number of runs as text: 140 -> "140", 12000 -> "12,000"."""
    return f"{int(round(n)):,}"


# --- heat map --------------------------------------------------------------------


@dataclass
class HeatPlan:
    sweep: Sweep
    x: units.Column
    y: units.Column
    prop: str
    variant: str
    x_texts: list[str]
    y_texts: list[str]
    rate: np.ndarray  # [y, x] in %, NaN where no run
    low: np.ndarray
    high: np.ndarray
    runs: np.ndarray
    fixed: dict[str, str]
    title: str
    subtitle: str
    notes: list[str] = field(default_factory=list)  # at the figure's foot: warnings, then what was run
    gaps: set = field(default_factory=set)  # (cell, property) where the story may not have happened: outlined
    gap_marks = "dashed outlines: the cells these warnings concern"

    def cell(self, i: int, j: int) -> tuple:
        """The (scenario, variant, each key's value) of row i, column j."""
        values = {self.x.key: self.x_texts[j], self.y.key: self.y_texts[i], **self.fixed}
        return (self.sweep.scenarios[0], self.variant, *(values[k] for k in self.sweep.keys))

    def marks_drawn(self) -> bool:
        return any((self.cell(i, j), self.prop) in self.gaps for i in range(len(self.y_texts))
                   for j in range(len(self.x_texts)))


def heat_grid(sweep: Sweep, x: str, y: str, prop: Optional[str] = None, variant: Optional[str] = None,
              where: Sequence[str] = (), title: Optional[str] = None) -> HeatPlan:
    """What a heat map shows, without drawing it: the grid of rates and intervals over two keys."""
    if x == y:
        raise SweepError("--x and --y name the same key")
    xcol, ycol = sweep.column(x), sweep.column(y)
    if prop is not None and prop not in sweep.properties:
        raise SweepError(f"{sweep.source}: no property {prop!r} (it has: {', '.join(sweep.properties)})")
    sel, _ = select(sweep, where, [variant] if variant else [])
    if len(sel.variants) > 1 or len(sel.scenarios) > 1:
        raise SweepError(f"{sweep.source}: {len(sel.variants)} variants ({', '.join(sel.variants)}): choose one "
                         f"with --variant")
    fixed = check_fixed(sel, [x, y], "")
    prop = prop or most_violated(sel)
    table = pooled(sel.frame, [y, x], [prop])
    x_texts = [t for t in xcol.order if (table[x] == t).any()]
    y_texts = [t for t in ycol.order if (table[y] == t).any()]
    shape = (len(y_texts), len(x_texts))
    rate, low, high, runs = (np.full(shape, np.nan) for _ in range(4))
    for _, row in table.iterrows():
        i, j = y_texts.index(row[y]), x_texts.index(row[x])
        rate[i, j] = 100 * row[f"{prop}.rate"]
        low[i, j] = 100 * row[f"{prop}.ci_low"]
        high[i, j] = 100 * row[f"{prop}.ci_high"]
        runs[i, j] = row["runs"]
    if np.isnan(rate).all():
        raise SweepError(f"{sweep.source}: {prop} is not applicable in this sweep (no rates)")
    scenario, var = sel.scenarios[0], sel.variants[0]
    head = (f"{scenario} · {var}: {prop_label(prop)} violated, by {units.describe_key(x)} and "
            f"{units.describe_key(y)}")
    sub = [f"swept {x} ({len(x_texts)} values) × {y} ({len(y_texts)} values)",
           runs_text(list(runs[~np.isnan(runs)]), "cell"), "colour and number: share of runs that violate it"]
    if np.nanmax(rate) == 0:
        sub.insert(0, f"no violations in {_count(np.nansum(runs))} runs")
    if rate.size <= 30:
        sub.append("[95 % Wilson interval]")
    if fixed:
        sub.append("fixed: " + ", ".join(f"{k} = {v}" for k, v in fixed.items()))
    return HeatPlan(sel, xcol, ycol, prop, var, x_texts, y_texts, rate, low, high, runs, fixed, title or head,
                    " · ".join(s for s in sub if s))


def _tick_text(col: units.Column, text: str) -> str:
    return units.format_number(col.number(text)) if col.numeric else text


def draw_heatmap(plan: HeatPlan) -> Figure:
    """The heat map figure. Call inside ``style.context()`` (``render`` does)."""
    ny, nx = plan.rate.shape
    cell = 0.62 if nx * ny <= 64 else 0.42 if nx * ny <= 400 else 0.25
    axes_w, axes_h = max(4.6, nx * cell * 1.3), max(2.6, ny * cell)
    left, right, bottom = 1.35, 1.45, 0.85
    width = left + axes_w + right
    title = textwrap.wrap(plan.title, int(width * 9.5), break_on_hyphens=False) or [""]
    subtitle = textwrap.wrap(plan.subtitle, int(width * 15), break_on_hyphens=False) or [""]
    top_in = 0.45 + 0.24 * len(title) + 0.17 * len(subtitle)
    height = top_in + axes_h + bottom
    fig = Figure(figsize=(width, height))
    ax = fig.add_axes([left / width, bottom / height, axes_w / width, axes_h / height])
    cmap = colormaps[HEATMAP_CMAP]
    norm = matplotlib.colors.Normalize(vmin=0, vmax=RATE_AXIS_MAX)  # fixed: see RATE_AXIS_MAX
    masked = np.ma.masked_invalid(plan.rate)
    image = ax.imshow(masked, cmap=cmap, norm=norm, origin="lower", aspect="auto", interpolation="nearest",
                      extent=(-0.5, nx - 0.5, -0.5, ny - 0.5))
    for i in range(ny):
        for j in range(nx):
            if (plan.cell(i, j), plan.prop) in plan.gaps:  # its story may not have happened in enough runs
                ax.add_patch(Rectangle((j - 0.44, i - 0.44), 0.88, 0.88, fill=False, ls=(0, (3, 2)), lw=1.4, zorder=3,
                                       edgecolor=style.text_on(matplotlib.colors.to_hex(cmap(norm(plan.rate[i, j]))))))
            if np.isnan(plan.rate[i, j]):
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor="#F2F2F2", edgecolor="#BBBBBB",
                                       hatch="///", lw=0.5))
                if nx * ny <= 150:
                    ax.text(j, i, "no runs", ha="center", va="center", fontsize=7, color=style.NOTE)
                continue
            if nx * ny > 150:
                continue
            colour = style.text_on(matplotlib.colors.to_hex(cmap(norm(plan.rate[i, j]))))
            text = f"{plan.rate[i, j]:.0f} %" if plan.rate[i, j] >= 1 or plan.rate[i, j] == 0 else \
                f"{plan.rate[i, j]:.1f} %"
            if nx * ny <= 30:
                ax.text(j, i + 0.1, text, ha="center", va="center", fontsize=9, color=colour, fontweight="bold")
                ax.text(j, i - 0.2, f"[{plan.low[i, j]:.0f}–{plan.high[i, j]:.0f}]", ha="center", va="center",
                        fontsize=7, color=colour)
            else:
                ax.text(j, i, text, ha="center", va="center", fontsize=7.5, color=colour)
    ax.set_xticks(range(nx), [_tick_text(plan.x, t) for t in plan.x_texts],
                  rotation=0 if nx <= 12 else 90)
    ax.set_yticks(range(ny), [_tick_text(plan.y, t) for t in plan.y_texts])
    ax.tick_params(axis="both", length=0, labelsize=8.5)
    ax.set_xlabel(plan.x.label())
    # On two lines: a vertical "what it means  ·  key" is often taller than a few rows of cells, and runs into the
    # subtitle above them.
    ax.set_ylabel(plan.y.label().replace("  ·  ", "\n"))
    for s in ax.spines.values():
        s.set_visible(False)
    cax = fig.add_axes([(left + axes_w + 0.3) / width, bottom / height, 0.18 / width, axes_h / height])
    bar = fig.colorbar(image, cax=cax)
    bar.set_label(f"share of runs that violate {plan.prop}\n(scale fixed at 0–100 %)", fontsize=8.5)
    bar.ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{v:g} %"))
    bar.ax.tick_params(labelsize=8)
    bar.outline.set_visible(False)
    y = 1 - 0.15 / height
    fig.text(0.15 / width, y, "\n".join(title), fontsize=12, fontweight="bold", va="top", ha="left",
             linespacing=1.25)
    y -= (0.24 * len(title) + 0.08) / height
    fig.text(0.15 / width, y, "\n".join(subtitle), fontsize=8.5, color=style.NOTE, va="top", ha="left",
             linespacing=1.35)
    _draw_notes(fig, plan.notes, 0.15 / width, int(width * 15))
    return fig


# --- output and command line ----------------------------------------------------------


def render(fig_maker, outs: Sequence[Union[str, Path]]) -> list[Path]:
    """Calls ``fig_maker()`` under locksim's style and writes each of ``outs`` (.png or .svg)."""
    paths = [Path(o) for o in outs]
    for path in paths:
        if path.suffix.lower() not in OUTPUT_SUFFIXES:
            raise SweepError(f"{path}: unsupported output type (use .png or .svg)")
    with style.context():
        fig = fig_maker()
        for path in paths:
            path.parent.mkdir(parents=True, exist_ok=True)
            fmt = path.suffix.lower().lstrip(".")
            fig.savefig(path, format=fmt, bbox_inches="tight", pad_inches=0.15, **_metadata(fmt))
    return paths


def _metadata(fmt: str) -> dict:
    """No date in an SVG: the same sweep gives the same file (with style's fixed svg.hashsalt)."""
    return {"metadata": {"Date": None}} if fmt == "svg" else {}


def figure_bytes(fig_maker, fmt: str = "png") -> bytes:
    """The figure as PNG or SVG bytes (for embedding in a report or a notebook)."""
    import io
    buf = io.BytesIO()
    with style.context():
        fig_maker().savefig(buf, format=fmt, bbox_inches="tight", pad_inches=0.15, **_metadata(fmt))
    return buf.getvalue()



def _parser() -> argparse.ArgumentParser:
    p = OneLineParser(prog="sweep_plots", description="Plot a locksim sweep CSV: violation rate against one key "
                                                "(curve) or over two keys (heatmap).")
    sub = p.add_subparsers(dest="command", required=True,
                           parser_class=functools.partial(OneLineParser, name="sweep_plots"))
    common = OneLineParser(add_help=False, name="sweep_plots")
    common.add_argument("csv", help="the sweep's results (locksim sweep ... --out results.csv)")
    common.add_argument("--x", required=True, metavar="KEY", help="the swept key on the x axis, e.g. lock.ttl")
    common.add_argument("--out", action="append", required=True, metavar="FILE",
                        help="output file, .png or .svg; repeat for several")
    common.add_argument("--where", action="append", default=[], metavar="KEY=VALUE",
                        help="keep only rows where a swept key has this value (fixes a key the plot does not show)")
    common.add_argument("--title", help="title (default: says what was swept)")
    c = sub.add_parser("curve", parents=[common], help="violation rate against one key, with Wilson bands")
    c.add_argument("--property", action="append", default=[], choices=list(PROPERTIES), metavar="NAME",
                   help="property to draw (repeat; default all). One of: " + ", ".join(PROPERTIES))
    c.add_argument("--variant", action="append", default=[], metavar="NAME", help="variant(s) to draw")
    c.add_argument("--by", default="property", metavar="property|variant|KEY",
                   help="one line per property (default), per variant, or per value of another swept key")
    scale = c.add_mutually_exclusive_group()
    scale.add_argument("--log-x", dest="log_x", action="store_const", const=True, default=None,
                       help="log x axis (default: when the values grow geometrically)")
    scale.add_argument("--linear-x", dest="log_x", action="store_const", const=False, help="linear x axis")
    h = sub.add_parser("heatmap", parents=[common], help="one property's violation rate over two keys")
    h.add_argument("--y", required=True, metavar="KEY", help="the swept key on the y axis")
    h.add_argument("--property", choices=list(PROPERTIES), metavar="NAME",
                   help="the property (default: the one violated most often)")
    h.add_argument("--variant", metavar="NAME", help="the variant (needed when the sweep has several)")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = _parser().parse_args(argv)
    try:
        for out in args.out:
            if Path(out).suffix.lower() not in OUTPUT_SUFFIXES:
                raise SweepError(f"{out}: unsupported output type (use .png or .svg)")
        sweep = load(args.csv)
        warn = lambda w: print(f"sweep_plots: warning: {w}", file=sys.stderr)  # noqa: E731
        if args.command == "curve":
            plan = curve_series(sweep, args.x, args.property, args.by, args.variant, args.where, args.log_x,
                                args.title)
            annotate(plan, args.csv, [plan.prop] if plan.prop else (args.property or sweep.properties), warn)
            render(lambda: draw_curve(plan), args.out)
        else:
            plan = heat_grid(sweep, args.x, args.y, args.property, args.variant, args.where, args.title)
            annotate(plan, args.csv, [plan.prop], warn)
            render(lambda: draw_heatmap(plan), args.out)
    except (SweepError, OSError, ValueError) as e:
        print(f"sweep_plots: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
