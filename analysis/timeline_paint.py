"""Painting one trace onto one matplotlib axes: the timeline's painter.

The painter draws the plain data of ``analysis/timeline_model.py`` and ``analysis/timeline_replication.py`` into
the lanes of ``analysis/timeline_layout.py``; replicated deployments, Sentinel and services are painted by the
``FailoverPainting`` part (``analysis/timeline_paint_failover.py``). It decides nothing about the run: beliefs,
promised windows, the service holder and the verdicts are the checkers' (the trace's judged lines).
"""

from __future__ import annotations

from typing import Optional, Sequence

from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from analysis import style
from analysis.timeline_layout import (
    BELIEF_H, HOLD_H, LANE_INCH, MIN_WIDTH_FRACTION, REASON_BOX, ROW_LOW, ROW_MID, ROW_TOP, SHADE_H, TOP_INCH,
    WINDOW_H, WINDOW_HATCH, Lane, legend_entries, line_height_points, text_points)
from analysis.timeline_model import (
    NS_PER_S, Belief, Span, belief_intervals, cluster_lines, down_intervals, failed_renewals, fmt_drift,
    fmt_duration, fmt_time, group_failed_attempts, groups_text, hold_intervals, holder_intervals, op_clusters,
    op_text, ops_with_state, partition_groups, partition_intervals, pause_intervals, reasons_text, seconds,
    slew_intervals, window_bands)
from analysis.timeline_paint_failover import FailoverPainting
from analysis.timeline_replication import message_bursts, replica_copies, role_changes
from analysis.timeline_svg import Tooltips
from analysis.timeline_tips import (
    attempt_tip, belief_tip, burst_tip, fault_tip, hold_tip, holder_tip, op_tip, partition_tip, shade_tip, slew_tip,
    violation_tip, window_tip)
from analysis.trace import Fault, GiveUp, Invoke, PropertyVerdict, Trace

# How a belief's end reads on its bar: the judged stop, in the picture's words.
STOP_TEXT = {"client-crash": "crashed"}
# Half the height of a crash or restart marker (9 pt), in lane units: the bar line's labels keep clear of it.
MARKER_HALF = 4.5 / 72 / LANE_INCH


