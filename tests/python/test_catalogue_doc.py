"""docs/catalogue.md lists every variant of every scenario file, with the verdicts its [expect] table states.

The page is written by hand (the stories are prose); this keeps its verdict columns from drifting away from the
files, which are what the catalogue tests run. A variant's [expect] is what it inherits (the base's, or that of
the variant it extends, less what its unset drops) with the variant's merged over it, as the simulator reads it.
"""

from __future__ import annotations

import copy
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROPERTIES = ["grant-exclusive", "belief-exclusive", "resource-exclusive", "resource-current", "invariant"]
CELL = {"holds": "H", "violated": "V", None: "–"}


def merged(base: dict, over: dict) -> dict:
    out = copy.deepcopy(base)
    for key, value in over.items():
        out[key] = merged(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def variant_expect(base: dict, tables: dict, name: str) -> dict:
    """A variant's [expect]: what it inherits (the base's, or with ``extends`` that variant's), less what its
    ``unset`` drops from [expect], with its own merged over it."""
    table = tables[name]
    parent = table.get("extends", "base")
    out = copy.deepcopy(base if parent == "base" else variant_expect(base, tables, parent))
    for entry in table.get("unset", []):
        parts = entry.split(".")
        if parts[0] != "expect":
            continue
        if len(parts) == 1:
            out = {}
            continue
        at = out
        for part in parts[1:-1]:
            at = at[part]
        del at[parts[-1]]
    return merged(out, table.get("expect", {}))


def expected_cells() -> dict[tuple[str, str], list[str]]:
    """(scenario, variant) -> the P1..P5 cells its file's [expect] gives."""
    cells = {}
    for path in sorted((ROOT / "scenarios").glob("*.toml")):
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        base = doc.get("expect", {})
        tables = doc.get("variant", {})
        variants = {"base": base} | {name: variant_expect(base, tables, name) for name in tables}
        for name, expect in variants.items():
            cells[(doc["scenario"]["name"], name)] = [CELL[expect.get(p)] for p in PROPERTIES]
    return cells


def documented_cells(text: str) -> dict[tuple[str, str], list[str]]:
    """(scenario, variant) -> the P1..P5 cells of the page's tables.

    A row's first cell is `variant` under a heading that names one scenario in backticks, or
    `scenario` · `variant` (the controls' table).
    """
    cells = {}
    heading_names: list[str] = []
    for line in text.splitlines():
        if line.startswith("#"):
            heading_names = re.findall(r"`([a-z0-9-]+)`", line)
            continue
        if not line.startswith("| `"):
            continue
        row = [c.strip() for c in line.strip().strip("|").split("|")]
        names = re.findall(r"`([^`]+)`", row[0])
        if len(names) == 2:
            scenario, variant = names
        else:
            assert len(heading_names) == 1, f"a row under a heading that names no single scenario: {line}"
            scenario, variant = heading_names[0], names[0]
        assert (scenario, variant) not in cells, f"{scenario} · {variant} is listed twice"
        cells[(scenario, variant)] = row[1:6]
    return cells


def test_every_variant_is_listed_with_the_verdicts_its_file_expects():
    documented = documented_cells((ROOT / "docs" / "catalogue.md").read_text(encoding="utf-8"))
    expected = expected_cells()
    assert sorted(set(expected) - set(documented)) == [], "variants missing from docs/catalogue.md"
    assert sorted(set(documented) - set(expected)) == [], "docs/catalogue.md lists variants no file has"
    wrong = {f"{s} · {v}": (documented[(s, v)], expected[(s, v)]) for s, v in expected
             if documented[(s, v)] != expected[(s, v)]}
    assert wrong == {}, "P1..P5 in docs/catalogue.md (left) differ from the files' [expect] (right)"


def test_the_parser_sees_a_wrong_cell():
    # The check above can fail: a page with one verdict flipped differs from the files.
    text = (ROOT / "docs" / "catalogue.md").read_text(encoding="utf-8")
    flipped = text.replace("| `base` | H | V | V | V | V | the late write lands and c2's",
                           "| `base` | V | V | V | V | V | the late write lands and c2's", 1)
    assert flipped != text
    assert documented_cells(flipped) != expected_cells()


def test_row_numbers_on_the_page_match_the_files():
    # Each catalogue file opens with "# Catalogue row N": the page's headings say the same.
    text = (ROOT / "docs" / "catalogue.md").read_text(encoding="utf-8")
    for path in sorted((ROOT / "scenarios").glob("*.toml")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        rows = re.match(r"# Catalogue rows? ([0-9a-z]+)(?: and ([0-9a-z]+))?", first)
        if rows is None:
            continue
        numbers = [n for n in rows.groups() if n]
        heading = next((h for h in text.splitlines() if h.startswith("### ") and f"`{path.stem}`" in h
                        or h.startswith("### Row 17") and path.stem.startswith("no-faults-")), None)
        assert heading is not None, f"{path.name}: no heading on the page"
        for n in numbers:
            assert re.search(rf"\b{n}\b", heading), f"{path.name} says row {n}; the page's heading is {heading!r}"
