"""Hover text for the timeline's SVG: each mark a reviewer would point at carries a ``<title>`` with its facts.

A static picture has room for a short label; the reviewer asking "when exactly did c1's belief end, and why?"
wants the numbers. SVG's answer is a ``<title>`` child, which browsers show as a tooltip on hover. matplotlib
writes no titles, but it does write an artist that has a gid as ``<g id="GID">…</g>``: the painter gives each mark
a gid and its text (``Tooltips.attach``), and ``write_svg`` puts each text into its group as the group's first
child (where SVG wants a title) — a text edit of matplotlib's own output, which stays well-formed XML since the
text is escaped and every ``<g id=…>`` it edits is one matplotlib opened.

The file is deterministic (the same trace gives the same bytes): the gids are numbered in painting order,
matplotlib's ids for clip paths and hatches are salted with ``svg.hashsalt`` (fixed in ``analysis/style.py``), and
the metadata carries no date.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import BinaryIO, Union
from xml.sax.saxutils import escape

from matplotlib.artist import Artist
from matplotlib.figure import Figure

GID_PREFIX = "tip-"
# No date in the file: a picture of the same trace is the same file.
SVG_METADATA = {"Date": None}


class Tooltips:
    """The hover texts of one figure, by the gid given to the artist each belongs to."""

    def __init__(self) -> None:
        self.texts: dict[str, str] = {}

    def attach(self, artist: Artist, text: str) -> None:
        gid = f"{GID_PREFIX}{len(self.texts)}"
        artist.set_gid(gid)
        self.texts[gid] = text


def with_titles(svg: str, texts: dict[str, str]) -> str:
    """svg with a ``<title>`` opening each group whose id is in texts."""
    def add(m: re.Match) -> str:
        text = texts.get(m.group(1))
        return m.group(0) if text is None else f"{m.group(0)}\n   <title>{escape(text)}</title>"
    return re.sub(rf'<g id="({GID_PREFIX}\d+)">', add, svg)


def write_svg(fig: Figure, out: Union[str, Path, BinaryIO], tips: Tooltips, **savefig_kw) -> None:
    """Saves fig as SVG to out (a path or a binary file), its marks' hover texts in."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata=SVG_METADATA, **savefig_kw)
    data = with_titles(buf.getvalue(), tips.texts).encode("utf-8")
    if isinstance(out, (str, Path)):
        Path(out).write_bytes(data)
    else:
        out.write(data)
