"""Where a sweep's numbers came from, and when they may not mean what they seem.

``locksim sweep --out results.csv`` writes ``results.csv.json`` beside the CSV:
the scenario (path, name, content hash), the variants swept, the ``--set``
values that were fixed for every cell, the ``--vary`` specs or the grid, the
seeds per cell, the locksim version and the command line — and, for the tools
here, the fault and client names of the first cells and each variant's
``[expect]`` verdicts. A sweep may hold several variants (``--variant A
--variant B``, ``--all-variants``): every row is judged by its own variant's
expectations and replayed with its own ``--variant``. Manifests of version 1
(one ``variant``, one flat ``expect``) read as a sweep of that one variant.
This module reads it (it is optional: a CSV without one still plots) and gives

- ``provenance_lines``: what was run, in a few lines, for the foot of a figure
  or a report section;
- ``story_warnings``: cells where a property never broke although their
  variant's story says it should, or although a fault that the story rests on did not fire in
  every run — a 0 % that may only mean the story did not happen (docs/sweeps.md's
  ``--vary lock.ttl=5s,10s,30s`` on ``redlock-clock-drift``: the story's step
  times assume a 10 s TTL);
- ``replay_command``: the ``locksim run`` that replays a cell's first
  violating run (the CSV's ``<p>.first_seed``), from the manifest's file and
  ``--set`` values, and the row's own variant and cell values.
"""

from __future__ import annotations

import json
import math
import shlex
from pathlib import Path
from typing import Optional, Sequence, Union

import pandas as pd

__all__ = ["load_manifest", "provenance_lines", "story_warnings", "replay_command", "cell_label", "variants_of",
           "expectations"]


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


def _fired_columns(frame: pd.DataFrame) -> list[str]:
    return [c for c in frame.columns if c.startswith("fault.") and c.endswith(".fired")]


def story_warnings(frame: pd.DataFrame, keys: Sequence[str], properties: Sequence[str],
                   manifest: Optional[dict], most: int = 4) -> list[str]:
    """Warnings about cells whose 0 % may mean the story did not happen (one line per kind, cells listed). Each row
    is held to its own variant's ``[expect]``."""
    several = _several_variants(frame)
    fired = _fired_columns(frame)
    out = []
    for prop in properties:
        column = f"{prop}.violated"
        if column not in frame.columns:
            continue
        quiet = frame[frame[column].fillna(0) == 0]
        if quiet.empty:
            continue
        partial = []  # (cell, fault, share)
        for _, row in quiet.iterrows():
            for c in fired:
                share = row[c]
                if isinstance(share, float) and not math.isnan(share) and share < 1:
                    partial.append((cell_label(row, keys, several), c[len("fault."):-len(".fired")], share))
        if partial:
            shown = "; ".join(f"{cell}: {fault} fired in {100 * share:.0f} % of runs" for cell, fault, share in
                              partial[:most])
            more = f" (and {len(partial) - most} more)" if len(partial) > most else ""
            out.append(f"{prop} never broke in cells where a fault did not always fire — {shown}{more}: "
                       f"a 0 % there may only mean the fault did not happen")
        cells = [cell_label(row, keys, several) for _, row in quiet.iterrows()
                 if expectations(manifest, row_variant(row, manifest)).get(prop) == "violated"]
        if cells:
            shown = "; ".join(cells[:most]) + (f" (and {len(cells) - most} more)" if len(cells) > most else "")
            what = (f"each of these cells' own variant expects {prop} violated" if several
                    else f"the story expects {prop} violated")
            out.append(f"{what}, yet no run broke it at {shown}: the swept values may "
                       f"change the story's premise (step times tied to one TTL, a drift inside the allowance...)")
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
