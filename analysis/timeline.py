"""The timeline of one run: who believed it held the lock, who really held it, when.

A lock is unsafe when three clocks disagree: the client's belief ("I hold
it"), the lock service's state ("a quorum of nodes holds your value") and what
the protected resource actually accepted. A design reviewer sees a violation
the moment those are drawn on one true-time axis — Kleppmann's GC pause is a
client bar that runs on through a grey pause long after the node's bar has
ended, with another client's bar and a late write inside it.

So the picture has one swimlane per client, per Redis node, per sentinel,
per called service and for the resource, x = true time in seconds:

- client lane: a solid bar for the session's belief interval as the checkers
  judged it (from the grant to its release, a validity check that found the
  lease over, a crash, or the end of the run), labelled with its session,
  fencing token and how often it was renewed; a hatched outline for its
  promised window as property P1 reads it (grant until the client's own clock
  says the validity is over, ended early by a release). Lease extensions grow
  the window: the part they added is hatched the other way, each renewal is a
  tick down from the window's top edge, a failed one a red tick; a renewal
  after the lease had lapsed starts a new piece. A grant already over when
  acquire returned is labelled "expired at grant" in red. Grey pauses;
  crashes (X), restarts, clock faults (a slew is a line for as long as it
  lasts), and a tick per acquire attempt.
- node lane: a bar for each stretch in which the node holds a lock value,
  coloured by the client whose value it is (matched to the grant, or to the
  client that sent SET with it when that attempt never became a grant),
  labelled with whose it is and the reason it went (expired, deleted,
  overwritten, lost-in-crash, demoted; "deleted by c1" in red when another
  client's DEL removed it). A client retrying fast (Redlock's failed
  attempts on a minority) leaves many slivers: those closer together than a
  label could tell apart at the zoom shown become one dotted bar, "c2 · 11
  failed attempts". Granted values are labelled first.
- service holder lane (when the lock service has several nodes): which
  session's value a quorum of the nodes holds, as the checkers saw it — what
  property P4 asks at every accepted op.
- replicated deployments: node lanes are labelled with each node's first
  role, "M (master)" / "R (replica)". A replica's copy of a lock value (from
  its "replicated" lines) is a lighter, dashed bar in the owner's colour,
  "c1 · replica copy · lag 11 ms": the lag is how long after the master's bar
  began the copy arrived, the window in which a master crash loses the lock.
  Each role change is a triangle on the node's lane (up: "promoted to master,
  epoch 1 · inherits c1's value" or "· had no copy of the lock"; down:
  "demoted: replica of R, epoch 1"), and a promotion is a dashed line across
  the Redis and sentinel lanes.
- sentinel lanes (one each, or one shared lane for more than three or when
  none of them did anything): what each saw and did, from the messages it
  sent — its first
  is-master-down-by-addr (SDOWN), its request for votes, its vote,
  REPLICAOF orders and +switch-master — each a small marker, labelled above
  (seen) and below (done).
- service lanes (processes of kind "service", e.g. an identity service):
  each call as a line in the caller's colour from the call to the answer,
  "c1: answered after 30 s", over the grey of the service's pauses.
- resource lane: each operation as a dot in its client's colour, filled if
  accepted, hollow with a red edge if rejected; ops at one instant share a
  stacked label ("read stock 1 ×3 (c1, c2, c3)", "c3 decrement stock -2"). Left out
  when nothing was done to a resource and there is no application.
- a network lane, only when there are partitions or dropped messages: each
  partition's bar names who was on which side, as its fault line records it
  ("partition 0 (drop): {M, c1} | {R, s1, s2, s3, c2}"; partitions that start
  and heal together share one bar); runs of drops (sentinels pinging a dead
  master) are one line with a count.

Each violated property gets a red vertical line at its first witness,
labelled P1..P5, and the witness texts are printed under the plot: from the
trace's own verdict lines, or from ``--verdicts`` (the simulator's ``--json``
output) when given.

Labels never overlap: the painter places each as a box (its measured width
and line height) on the first of its rows that is free, and leaves it out
otherwise. Written as .svg, every mark a reviewer would point at carries a
``<title>`` that a browser shows on hover, with the facts behind it: a
belief's session, token, true-time span and why it ended; a promised window's
span; whose value a node held, when and why it went; an op's client, token
and whether it was accepted or why not; a pause, crash or clock fault; a
partition's sides; a violation's property and witness. The same trace gives
the same SVG, byte for byte.

Python draws what C++ judged. Belief intervals, promised windows, the service
holder, node roles and verdicts are the trace's *judged lines*, written by
the simulator after its checkers ran (docs/trace.md); nothing
here computes them again, and no message's ``msg`` text is parsed (messages
are read by their payload fields). A trace without judged lines (written by
an older locksim) is refused with a message saying so: re-run locksim to get
one.

The work is split by job: ``timeline_model`` and ``timeline_replication``
turn records into plain data (``belief_intervals``, ``window_bands``,
``hold_intervals``, ``group_failed_attempts``, ``pause_intervals``,
``slew_intervals``, ``role_changes``, ``replica_copies``,
``sentinel_events``, ``service_calls``, ``message_bursts``,
``op_clusters``...) that tests check without plotting;
``timeline_layout`` chooses the lanes and the legend; ``timeline_paint``
(with ``timeline_paint_failover``) paints; ``timeline_tips`` words the hover
texts and ``timeline_svg`` writes them into the SVG; this module assembles
the figure, writes files and is the command line. Very short spans are widened to a
sliver so they stay visible; zoom with ``--from/--to`` to see their true
width.

CLI::

    /usr/bin/python3 analysis/timeline.py TRACE.jsonl --out timeline.png [--out timeline.svg]
        [--verdicts run.json [--variant base]] [--title TEXT] [--from 0 --to 30]

Exit status: 0 drawn; 2 bad input (missing or malformed file, a trace without judged lines, bad option).
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path
from typing import Optional, Sequence

if __package__ in (None, ""):  # run as a script: make `analysis` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
if __name__ == "__main__":  # a command: say what to install rather than fail inside the imports below
    from analysis.dependencies import exit_if_missing
    exit_if_missing("timeline")

from matplotlib.figure import Figure  # noqa: E402  (no pyplot: no global state, Agg by default)
from matplotlib.ticker import AutoMinorLocator  # noqa: E402

from analysis.command_line import OneLineParser  # noqa: E402
from analysis import style  # noqa: E402
from analysis.timeline_layout import (  # noqa: E402
    BOTTOM_INCH, FIG_WIDTH, LANE_INCH, LEFT_INCH, RIGHT_INCH, TOP_INCH, WITNESS_LINE_INCH, lanes)
from analysis.timeline_model import final_app_note, fmt_duration, fmt_time, partition_intervals, seconds  # noqa: E402
from analysis.timeline_paint import Painter  # noqa: E402
from analysis.timeline_replication import NETWORK_TYPES, initial_roles  # noqa: E402
from analysis.timeline_svg import Tooltips, write_svg  # noqa: E402
from analysis.trace import Message, PropertyVerdict, Trace, TraceError, load, load_verdicts  # noqa: E402

__all__ = ["draw", "draw_with_tooltips", "render", "main", "default_title", "subtitle", "fmt_duration", "fmt_time",
           "OUTPUT_SUFFIXES"]

OUTPUT_SUFFIXES = (".png", ".svg")


def _witness_lines(verdicts: Sequence[PropertyVerdict], variant: Optional[str], x0: float, x1: float,
                   wrap: int = 180) -> list[tuple[str, str]]:
    """(text, colour) lines for under the plot: a summary, then each violation's first witness."""
    violated = [v for v in verdicts if v.violated]
    holds = [v for v in verdicts if not v.violated]
    summary = f"Verdicts ({variant}): " if variant else "Verdicts: "
    summary += ("violated " + ", ".join(f"{v.id} {v.name}" for v in violated)) if violated else "nothing violated"
    if holds:
        summary += "   ·   " + "; ".join(f"{v.id} {v.name}: {v.status}" for v in holds)
    lines = [(summary, "black")]
    for v in violated:
        head = f"{v.id} {v.name} ({v.count} violation{'s' if v.count != 1 else ''})"
        if v.witness_ns is not None:
            head += f" — first at {fmt_time(v.witness_ns)}"
            if not x0 <= seconds(v.witness_ns) <= x1:
                head += " (outside the window shown)"
        text = f"{head}: {v.witness_text}" if v.witness_text else head
        wrapped = textwrap.wrap(text, wrap, subsequent_indent="      ") or [text]
        lines += [(w, style.VIOLATION) for w in wrapped]
    return lines


