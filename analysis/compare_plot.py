"""The verdict matrix of ``locksim compare``: the same stories against every lock service, as heat maps.

``locksim compare FILE... --out cells.csv`` writes one row per (story, variant)::

    scenario,variant,runs,grant-exclusive.violated,grant-exclusive.rate,...,invariant.first_seed,fault.NAME.fired,...,file

(the results vocabulary of docs/results.md, read by ``analysis/results.py``).

This draws one panel per property — rows the stories, columns the services (every variant seen, in first-seen
order) — each cell coloured by the share of runs that violated the property and annotated with it. The colour
scale is fixed at 0 to 100 % in every panel, so an all-zero panel stays white instead of being stretched into a
misleading range; a story that lacks a service shows a grey "—". A cell where one of the story's faults fired in too
few of its runs for its number to mean what it shows (``provenance.gap_matters``, the rule behind ``locksim
compare``'s notes) gets a dashed outline, and the footer names the fewest; every fault in the CSV counts as one the
story needs, as in the compare stories, which list all of theirs in ``[expect] fired`` (the CSV does not say).

CLI::

    /usr/bin/python3 analysis/compare_plot.py cells.csv --out matrix.png [--out matrix.svg] [--title TEXT]

Exit status: 0 drawn; 2 bad input (missing file, not a compare CSV), one line on stderr.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence, Union

if __package__ in (None, ""):  # run as a script: make `analysis` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
if __name__ == "__main__":  # a command: say what to install rather than fail inside the imports below
    from analysis.dependencies import exit_if_missing
    exit_if_missing("compare_plot")

import matplotlib.colors  # noqa: E402
import matplotlib.patches  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from analysis.command_line import OneLineParser  # noqa: E402
from analysis import provenance, results, style  # noqa: E402

PROPERTIES = [("P1", "grant-exclusive"), ("P2", "belief-exclusive"), ("P3", "resource-exclusive"),
              ("P4", "resource-current"), ("P5", "invariant")]
OUTPUT_SUFFIXES = (".png", ".svg")


class CompareError(Exception):
    """Bad input: the message is one line for the user."""


@dataclass
class Matrix:
    stories: list[str]
    services: list[str]
    runs: dict[tuple[str, str], int]
    rates: dict[tuple[str, str, str], float]  # (story, service, property id) -> share of runs
    violations: dict[tuple[str, str, str], int] = field(default_factory=dict)  # (story, service, property id)
    fired: dict[tuple[str, str], list[tuple[str, int]]] = field(default_factory=dict)  # per fault: runs it fired in

    def rate(self, story: str, service: str, pid: str) -> Optional[float]:
        return self.rates.get((story, service, pid))


@dataclass(frozen=True)
class Gap:
    """A cell whose numbers a fault that fired in too few of its runs could change (provenance.gap_matters)."""

    story: str
    service: str
    fault: str
    fired: int
    runs: int
    pids: tuple[str, ...]


def gaps(matrix: Matrix) -> list[Gap]:
    """Every (cell, fault) whose missing runs could change the cell's number for some property, fewest first."""
    out = []
    for (story, service), faults in matrix.fired.items():
        runs = matrix.runs[(story, service)]
        for fault, fired in faults:
            pids = tuple(pid for pid, _ in PROPERTIES if (story, service, pid) in matrix.violations and
                         provenance.gap_matters(runs, matrix.violations[(story, service, pid)], fired))
            if pids:
                out.append(Gap(story, service, fault, fired, runs, pids))
    return sorted(out, key=lambda g: g.fired / g.runs)


def load(path: Union[str, Path]) -> Matrix:
    """Reads a ``locksim compare --out`` CSV."""
    try:
        frame = results.read_csv(path)
    except results.ResultsError as e:
        raise CompareError(str(e)) from None
    needed = {"scenario", "variant", "runs"} | {f"{name}.rate" for _, name in PROPERTIES}
    if frame.empty or not needed <= set(frame.columns):
        raise CompareError(f"{path}: not a locksim compare CSV (expected the columns {', '.join(sorted(needed))})")
    matrix = Matrix([], [], {}, {})
    faults = [c[len("fault."):-len(".fired")] for c in frame.columns if c.startswith("fault.") and c.endswith(".fired")]
    for r in frame.to_dict("records"):
        story, service = r["scenario"], r["variant"]
        if story not in matrix.stories:
            matrix.stories.append(story)
        if service not in matrix.services:
            matrix.services.append(service)
        runs = matrix.runs[(story, service)] = int(r["runs"])
        for pid, name in PROPERTIES:
            matrix.rates[(story, service, pid)] = float(r[f"{name}.rate"])
            if f"{name}.violated" in r and r[f"{name}.violated"] == r[f"{name}.violated"]:  # not NaN
                matrix.violations[(story, service, pid)] = int(r[f"{name}.violated"])
        # fault.NAME.fired: the share of the row's runs; empty (NaN) where the row's story lacks the fault.
        for fault in faults:
            share = r[f"fault.{fault}.fired"]
            if share == share:
                matrix.fired.setdefault((story, service), []).append((fault, round(float(share) * runs)))
    return matrix


