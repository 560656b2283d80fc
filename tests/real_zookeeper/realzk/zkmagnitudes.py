"""What a ZooKeeper story measures, the same way on both sides, from a trace
(`locksim check --trace` of a real history, `locksim run --trace`): on top of
realredis.magnitudes (beliefs' overlap, sessions),

- grant_after_fault_ns: from the first fault (the pause, the cut) to the
  next holder's grant — the session's expiry plus the watch's notification;
- first_end_after_fault_ns: from that fault to the end of the first
  holder's belief (SUSPENDED obeyed, a release, the run's end);
- late_ops: the first holder's ops after the next holder's grant, as
  "accepted"/"rejected" counts — the late write's fate.
"""
from realredis import magnitudes


def measure(trace: list[dict]) -> dict:
    m = magnitudes.measure(trace)
    bs = magnitudes.beliefs(trace)
    faults = [line["t"] for line in trace if line.get("type") == "fault" and line.get("fault") != "resume"]
    m.update(grant_after_fault_ns=None, first_end_after_fault_ns=None, late_accepted=None, late_rejected=None)
    if not bs:
        return m
    first = bs[0]
    nxt = next((b for b in bs[1:] if b.get("client") != first.get("client")), None)
    if faults:
        if nxt:
            m["grant_after_fault_ns"] = nxt["start"] - faults[0]
        if isinstance(first.get("end"), int):
            m["first_end_after_fault_ns"] = first["end"] - faults[0]
    if nxt:
        late = [line for line in trace if line.get("type") == "op" and line.get("session") == first.get("session")
                and line["t"] > nxt["start"]]
        m["late_accepted"] = sum(1 for op in late if op.get("accepted"))
        m["late_rejected"] = sum(1 for op in late if not op.get("accepted"))
    return m


KEYS = (("overlap_ns", "beliefs overlapped"), ("grant_after_fault_ns", "next grant after the fault"),
        ("first_end_after_fault_ns", "first belief end after fault"), ("sessions", "sessions"),
        ("late_accepted", "late ops accepted"), ("late_rejected", "late ops rejected"))


def summary(ms: list[dict], key: str) -> str:
    values = sorted(m[key] for m in ms if m.get(key) is not None)
    if not values:
        return "-"
    if key in ("sessions", "late_accepted", "late_rejected"):
        return f"{values[0]}..{values[-1]}"
    mid = values[len(values) // 2]
    return f"{mid / 1e6:.0f} ms [{values[0] / 1e6:.0f}, {values[-1] / 1e6:.0f}]"
