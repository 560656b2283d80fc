"""Reading a sweep: the CSV that ``locksim sweep`` writes, checked, pooled and narrowed to what a plot shows.

No drawing here (``analysis/sweep_plots.py`` draws); the file format is described there. ``load`` reads one CSV
(or several concatenated), ``pooled`` adds up repeated cells and recomputes rates and Wilson intervals,
``select`` keeps the rows of ``--where`` values and chosen variants, and ``check_fixed`` makes sure a plot never
averages over a knob silently.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence, Union

import pandas as pd

from analysis import results, units
from analysis.trace import PROPERTIES

__all__ = ["SweepError", "Sweep", "load", "wilson", "pooled", "select", "check_fixed", "most_violated",
           "runs_text", "series_name", "prop_label", "fired_columns", "MEANS", "PROPERTY_FIELDS", "Z95"]

MEANS = ["sessions.mean", "acquire_attempts.mean", "acquire_ok_rate.mean", "acquire_latency_ms.mean",
         "longest_stuck_ms.mean", "unheld_ms.mean", "expired_grants.mean",
         "commits.mean", "rollbacks.mean", "wasted_ms.mean", "committed_per_s.mean"]
PROPERTY_FIELDS = ("violated", "rate", "ci_low", "ci_high")
Z95 = 1.959963984540054


class SweepError(Exception):
    """A sweep file that is missing, empty or not what a plot needs (a missing column, an unfixed key...)."""


def wilson(violated: float, runs: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of violated/runs (fractions 0..1); (0, 1) when there were no runs."""
    if runs <= 0:
        return 0.0, 1.0
    p = violated / runs
    denom = 1 + z * z / runs
    centre = (p + z * z / (2 * runs)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / runs + z * z / (4 * runs * runs))
    low = 0.0 if violated <= 0 else max(0.0, centre - half)
    high = 1.0 if violated >= runs else min(1.0, centre + half)
    return low, high


def fired_columns(frame: pd.DataFrame) -> dict[str, str]:
    """Per fault, in column order, the column of its share of a cell's runs in which it fired with an effect."""
    return {c[len("fault."):-len(".fired")]: c for c in frame.columns
            if c.startswith("fault.") and c.endswith(".fired")}


def prop_label(prop: str) -> str:
    pid = PROPERTIES.get(prop)
    return f"{pid} {prop}" if pid else prop


# --- reading -------------------------------------------------------------------


@dataclass
class Sweep:
    """A sweep CSV read and checked: ``frame`` keeps key columns as text and counts as numbers."""

    source: str
    frame: pd.DataFrame
    keys: list[str]
    properties: list[str]  # properties that have all four columns, in PROPERTIES order
    columns: dict[str, units.Column] = field(default_factory=dict)

    def column(self, key: str) -> units.Column:
        """The key's values read as numbers with a unit (or as categories)."""
        if key not in self.keys:
            raise SweepError(f"{self.source}: no swept key {key!r} (keys: {', '.join(self.keys) or 'none'})")
        if key not in self.columns:
            self.columns[key] = units.parse_column(key, self.frame[key])
        return self.columns[key]

    @property
    def variants(self) -> list[str]:
        return list(dict.fromkeys(self.frame["variant"]))

    @property
    def scenarios(self) -> list[str]:
        return list(dict.fromkeys(self.frame["scenario"]))

    def subset(self, frame: pd.DataFrame) -> "Sweep":
        return Sweep(self.source, frame, self.keys, self.properties)


def load(path: Union[str, Path]) -> Sweep:
    """Reads a sweep CSV (one or several concatenated). Raises SweepError with a one-line reason."""
    path = Path(path)
    try:
        frame = results.read_csv(path)
    except results.ResultsError as e:
        raise SweepError(str(e).replace("not a locksim CSV", "not a sweep CSV")) from None
    cols = list(frame.columns)
    for needed in ("scenario", "variant", "runs"):
        if needed not in cols:
            raise SweepError(f"{path}: not a sweep CSV: no column {needed!r} (header: {','.join(cols)[:120]})")
    if cols.index("runs") < cols.index("variant"):
        raise SweepError(f"{path}: not a sweep CSV: 'runs' comes before 'variant'")
    keys = cols[cols.index("variant") + 1:cols.index("runs")]
    if frame.empty:
        raise SweepError(f"{path}: no rows (only a header)")
    props = [p for p in PROPERTIES if all(f"{p}.{f}" in cols for f in PROPERTY_FIELDS)]
    if not props:
        raise SweepError(f"{path}: not a sweep CSV: no property columns (e.g. grant-exclusive.rate)")
    if frame["runs"].isna().any():
        bad = int(frame.index[frame["runs"].isna()][0]) + 2
        raise SweepError(f"{path}:{bad}: 'runs' is not a number")
    return Sweep(str(path), frame, keys, props)


