"""The timeline's layout: which lanes, in which order, how tall things are, how marks look, what the legend says.

No drawing here beyond the legend's handles; ``analysis/timeline_paint.py`` paints into this layout.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from matplotlib.font_manager import FontProperties
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.textpath import TextToPath

from analysis import style
from analysis.timeline_replication import SENTINEL_EVENT_KINDS, initial_roles, sentinel_events
from analysis.trace import Fault, Op, Trace


@dataclass(frozen=True)
class Lane:
    name: str  # the process it belongs to (or "network", "sentinels", "holder")
    group: str  # client | redis | sentinel | service | resource | other | network
    y: float
    label: str = ""  # what the axis says, if not the name: "M (master)"

    @property
    def text(self) -> str:
        return self.label or self.name


# Vertical layout inside a lane of height 1 centred on y.
BELIEF_H = 0.26
WINDOW_H = 0.48
HOLD_H = 0.36
COPY_H = 0.30
SHADE_H = 0.92
REASON_BOX = dict(facecolor="white", edgecolor="none", pad=0.2, alpha=0.75)
# Label rows: (offset from the lane's centre, vertical alignment).
ROW_TOP = (0.29, "bottom")
ROW_MID = (0.0, "center")
ROW_LOW = (-0.37, "center")
MIN_WIDTH_FRACTION = 0.004  # of the window: narrower spans are widened to stay visible

LANE_INCH = 0.68
FIG_WIDTH = 12.5
LEFT_INCH, RIGHT_INCH = 1.45, 2.55  # the left margin grows with long lane names
TOP_INCH, BOTTOM_INCH = 1.0, 0.55
WITNESS_LINE_INCH = 0.19
MAX_SENTINEL_LANES = 3  # more sentinels than this share one lane
SENTINEL_CLUSTER_CHARS = 6  # sentinel events closer than this many 7-pt characters share one label
WINDOW_HATCH = {"grant": "////", "extension": "\\\\\\\\"}  # the promised window: the grant's, what extensions added

# Sentinel events: a marker each (drawn on the lane's centre line) and what the legend says.
SENTINEL_MARKS = {
    "sdown": dict(marker="o", ms=5.5, mfc="white", mec=style.ROLE, mew=1.2, color=style.ROLE),
    "ask-votes": dict(marker="s", ms=5, mfc=style.ROLE, mec="white", mew=0.5, color=style.ROLE),
    "vote": dict(marker="$\u2713$", ms=7, color=style.ROLE),
    "promote": dict(marker="*", ms=10, mfc=style.ROLE, mec="white", mew=0.5, color=style.ROLE),
    "reconfigure": dict(marker="P", ms=6.5, mfc=style.ROLE, mec="white", mew=0.5, color=style.ROLE),
    "switch": dict(marker="d", ms=6.5, mfc="white", mec=style.ROLE, mew=1.2, color=style.ROLE),
}
SENTINEL_LEGEND = {
    "sdown": "sentinel sees the master down (SDOWN)",
    "ask-votes": "sentinel starts a failover, asks votes",
    "vote": "sentinel votes for a leader",
    "promote": "sentinel: REPLICAOF NO ONE (promote)",
    "reconfigure": "sentinel: REPLICAOF <master>",
    "switch": "sentinel: +switch-master (new master)",
}


def has_holder_lane(trace: Trace) -> bool:
    """A lane for the service holder when the lock service has several nodes: then which value a quorum holds is
    not what any one node's lane shows. With one node its lane is the holder."""
    return len(trace.run.service_nodes) > 1


def lanes(trace: Trace, has_network: bool) -> list[Lane]:
    """Top down: clients, Redis nodes (labelled with their first role when replicated) and the service holder,
    sentinels, services, other processes with faults, the resource (when anything was done to it), the network."""
    # A checked history that does not record the service's keys: its nodes' lanes are empty for want of
    # records, not because nothing was held, and say so; no role is known either.
    recorded = trace.run.service_recorded
    roles = initial_roles(trace) if recorded else {}
    names: list[tuple[str, str, str]] = [(c, "client", "") for c in trace.clients]
    names += [(n, "redis", f"{n} ({roles[n]})" if n in roles else "" if recorded else f"{n} (not recorded)")
              for n in trace.nodes]
    if has_holder_lane(trace):
        names.append(("holder", "redis", "service holder" if recorded else "service holder (not recorded)"))
    sentinels = trace.sentinels
    # Sentinels that did nothing worth a mark (no master down, no failover, no fault on them) share one lane.
    quiet = not sentinel_events(trace) and not any(f.target in sentinels for f in trace.of(Fault))
    if len(sentinels) > MAX_SENTINEL_LANES or (quiet and len(sentinels) > 1):
        names.append(("sentinels", "sentinel", f"sentinels ×{len(sentinels)}"))
    else:
        names += [(s, "sentinel", "") for s in sentinels]
    names += [(s, "service", "") for s in trace.services]
    fault_targets = {f.target for f in trace.of(Fault) if f.target}
    names += [(p.name, "other", "") for p in trace.run.processes if p.kind == "other" and p.name in fault_targets]
    # Op lines do not name their resource: one lane holds them all. Without ops and without an application the
    # lane would stay empty (a control-plane story): left out.
    if trace.of(Op) or trace.run.app != "none":
        resources = trace.resources or ["resource"]
        names += [(r, "resource", "") for r in resources[:1]]
    if has_network:
        names.append(("network", "network", ""))
    n = len(names)
    return [Lane(name, group, float(n - 1 - i), label) for i, (name, group, label) in enumerate(names)]


