"""Where a figure's texts land once drawn, for tests that require labels never to overlap.

The boxes are the renderer's own (``Text.get_window_extent`` after a draw), grown by the box a label is drawn on
(a reason label's white background hides what is under it as surely as its letters do). Only texts that are drawn
count: an axis keeps labels for ticks outside its view, which it never draws.
"""

from __future__ import annotations

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.transforms import Bbox


def text_boxes(fig: Figure) -> list[tuple[str, Bbox]]:
    """(text, box in display pixels) for every visible, non-empty text of fig: labels, lane names, ticks, titles,
    legend entries, notes."""
    FigureCanvasAgg(fig)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = []
    undrawn = _undrawn_tick_labels(fig)
    for t in fig.findobj(Text):
        if not t.get_visible() or not t.get_text().strip() or id(t) in undrawn:
            continue
        box = t.get_window_extent(renderer)
        if t.get_bbox_patch() is not None:
            box = Bbox.union([box, t.get_bbox_patch().get_window_extent(renderer)])
        boxes.append((t.get_text(), box))
    return boxes


def overlapping_texts(fig: Figure, tolerance_px: float = 1.0) -> list[tuple[str, str]]:
    """Pairs of texts whose boxes overlap by more than tolerance_px both ways (a pixel: rounding, not a collision)."""
    boxes = text_boxes(fig)
    return [(a, b) for i, (a, p) in enumerate(boxes) for b, q in boxes[i + 1:]
            if min(p.x1, q.x1) - max(p.x0, q.x0) > tolerance_px and min(p.y1, q.y1) - max(p.y0, q.y0) > tolerance_px]


def _undrawn_tick_labels(fig: Figure) -> set[int]:
    """The tick labels an axis keeps but does not draw: those of ticks outside its view (a locator's ticks past the
    data limits, each still at a position that may fall on another axes' labels). Axis._update_ticks is what
    Axis.draw asks for the ticks it draws."""
    undrawn = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            drawn = {id(t) for t in axis._update_ticks()}
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                if id(tick) not in drawn:
                    undrawn.update({id(tick.label1), id(tick.label2)})
    return undrawn
