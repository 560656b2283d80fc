"""What makes a story's fault fire at the right moment of a real run: a client's n-th keepalive extension
(KeepaliveTrigger) or a client's pause point or a time (Pause)."""
import signal

from .scenario import duration_ns


class KeepaliveTrigger:
    """Fires action(t_ns of the reply) once: right after the client's n-th keepalive extension, once it holds.

    As locksim counts "c1 extended": the n-th reply after the one to the
    keepalive clientv3 sends as the session starts (sendKeepAliveLoop makes
    its first pass at once; nextKeepAlive = now). In locksim that first
    reply always lands before the grant — the renewal is the leader's alone,
    the Mutex's put goes through Raft — so its first extension is the
    session's second reply, TTL/3 later. For real the first reply races the
    grant (it lands a few milliseconds after it in about three runs of ten),
    so counting the replies after the grant would put the fault a whole TTL/3
    early in those runs; skipping the session-start reply puts it where the
    story does in every run.

    If the n-th extension came before the grant (n TTL/3 periods before a
    slow Lock returned), the action fires at the grant, with that reply's
    instant. Records come from one process in the order it wrote them, but
    the grant record is written after Lock returns and a reply may be written
    between; replies are ordered by their t_ns."""

    def __init__(self, client: str, n: int, action):
        self.client, self.n, self.action = client, n, action
        self.granted = False
        self.replies: list[int] = []
        self.fired = False

    def feed(self, rec: dict) -> None:
        if self.fired or rec.get("proc") != self.client:
            return
        if rec["event"] == "grant":
            self.granted = True
        elif rec["event"] == "keepalive":
            self.replies.append(rec["t_ns"])
        else:
            return
        if self.granted and len(self.replies) > self.n:
            self.fired = True
            self.action(sorted(self.replies)[self.n])


class Pause:
    """A `pause` fault of the file: a SIGSTOP at a time or at a client's pause point, SIGCONT `length` later.

    At a step (`at = "c1 read"`) the client waits at its pause point right
    after that step (client.go); the driver freezes it with SIGSTOP, sees
    every thread stopped, lets it past the pause point (a byte it can only
    read once continued) and continues it `length` after the SIGSTOP. The
    fault records whether the stop took effect; a pause that did not take
    does not count (judge.faults_fired)."""

    PHASE_STEP = {"read": "read", "wrote": "write", "worked": "work", "checked": "check"}

    def __init__(self, story, fault_name: str):
        fault = story.faults[fault_name]
        self.name = fault_name
        self.target = fault["target"]
        self.length_ns = duration_ns(fault["length"])
        self.at = fault["at"]
        self.pause_after_step = None
        words = self.at.split()
        if len(words) == 2 and words[0] == self.target:
            phase = words[1]
            client = story.client(self.target)
            if phase == "acquired":
                self.pause_after_step = -1
            elif phase in self.PHASE_STEP:
                kinds = [s.split()[0] for s in client.steps]
                self.pause_after_step = kinds.index(self.PHASE_STEP[phase])
            else:
                raise ValueError(f"pause at {self.at!r}: phase {phase!r} is not one the real client can stop at")
            self.at_ns = None
        else:
            self.at_ns = duration_ns(self.at)

    def describe(self) -> dict:
        how = (f"SIGSTOP at {self.target}'s pause point after step {self.pause_after_step}" if self.at_ns is None
               else f"SIGSTOP of {self.target} at t0+{self.at_ns / 1e9:g}s")
        return {"pause": {"target": self.target, "at": self.at, "length_ns": self.length_ns,
                          "how": how + f", SIGCONT {self.length_ns / 1e9:g}s later"}}

    def client_flags(self, client) -> list[str]:
        if client.name == self.target and self.pause_after_step is not None:
            return ["--pause-after-step", str(self.pause_after_step)]
        return []

    def begin(self, run) -> None:
        if self.at_ns is not None:
            run.at(self.at_ns, lambda: self._freeze(run, at_pause_point=False))

    def on_record(self, rec: dict, run) -> None:
        if rec.get("proc") == self.target and rec["event"] == "pause-point":
            self._freeze(run, at_pause_point=True)

    def _freeze(self, run, at_pause_point: bool) -> None:
        stop = run.signal_client(self.target, signal.SIGSTOP, self.name)
        if at_pause_point:
            run.resume_pause_point(self.target)
        run.emit("fault", kind="pause", name=self.name, target=self.target, length_ns=self.length_ns,
                 fault_t_ns=stop["t_ns"], took_effect=bool(stop.get("stopped")))
        run.at_abs(stop["t_ns"] + self.length_ns,
                   lambda: run.signal_client(self.target, signal.SIGCONT, self.name + " ends"))