def default_title(trace: Trace, variant: Optional[str]) -> str:
    # A checked history is named by its own file, not by the trace's.
    named = trace.run.history if trace.run.history is not None else trace.source
    stem = Path(named).stem if named else "locksim run"
    return f"{stem} · {variant}" if variant else stem


def subtitle(trace: Trace) -> str:
    run = trace.run
    n_nodes = len(trace.nodes)
    # A checked history has no seed: its file says what it is.
    first = "a recorded history" if run.history is not None else f"seed {run.seed}"
    parts = [first, f"{len(trace.clients)} client{'s' if len(trace.clients) != 1 else ''}"]
    roles = initial_roles(trace) if run.service_recorded else {}
    members = trace.run.names_of("store")
    if members:
        leaders = [n for n in members if roles.get(n) == "leader"]
        parts.append(f"consensus store {', '.join(members)}" + (f" ({leaders[0]} leads at the start)" if leaders else ""))
    elif roles:
        masters = [n for n in trace.nodes if roles.get(n) == "master"]
        replicas = [n for n in trace.nodes if roles.get(n) == "replica"]
        text = f"Redis master {', '.join(masters)}"
        if replicas:
            text += f" + replica{'s' if len(replicas) != 1 else ''} {', '.join(replicas)}"
        parts.append(text)
    else:
        parts.append(f"{n_nodes} Redis node{'s' if n_nodes != 1 else ''} (quorum {run.quorum})")
    if trace.sentinels:
        parts.append(f"{len(trace.sentinels)} sentinel{'s' if len(trace.sentinels) != 1 else ''}")
    if trace.services:
        parts.append(f"service{'s' if len(trace.services) != 1 else ''} {', '.join(trace.services)}")
    if run.app != "none":
        final = final_app_note(trace)
        parts.append(f"app: {run.app}" + (f", at the end {final}" if final else ""))
    parts.append(f"run ends at {fmt_time(trace.end_ns)}")
    return " · ".join(parts) + ("" if run.history is not None else "   —   x: true time")


