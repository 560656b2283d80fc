"""Reading locksim's results with the types they need — the one reader of every output (docs/results.md).

``read_csv`` loads a sweep's summary or per-run CSV or a ``compare --out`` CSV (the same vocabulary:
``<property>.violated``, ``.rate``, ``.ci_low``, ``.ci_high``, ``.first_seed``, ``fault.<name>.fired``): seeds and
labels stay text — a 64-bit seed does not survive a float64, nor always an int64, and pandas would silently turn
``9082072998280979661`` into ``9.082072998280979e18`` — and every other column becomes a number (empty, ``-`` or
``nan``: not measured). ``read_json`` loads ``run --json``, ``compare --json`` or ``search.json`` and checks that it
speaks the version of the vocabulary this reader knows (``SCHEMA``); seeds in them are strings already.

    from analysis import results
    frame = results.read_csv("sweep.csv")          # frame["invariant.first_seed"] is text, exact
    doc = results.read_json("run.json")            # doc["variants"][0]["seed"] == "1"
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable, Union

import pandas as pd

__all__ = ["SCHEMA", "ResultsError", "read_csv", "read_json", "text_columns"]

SCHEMA = "locksim-results/2"
# Columns that are labels, not figures: what a row is about.
LABELS = ("scenario", "variant", "file", "seed")


class ResultsError(Exception):
    """A result file that is missing, empty or not one of locksim's: the message is one line for the user."""


def text_columns(columns: Iterable[str]) -> list[str]:
    """The columns read as text: labels, the swept keys (between ``variant`` and ``runs``/``replica``) and seeds."""
    cols = list(columns)
    keys: list[str] = []
    if "variant" in cols:
        end = next((cols.index(c) for c in ("runs", "replica") if c in cols), len(cols))
        keys = cols[cols.index("variant") + 1:end]
    return [c for c in cols if c in LABELS or c in keys or c.endswith(".first_seed")]


def read_csv(path: Union[str, Path]) -> pd.DataFrame:
    """Reads a locksim CSV (several concatenated, too: repeated header lines are dropped)."""
    path = Path(path)
    try:
        frame = pd.read_csv(path, dtype=str, keep_default_na=False, skipinitialspace=True)
    except FileNotFoundError:
        raise ResultsError(f"{path}: no such file") from None
    except pd.errors.EmptyDataError:
        raise ResultsError(f"{path}: empty file (no header, no rows)") from None
    except (OSError, UnicodeDecodeError, pd.errors.ParserError) as e:
        raise ResultsError(f"{path}: not a locksim CSV ({str(e).splitlines()[0]})") from None
    frame.columns = [str(c).strip() for c in frame.columns]
    first = frame.columns[0]
    frame = frame[frame[first] != first].reset_index(drop=True)
    text = set(text_columns(frame.columns))
    for c in frame.columns:
        if c in text:
            frame[c] = frame[c].astype(str).str.strip()
        else:  # "-", "" or "nan": not applicable / not measured
            frame[c] = pd.to_numeric(frame[c], errors="coerce")
    return frame


def read_json(source: Union[str, Path]) -> dict:
    """Reads ``run --json``, ``compare --json`` or ``search.json`` output (a path, or the text itself)."""
    if isinstance(source, Path) or (isinstance(source, str) and not source.lstrip().startswith("{")):
        try:
            text = Path(source).read_text(encoding="utf-8")
        except OSError as e:
            raise ResultsError(f"{source}: {e.strerror}") from None
        where = str(source)
    else:
        text, where = source, "the output"
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ResultsError(f"{where}: not JSON ({e})") from None
    if not isinstance(doc, dict) or "schema" not in doc:
        raise ResultsError(f"{where}: no \"schema\": not written by this locksim (run it again)")
    if doc["schema"] != SCHEMA:
        raise ResultsError(f"{where}: schema {doc['schema']!r}, but this reader knows {SCHEMA!r}")
    return doc
