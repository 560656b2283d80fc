"""How close a story came, measured the same way on both sides: from the
`belief` lines of a trace (docs/trace.md), which `locksim check --trace`
writes for a real history and `locksim run --trace` for a simulated run.

- overlap_ns: the longest time two clients' beliefs overlapped (0: never);
- handover_ns: how long after the first session's promised lease end the
  next session began (negative: it began inside that window; None: one
  session only, or no promised end);
- sessions: how many grants;
- lowest_stock: a stock app's lowest stock (below zero: units sold that did
  not exist; None for another app), from the trace's `app` lines.
"""
import json


def beliefs(trace_lines: list[dict]) -> list[dict]:
    return sorted((b for b in trace_lines if b.get("type") == "belief"), key=lambda b: b["start"])


def read_trace(path: str) -> list[dict]:
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def measure(trace_lines: list[dict]) -> dict:
    bs = beliefs(trace_lines)
    end_of_run = max((line.get("t", 0) for line in trace_lines), default=0)
    overlap = 0
    for i, a in enumerate(bs):
        for b in bs[i + 1:]:
            if a.get("client") == b.get("client"):
                continue
            a_end = a["end"] if isinstance(a.get("end"), int) else end_of_run
            b_end = b["end"] if isinstance(b.get("end"), int) else end_of_run
            overlap = max(overlap, min(a_end, b_end) - max(a["start"], b["start"]))
    handover = None
    if len(bs) >= 2 and isinstance(bs[0].get("promised_end"), int):
        handover = bs[1]["start"] - bs[0]["promised_end"]
    stocks = [line["stock"] for line in trace_lines if line.get("type") == "app" and line.get("app") == "stock"]
    return {"overlap_ns": max(0, overlap), "handover_ns": handover, "sessions": len(bs),
            "lowest_stock": min(stocks) if stocks else None}
