"""The protected resource: a counter on a loopback port, judged and recorded.

One JSON line per request, one per reply (the node client's
resourceConnection). Ops: `read` (answers the counter) and `write` (sets it
to the value the client computed from its read: the read-modify-write of the
catalogue's counter stories). Policy `none` accepts everything; `fencing`
rejects a token below the highest it has accepted (`stale-token`), reads
included, as locksim's fencing resource. Each judged op is an `op` line and
each accepted one an `app` line (counter, and increments = writes accepted:
the invariant P5 reads the two); close() adds the quiescent `app` line. The
recorder's clock is the common one (it runs in the driver), so `local` = `t`.
"""
import json
import socket
import threading

from . import procs


class Resource:
    def __init__(self, policy: str, app: str, t0_ref):
        if policy not in ("none", "fencing"):
            raise ValueError(f"resource policy {policy!r}: the real resource has none and fencing")
        self.policy = policy
        self.app = app
        self.records: list[dict] = []
        self._t0_ref = t0_ref
        self._lock = threading.Lock()
        self.counter = 0
        self.increments = 0
        self.highest_token = -1
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = self._server.getsockname()[1]
        self._conns: list[socket.socket] = []
        threading.Thread(target=self._accept, name="resource", daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._server.accept()
            except OSError:
                return
            self._conns.append(conn)
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        with conn, conn.makefile("rw") as f:
            for line in f:
                reply = self.judge(json.loads(line))
                f.write(json.dumps(reply) + "\n")
                f.flush()

    def _record(self, kind: str, fields: dict) -> None:
        t = procs.now_ns() - self._t0_ref()
        self.records.append({"t": t, "p": "storage", "local": t, "type": kind, **fields})

    def _app_line(self, quiescent: bool) -> dict:
        return {"app": self.app, "counter": self.counter, "increments": self.increments,
                "elements": 0, "size": 0, "stock": 0, "quiescent": quiescent}

    def judge(self, request: dict) -> dict:
        with self._lock:
            token = int(request.get("token", -1))
            accepted = True
            reject = "none"
            if self.policy == "fencing":
                if token < 0:
                    accepted, reject = False, "missing-token"
                elif token < self.highest_token:
                    accepted, reject = False, "stale-token"
            if accepted:
                self.highest_token = max(self.highest_token, token)
                if request["op"] == "write":
                    self.counter = int(request["value"])
                    self.increments += 1
            self._record("op", {"session": request["session"], "client": request["client"], "op": request["op"],
                                "accepted": accepted, "reject": reject, "token": token})
            if accepted:
                self._record("app", self._app_line(False))
            return {"accepted": accepted, "value": self.counter if accepted else None}

    def close(self) -> None:
        with self._lock:
            self._record("app", self._app_line(True))
        self._server.close()
        for c in self._conns:
            try:
                c.close()
            except OSError:
                pass
