"""The real and simulated verdicts of one row side by side, and whether they agree.

Per property: how many real repetitions were violated / held / unknown, and
how many seeds locksim found violated / held. They **disagree** when the
real system violated it and locksim never does, or locksim always does and
the real system held it every time it could be judged. A property the real
runs could only call unknown is not compared (said so, with the reason).
"""
import statistics

PROPERTIES = ["grant-exclusive", "belief-exclusive", "resource-exclusive", "resource-current", "invariant"]
SHORT = {"grant-exclusive": "P1", "belief-exclusive": "P2", "resource-exclusive": "P3",
         "resource-current": "P4", "invariant": "P5"}


def counts(verdict_sets: list[dict], prop: str) -> dict:
    c = {"violated": 0, "holds": 0, "unknown": 0}
    for v in verdict_sets:
        c[v.get(prop, "unknown")] = c.get(v.get(prop, "unknown"), 0) + 1
    return c


def compare_row(real: list[dict], sim: list[dict]) -> dict:
    """real: [{verdicts, magnitudes, unknown_because}], sim: [{verdicts, magnitudes}]."""
    props = {}
    agree = True
    for p in PROPERTIES:
        r = counts([x["verdicts"] for x in real], p)
        s = counts([x["verdicts"] for x in sim], p)
        judged_real = r["violated"] + r["holds"]
        if judged_real == 0:
            status = "not compared (real: unknown)"
        elif r["violated"] and not s["violated"]:
            status, agree = "DISAGREE: real violated, locksim never", False
        elif s["violated"] == len(sim) and r["holds"] == judged_real:
            status, agree = "DISAGREE: locksim always violated, real held", False
        else:
            status = "agree"
        props[p] = {"real": r, "sim": s, "status": status}
    return {"properties": props, "agree": agree,
            "real_magnitudes": summarize([x["magnitudes"] for x in real]),
            "sim_magnitudes": summarize([x["magnitudes"] for x in sim])}


def summarize(ms: list[dict]) -> dict:
    out = {}
    for key in ("overlap_ns", "handover_ns", "sessions", "expired_grants", "longest_stuck_ns", "commits", "rollbacks",
                "lowest_stock"):
        values = [m[key] for m in ms if m.get(key) is not None]
        out[key] = ({"min": min(values), "median": statistics.median(values), "max": max(values)}
                    if values else None)
    return out


def fmt_ms(stats: dict | None, key: str) -> str:
    s = stats.get(key) if stats else None
    if not s:
        return "-"
    if key in ("sessions", "expired_grants", "commits", "rollbacks", "lowest_stock"):
        return f"{s['min']}..{s['max']}"
    return f"{s['median'] / 1e6:.1f} ms [{s['min'] / 1e6:.1f}, {s['max'] / 1e6:.1f}]"


def _app_lines(c: dict) -> list[str]:
    """A stock's lowest stock; commits and rollbacks for a row whose resource committed anything
    (median and range). None for other rows, whose tables stay as they were."""
    both = (c["real_magnitudes"], c["sim_magnitudes"])
    keys = ["lowest_stock"] if any(ms.get("lowest_stock") for ms in both) else []
    if any(ms.get("commits") and ms["commits"]["max"] for ms in both):
        keys += ["commits", "rollbacks"]
    lines = []
    for key in keys:
        r, s = c["real_magnitudes"].get(key), c["sim_magnitudes"].get(key)
        text = [f"{x['median']:g} [{x['min']}, {x['max']}]" if x else "-" for x in (r, s)]
        lines.append(f"  {key.replace('_', ' '):<28} real {text[0]:<28} locksim {text[1]}")
    return lines


def table(rows: list[dict]) -> str:
    """rows: [{label, client, reps, seeds, comparison | error}] -> text."""
    lines = []
    for row in rows:
        lines.append(f"{row['label']}  (client {row['client']}; {row['reps']} real, {row['seeds']} simulated)")
        if row.get("error"):
            lines.append(f"  cannot compare: {row['error']}")
            continue
        c = row["comparison"]
        lines.append(f"  {'property':<22} {'real v/h/u':<12} {'locksim v/h/u':<14} verdict")
        for p in PROPERTIES:
            d = c["properties"][p]
            r, s = d["real"], d["sim"]
            lines.append(f"  {SHORT[p] + ' ' + p:<22} {r['violated']}/{r['holds']}/{r['unknown']:<8} "
                         f"{s['violated']}/{s['holds']}/{s['unknown']:<10} {d['status']}")
        for key, what in (("overlap_ns", "beliefs overlapped"), ("handover_ns", "next grant after lease end"),
                          ("sessions", "sessions"), ("expired_grants", "expired grants"),
                          ("longest_stuck_ns", "longest stuck")):
            lines.append(f"  {what:<28} real {fmt_ms(c['real_magnitudes'], key):<28} "
                         f"locksim {fmt_ms(c['sim_magnitudes'], key)}")
        lines += _app_lines(c)
        for note in row.get("notes", []):
            lines.append(f"  note: {note}")
    return "\n".join(lines) + "\n"
