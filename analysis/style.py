"""The look shared by every locksim plot: colours and figure defaults.

Colours are the Okabe-Ito palette (Okabe & Ito, "Color Universal Design",
2008), distinguishable with the common colour-vision deficiencies and in
greyscale print. Roles are fixed so that every plot reads the same way:
clients take the palette in order (vermillion is never a client: it means
"something went wrong" — a violation, a rejected operation), faults are black
or grey, and text that explains rather than shows is grey.

``footer()`` writes a figure's notes under everything else it holds, measured
by the renderer rather than guessed, so that no footer runs into a rotated
tick label or a two-line axis label.

Figure defaults are applied through ``context()``, a ``matplotlib.rc_context``,
so importing this module never changes a notebook's global settings. SVG keeps
text as text (``svg.fonttype = none``): labels stay searchable and small; its
ids are salted with a fixed ``svg.hashsalt``, so the same figure gives the
same file.
"""

from __future__ import annotations

import matplotlib
import matplotlib.colors
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

OKABE_ITO = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "bluish_green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
}

# Clients in order of appearance. Yellow comes last: thin on white.
CLIENT_COLOURS = [OKABE_ITO[c] for c in ("blue", "orange", "bluish_green", "reddish_purple", "sky_blue", "yellow")]

VIOLATION = OKABE_ITO["vermillion"]  # violations and rejected operations
FAULT = OKABE_ITO["black"]  # crash / restart / clock markers
PAUSE = "#D9D9D9"  # a paused process (stop-the-world)
DOWN = "#B4B4B4"  # a crashed process, hatched
PARTITION = "#BDBDBD"
NOTE = "#555555"  # explanatory text
ROLE = "#303030"  # role changes (promotion, demotion) and the sentinels' marks: the control plane, not a client
LANE_SHADE = "#F4F4F4"  # alternate lane background
GRID = "#E3E3E3"

RC = {
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "axes.titlesize": 12,
    "axes.labelsize": 9,
    "axes.edgecolor": "#808080",
    "axes.linewidth": 0.8,
    "xtick.color": "#404040",
    "ytick.color": "#202020",
    "xtick.labelsize": 8,
    "ytick.labelsize": 10,
    "legend.fontsize": 8,
    "legend.frameon": False,
    "hatch.linewidth": 0.8,
    "savefig.dpi": 150,
    "savefig.facecolor": "white",
    "figure.facecolor": "white",
    "svg.fonttype": "none",
    "svg.hashsalt": "locksim",  # ids of clip paths and hatches from content, not random: same figure, same file
}


def client_colour(index: int) -> str:
    """The colour of the index-th client (cycles after six)."""
    return CLIENT_COLOURS[index % len(CLIENT_COLOURS)]


def tint(colour: str, amount: float = 0.65) -> str:
    """colour mixed with white (amount 0: the colour, 1: white) — a lighter fill for a copy of something."""
    r, g, b = matplotlib.colors.to_rgb(colour)
    return matplotlib.colors.to_hex(tuple(c + (1 - c) * amount for c in (r, g, b)))


def text_on(colour: str) -> str:
    """Black or white, whichever reads better on a fill of colour (relative luminance, WCAG)."""
    r, g, b = matplotlib.colors.to_rgb(colour)
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    luminance = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    return "black" if luminance > 0.18 else "white"


def context():
    """``with style.context(): ...`` — locksim's figure defaults, for drawing and saving."""
    return matplotlib.rc_context(RC)


def footer(fig: Figure, x: float, text: str, gap_in: float = 0.12, **text_kw) -> Text:
    """Writes ``text`` (its top left at figure fraction ``x``) ``gap_in`` inches under the lowest of everything
    ``fig`` holds so far — axes with their tick and axis labels, colour bars, legends, titles, other texts — as the
    renderer measures them. Below the figure's edge is fine: the plots save with tight bounding boxes."""
    if not hasattr(fig.canvas, "get_renderer"):
        FigureCanvasAgg(fig)  # the measuring renderer; saving as SVG or PNG later switches canvases as usual
    renderer = fig.canvas.get_renderer()
    boxes = [a.get_tightbbox(renderer) for a in fig.axes]
    boxes += [t.get_window_extent(renderer) for t in fig.texts if t.get_visible() and t.get_text().strip()]
    boxes += [legend.get_window_extent(renderer) for legend in fig.legends]
    bottom = min((b.y0 for b in boxes if b is not None), default=0.0)
    y = (bottom - gap_in * fig.dpi) / fig.bbox.height
    return fig.text(x, y, text, va="top", ha="left", **text_kw)