class Painter(FailoverPainting):
    """Draws one trace onto one axes; remembers what the legend must explain.

    Labels sit on fixed rows of their lane (above the bars, on the bar line,
    below) and never overlap: each placed label keeps its box (x as time, y in
    lane units, from its measured width and line height), so rows that lie
    close together (a burst's count just above its line, a partition's label
    under its bar) are checked against each other too. One that would collide
    with an earlier label on every row it may use is left out — the colour
    still says whose it is. Every mark a reviewer would point at also gets a
    hover text with its facts (``tips``, written into the SVG by
    ``analysis/timeline_svg.py``).
    """

    def __init__(self, fig: Figure, ax, trace: Trace, lanes: list[Lane], x0: float, x1: float, axes_w_in: float):
        self.fig, self.ax, self.trace = fig, ax, trace
        self.lane = {l.name: l for l in lanes}
        self.x0, self.x1 = x0, x1
        self.span = x1 - x0
        self.colour = {c: style.client_colour(i) for i, c in enumerate(trace.clients)}
        self.used: set[str] = set()
        self.tips = Tooltips()
        self.seconds_per_inch = self.span / axes_w_in
        # Per lane, the boxes already taken by labels and markers: (left, right) in seconds, (bottom, top) in lane
        # units from the lane's centre.
        self.taken: dict[str, list[tuple[float, float, float, float]]] = {}
        self.crashes = {(f.target, f.t) for f in trace.of(Fault) if f.fault == "crash"}
        # Processes drawn on a lane named otherwise: sentinels sharing one lane.
        self.alias = {s: "sentinels" for s in trace.sentinels} if "sentinels" in self.lane else {}
        self.lanes = lanes
        # Every bar a node lane will carry (holds and replica copies), as drawn: a reason label does not go on top
        # of the next bar.
        self.hold_list = hold_intervals(trace)
        self.copy_list = replica_copies(trace)
        self.keys = {h.key for h in self.hold_list} | {c.key for c in self.copy_list}
        self.changes = role_changes(trace)
        self.bars: dict[str, list[tuple[float, float]]] = {}
        for b in [*self.hold_list, *self.copy_list]:
            self.bars.setdefault(b.node, []).append(self.widened(seconds(b.start_ns), seconds(b.end_ns)))

    # geometry and labels ---------------------------------------------------------

    def lane_of(self, process: Optional[str]) -> Optional[Lane]:
        if process is None:
            return None
        return self.lane.get(self.alias.get(process, process))

    def colour_of(self, client: Optional[str]) -> str:
        if client is None:
            return style.NOTE
        if client not in self.colour:  # a client missing from the header
            self.colour[client] = style.client_colour(len(self.colour))
        return self.colour[client]

    def char_w(self, fontsize: float = 7) -> float:
        """The width of an average character of DejaVu Sans at fontsize, in seconds of the x axis."""
        return 0.6 * fontsize / 72 * self.seconds_per_inch

    def text_w(self, s: str, fontsize: float = 7, bold: bool = False) -> float:
        """The width of s as drawn, in seconds of the x axis (measured: "SDOWN" is wider than "votes")."""
        return text_points(s, fontsize, bold) / 72 * self.seconds_per_inch

    def visible(self, a: float, b: float) -> bool:
        return b >= self.x0 and a <= self.x1

    def widened(self, a: float, b: float) -> tuple[float, float]:
        return a, max(b, a + MIN_WIDTH_FRACTION * self.span)

    def rect(self, a: float, b: float, y: float, h: float, **kw) -> Rectangle:
        a, b = self.widened(a, b)
        return self.ax.add_patch(Rectangle((a, y - h / 2), b - a, h, **kw))

    def tip(self, artist, text: str):
        """artist with its hover text (``ax.plot``'s list: its line); returns the artist."""
        self.tips.attach(artist[0] if isinstance(artist, list) else artist, text)
        return artist

    def after(self, process: str, start_s: float, end_ns: int) -> float:
        """Where text following a span starts: after it as drawn (widened), clear of a crash marker at its end."""
        gap = 1.9 if (process, end_ns) in self.crashes else 0.5
        return self.widened(start_s, seconds(end_ns))[1] + gap * self.char_w()

    def label(self, lane: Lane, rows: Sequence[tuple[float, str]], x: float, s: str, ha: str = "left",
              fontsize: float = 7, **kw) -> bool:
        """Writes s at x on the first of rows ((dy, va) pairs) where it overlaps no earlier label."""
        width = self.text_w(s, fontsize, kw.get("fontweight") == "bold") + 0.6 * self.char_w(fontsize)
        left = {"left": x, "center": x - width / 2, "right": x - width}[ha]
        if left < self.x0:  # keep the start of a label on screen
            x, left = x + (self.x0 - left), self.x0
        if left > self.x1:
            return False
        overhang = left + width - self.x1
        if overhang > 0:  # and its end, if it can start earlier without leaving the window
            shift = min(overhang, left - self.x0)
            x, left = x - shift, left - shift
        pad = kw["bbox"].get("pad", 4.0) if "bbox" in kw else 0.0  # a text box's margin, in points (matplotlib's 4)
        height = (line_height_points(fontsize) + 2 * pad) / 72 / LANE_INCH
        boxes = self.taken.setdefault(lane.name, [])
        for dy, va in rows:
            bottom = {"bottom": dy, "center": dy - height / 2, "top": dy - height}[va]
            box = (left, left + width, bottom, bottom + height)
            if any(box[0] < b[1] and b[0] < box[1] and box[2] < b[3] and b[2] < box[3] for b in boxes):
                continue
            boxes.append(box)
            kw.setdefault("color", style.NOTE)
            self.ax.text(x, lane.y + dy, s, ha=ha, va=va, fontsize=fontsize, clip_on=True, zorder=6, **kw)
            return True
        return False

    def reason_label(self, lane: Lane, process: str, start: float, end_ns: int, reason: str,
                     fill: Optional[str], colour: str = style.NOTE) -> None:
        """Why a bar ended, as close to its end as room allows: after it, else inside its right end, else above or
        below it; it is left out only when all of those are taken."""
        after = self.after(process, start, end_ns)
        width = self.text_w(reason, 6.5) + 0.6 * self.char_w(6.5)
        blocked = any(a < after + width and after < b for a, b in self.bars.get(process, []))
        if not blocked and self.label(lane, [ROW_MID], after, reason, fontsize=6.5, bbox=REASON_BOX, color=colour):
            return
        end = seconds(end_ns)
        inside = self.text_w(reason, 6.5, bold=True) + 1.5 * self.char_w(6.5) < end - max(start, self.x0)
        if inside and fill is not None and self.label(lane, [ROW_MID], end - 0.5 * self.char_w(), reason, ha="right",
                                                       fontsize=6.5, color=style.text_on(fill), fontweight="bold"):
            return
        if inside and fill is None and self.label(lane, [ROW_MID], end - 0.5 * self.char_w(), reason, ha="right",
                                                  fontsize=6.5, bbox=REASON_BOX, color=colour):
            return
        self.label(lane, [ROW_TOP, ROW_LOW], after, reason, fontsize=6.5, bbox=REASON_BOX, color=colour)

    # lanes ---------------------------------------------------------------------

    def backgrounds(self) -> None:
        for i, l in enumerate(self.lanes):
            if i % 2 == 0:
                self.ax.axhspan(l.y - 0.5, l.y + 0.5, color=style.LANE_SHADE, zorder=0, lw=0)
        for upper, lower in zip(self.lanes, self.lanes[1:]):
            if upper.group != lower.group:
                self.ax.axhline(lower.y + 0.5, color="#A0A0A0", lw=0.8, zorder=1)

    def shades(self) -> None:
        for kind, spans in (("pause", pause_intervals(self.trace)), ("down", down_intervals(self.trace))):
            for s in spans:
                self._shade(kind, s)

    def _shade(self, kind: str, s: Span) -> None:
        lane = self.lane_of(s.what)
        start, end = seconds(s.start_ns), seconds(s.end_ns)
        if lane is None or not self.visible(start, end):
            return
        self.used.add(kind)
        if kind == "pause":
            shade = self.rect(start, end, lane.y, SHADE_H, facecolor=style.PAUSE, lw=0, zorder=1)
            note = f"paused {fmt_duration(s.end_ns - s.start_ns)}"
        else:
            shade = self.rect(start, end, lane.y, SHADE_H, facecolor="white", edgecolor=style.DOWN, hatch="x", lw=0,
                              zorder=1)
            note = f"down {fmt_duration(s.end_ns - s.start_ns)}" + (" (no restart)" if s.note else "")
        self.tip(shade, shade_tip(kind, s))
        mid = (max(start, self.x0) + min(end, self.x1)) / 2
        self.label(lane, [ROW_LOW], mid, note, ha="center", style="italic", color="#303030",
                   bbox=dict(facecolor=style.PAUSE if kind == "pause" else "white", edgecolor="none", pad=0.4))

    def beliefs(self) -> None:
        for b in belief_intervals(self.trace):
            lane = self.lane.get(b.client)
            if lane is None:
                continue
            colour = self.colour_of(b.client)
            start, end = seconds(b.start_ns), seconds(b.end_ns)
            # The promised window: what the grant promised hatched one way, what extensions added the other way, a
            # tick at each renewal; a renewal after the lease had lapsed starts a new stretch.
            for a_ns, z_ns, by in window_bands(b):
                a, z = seconds(a_ns), (seconds(z_ns) if z_ns is not None else max(self.x1, end))
                if z > a and self.visible(a, z):
                    self.used.add("window" if by == "grant" else "extended")
                    self.tip(self.rect(a, z, lane.y, WINDOW_H, facecolor="none", edgecolor=colour,
                                       hatch=WINDOW_HATCH[by], lw=0.9, alpha=0.8, zorder=2),
                             window_tip(b, a_ns, z_ns, by))
            self.renewal_ticks(lane, b)
            if not self.visible(start, end):
                continue
            self.used.add("belief")
            self.tip(self.rect(start, end, lane.y, BELIEF_H, facecolor=colour, edgecolor="black", lw=0.5, zorder=3),
                     belief_tip(b))
            label = f"session {b.session}" + (f" · token {b.token}" if b.token >= 0 else "")
            if b.renewals:
                label += f" · renewed ×{len(b.renewals)}"
            if b.expired_at_grant:
                label += " · expired at grant"
            self.label(lane, [ROW_TOP], start, label, color=style.VIOLATION if b.expired_at_grant else "black",
                       fontsize=7.5)
            if b.end_reason == "run-end":
                self.label(lane, [ROW_MID], min(end, self.x1) - 0.5 * self.char_w(), "believes to the end ▸",
                           ha="right", fontsize=6.5, color=style.text_on(colour), fontweight="bold")
            elif end <= self.x1:
                self.label(lane, [ROW_MID, ROW_TOP, ROW_LOW], self.after(b.client, start, b.end_ns),
                           STOP_TEXT.get(b.end_reason, b.end_reason), fontsize=6.5, bbox=REASON_BOX)

    def renewal_ticks(self, lane: Lane, b: Belief) -> None:
        """A short tick down from the window's top edge at each renewal, clear of the labels above it."""
        top = lane.y + WINDOW_H / 2
        for t in b.renewals:
            x = seconds(t)
            if self.x0 <= x <= self.x1:
                self.used.add("renewal")
                self.tip(self.ax.plot([x], [top], marker=3, ms=5, mew=1.6, color="black", zorder=6),
                         f"{b.client} · session {b.session}: lease extended at {fmt_time(t)}")

    def failed_renewal_ticks(self) -> None:
        for c in failed_renewals(self.trace):
            lane = self.lane.get(c.client)
            x = seconds(c.t)
            if lane is None or not self.x0 <= x <= self.x1:
                continue
            self.used.add("renewal-failed")
            what = "renewal failed" if c.outcome == "fail" else "renewal unanswered"
            self.tip(self.ax.plot([x], [lane.y + WINDOW_H / 2], marker=3, ms=5, mew=1.6, color=style.VIOLATION,
                                  zorder=6), f"{c.client}: {what} (extension requested, outcome {c.outcome}) at "
                                             f"{fmt_time(c.t)}")
            self.label(lane, [ROW_TOP], x + 0.6 * self.char_w(), what, fontsize=6.5, color=style.VIOLATION)

    def attempts(self) -> None:
        for r in self.trace.of(Invoke, GiveUp):
            lane = self.lane.get(r.client)
            if lane is None or not self.x0 <= seconds(r.t) <= self.x1:
                continue
            if isinstance(r, Invoke) and r.kind == "acquire":
                self.used.add("attempt")
                self.tip(self.ax.plot([seconds(r.t)], [lane.y + ROW_LOW[0]], marker="|", ms=7, mew=1.4,
                                      color=self.colour_of(r.client), zorder=4), attempt_tip(r.client, r.t))
            elif isinstance(r, GiveUp):
                self.label(lane, [ROW_LOW], seconds(r.t) + 0.8 * self.char_w(), "gave up", fontsize=6.5)

    def holds(self) -> None:
        # Failed attempts closer together than a short label could be told apart at this zoom are one bar (zoom in
        # with --from/--to to see them one by one).
        groups = group_failed_attempts(self.hold_list, int(8 * self.char_w() * NS_PER_S))
        # Granted holds label first: whose value a node holds matters more than a retry's.
        groups.sort(key=lambda g: g[0].session is None)
        for group in groups:
            first, last = group[0], group[-1]
            lane = self.lane.get(first.node)
            start, end = seconds(first.start_ns), seconds(last.end_ns)
            if lane is None or not self.visible(start, end):
                continue
            self.used.add("hold")
            colour = self.colour_of(first.client)
            granted = first.session is not None
            if not granted:
                self.used.add("ungranted")
            self.tip(self.rect(start, end, lane.y, HOLD_H, facecolor=colour if granted else "white", edgecolor=colour,
                               hatch=None if granted else "....", lw=0.8, alpha=0.9 if granted else 1.0, zorder=3),
                     hold_tip(group))
            who = first.client or f"value {first.value[:6]}…"
            if granted:
                label = f"{who} · session {first.session}"
            elif len(group) > 1:
                label = f"{who} · {len(group)} failed attempts"
            else:
                label = f"{who} (no grant)"
            if len(self.keys) > 1:
                label += f" · {first.key}"
            self.label(lane, [ROW_TOP] if granted else [ROW_TOP, ROW_LOW], start, label, color="black")
            reason = reasons_text(group)
            colour_reason = style.NOTE
            if len(group) == 1 and first.by is not None and first.client is not None and first.by != first.client:
                reason, colour_reason = f"deleted by {first.by}", style.VIOLATION  # another client's DEL
            if reason is not None and end <= self.x1:
                self.reason_label(lane, first.node, start, last.end_ns, reason, colour if granted else None,
                                  colour_reason)

    def holder(self) -> None:
        """The service holder's lane: a bar in the owner's colour for each stretch in which a quorum of the nodes
        holds one value (as the checkers saw it; property P4 asks it at every accepted op)."""
        lane = self.lane.get("holder")
        if lane is None:
            return
        for h in holder_intervals(self.trace):
            start, end = seconds(h.start), seconds(h.end)
            if not self.visible(start, end):
                continue
            self.used.add("holder")
            self.tip(self.rect(start, end, lane.y, HOLD_H, facecolor=self.colour_of(h.client), edgecolor="black",
                               lw=1.2, alpha=0.9, zorder=3), holder_tip(h))
            who = f"{h.client} · session {h.session}" if h.client is not None else f"value {h.value[:6]}… (no grant)"
            self.label(lane, [ROW_TOP, ROW_LOW], start, who, color="black")

    def fault_marks(self) -> None:
        slews = slew_intervals(self.trace)
        slew_ends = {(s.what, s.end_ns) for s in slews}
        self.slews(slews)
        for f in self.trace.of(Fault):
            lane = self.lane_of(f.target)
            x = seconds(f.t)
            if lane is None or not self.x0 <= x <= self.x1:
                continue
            if f.fault in ("crash", "restart"):  # keep the bar line's labels clear of the marker
                half = 0.8 * self.char_w()
                self.taken.setdefault(lane.name, []).append((x - half, x + half, -MARKER_HALF, MARKER_HALF))
            if f.fault == "crash":
                self.used.add("crash")
                self.tip(self.ax.plot([x], [lane.y], marker="X", ms=9, color=style.FAULT, mec="white", mew=0.8,
                                      zorder=7), fault_tip(f))
            elif f.fault == "restart":
                self.used.add("restart")
                self.tip(self.ax.plot([x], [lane.y], marker=">", ms=7, color=style.FAULT, mec="white", mew=0.8,
                                      zorder=7), fault_tip(f))
            elif f.fault == "clock-drift" and (f.target, f.t) in slew_ends:
                continue  # the end of a slew (the rate going back), drawn with the slew
            elif f.fault in ("clock-jump", "clock-drift"):
                self.used.add("clock")
                note = f"wall clock {fmt_duration(f.by_ns, signed=True)}" if f.fault == "clock-jump" \
                    else fmt_drift(f.ppm)
                self.tip(self.ax.plot([x], [lane.y + ROW_LOW[0]], marker="D", ms=5, color=style.FAULT, zorder=7),
                         fault_tip(f))
                self.label(lane, [ROW_LOW], x + 1.0 * self.char_w(), note, color="black",
                           bbox=dict(facecolor="white", edgecolor="none", pad=0.3, alpha=0.85))

    def slews(self, slews: list[Span]) -> None:
        """A slew under its lane: a diamond where it starts, a line while it lasts, a tick at its end, then its rate."""
        for sp in slews:
            lane = self.lane_of(sp.what)
            start, end = seconds(sp.start_ns), seconds(sp.end_ns)
            if lane is None or not self.visible(start, end):
                continue
            self.used.add("clock")
            y = lane.y + ROW_LOW[0]
            a, z = self.widened(start, end)
            self.tip(self.ax.plot([a, z], [y, y], color=style.FAULT, lw=1.2, zorder=7, solid_capstyle="butt"),
                     slew_tip(sp))
            self.ax.plot([z], [y], marker="|", ms=6, mew=1.2, color=style.FAULT, zorder=7)
            if self.x0 <= start <= self.x1:
                self.ax.plot([start], [y], marker="D", ms=5, color=style.FAULT, zorder=7)
            note = f"{fmt_drift(int(sp.note), 'slew')} for {fmt_duration(sp.end_ns - sp.start_ns)}"
            self.label(lane, [ROW_LOW, ROW_TOP], max(z, self.x0) + 0.8 * self.char_w(), note, color="black",
                       bbox=dict(facecolor="white", edgecolor="none", pad=0.3, alpha=0.85))

    def ops(self) -> None:
        lane = next((l for l in self.lane.values() if l.group == "resource"), None)
        if lane is None:
            return
        rows = [(0.16, "bottom"), (-0.16, "top"), (0.31, "bottom"), (-0.31, "top")]
        stacked = {1: rows[:1], 2: rows[:2], 3: [rows[2], rows[0], rows[1]], 4: [rows[2], rows[0], rows[1], rows[3]]}
        pairs = [p for p in ops_with_state(self.trace) if self.x0 <= seconds(p[0].t) <= self.x1]
        # Ops closer together than their dots can be told apart share one label, a line per op (in time order, top
        # down). Clusters that changed the application's state or had a refusal label first.
        clusters = op_clusters(pairs, int(2 * self.char_w() * NS_PER_S))
        clusters.sort(key=lambda cl: (all(app is None and op.accepted for op, app in cl), cl[0][0].t))
        for cluster in clusters:
            for op, app in cluster:
                x = seconds(op.t)
                if op.accepted:
                    self.used.add("accepted")
                    dot = self.ax.plot([x], [lane.y], marker="o", ms=7.5, color=self.colour_of(op.client),
                                       mec="black", mew=0.6, zorder=5)
                else:
                    self.used.add("rejected")
                    dot = self.ax.plot([x], [lane.y], marker="o", ms=7.5, mfc="white", mec=style.VIOLATION, mew=1.8,
                                       zorder=5)
                self.tip(dot, op_tip(op, app))
            x = seconds(cluster[0][0].t)
            if len(cluster) == 1:
                op, app = cluster[0]
                self.label(lane, rows, x, op_text(op, app), ha="center",
                           color="black" if op.accepted else style.VIOLATION)
                continue
            free = list(rows)
            lines = cluster_lines(cluster)
            for (text, rejected), row in zip(lines, stacked[len(lines)]):
                # Its own row in the stack, else any row this cluster has not used yet.
                candidates = [row] + [r for r in free if r != row] if row in free else free
                for r in candidates:
                    if self.label(lane, [r], x, text, ha="center", color=style.VIOLATION if rejected else "black"):
                        free.remove(r)
                        break

    def network(self) -> None:
        lane = self.lane.get("network")
        if lane is None:
            return
        bar_dy, bar_h = 0.1, 0.34
        spans = partition_intervals(self.trace)
        groups = partition_groups(self.trace)
        # Partitions that start and heal together are one bar, named together.
        bars: dict[tuple[int, int, str], list[Span]] = {}
        for s in spans:
            bars.setdefault((s.start_ns, s.end_ns, s.note), []).append(s)
        for (start_ns, end_ns, mode), together in bars.items():
            start, end = seconds(start_ns), seconds(end_ns)
            if not self.visible(start, end):
                continue
            self.used.add("partition")
            ids = [s.what.removeprefix("partition ") for s in together]
            which = f"partition{'s' if len(ids) > 1 else ''} {', '.join(ids)}"
            name = f"{which} ({mode})"
            sides = {s.what: groups_text(groups[s.what]) for s in together if s.what in groups}
            cut = "; ".join(sides.values())
            self.tip(self.rect(start, end, lane.y + bar_dy, bar_h, facecolor=style.PARTITION, edgecolor="#707070",
                               lw=0.6, zorder=2), partition_tip(Span(which, start_ns, end_ns, mode), sides))
            # Its sides on the bar when they fit there, else above or below it; the name alone if they fit nowhere.
            for text in ([f"{name}: {cut}"] if cut else []) + [name]:
                fits = self.text_w(text) + 1.5 * self.char_w() < min(end, self.x1) - max(start, self.x0)
                rows = [(bar_dy, "center")] if fits else [(0.29, "bottom"), (bar_dy - 0.19, "top")]
                if self.label(lane, rows, max(start, self.x0) + 0.5 * self.char_w(), text, color="black"):
                    break
        # Runs of drops closer together than a short label are one burst: a line from the first to the last with a
        # marker at each end and a count.
        y = lane.y - 0.3
        for kind, msgs in message_bursts(self.trace, int(8 * self.char_w() * NS_PER_S)):
            shown = [m for m in msgs if self.x0 <= seconds(m.t) <= self.x1]
            if not shown:
                continue
            held = kind == "held"
            self.used.add(kind)
            colour = style.NOTE if held else style.VIOLATION
            mark = dict(marker="s" if held else "x", ms=4.5, mew=1.1, color=colour, mfc="none" if held else None,
                        zorder=5)
            a, z = seconds(shown[0].t), seconds(shown[-1].t)
            if len(shown) > 1:
                self.tip(self.ax.plot([a, z], [y, y], color=style.tint(colour, 0.45), lw=1.6, zorder=4,
                                      solid_capstyle="butt"), burst_tip(kind, shown))
                self.ax.plot([z], [y], **mark)
            self.tip(self.ax.plot([a], [y], **mark), burst_tip(kind, shown))
            if len(shown) >= 3:
                receivers = {m.receiver for m in shown}
                text = f"{len(shown)} {'held' if held else 'dropped'}"
                if len(receivers) == 1:
                    text += f" → {next(iter(receivers))}"
                    if all(m.type in ("drop-crashed", "refused") for m in shown):
                        text += " (down)"
                after = z + 0.9 * self.char_w()
                if after + self.text_w(text, 6.5) + 0.6 * self.char_w(6.5) <= self.x1:
                    self.label(lane, [(-0.3, "center")], after, text, fontsize=6.5, color=colour)
                else:  # no room after the burst: above its line, from its start
                    self.label(lane, [(-0.25, "bottom")], a + 0.6 * self.char_w(), text, fontsize=6.5, color=colour)

    def violations(self, verdicts: Sequence[PropertyVerdict]) -> None:
        hits = sorted((v for v in verdicts if v.violated and v.witness_ns is not None), key=lambda v: v.witness_ns)
        groups: list[list[PropertyVerdict]] = []
        for v in hits:
            x = seconds(v.witness_ns)
            if not self.x0 <= x <= self.x1:
                continue
            self.used.add("violation")
            # Behind the bars and markers (which stay readable), above the lane shading.
            self.tip(self.ax.axvline(x, color=style.VIOLATION, lw=1.4, alpha=0.9, zorder=2.5), violation_tip([v]))
            if groups and x - seconds(groups[-1][-1].witness_ns) < 4 * self.char_w(8.5):
                groups[-1].append(v)
            else:
                groups.append([v])
        for g in groups:
            x = seconds(g[0].witness_ns)
            self.tip(self.ax.text(x, 1.004, " ".join(v.id for v in g), transform=self.ax.get_xaxis_transform(),
                                  ha="center", va="bottom", color=style.VIOLATION, fontsize=8.5, fontweight="bold",
                                  clip_on=False), violation_tip(g))

    def legend(self, bbox_x: float) -> None:
        handles: list = [Patch(facecolor=self.colour[c], edgecolor="black", lw=0.5, label=c) for c in self.colour]
        handles += [h for key, h in legend_entries() if key in self.used]
        top = 1 - TOP_INCH / self.fig.get_figheight()
        self.fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(bbox_x, top), handlelength=1.8,
                        handleheight=1.0, borderaxespad=0.0, labelspacing=0.45)

    def paint(self, verdicts: Optional[Sequence[PropertyVerdict]]) -> None:
        """Everything on the lanes (after ``backgrounds``), back to front."""
        self.shades()
        self.fault_marks()
        self.promotions()
        self.beliefs()
        self.failed_renewal_ticks()
        self.attempts()
        self.role_marks()
        self.holds()
        self.holder()
        self.copies()
        self.sentinel_marks()
        self.calls()
        self.ops()
        self.network()
        if verdicts is not None:
            self.violations(verdicts)