def _default_window_end(trace: Trace, verdicts: Optional[Sequence[PropertyVerdict]], x0: float) -> float:
    """The whole run, unless it idles for most of its length: then stop a little after the last
    activity (and any violation witness), so a control run's half second is not a sliver."""
    end_s = seconds(trace.end_ns)
    last = seconds(trace.activity_end_ns)
    for v in verdicts or []:
        if v.violated and v.witness_ns is not None:
            last = max(last, seconds(v.witness_ns))
    x1 = end_s if last > 0.6 * end_s else min(end_s, last * 1.1 + 0.05 * end_s * (last == 0))
    return x1 if x1 > x0 else x0 + 1.0


def draw(trace: Trace, verdicts: Optional[Sequence[PropertyVerdict]] = None, variant: Optional[str] = None,
         title: Optional[str] = None, window: tuple[Optional[float], Optional[float]] = (None, None)) -> Figure:
    """The timeline figure of one run. ``window`` is (from, to) in seconds; None = the whole run. ``verdicts``:
    the violations to mark (``load_verdicts``); None = the trace's own verdict lines.

    Raises TraceError for a trace without judged lines. Call inside ``style.context()`` (``render`` does) so the
    figure gets locksim's defaults.
    """
    return draw_with_tooltips(trace, verdicts, variant, title, window)[0]


