"""What a lock buys when the resource keeps the data right: the efficiency means of a sweep, as curves.

A transactional resource (``resource.policy = "transactional"``) stays consistent whatever the lock does; what
changes is how much work it throws away. ``locksim sweep`` writes, per cell, ``commits.mean``, ``rollbacks.mean``
and ``wasted_ms.mean`` (time spent in sessions that were rolled back). This draws them against one swept key,
one line per variant (each CSV may hold one or several; sweeps of different variants can have different columns,
so they are given as separate files): rollbacks per run, wasted work per run, and committed throughput. An axis whose lines are all zero is drawn from 0 to 1, never
stretched to make nothing look like something.

CLI::

    /usr/bin/python3 analysis/efficiency_plot.py base.csv no-lock.csv ... --x service.backend.latency --out eff.png
        [--out eff.svg]
        [--title TEXT]

Exit status: 0 drawn; 2 bad input, one line on stderr.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional, Sequence

if __package__ in (None, ""):  # run as a script: make `analysis` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
if __name__ == "__main__":  # a command: say what to install rather than fail inside the imports below
    from analysis.dependencies import exit_if_missing
    exit_if_missing("efficiency_plot")

from matplotlib.figure import Figure  # noqa: E402

from analysis import style, units  # noqa: E402
from analysis.sweep_data import Sweep, SweepError, load  # noqa: E402

PANELS = [("rollbacks.mean", "rollbacks per run"), ("wasted_ms.mean", "wasted work per run (ms)"),
          ("committed_per_s.mean", "committed sessions per second")]
MARKERS = "osD^vP"


def lines(sweep: Sweep, x: str) -> list[tuple[str, list[float], dict[str, list[float]]]]:
    """Per (scenario, variant): its label, the x values in order, and each panel's means at those x."""
    for column, _ in PANELS:
        if column not in sweep.frame:
            raise SweepError(f"{sweep.source}: no {column} column (a sweep CSV of format 3 or later has it)")
    col = sweep.column(x)
    others = [k for k in sweep.keys if k != x]
    for k in others:
        if sweep.frame[k].nunique() > 1:
            raise SweepError(f"{sweep.source}: {k} takes several values; sweep one key (or filter the CSV)")
    many = len(sweep.scenarios) > 1
    out = []
    for (scenario, variant), rows in sweep.frame.groupby(["scenario", "variant"], sort=False):
        rows = rows.assign(_x=[col.number(t) for t in rows[x]]).sort_values("_x")
        label = f"{scenario} · {variant}" if many else variant
        out.append((label, list(rows["_x"]), {c: list(rows[c]) for c, _ in PANELS}))
    return out


def draw(sweeps: Sequence[Sweep], x: str, title: Optional[str] = None) -> Figure:
    data = [line for sweep in sweeps for line in lines(sweep, x)]
    sweep = sweeps[0]
    fig = Figure(figsize=(15.0, 4.4))
    axes = fig.subplots(1, len(PANELS))
    for ax, (column, ylabel) in zip(axes, PANELS):
        top = 0.0
        for i, (label, xs, ys) in enumerate(data):
            ax.plot(xs, ys[column], color=style.client_colour(i), marker=MARKERS[i % len(MARKERS)], lw=1.8, ms=5,
                    label=label)
            top = max(top, max(ys[column], default=0.0))
        ax.set_ylim(0, top * 1.1 if top > 0 else 1.0)
        ax.set_ylabel(ylabel)
        ax.set_xlabel(sweep.column(x).label())
        if units.is_geometric(sorted({v for _, xs, _ in data for v in xs})):
            ax.set_xscale("log")
        ax.grid(color=style.GRID, lw=0.6)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
    axes[-1].legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0, title="variant")
    runs = sorted({int(r) for s in sweeps for r in s.frame["runs"]})
    fig.suptitle(title or f"What the resource threw away, against {x}", fontsize=12, x=0.08, ha="left")
    style.footer(fig, axes[0].get_position().x0, f"{'/'.join(map(str, runs))} runs per point · "
                 f"{', '.join(s.source for s in sweeps)}", fontsize=7, color=style.NOTE)
    return fig


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="efficiency_plot.py", description="Draw a sweep's efficiency means.")
    p.add_argument("csv", nargs="+", help="one or more sweep CSVs (locksim sweep --out)")
    p.add_argument("--x", required=True, metavar="KEY")
    p.add_argument("--out", action="append", required=True, metavar="FILE", help=".png or .svg (repeat)")
    p.add_argument("--title")
    args = p.parse_args(argv)
    try:
        sweeps = [load(path) for path in args.csv]
        with style.context():
            fig = draw(sweeps, args.x, args.title)
            for out in args.out:
                path = Path(out)
                if path.suffix.lower() not in (".png", ".svg"):
                    raise SweepError(f"{out}: unsupported output type (use .png or .svg)")
                path.parent.mkdir(parents=True, exist_ok=True)
                fig.savefig(path, format=path.suffix.lower().lstrip("."), bbox_inches="tight", pad_inches=0.15)
    except (SweepError, OSError, ValueError) as e:
        print(f"efficiency_plot: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
