"""Where a sweep's numbers came from, and when they may not mean what they seem.

``locksim sweep --out results.csv`` writes ``results.csv.json`` beside the CSV:
the scenario (path, name, content hash), the variants swept, the ``--set``
values that were fixed for every cell, the ``--vary`` specs or the grid, the
seeds per cell, the locksim version and the command line — and, for the tools
here, the fault and client names of the first cells, the faults the story
needs and each variant's ``[expect]`` verdicts. A sweep may hold several
variants (``--variant A --variant B``, ``--all-variants``): every row is
labelled and replayed with its own ``--variant``. Manifests of version 1 (one
``variant``, one flat ``expect``) read as a sweep of that one variant. This
module reads it (it is optional: a CSV without one still plots) and gives

- ``provenance_lines``: what was run, in a few lines, for the foot of a figure
  or a report section;
- ``story_warnings``: one line per fault the story needs (``[expect] fired``)
  that fired in too few of some cells' runs for their numbers to mean what
  they show — a 0 % that the runs without it might have broken, a rate they
  hold down (``gap_matters``: the rule ``locksim compare`` applies too);
  ``story_gaps`` names those cells, for the plots to mark and the report to
  list. A 0 % in cells where every fault fired is an answer, not a warning;
- ``replay_command``: the ``locksim run`` that replays a cell's first
  violating run (the CSV's ``<p>.first_seed``), from the manifest's file and
  ``--set`` values, and the row's own variant and cell values.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence, Union

import pandas as pd

from analysis.sweep_data import fired_columns, pooled, wilson
from analysis.trace import PROPERTIES

__all__ = ["load_manifest", "provenance_lines", "story_warnings", "story_gaps", "StoryGap", "gap_matters",
           "story_faults", "share_text", "replay_command", "cell_label", "variants_of", "expectations"]


def load_manifest(csv_path: Union[str, Path]) -> Optional[dict]:
    """The manifest beside a sweep CSV (``FILE.json``), or None when there is none or it cannot be read."""
    path = Path(str(csv_path) + ".json")
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) and doc.get("format") == "locksim sweep manifest" else None


def variants_of(manifest: Optional[dict]) -> list[str]:
    """The variants the manifest's sweep ran, in row order (a version 1 manifest has one)."""
    if not manifest:
        return []
    if isinstance(manifest.get("variants"), list):
        return [str(v) for v in manifest["variants"]]
    return [str(manifest.get("variant", "base"))]


def expectations(manifest: Optional[dict], variant: str) -> dict:
    """The ``[expect]`` verdicts of ``variant`` (property -> "holds" | "violated"); {} when not recorded."""
    expect = (manifest or {}).get("expect") or {}
    if int((manifest or {}).get("manifest_version", 1)) < 2:  # version 1: the one variant's verdicts, flat
        return expect if variant in variants_of(manifest) else {}
    return expect.get(variant) or {}


def row_variant(row: pd.Series, manifest: Optional[dict]) -> str:
    """The row's own variant (its CSV column), or the manifest's first for rows without one."""
    variant = row.get("variant") if hasattr(row, "get") else None
    if isinstance(variant, str) and variant:
        return variant
    return (variants_of(manifest) or ["base"])[0]


def provenance_lines(manifest: Optional[dict]) -> list[str]:
    """Two or three short lines: scenario and hash, what was fixed and swept, and the command."""
    if not manifest:
        return ["no manifest beside the CSV: what was fixed for these runs is not recorded"]
    variants = variants_of(manifest)
    which = f"variant {variants[0]}" if len(variants) == 1 else f"variants {', '.join(variants)}"
    lines = [f"scenario {manifest.get('scenario_name', '?')} ({manifest.get('scenario_path', '?')}, "
             f"content hash {manifest.get('scenario_hash', '?')}), {which}, "
             f"{manifest.get('seeds', '?')} seeds per cell, locksim {manifest.get('locksim_version', '?')}"]
    fixed = manifest.get("set") or []
    swept = manifest.get("vary") or []
    grid = manifest.get("grid_path")
    what = ("fixed: " + ", ".join(fixed)) if fixed else "nothing fixed with --set"
    what += " · swept: " + (", ".join(swept) if swept else f"grid {grid} (hash {manifest.get('grid_hash', '?')})"
                            if grid else "one cell")
    lines.append(what)
    command = manifest.get("command_line") or []
    if command:
        lines.append("command: " + " ".join(shlex.quote(str(c)) for c in ["locksim", *command[1:]]))
    return lines


def cell_label(row: pd.Series, keys: Sequence[str], with_variant: bool = False) -> str:
    """"lock.ttl=5s", or with ``with_variant`` (a sweep of several variants) "etcd: lock.ttl=5s"."""
    cell = ", ".join(f"{k}={row[k]}" for k in keys) or "the one cell"
    return f"{row['variant']}: {cell}" if with_variant else cell


def _several_variants(frame: pd.DataFrame) -> bool:
    return "variant" in frame.columns and frame["variant"].nunique() > 1


# --- where a fault the story needs fired in too few runs ---------------------------------------------------------