def draw_with_tooltips(trace: Trace, verdicts: Optional[Sequence[PropertyVerdict]] = None,
                       variant: Optional[str] = None, title: Optional[str] = None,
                       window: tuple[Optional[float], Optional[float]] = (None, None)) -> tuple[Figure, Tooltips]:
    """``draw``, with the hover texts of its marks, for ``analysis.timeline_svg.write_svg``."""
    trace.require_judged()
    if verdicts is None:
        verdicts = trace.verdicts()
    end_s = seconds(trace.end_ns)
    x0 = 0.0 if window[0] is None else float(window[0])
    x1 = (_default_window_end(trace, verdicts, x0) if window[1] is None else float(window[1]))
    if x1 <= x0:
        raise ValueError(f"empty time window: from {x0} s to {x1} s")
    has_network = bool(partition_intervals(trace)) or any(m.type in NETWORK_TYPES for m in trace.of(Message))
    shown = lanes(trace, has_network)
    name_in = max((len(l.text) for l in shown), default=1) * 10 * 0.6 / 72  # lane names are 10 pt
    left_in = max(LEFT_INCH, name_in + 0.75)
    axes_w_in = FIG_WIDTH - left_in - RIGHT_INCH
    wrap = int((FIG_WIDTH - left_in - 0.3) / (7.5 * 0.52 / 72))  # characters of 7.5-pt text that fit
    witness = _witness_lines(verdicts, variant, x0, x1, wrap) if verdicts else []

    axes_h = max(len(shown), 1) * LANE_INCH
    bottom = BOTTOM_INCH + (len(witness) * WITNESS_LINE_INCH + 0.25 if witness else 0.0)
    height = TOP_INCH + axes_h + bottom
    fig = Figure(figsize=(FIG_WIDTH, height))
    ax = fig.add_axes([left_in / FIG_WIDTH, bottom / height, axes_w_in / FIG_WIDTH, axes_h / height])
    pad = 0.012 * (x1 - x0)
    ax.set_xlim(x0 - pad, x1 + pad)
    ax.set_ylim(-0.5, max(len(shown), 1) - 0.5)
    ax.set_yticks([l.y for l in shown], [l.text for l in shown])
    ax.tick_params(axis="y", length=0, pad=6)
    ax.set_xlabel("the history's clock (s)" if trace.run.history is not None else "true time (s)")
    ax.ticklabel_format(axis="x", style="plain", useOffset=False)
    ax.xaxis.set_minor_locator(AutoMinorLocator())
    ax.grid(axis="x", color=style.GRID, lw=0.6, zorder=0)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)

    p = Painter(fig, ax, trace, shown, x0, x1, axes_w_in)
    p.backgrounds()
    if end_s < x1:
        ax.axvspan(end_s, x1 + pad, color="#EDEDED", zorder=1, lw=0)
        ax.text(end_s, 1.004, "run end", transform=ax.get_xaxis_transform(), fontsize=7, color=style.NOTE,
                ha="left", va="bottom")
    p.paint(verdicts)

    # Group labels to the left of the lane names.
    gx = -(name_in + 0.22) / axes_w_in
    replicated = bool(initial_roles(trace))
    node_group = ("store\nmembers" if trace.run.names_of("store") else
                  "Redis\nmaster / replica" if replicated else f"Redis nodes\nquorum {trace.run.quorum}")
    group_names = {"client": "clients",
                   "redis": node_group,
                   "sentinel": "Sentinel", "service": "services", "resource": "", "other": "other", "network": ""}
    for group, label in group_names.items():
        ys = [l.y for l in shown if l.group == group]
        if ys and label:
            ax.text(gx, (sum(ys) / len(ys) + 0.5) / len(shown), label, transform=ax.transAxes, rotation=90,
                    ha="center", va="center", fontsize=8, color=style.NOTE, linespacing=1.1)

    top = 1 - 0.14 / height
    fig.text(left_in / FIG_WIDTH, top, title or default_title(trace, variant), fontsize=13, fontweight="bold",
             va="top", ha="left")
    fig.text(left_in / FIG_WIDTH, top - 0.30 / height, subtitle(trace), fontsize=8.5, color=style.NOTE, va="top",
             ha="left")
    p.legend((FIG_WIDTH - RIGHT_INCH + 0.2) / FIG_WIDTH)
    y = (bottom - BOTTOM_INCH - 0.1) / height
    for text, colour in witness:
        fig.text(left_in / FIG_WIDTH, y, text, fontsize=7.5, color=colour, va="top", ha="left")
        y -= WITNESS_LINE_INCH / height
    return fig, p.tips