def _cell_text(rate: float) -> str:
    if rate == 0:
        return "0"
    return f"{rate * 100:.0f}%" if rate >= 0.1 else f"{rate * 100:.1f}%"


def draw(matrix: Matrix, title: Optional[str] = None) -> Figure:
    """One heat map per property, stories down, services across, a shared fixed 0–100 % scale."""
    n_rows, n_cols = len(matrix.stories), len(matrix.services)
    cell_w, cell_h = 0.62, 0.34
    fig = Figure(figsize=(len(PROPERTIES) * (n_cols * cell_w + 0.4) + 2.0, n_rows * cell_h + 2.2))
    cmap = matplotlib.colors.LinearSegmentedColormap.from_list("violations", ["#FFFFFF", style.VIOLATION])
    axes = fig.subplots(1, len(PROPERTIES), sharey=True)
    doubtful = gaps(matrix)
    for ax, (pid, name) in zip(axes, PROPERTIES):
        grid = [[matrix.rate(s, v, pid) for v in matrix.services] for s in matrix.stories]
        values = [[0.0 if x is None else x for x in row] for row in grid]
        ax.imshow(values, cmap=cmap, vmin=0.0, vmax=1.0, aspect="auto")
        for g in doubtful:
            if pid in g.pids:
                i, j = matrix.stories.index(g.story), matrix.services.index(g.service)
                ax.add_patch(matplotlib.patches.Rectangle((j - 0.45, i - 0.42), 0.9, 0.84, fill=False, lw=1.2,
                                                          ls=(0, (3, 2)), edgecolor=style.NOTE))
        for i, row in enumerate(grid):
            for j, rate in enumerate(row):
                if rate is None:
                    ax.add_patch(matplotlib.patches.Rectangle((j - 0.5, i - 0.5), 1, 1, color="#E0E0E0"))
                    ax.text(j, i, "—", ha="center", va="center", fontsize=7, color=style.NOTE)
                    continue
                fill = cmap(rate)
                ax.text(j, i, _cell_text(rate), ha="center", va="center", fontsize=7,
                        color=style.text_on(matplotlib.colors.to_hex(fill)))
        ax.set_title(f"{pid} {name}", fontsize=9)
        ax.set_xticks(range(n_cols))
        # Upright labels would need wide columns; slanted ones' boxes overlap their neighbours'.
        ax.set_xticklabels(matrix.services, rotation=90, fontsize=7)
        ax.set_yticks(range(n_rows))
        ax.set_yticklabels(matrix.stories, fontsize=8)
        ax.tick_params(length=0)
        for spine in ax.spines.values():
            spine.set_visible(False)
    runs = sorted(set(matrix.runs.values()))
    fig.suptitle(title or "The same stories against every lock service: share of runs violating each property",
                 fontsize=11, y=0.99)
    notes = [f"{'/'.join(map(str, runs))} runs per cell · colour fixed at 0 (white) to 100 % · "
             f"— = the story has no such variant"]
    if doubtful:
        g = doubtful[0]
        notes.append(f"dashed outline: a fault the story needs fired in too few of the cell's runs for its number to "
                     f"mean what it shows (the fewest: {g.fault} in {provenance.share_text(g.fired, g.runs)} of "
                     f"{g.service}'s runs, {g.story}); locksim compare's notes name each")
    style.footer(fig, axes[0].get_position().x0, "\n".join(notes), fontsize=7, color=style.NOTE, linespacing=1.4)
    return fig


def render(matrix: Matrix, outs: Sequence[Union[str, Path]], title: Optional[str] = None) -> list[Path]:
    paths = [Path(o) for o in outs]
    for path in paths:
        if path.suffix.lower() not in OUTPUT_SUFFIXES:
            raise CompareError(f"{path}: unsupported output type (use .png or .svg)")
    with style.context():
        fig = draw(matrix, title)
        for path in paths:
            path.parent.mkdir(parents=True, exist_ok=True)
            fig.savefig(path, format=path.suffix.lower().lstrip("."), bbox_inches="tight", pad_inches=0.15)
    return paths


def figure_bytes(matrix: Matrix, fmt: str = "png") -> bytes:
    """The figure as PNG or SVG bytes (for the review report)."""
    import io
    buf = io.BytesIO()
    with style.context():
        draw(matrix).savefig(buf, format=fmt, bbox_inches="tight", pad_inches=0.15)
    return buf.getvalue()



def main(argv: Optional[Sequence[str]] = None) -> int:
    p = OneLineParser(prog="compare_plot.py", name="compare_plot",
                      description="Draw locksim compare's verdict matrix.")
    p.add_argument("csv", help="locksim compare ... --out cells.csv")
    p.add_argument("--out", action="append", required=True, metavar="FILE", help=".png or .svg (repeat)")
    p.add_argument("--title", help="title (default: says what it shows)")
    args = p.parse_args(argv)
    try:
        render(load(args.csv), args.out, args.title)
    except CompareError as e:
        print(f"compare_plot: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
