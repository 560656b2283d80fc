"""The protected resource's rules: its applications and write policies.

Pure logic (no sockets, no clock), so the rules can be tested on hand-made
requests; resource.py serves it on a port and stamps the records with the
common clock. The rules are locksim's (sim/resource/resource.cc), op for op
and reject reason for reject reason, because `locksim check` judges the real
history by the same properties the simulation is judged by:

- apps: `none` (a story about the lock alone: its `app` lines say so), `counter` and `register` (`read` answers the value, `write` sets it
  to the value the client computed and counts an increment: a register is a
  counter its clients write without reading), `collection` (`add` counts an
  element, `increment-size` the size, `add-and-increment` both at once: the
  invariant P5 compares elements with size), `stock` (`read` answers the
  stock, `decrement` takes one unit off whatever is left — the client's
  GET-compare-DECR, compared on what it read — and `check-and-decrement`
  does the compare here, atomically, refusing `out-of-stock` at zero: P5
  asks that the stock never go below zero);
- policies: `none` accepts everything; `fencing` rejects an op without a
  token (`missing-token`) or with one below the highest accepted
  (`stale-token`), reads included; `unique-token-cas` accepts every `mark`
  (the session's random lock value becomes the mark) and rejects any other op
  whose lock value is not the current mark (`mark-mismatch`); `transactional`
  answers reads at once, stages a session's other ops and applies them at its
  `commit`, unless another session committed since the session's first op:
  then nothing of it happens (`rolled-back` on the commit).

Records follow docs/history.md: each judged op an `op` line, and an `app`
line after each accepted op. A staged op is judged only at its commit (as
in locksim: it has changed nothing before), so a rolled-back session leaves
one `op` line, its commit's.
"""
from dataclasses import dataclass, field

POLICIES = ("none", "fencing", "unique-token-cas", "transactional")
APPS = ("none", "counter", "register", "collection", "stock")
APP_OPS = {
    # `none`: a story about the lock alone; its app lines say so, as locksim's do.
    "none": ("read", "write", "mark", "commit"),
    "counter": ("read", "write", "mark", "commit"),
    "register": ("read", "write", "mark", "commit"),
    "collection": ("read", "add", "increment-size", "add-and-increment", "mark", "commit"),
    "stock": ("read", "decrement", "check-and-decrement", "mark", "commit"),
}


class OutOfStock(Exception):
    """A check-and-decrement found no unit left (locksim's Reject::out_of_stock)."""


@dataclass
class Staged:
    began_at_commit: int            # the commits count at the session's first op
    ops: list[dict] = field(default_factory=list)


class Rules:
    """One resource's state; judge() takes a request and gives (reply, records)."""

    def __init__(self, policy: str, app: str, initial_stock: int = 1):
        if policy not in POLICIES:
            raise ValueError(f"resource policy {policy!r}: the real resource has {', '.join(POLICIES)}")
        if app not in APPS:
            raise ValueError(f"resource app {app!r}: the real resource has {', '.join(APPS)}")
        self.policy, self.app = policy, app
        self.counter = self.increments = self.elements = self.size = 0
        self.stock = initial_stock          # written on every app line, as locksim writes it
        self.highest_token = -1
        self.mark: str | None = None
        self.commits = 0
        self.staged: dict[str, Staged] = {}

    def app_line(self, quiescent: bool) -> tuple[str, dict]:
        return ("app", {"app": self.app, "counter": self.counter, "increments": self.increments,
                        "elements": self.elements, "size": self.size, "stock": self.stock,
                        "quiescent": quiescent})

    def admit(self, request: dict) -> str:
        """The policy's reject reason for the request, or "none"."""
        if self.policy == "fencing":
            token = _token(request)
            if token < 0:
                return "missing-token"
            if token < self.highest_token:
                return "stale-token"
        elif self.policy == "unique-token-cas" and request["op"] != "mark":
            if self.mark is None or self.mark != request.get("lock_value"):
                return "mark-mismatch"
        return "none"

    def perform(self, request: dict) -> int | None:
        """Applies an admitted op to the app; the reply's value (the counter, a stock's stock; None for
        a mark). A check-and-decrement at zero stock raises OutOfStock: the op is refused, not applied."""
        op = request["op"]
        if op not in APP_OPS[self.app]:
            raise ValueError(f"op {op!r} on a {self.app}")
        if op == "check-and-decrement" and self.stock <= 0:
            raise OutOfStock()
        if op in ("decrement", "check-and-decrement"):
            self.stock -= 1
        if op == "write":
            # The client computed the value from what it read: what makes a lost update possible.
            self.counter = int(request["value"])
            self.increments += 1
        elif op == "mark":
            self.mark = request.get("lock_value")
            return None
        elif op in ("add", "add-and-increment"):
            self.elements += 1
        if op in ("increment-size", "add-and-increment"):
            self.size += 1
        return self.stock if self.app == "stock" else self.counter

    def judge(self, request: dict) -> tuple[dict, list[tuple[str, dict]]]:
        reject = self.admit(request)
        if reject == "none" and self.policy == "transactional":
            return self._transact(request)
        value = None
        if reject == "none":
            try:
                value = self.perform(request)
            except OutOfStock:
                reject, value = "out-of-stock", self.stock
        if reject == "none":
            if self.policy == "fencing":
                self.highest_token = _token(request)
        accepted = reject == "none"
        records = [_op_line(request, accepted, reject)]
        if accepted:
            records.append(self.app_line(False))
        return {"accepted": accepted, "reject": reject, "value": value}, records

    def _transact(self, request: dict) -> tuple[dict, list[tuple[str, dict]]]:
        session = str(request["session"])
        staged = self.staged.setdefault(session, Staged(self.commits))
        if request["op"] == "read":
            return {"accepted": True, "reject": "none", "value": self.perform(request)}, \
                [_op_line(request, True, "none")]
        if request["op"] != "commit":
            staged.ops.append(dict(request))
            return {"accepted": True, "reject": "none", "value": None}, []
        del self.staged[session]
        if staged.began_at_commit != self.commits:
            # Another session committed in between: nothing of this one happened.
            return {"accepted": False, "reject": "rolled-back", "value": None}, \
                [_op_line(request, False, "rolled-back")]
        records = []
        for op in staged.ops:
            try:
                self.perform(op)
                records.append(_op_line(op, True, "none"))
            except OutOfStock:      # refused alone, the rest of the commit applied (resource.cc transact)
                records.append(_op_line(op, False, "out-of-stock"))
        self.commits += 1
        records += [_op_line(request, True, "none"), self.app_line(False)]
        return {"accepted": True, "reject": "none", "value": self.counter}, records


def _token(request: dict) -> int:
    return int(request.get("token", -1))


def _op_line(request: dict, accepted: bool, reject: str) -> tuple[str, dict]:
    return ("op", {"session": request["session"], "client": request["client"], "op": request["op"],
                   "accepted": accepted, "reject": reject, "token": _token(request)})
