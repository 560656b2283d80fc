"""Where a sweep's numbers came from, and when they may not mean what they seem.

``locksim sweep --out results.csv`` writes ``results.csv.json`` beside the CSV:
the scenario (path, name, content hash), the variant, the ``--set`` values that
were fixed for every cell, the ``--vary`` specs or the grid, the seeds per cell,
the locksim version and the command line — and, for the tools here, the fault
and client names of the first cell and the scenario's ``[expect]`` verdicts.
This module reads it (it is optional: a CSV without one still plots) and gives

- ``provenance_lines``: what was run, in a few lines, for the foot of a figure
  or a report section;
- ``story_warnings``: cells where a property never broke although the story
  says it should, or although a fault that the story rests on did not fire in
  every run — a 0 % that may only mean the story did not happen (docs/sweeps.md's
  ``--vary lock.ttl=5s,10s,30s`` on ``redlock-clock-drift``: the story's step
  times assume a 10 s TTL);
- ``replay_command``: the ``locksim run`` that replays a cell's first
  violating run (the CSV's ``<p>.first_seed``), from the manifest's file,
  variant and ``--set`` values plus the cell's own.
"""

from __future__ import annotations

import json
import math
import shlex
from pathlib import Path
from typing import Optional, Sequence, Union

import pandas as pd

__all__ = ["load_manifest", "provenance_lines", "story_warnings", "replay_command", "cell_label"]


def load_manifest(csv_path: Union[str, Path]) -> Optional[dict]:
    """The manifest beside a sweep CSV (``FILE.json``), or None when there is none or it cannot be read."""
    path = Path(str(csv_path) + ".json")
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) and doc.get("format") == "locksim sweep manifest" else None


def provenance_lines(manifest: Optional[dict]) -> list[str]:
    """Two or three short lines: scenario and hash, what was fixed and swept, and the command."""
    if not manifest:
        return ["no manifest beside the CSV: what was fixed for these runs is not recorded"]
    lines = [f"scenario {manifest.get('scenario_name', '?')} ({manifest.get('scenario_path', '?')}, "
             f"content hash {manifest.get('scenario_hash', '?')}), variant {manifest.get('variant', '?')}, "
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


def cell_label(row: pd.Series, keys: Sequence[str]) -> str:
    return ", ".join(f"{k}={row[k]}" for k in keys) or "the one cell"


def _fired_columns(frame: pd.DataFrame) -> list[str]:
    return [c for c in frame.columns if c.startswith("fault.") and c.endswith(".fired")]


def story_warnings(frame: pd.DataFrame, keys: Sequence[str], properties: Sequence[str],
                   manifest: Optional[dict], most: int = 4) -> list[str]:
    """Warnings about cells whose 0 % may mean the story did not happen (one line per kind, cells listed)."""
    expect = (manifest or {}).get("expect") or {}
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
                    partial.append((cell_label(row, keys), c[len("fault."):-len(".fired")], share))
        if partial:
            shown = "; ".join(f"{cell}: {fault} fired in {100 * share:.0f} % of runs" for cell, fault, share in
                              partial[:most])
            more = f" (and {len(partial) - most} more)" if len(partial) > most else ""
            out.append(f"{prop} never broke in cells where a fault did not always fire — {shown}{more}: "
                       f"a 0 % there may only mean the fault did not happen")
        if expect.get(prop) == "violated":
            cells = [cell_label(row, keys) for _, row in quiet.iterrows()]
            shown = "; ".join(cells[:most]) + (f" (and {len(cells) - most} more)" if len(cells) > most else "")
            out.append(f"the story expects {prop} violated, yet no run broke it at {shown}: the swept values may "
                       f"change the story's premise (step times tied to one TTL, a drift inside the allowance...)")
    return out


def replay_command(manifest: Optional[dict], keys: Sequence[str], row: pd.Series, seed: str) -> Optional[str]:
    """``locksim run FILE --variant V --set ... --seed S`` for a cell's run, or None without a manifest."""
    if not manifest or not seed:
        return None
    args = ["locksim", "run", manifest.get("scenario_path", "?"), "--variant", manifest.get("variant", "base")]
    for s in manifest.get("set") or []:
        args += ["--set", s]
    for k in keys:
        args += ["--set", f"{k}={row[k]}"]
    args += ["--seed", str(seed)]
    return " ".join(shlex.quote(a) for a in args)