_TEXT_TO_PATH = TextToPath()


@functools.lru_cache(maxsize=4096)
def text_points(s: str, fontsize: float, bold: bool) -> float:
    """The advance width of s in DejaVu Sans at fontsize, in points."""
    prop = FontProperties(family="DejaVu Sans", size=fontsize, weight="bold" if bold else "normal")
    return _TEXT_TO_PATH.get_text_width_height_descent(s, prop, ismath=False)[0]


@functools.lru_cache(maxsize=64)
def line_height_points(fontsize: float) -> float:
    """How tall matplotlib draws a one-line label in DejaVu Sans at fontsize, in points: it lays every line out at
    least as tall as "lp" (ascender to descender), and no label here has taller glyphs."""
    prop = FontProperties(family="DejaVu Sans", size=fontsize)
    return _TEXT_TO_PATH.get_text_width_height_descent("lp", prop, ismath=False)[1]


def legend_entries() -> list[tuple[str, object]]:
    """(key, handle) for everything the timeline may draw, in legend order; the painter shows those it used."""
    grey = "#6E6E6E"
    entries: list[tuple[str, object]] = [
        ("belief", Patch(facecolor=grey, edgecolor="black", lw=0.5, label="client believes it holds the lock")),
        ("window", Patch(facecolor="none", edgecolor=grey, hatch=WINDOW_HATCH["grant"],
                         label="promised validity window")),
        ("hold", Patch(facecolor=grey, alpha=0.9, label="node holds that client's value")),
        ("ungranted", Patch(facecolor="white", edgecolor=grey, hatch="....", label="… from an attempt that failed")),
        ("holder", Patch(facecolor=grey, edgecolor="black", lw=1.2, label="service holder: a quorum holds it")),
        ("extended", Patch(facecolor="none", edgecolor=grey, hatch=WINDOW_HATCH["extension"],
                           label="window added by extensions")),
        ("renewal", Line2D([], [], marker=3, ms=5, mew=1.6, ls="none", color="black", label="lease extended")),
        ("renewal-failed", Line2D([], [], marker=3, ms=5, mew=1.6, ls="none", color=style.VIOLATION,
                                  label="extension failed")),
        ("attempt", Line2D([], [], marker="|", ms=7, mew=1.4, ls="none", color=grey, label="acquire attempt")),
        ("pause", Patch(facecolor=style.PAUSE, label="paused")),
        ("down", Patch(facecolor="white", edgecolor=style.DOWN, hatch="xx", lw=0, label="crashed (down)")),
        ("crash", Line2D([], [], marker="X", ms=8, ls="none", color=style.FAULT, label="crash")),
        ("restart", Line2D([], [], marker=">", ms=7, ls="none", color=style.FAULT, label="restart")),
        ("clock", Line2D([], [], marker="D", ms=5, ls="none", color=style.FAULT, label="clock jump / drift / slew")),
        ("accepted", Line2D([], [], marker="o", ms=7, ls="none", color=grey, mec="black", mew=0.6,
                            label="op accepted")),
        ("rejected", Line2D([], [], marker="o", ms=7, ls="none", mfc="white", mec=style.VIOLATION, mew=1.8,
                            label="op rejected")),
        ("partition", Patch(facecolor=style.PARTITION, edgecolor="#707070", lw=0.6, label="network partition")),
        ("dropped", Line2D([], [], marker="x", ms=5, mew=1.1, ls="none", color=style.VIOLATION,
                           label="message dropped")),
        ("held", Line2D([], [], marker="s", ms=4.5, ls="none", mfc="none", color=style.NOTE, label="message held")),
        ("copy", Patch(facecolor=style.tint(grey), edgecolor=grey, ls=(0, (3, 1.5)),
                       label="replica's copy of that client's value")),
        ("promotion", Line2D([], [], color=style.ROLE, lw=0.9, ls=(0, (4, 2.5)), label="promotion to master")),
        ("election", Line2D([], [], color=style.ROLE, lw=0.9, ls=(0, (4, 2.5)), label="a new leader elected")),
        ("role-up", Line2D([], [], marker="^", ms=6.5, ls="none", color=style.ROLE, label="node promoted")),
        ("role-down", Line2D([], [], marker="v", ms=6.5, ls="none", color=style.ROLE,
                             label="node demoted / re-pointed")),
    ]
    entries += [(f"sentinel-{kind}", Line2D([], [], ls="none", label=SENTINEL_LEGEND[kind], **SENTINEL_MARKS[kind]))
                for kind in SENTINEL_EVENT_KINDS]
    entries += [
        ("call", Line2D([], [], color=grey, lw=2.2, marker=5, ms=6, mec="black", mew=0.5,
                        label="call to a service → its answer")),
        ("violation", Line2D([], [], color=style.VIOLATION, lw=1.4, label="violation (first witness)")),
    ]
    return entries
