"""Reading the value texts a sweep writes — "10s", "250ms", "5000ppm", "0.5%" — as numbers with units.

A sweep's key columns hold the canonical text of each swept value, exactly as
a scenario file or ``--set`` would spell it (docs/model-and-limits.md, "Writing a scenario"):
durations with a unit (``ns``, ``us``, ``ms``, ``s``, ``m``, ``h``), clock
rates in ``ppm`` or ``%``, plain numbers, or words (``monotonic``, ``true``).
Plots need numbers on a common unit, so this module parses a whole column at
once and picks one unit for it: durations become seconds (shown in ms when
every value is below one second), rates become percent (1 % = 10 000 ppm).
A column that mixes kinds, or holds words, stays categorical: its values keep
their text and the order in which they first appear.

``is_geometric`` tells whether sorted values grow by a near-constant factor
(1, 2, 4, 8 or 0.1, 1, 10 …): such an axis reads best on a log scale.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

__all__ = ["Parsed", "Column", "parse_value", "parse_column", "is_geometric", "describe_key", "format_number"]

# unit -> seconds
_DURATION_UNITS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "min": 60.0,
                   "h": 3600.0}
# unit -> percent
_RATE_UNITS = {"ppm": 1e-4, "%": 1.0}

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_VALUE_RE = re.compile(rf"^\s*({_NUMBER})\s*([a-zA-Zµμ%]*)\s*$")


@dataclass(frozen=True)
class Parsed:
    """One value text read: its kind ("duration", "rate", "number" or "text") and number in the base unit
    (seconds for durations, percent for rates; None for text)."""

    text: str
    kind: str
    number: Optional[float]


def parse_value(text: object) -> Parsed:
    """Parses one canonical value text: "250ms" -> duration 0.25 s, "5000ppm" -> rate 0.5 %, "3" -> number 3."""
    s = "" if text is None else str(text).strip()
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "\"'":  # a TOML string that kept its quotes
        s = s[1:-1].strip()
    m = _VALUE_RE.match(s)
    if m:
        number, unit = float(m.group(1)), m.group(2)
        if unit == "":
            return Parsed(s, "number", number)
        if unit in _DURATION_UNITS:
            return Parsed(s, "duration", number * _DURATION_UNITS[unit])
        if unit in _RATE_UNITS:
            return Parsed(s, "rate", number * _RATE_UNITS[unit])
    return Parsed(s, "text", None)


@dataclass(frozen=True)
class Column:
    """A key column read as a whole: a common kind and the unit its numbers are shown in.

    ``numbers`` maps each distinct text to its number in ``unit`` (None for a categorical column);
    ``order`` lists the distinct texts sorted by number (or in order of appearance when categorical).
    """

    key: str
    kind: str  # duration | rate | number | text (categorical)
    unit: str  # "s", "ms", "%", "" (number or text)
    order: tuple[str, ...]
    numbers: Optional[dict[str, float]]

    @property
    def numeric(self) -> bool:
        return self.numbers is not None

    def number(self, text: str) -> float:
        """The number of one value text, in this column's unit (a KeyError for a text not in the column)."""
        if self.numbers is None:
            raise ValueError(f"{self.key} is categorical")
        return self.numbers[str(text).strip()]

    def label(self) -> str:
        """An axis label: what the key means, its unit, and the key itself as the sweep names it."""
        what = describe_key(self.key)
        unit = {"s": "s", "ms": "ms", "%": "%"}.get(self.unit, "")
        head = what + (f" ({unit})" if unit else "")
        return head if what == self.key else f"{head}  ·  {self.key}"


def parse_column(key: str, texts: Iterable[object]) -> Column:
    """Reads the values of one key column and picks its kind and display unit."""
    seen: dict[str, Parsed] = {}
    for t in texts:
        p = parse_value(t)
        seen.setdefault(p.text, p)
    kinds = {p.kind for p in seen.values()}
    if len(kinds) != 1 or "text" in kinds or not seen:
        return Column(key, "text", "", tuple(seen), None)
    kind = kinds.pop()
    if kind == "duration":
        biggest = max(abs(p.number) for p in seen.values())  # type: ignore[arg-type]
        unit, scale = ("ms", 1e3) if biggest < 1.0 else ("s", 1.0)
    elif kind == "rate":
        unit, scale = "%", 1.0
    else:
        unit, scale = "", 1.0
    numbers = {text: p.number * scale for text, p in seen.items()}  # type: ignore[operator]
    order = tuple(sorted(numbers, key=lambda t: (numbers[t], t)))
    return Column(key, kind, unit, order, numbers)


def is_geometric(values: Sequence[float], tolerance: float = 0.2) -> bool:
    """True when the distinct values are positive and grow by a near-constant factor (at least 3 of them, a
    factor of at least 1.5 per step, and together spanning at least a factor of 8): a log axis shows them evenly.

    An arithmetic series (1, 2, 3, 4) is not geometric even though each step is a factor: its steps shrink.
    """
    xs = sorted(set(float(v) for v in values))
    if len(xs) < 3 or xs[0] <= 0:
        return False
    ratios = [b / a for a, b in zip(xs, xs[1:])]
    if min(ratios) < 1.5 or xs[-1] / xs[0] < 8:
        return False
    logs = [math.log(r) for r in ratios]
    mean = sum(logs) / len(logs)
    return all(abs(l - mean) <= tolerance * mean + 1e-12 for l in logs) or _roughly_decades(xs)


def _roughly_decades(xs: Sequence[float]) -> bool:
    """1, 2, 5, 10, 20, 50 … (the 1-2-5 series) or 1, 3, 10, 30: not constant ratios, but meant for a log axis."""
    logs = [math.log10(x) for x in xs]
    steps = [b - a for a, b in zip(logs, logs[1:])]
    return len(xs) >= 4 and all(0.15 <= s <= 1.05 for s in steps) and (logs[-1] - logs[0]) >= 1.5


def format_number(x: float) -> str:
    """A short plain text for a tick or a cell: 0.25, 1, 12.5, 1e+06 only for the extreme."""
    if x == 0:
        return "0"
    if abs(x) >= 1e6 or abs(x) < 1e-3:
        return f"{x:.3g}"
    return f"{x:.4g}"


_KEY_WORDS = {
    "lock.ttl": "lock TTL",
    "lock.drift_factor": "drift factor",
    "lock.retry_delay": "retry delay",
    "lock.request_timeout": "request timeout",
    "lock.renew_every": "watchdog renewal interval",
    "redis.replication_delay": "replication delay",
    "redis.min_replicas_max_lag": "min-replicas max lag",
    "scenario.run_for": "run length",
}


def describe_key(key: str) -> str:
    """Words for a swept key: "lock.ttl" -> "lock TTL", "fault.c1-gc-pause.length" -> "c1-gc-pause length",
    "clock.C.drift" -> "C's clock drift". Unknown keys are returned as they are."""
    if key in _KEY_WORDS:
        return _KEY_WORDS[key]
    parts = key.split(".")
    if len(parts) == 3 and parts[0] == "fault":
        return f"{parts[1]} {parts[2].replace('_', ' ')}"
    if len(parts) == 3 and parts[0] == "clock":
        return f"{parts[1]}'s clock {parts[2].replace('_', ' ')}"
    if len(parts) == 3 and parts[0] == "client":
        return f"{parts[1]}'s {parts[2].replace('_', ' ')}"
    return key