def pooled(frame: pd.DataFrame, by: Sequence[str], properties: Sequence[str]) -> pd.DataFrame:
    """One row per distinct ``by`` combination: violated counts and runs add up, rates and Wilson intervals are
    recomputed, means and faults' fired shares are averaged weighted by runs. A single row keeps its own rate and
    interval."""
    rows = []
    for values, group in frame.groupby(list(by), sort=False, dropna=False):
        values = values if isinstance(values, tuple) else (values,)
        row = dict(zip(by, values))
        runs = float(group["runs"].sum())
        row["runs"] = runs
        row["rows"] = len(group)
        for p in properties:
            v = group[f"{p}.violated"]
            if v.isna().all():  # not applicable
                for f in PROPERTY_FIELDS:
                    row[f"{p}.{f}"] = math.nan
                continue
            if len(group) == 1:
                g = group.iloc[0]
                for f in PROPERTY_FIELDS:
                    row[f"{p}.{f}"] = float(g[f"{p}.{f}"])
                if math.isnan(row[f"{p}.rate"]):
                    row[f"{p}.rate"] = row[f"{p}.violated"] / runs if runs else math.nan
                if math.isnan(row[f"{p}.ci_low"]) or math.isnan(row[f"{p}.ci_high"]):
                    row[f"{p}.ci_low"], row[f"{p}.ci_high"] = wilson(row[f"{p}.violated"], runs)
                continue
            k = float(v.fillna(0).sum())
            row[f"{p}.violated"] = k
            row[f"{p}.rate"] = k / runs if runs else math.nan
            row[f"{p}.ci_low"], row[f"{p}.ci_high"] = wilson(k, runs)
        for m in MEANS + list(fired_columns(frame).values()):
            if m in group:
                w = group["runs"].where(group[m].notna(), 0)
                row[m] = float((group[m].fillna(0) * w).sum() / w.sum()) if w.sum() else math.nan
        rows.append(row)
    return pd.DataFrame(rows)


def parse_where(sweep: Sweep, where: Sequence[str]) -> dict[str, str]:
    fixed: dict[str, str] = {}
    for w in where:
        if "=" not in w:
            raise SweepError(f"--where {w!r}: expected KEY=VALUE")
        key, value = (s.strip() for s in w.split("=", 1))
        col = sweep.column(key)
        values = list(col.order)
        if value not in values:
            # "10s" and "10000ms" name the same value: match by number when the column has units.
            p = units.parse_value(value)
            match = None
            if col.numeric and p.kind == col.kind:
                scale = 1e3 if col.unit == "ms" else 1.0
                match = next((t for t in values if math.isclose(col.number(t), p.number * scale, rel_tol=1e-9)),
                             None)
            if match is None:
                raise SweepError(f"--where {key}={value}: no such value (it has: {', '.join(values)})")
            value = match
        fixed[key] = value
    return fixed


def select(sweep: Sweep, where: Sequence[str] = (), variants: Sequence[str] = ()) -> tuple[Sweep, dict[str, str]]:
    """The rows with the --where values and of the chosen variants (all when none chosen)."""
    fixed = parse_where(sweep, where)
    frame = sweep.frame
    for key, value in fixed.items():
        frame = frame[frame[key] == value]
    if variants:
        unknown = [v for v in variants if v not in sweep.variants]
        if unknown:
            raise SweepError(f"{sweep.source}: no variant {unknown[0]!r} (it has: {', '.join(sweep.variants)})")
        frame = frame[frame["variant"].isin(list(variants))]
    if frame.empty:
        raise SweepError(f"{sweep.source}: no rows left after --where/--variant")
    return sweep.subset(frame.reset_index(drop=True)), fixed


def check_fixed(sweep: Sweep, free: Sequence[str], hint: str) -> dict[str, str]:
    """Every key not in ``free`` must have one value; returns those values (what the plot holds fixed)."""
    fixed = {}
    for key in sweep.keys:
        if key in free:
            continue
        values = list(dict.fromkeys(sweep.frame[key]))
        if len(values) > 1:
            shown = ", ".join(values[:6]) + (", …" if len(values) > 6 else "")
            raise SweepError(f"{sweep.source}: key {key} varies too ({shown}): fix it with --where {key}=VALUE"
                             f"{hint}")
        fixed[key] = values[0]
    return fixed


def series_name(row_scenario: str, variant: str, multi_scenario: bool) -> str:
    return f"{row_scenario} · {variant}" if multi_scenario else variant


def most_violated(sweep: Sweep) -> str:
    totals = {p: float(sweep.frame[f"{p}.violated"].fillna(0).sum()) for p in sweep.properties}
    return max(sweep.properties, key=lambda p: (totals[p], -sweep.properties.index(p)))


def runs_text(runs: Sequence[float], unit: str) -> str:
    rs = sorted({int(r) for r in runs if not math.isnan(r)})
    if not rs:
        return ""
    text = f"{rs[0]}" if len(rs) == 1 else f"{rs[0]}–{rs[-1]}"
    return f"{text} seed{'s' if rs[-1] != 1 else ''} per {unit}"
