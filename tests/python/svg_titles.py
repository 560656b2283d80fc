"""The hover titles of a timeline SVG, as a browser would find them, for tests."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

SVG = "{http://www.w3.org/2000/svg}"


def hover_titles(path: Path) -> list[str]:
    """The title of every group the painter gave one, in document order; each must open its group (a title
    elsewhere is not the group's tooltip). Parsing fails if the file is not well-formed XML."""
    root = ET.parse(path).getroot()
    titles = []
    for g in root.iter(f"{SVG}g"):
        if g.get("id", "").startswith("tip-"):
            first = next(iter(g), None)
            assert first is not None and first.tag == f"{SVG}title", g.get("id")
            titles.append(first.text)
    return titles
