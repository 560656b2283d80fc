"""The protected resource on a loopback port, judged and recorded.

One JSON line per request, one per reply (the node client's
resourceConnection). The rules — apps counter, register and collection;
policies none, fencing, unique-token-cas and transactional; what each op
does and each reject reason — are resource_apps.py's, locksim's own. This
serves them and stamps each record; close() adds the quiescent `app` line.
The recorder's clock is the common one (it runs in the driver), so `local`
= `t`.
"""
import json
import socket
import threading

from . import procs
from .resource_apps import Rules


class Resource:
    def __init__(self, policy: str, app: str, t0_ref, initial_stock: int = 1):
        self.rules = Rules(policy, app, initial_stock)
        self._initial = self.rules.app_line(True)
        self.records: list[dict] = []
        self._t0_ref = t0_ref
        self._lock = threading.Lock()
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

    def judge(self, request: dict) -> dict:
        with self._lock:
            reply, records = self.rules.judge(request)
            for kind, fields in records:
                self._record(kind, fields)
            return reply

    def close(self) -> None:
        with self._lock:
            # The state at t0, as locksim's resource records it when it starts: no op comes before
            # t0, and the stock's first line is the initial stock P5's witness starts from.
            kind, fields = self._initial
            self.records.insert(0, {"t": 0, "p": "storage", "local": 0, "type": kind, **fields})
            self._record(*self.rules.app_line(True))
        self._server.close()
        for c in self._conns:
            try:
                c.close()
            except OSError:
                pass