def gap_matters(runs: int, violated: int, fired: int) -> bool:
    """Whether the runs - fired runs without a fault the story needs could change what a cell with ``violated``
    violating runs says — sim/sweep/story_gap.h's rule, which says why, held to the same cases
    (tests/data/story_gap_cases.csv): a 0 % when those runs, at the highest rate the others still allow (their 95 %
    Wilson upper bound), would be expected to break it at least once; a rate when violated / fired (the story's own
    rate: the violations need the fault) lies above the cell's 95 % interval."""
    if fired >= runs:
        return False
    if fired <= 0:
        return True  # the story never happened: any number here says nothing about it
    if violated == 0:
        return (runs - fired) * wilson(0, fired)[1] >= 1
    return min(1.0, violated / fired) > wilson(violated, runs)[1]


@dataclass(frozen=True)
class StoryGap:
    """A cell where a fault the story needs fired in too few runs for some of its numbers to mean what they show."""

    cell: tuple  # (scenario, variant, each key's value in the sweep's order): what a plot marks
    label: str  # "lock.ttl=2s", with the variant first when the rows have several
    fault: str
    fired: int  # runs in which it fired with an effect
    runs: int
    held: tuple  # properties at 0 % that the missing runs might have broken
    understated: tuple  # properties whose rate the missing runs hold down


def story_faults(manifest: Optional[dict], frame: pd.DataFrame) -> list[str]:
    """The faults the story needs (the manifest's ``story_faults``: [expect] fired, or every fault when it lists
    none); every fault with a column when the manifest does not say."""
    columns = fired_columns(frame)
    named = (manifest or {}).get("story_faults")
    return list(columns) if named is None else [f for f in named if f in columns]


def story_gaps(frame: pd.DataFrame, keys: Sequence[str], properties: Sequence[str],
               manifest: Optional[dict]) -> list[StoryGap]:
    """Every (cell, fault) where the fault's missing runs could change what the cell says of ``properties``."""
    faults = story_faults(manifest, frame)
    props = [p for p in properties if f"{p}.violated" in frame.columns]
    if not faults or not props:
        return []
    cells = pooled(frame, ["scenario", "variant", *keys], props)
    several = cells["scenario"].nunique() > 1 or cells["variant"].nunique() > 1
    columns = fired_columns(cells)
    out = []
    for _, row in cells.iterrows():
        runs = int(row["runs"])
        label = cell_label(row, keys)
        if several:
            label = f"{row['scenario']} · {row['variant']}" + ("" if not keys else f": {label}")
        for fault in faults:
            share = row[columns[fault]]
            if share != share:  # NaN: this cell has no such fault
                continue
            fired = round(share * runs)
            held = tuple(p for p in props if row[f"{p}.violated"] == 0 and gap_matters(runs, 0, fired))
            understated = tuple(p for p in props if row[f"{p}.violated"] > 0 and
                                gap_matters(runs, int(row[f"{p}.violated"]), fired))
            if held or understated:
                out.append(StoryGap((row["scenario"], row["variant"], *(row[k] for k in keys)), label, fault, fired,
                                    runs, held, understated))
    return out


def share_text(part: int, whole: int) -> str:
    """"81 %": never "100 %" for a share short of every run, nor "0 %" for some."""
    shown = round(100 * part / whole)
    if part < whole:
        shown = min(shown, 99)
    if part > 0:
        shown = max(shown, 1)
    return f"{shown} %"


def story_warnings(frame: pd.DataFrame, keys: Sequence[str], properties: Sequence[str],
                   manifest: Optional[dict]) -> list[str]:
    """One line per fault the story needs that fired in too few runs somewhere for the numbers there to mean what
    they show: how many cells, the lowest share and where, and which 0 % and which rates it concerns."""
    gaps = story_gaps(frame, keys, properties, manifest)
    cells = len(frame.drop_duplicates(["scenario", "variant", *keys]))
    out = []
    for fault in dict.fromkeys(g.fault for g in gaps):
        mine = sorted((g for g in gaps if g.fault == fault), key=lambda g: g.fired / g.runs)
        low = mine[0]
        if len(mine) == 1:
            where = f"in only {share_text(low.fired, low.runs)} of the runs at {low.label}"
        else:
            where = (f"in too few runs at {len(mine)} of {cells} cells (the fewest: {share_text(low.fired, low.runs)}"
                     f" at {low.label})")
        held = [p for p in PROPERTIES if any(p in g.held for g in mine)]
        understated = [p for p in PROPERTIES if any(p in g.understated for g in mine)]
        said = []
        if held:
            said.append(f"a 0 % ({', '.join(held)}) may only mean it did not happen")
        if understated:
            said.append(f"a rate ({', '.join(understated)}) may read low")
        out.append(f"{fault} fired with an effect {where}: the runs without it did not test the story, so there "
                   f"{' and '.join(said)}")
    return out


def replay_command(manifest: Optional[dict], keys: Sequence[str], row: pd.Series, seed: str) -> Optional[str]:
    """``locksim run FILE --variant V --set ... --seed S`` for a cell's run, V the row's own variant; None without a
    manifest, or when the manifest does not describe the row's variant (a CSV joined from several sweeps)."""
    if not manifest or not seed:
        return None
    variant = row_variant(row, manifest)
    if variant not in variants_of(manifest):
        return None
    args = ["locksim", "run", manifest.get("scenario_path", "?"), "--variant", variant]
    for s in manifest.get("set") or []:
        args += ["--set", s]
    for k in keys:
        args += ["--set", f"{k}={row[k]}"]
    args += ["--seed", str(seed)]
    return " ".join(shlex.quote(a) for a in args)
