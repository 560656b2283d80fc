"""Faults at a time of the story (`at = "6s"`), made by a thread of the driver
at t0 + at on the common clock (CLOCK_MONOTONIC), and what a client's clock
step does to the promised ends its grants already wrote.

A fault is an action that returns whether it took effect; the scheduler
records `fault` (its kind and target) and `fault-fired` (the scenario's name
for it) at the instant the action returned, so the history's fault is where
the step really landed, not where it was planned (the thread may wake a
little late; the records say when).
"""
import threading
from dataclasses import dataclass

from . import procs


@dataclass
class Timed:
    at_ns: int          # after t0
    name: str           # the scenario's fault name
    kind: str           # the history's fault kind (clock-jump, ...)
    target: str | None
    action: object      # callable(t_ns) -> took_effect; t_ns: the common instant (after t0) just before it
    fired: bool = True  # False: only the `fault` line (a restart, which locksim records so too)


class TimedFaults:
    def __init__(self, observe):
        self._observe = observe       # observe(kind, fields): an observer record at now
        self.plan: list[Timed] = []
        self._stop = threading.Event()
        self._thread = None

    def add(self, fault: Timed) -> None:
        self.plan.append(fault)

    def start(self, t0_ns: int) -> None:
        if not self.plan:
            return
        self._thread = threading.Thread(target=self._run, args=(t0_ns,), name="timed-faults", daemon=True)
        self._thread.start()

    def _run(self, t0_ns: int) -> None:
        for fault in sorted(self.plan, key=lambda f: f.at_ns):
            wait_s = (t0_ns + fault.at_ns - procs.now_ns()) / 1e9
            if self._stop.wait(max(0.0, wait_s)):
                return
            took_effect = fault.action(procs.now_ns() - t0_ns)
            # A partition names no one target (locksim's history writes none either).
            self._observe("fault", {"fault": fault.kind, **({"target": fault.target} if fault.target else {})})
            if fault.fired:
                self._observe("fault-fired", {"fault": fault.name, "took_effect": bool(took_effect)})

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=5)


def correct_promised_ends(records: list[dict], steps: dict[str, list[tuple[int, int]]]) -> None:
    """A client's grant says when its clock will read the lease end, from its clock as it read then
    (client.js promisedEnd). A step of that clock after the grant moves that instant: a step by
    `by` makes the clock read every later value `by` earlier (a step back, later), but never
    before the step itself. steps: client -> [(t of the step, by_ns)], t on the common clock."""
    for record in records:
        if record.get("type") not in ("grant", "extend"):
            continue
        for t_step, by_ns in sorted(steps.get(record["p"], [])):
            if t_step <= record["t"]:
                continue     # the grant read the clock after this step: already on it
            for end in ("promised_end", "promised_end_latest"):
                value = record.get(end)
                if isinstance(value, int) and value > t_step:
                    record[end] = max(t_step, value - by_ns)