def render(trace: Trace, outs: Sequence[str | Path], **kw) -> list[Path]:
    """Draws ``trace`` (see ``draw`` for options) and writes each of ``outs`` (.png / .svg; an SVG carries the
    marks' hover texts and is the same file for the same trace)."""
    paths = [Path(o) for o in outs]
    for path in paths:
        if path.suffix.lower() not in OUTPUT_SUFFIXES:
            raise ValueError(f"{path}: unsupported output type (use {' or '.join(OUTPUT_SUFFIXES)})")
    with style.context():
        fig, tips = draw_with_tooltips(trace, **kw)
        for path in paths:
            path.parent.mkdir(parents=True, exist_ok=True)
            # "tight" trims unused margin and keeps a legend taller than few lanes whole.
            if path.suffix.lower() == ".svg":
                write_svg(fig, path, tips, bbox_inches="tight", pad_inches=0.15)
            else:
                fig.savefig(path, format="png", bbox_inches="tight", pad_inches=0.15)
    return paths


# --- command line ----------------------------------------------------------------



def _parser() -> argparse.ArgumentParser:
    p = OneLineParser(prog="timeline", description="Draw the timeline of one locksim run from its trace (JSON Lines).")
    p.add_argument("trace", help="the run's trace (JSON Lines with judged lines, docs/trace.md)")
    p.add_argument("--out", action="append", required=True, metavar="FILE",
                   help="output file, .png or .svg; repeat for several")
    p.add_argument("--verdicts", metavar="FILE",
                   help="verdicts to mark instead of the trace's own (the simulator's --json output)")
    p.add_argument("--variant", metavar="NAME", help="which variant of the verdicts file (needed if it has several)")
    p.add_argument("--title", help="title (default: the trace's name and the variant)")
    p.add_argument("--from", dest="t_from", type=float, metavar="S", help="window start, seconds of true time")
    p.add_argument("--to", dest="t_to", type=float, metavar="S", help="window end, seconds of true time")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.variant and not args.verdicts:
            raise ValueError("--variant needs --verdicts")
        for out in args.out:
            if Path(out).suffix.lower() not in OUTPUT_SUFFIXES:
                raise ValueError(f"{out}: unsupported output type (use .png or .svg)")
        if args.t_from is not None and args.t_to is not None and args.t_to <= args.t_from:
            raise ValueError(f"--to ({args.t_to}) must be after --from ({args.t_from})")
        trace = load(args.trace)
        verdicts, variant = None, args.variant
        if args.verdicts:
            variant, verdicts = load_verdicts(args.verdicts, args.variant)
        render(trace, args.out, verdicts=verdicts, variant=variant, title=args.title,
               window=(args.t_from, args.t_to))
    except (TraceError, ValueError, OSError) as e:
        print(f"timeline: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
