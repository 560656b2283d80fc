"""Painting the lanes of replicated deployments, Sentinel and called services (a part of the timeline's painter).

``FailoverPainting`` is mixed into ``analysis.timeline_paint.Painter``: it uses the painter's lanes, label rows
and colours, and the plain data of ``analysis/timeline_replication.py``.
"""

from __future__ import annotations

from analysis import style
from analysis.timeline_layout import (
    COPY_H, ROW_LOW, ROW_MID, ROW_TOP, SENTINEL_CLUSTER_CHARS, SENTINEL_MARKS)
from analysis.timeline_model import fmt_duration, seconds
from analysis.timeline_replication import SentinelEvent, sentinel_events, service_calls
from analysis.timeline_tips import call_tip, copy_tip, role_tip, sentinel_tip


class FailoverPainting:
    """Role changes, promotions, replica copies, sentinel lanes and service calls."""

    def promotions(self) -> None:
        """A thin dashed line across the node and sentinel lanes at each promotion to master or new leader."""
        spanned = [l for l in self.lanes if l.group in ("redis", "sentinel")]
        if not spanned:
            return
        top, bottom = max(l.y for l in spanned) + 0.5, min(l.y for l in spanned) - 0.5
        for ch in self.changes:
            x = seconds(ch.t)
            if ch.promotion and self.x0 <= x <= self.x1:
                self.used.add("election" if ch.role == "leader" else "promotion")
                self.tip(self.ax.plot([x, x], [bottom, top], color=style.ROLE, lw=0.9, ls=(0, (4, 2.5)), alpha=0.8,
                                      zorder=2.6), role_tip(ch, ch.text))

    def role_marks(self) -> None:
        """Each role change on its node's lane: a triangle (up: promoted, down: demoted or re-pointed) and what it
        became; a promotion also says what the replica had to inherit."""
        copies = self.copy_list
        for ch in self.changes:
            lane = self.lane_of(ch.node)
            x = seconds(ch.t)
            if lane is None or not self.x0 <= x <= self.x1:
                continue
            up = ch.role in ("master", "leader")
            self.used.add("role-up" if up else "role-down")
            y = lane.y + ROW_LOW[0]
            mark = self.ax.plot([x], [y], marker="^" if up else "v", ms=6.5, color=style.ROLE, mec="white", mew=0.6,
                                zorder=7)
            text = ch.text
            if ch.promotion and ch.role == "master":
                inherited = [c for c in copies if c.node == ch.node and c.reason == "promoted" and c.end_ns == ch.t]
                what = "the lock" if len(self.keys) <= 1 else "a lock key"
                if inherited:
                    text += " · inherits " + ", ".join(f"{c.client or c.value[:6]}'s value" for c in inherited)
                else:
                    text += f" · had no copy of {what}"
            self.tip(mark, role_tip(ch, text))
            # After the marker; before it (right-aligned) when the window ends too soon for it.
            fits = x + 1.1 * self.char_w() + self.text_w(text) <= self.x1
            self.label(lane, [ROW_LOW, ROW_TOP], x + (1.1 if fits else -1.1) * self.char_w(), text, color="black",
                       ha="left" if fits else "right", bbox=dict(facecolor="white", edgecolor="none", pad=0.3,
                                                                   alpha=0.85))

    def copies(self) -> None:
        """Replicas' copies of lock values: the owner's colour, lighter and dashed; labelled with the replication lag
        (how long after the master's bar began the copy arrived)."""
        for c in self.copy_list:
            lane = self.lane_of(c.node)
            start, end = seconds(c.start_ns), seconds(c.end_ns)
            if lane is None or not self.visible(start, end):
                continue
            self.used.add("copy")
            colour = self.colour_of(c.client)
            self.tip(self.rect(start, end, lane.y, COPY_H, facecolor=style.tint(colour), edgecolor=colour, lw=1.0,
                               ls=(0, (3, 1.5)), zorder=3), copy_tip(c))
            label = f"{c.client or 'value ' + c.value[:6] + '…'} · replica copy"
            if c.via == "resync":
                label += " (full resync)"
            elif c.lag_ns is not None:
                label += f" · lag {fmt_duration(c.lag_ns)}"
            if len(self.keys) > 1:
                label += f" · {c.key}"
            # Inside the light bar when it fits there, else above or below it.
            left = max(start, self.x0) + 0.5 * self.char_w()
            inside = left + self.text_w(label) + self.char_w() < min(seconds(c.end_ns), self.x1)
            if not (inside and self.label(lane, [ROW_MID], left, label, color="black")):
                self.label(lane, [ROW_TOP, ROW_LOW], start, label, color="black")
            if c.reason not in (None, "promoted") and end <= self.x1:
                self.reason_label(lane, c.node, start, c.end_ns, c.reason, None)

    def sentinel_marks(self) -> None:
        """Each sentinel's view on its lane: a marker per event; labels above for what it saw (SDOWN, asking for
        and giving votes), below for what it did (REPLICAOF, +switch-master), events close together in one label."""
        by_lane: dict[str, list[SentinelEvent]] = {}
        events = sentinel_events(self.trace)
        for e in events:
            lane = self.lane_of(e.sentinel)
            if lane is not None and self.x0 <= seconds(e.t) <= self.x1:
                by_lane.setdefault(lane.name, []).append(e)
        shared = bool(self.alias)
        gap = SENTINEL_CLUSTER_CHARS * self.char_w()
        if not events:
            for lane in (l for l in self.lanes if l.group == "sentinel"):
                self.label(lane, [ROW_MID], self.x0 + 0.5 * self.char_w(), "no master seen down, no failover",
                           style="italic")
        for name, events in by_lane.items():
            lane = self.lane[name]
            for e in events:
                self.used.add(f"sentinel-{e.kind}")
                self.tip(self.ax.plot([seconds(e.t)], [lane.y], zorder=7, **SENTINEL_MARKS[e.kind]), sentinel_tip(e))
            for row, kinds in ((ROW_TOP, ("sdown", "ask-votes", "vote")),
                               (ROW_LOW, ("promote", "reconfigure", "switch"))):
                clusters: list[list[SentinelEvent]] = []
                for e in (e for e in events if e.kind in kinds):
                    if clusters and seconds(e.t) - seconds(clusters[-1][-1].t) < gap:
                        clusters[-1].append(e)
                    else:
                        clusters.append([e])
                other = ROW_LOW if row == ROW_TOP else ROW_TOP
                for cl in clusters:
                    text = " · ".join((f"{e.sentinel}: " if shared else "") + e.text for e in cl)
                    self.label(lane, [row, other], seconds(cl[0].t) + 0.8 * self.char_w(), text, color="black")

    def calls(self) -> None:
        """Calls to a service on its lane: a line in the caller's colour from the call to the answer, stacked when
        calls overlap; the wait is written after the answer. A pause of the service shades the lane behind them."""
        slots = (0.24, 0.08, -0.08, -0.22)
        every = service_calls(self.trace)
        for service in self.trace.services:
            lane = self.lane_of(service)
            if lane is None:
                continue
            ends: list[float] = []  # per slot, when its last call ended
            for c in (c for c in every if c.service == service):
                start = seconds(c.called_ns)
                end = seconds(c.answered_ns if c.answered_ns is not None else self.trace.end_ns)
                slot = next((i for i, e in enumerate(ends) if e < start), None)
                if slot is None and len(ends) < len(slots):
                    ends.append(end)
                    slot = len(ends) - 1
                elif slot is None:  # more calls at once than rows: share the row that frees first
                    slot = min(range(len(ends)), key=lambda i: ends[i])
                ends[slot] = end
                if not self.visible(start, end):
                    continue
                self.used.add("call")
                colour = self.colour_of(c.client)
                dy = slots[slot]
                a, z = self.widened(start, end)
                self.tip(self.ax.plot([a, z], [lane.y + dy] * 2, color=colour, lw=2.2, zorder=4, solid_capstyle="butt",
                                      ls="-" if c.answered_ns is not None else (0, (2, 1.5))), call_tip(c))
                self.ax.plot([a], [lane.y + dy], marker="o", ms=4, color=colour, mec="black", mew=0.5, zorder=5)
                if c.answered_ns is not None:
                    self.ax.plot([z], [lane.y + dy], marker=5, ms=6, color=colour, mec="black", mew=0.5, zorder=5)
                    text = f"{c.client}: answered after {fmt_duration(c.answered_ns - c.called_ns)}"
                else:
                    text = f"{c.client}: no answer"
                self.label(lane, [(dy, "center")], z + 0.9 * self.char_w(), text, fontsize=6.5, color="black")
