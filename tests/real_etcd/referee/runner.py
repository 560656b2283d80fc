"""One repetition of one story against a real cluster: start, react, record, stop.

A run starts a fresh 3-member cluster (cluster.py), the resource, the
observer and the proxy (harness processes, each reporting `ready`), then
every client of the story at once, each told to begin at t0 + its start time
on the shared monotonic clock (so Go's start-up and the dial are not part of
the story). From then on the driver reads every process's JSON lines as
they are written (one reader thread per process, line-buffered pipes) and
hands each record to the experiment, which can react within milliseconds:
blackhole a client at the proxy, signal a process, kill the leader, step a
member's wall clock. Timed actions run from the same loop.

The run ends when every client has exited (plus a short settle so the
observer's last events arrive), or at a cap of the story's run_for plus a
grace period, when the remaining clients are killed (their beliefs end
there). Everything started is stopped, the temporary directory removed, and
the records — the processes' own and the driver's — are written as one
JSON-lines file ordered by t_ns.

Why a fresh cluster for every repetition rather than a reset: a run kills
members, steps clocks and leaves leases behind; a new cluster costs about a
second and guarantees that no repetition inherits another's leader, clock
offset, lease or revision.
"""
import heapq
import json
import os
import queue
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import threading

from . import procs
from .cluster import EtcdCluster
from .procs import now_ns
from .scenario import duration_ns

PREFIX = "/locksim/lock"
STOCK_KEY = "/locksim/stock"     # store.stock: the stock etcd keeps (outside the lock prefix)
START_LEAD_NS = 1_500_000_000   # clients are launched this long before t0: Go start-up, dial
SETTLE_NS = 500_000_000          # after the last client exits, for the observer's last events
GRACE_NS = 30_000_000_000        # the cap is run_for + this


class Tools:
    """Paths of what a run executes."""

    def __init__(self, harness: str, shim: str, etcd: str = "/usr/bin/etcd"):
        self.harness = harness
        self.shim = shim
        self.etcd = etcd


class Run:
    def __init__(self, story, experiment, tools: Tools, rep: int = 0, keep_dir: str | None = None):
        self.story = story
        self.experiment = experiment
        self.tools = tools
        self.rep = rep
        self.keep_dir = keep_dir
        self.records: list[dict] = []
        self.queue: queue.Queue = queue.Queue()
        self.procs: dict[str, object] = {}
        self.open_streams: set[str] = set()
        self.timers: list = []
        self._seq = 0
        self.t0_ns = None
        self.cluster = None
        self.proxy_control = None
        self.client_ports = {}
        self.client_exited: set[str] = set()

    # ---- what experiments use ----

    def emit(self, event: str, t_ns: int | None = None, **fields) -> dict:
        rec = {"t_ns": now_ns() if t_ns is None else t_ns, "proc": "driver", "event": event, **fields}
        self.records.append(rec)
        return rec

    def at(self, offset_ns: int, action) -> None:
        """Runs action() at t0 + offset_ns."""
        self.at_abs(self.t0_ns + offset_ns, action)

    def at_abs(self, t_ns: int, action) -> None:
        self._seq += 1
        heapq.heappush(self.timers, (t_ns, self._seq, action))

    def signal_client(self, name: str, sig: int, why: str) -> dict:
        """Signals a client's process group and records it; a SIGSTOP is recorded with
        whether every thread of the client was seen stopped (`stopped`) within a second."""
        t = now_ns()
        proc = self.procs[name]
        sent = procs.signal_group(proc, sig)
        fields = {}
        if sig == signal.SIGSTOP:
            fields["stopped"] = sent and procs.wait_stopped(proc.pid, timeout_s=1.0)
            fields["checked_ns"] = now_ns()
        return self.emit("signal", t_ns=t, target=name, signal=signal.Signals(sig).name, sent=sent, why=why, **fields)

    def resume_pause_point(self, name: str) -> None:
        """Lets a client waiting at its pause point go on (once it is continued)."""
        stdin = self.procs[name].stdin
        stdin.write("\n")
        stdin.flush()

    def proxy(self, command: str) -> str:
        self.proxy_control.sendall((command + "\n").encode())
        reply = b""
        while not reply.endswith(b"\n"):
            chunk = self.proxy_control.recv(256)
            if not chunk:
                raise RuntimeError("the proxy closed its control connection")
            reply += chunk
        return reply.decode().strip()

    # ---- processes ----

    def _spawn(self, name: str, argv: list[str], workdir: str, ready: str | None, stdin=subprocess.DEVNULL):
        stderr = open(os.path.join(workdir, f"{name}.stderr"), "w")
        proc = procs.start(argv, stdout=subprocess.PIPE, stderr=stderr, stdin=stdin)
        self.procs[name] = proc
        if ready:
            deadline = now_ns() + 15_000_000_000
            while True:
                left = (deadline - now_ns()) / 1e9
                if left <= 0 or not select.select([proc.stdout], [], [], left)[0]:
                    raise RuntimeError(f"{name} did not report {ready!r} in time")
                line = proc.stdout.readline()
                if not line:
                    raise RuntimeError(f"{name} exited before {ready!r}: see {stderr.name}")
                rec = self._parse(name, line)
                if rec.get("event") == ready:
                    break
        self.open_streams.add(name)
        threading.Thread(target=self._read, args=(name, proc), daemon=True).start()
        return rec if ready else None

    def _parse(self, name: str, line: str) -> dict:
        try:
            rec = json.loads(line)
            if not isinstance(rec, dict):
                raise ValueError
        except ValueError:
            rec = {"t_ns": now_ns(), "proc": "driver", "event": "noise", "from": name, "text": line.rstrip()[:500]}
        rec.setdefault("proc", name)
        self.records.append(rec)
        return rec

    def _read(self, name, proc):
        for line in proc.stdout:
            self.queue.put((name, line))
        self.queue.put((name, None))

    # ---- the run ----

    def execute(self) -> list[dict]:
        workdir = tempfile.mkdtemp(prefix="locksim-real-etcd-")
        try:
            return self._execute(workdir)
        finally:
            for proc in list(self.procs.values()):
                procs.stop(proc)
            if self.proxy_control is not None:
                self.proxy_control.close()
            if self.cluster is not None:
                self.cluster.stop()
            if self.keep_dir:
                shutil.copytree(workdir, self.keep_dir, dirs_exist_ok=True,
                                ignore=shutil.ignore_patterns("*.etcd", "*.wall-offset"))
            shutil.rmtree(workdir, ignore_errors=True)

    def _execute(self, workdir: str) -> list[dict]:
        # The experiment read its fault plan when it made the story (Experiment.story).
        story, h = self.story, self.tools.harness
        self.cluster = EtcdCluster(workdir, self.tools.shim, self.tools.etcd).start()
        members = self.cluster.members
        self.emit("cluster", members={n: {"client": m.address, "peer_port": m.peer_port} for n, m in members.items()},
                  leader=self.cluster.leader(), heartbeat_ms=100, election_timeout_ms=1000)
        resource = None
        if story.app != "none" and not story.stock_in_store:
            policy = {"none": "none", "fencing": "fenced"}[story.policy]
            app = ["--app", "stock", "--initial-stock", str(story.initial_stock)] if story.app == "stock" else []
            ready = self._spawn("resource", [h, "resource", "--policy", policy] + app, workdir, "ready")
            resource = ready["address"]
        stock = ["--stock-key", STOCK_KEY, "--initial-stock", str(story.initial_stock)] if story.stock_in_store else []
        self._spawn("observer", [h, "observer", "--prefix", PREFIX,
                                 "--endpoints", ",".join(m.endpoint for m in members.values())] + stock,
                    workdir, "ready")
        services = {name: self._spawn(name, [h, "service", "--name", name, "--latency", f"{latency_ns}ns"],
                                      workdir, "ready")["address"]
                    for name, latency_ns in service_latencies(story).items()}
        names = [c.name for c in story.clients]
        ready = self._spawn("proxy", [h, "proxy", "--clients", ",".join(names),
                                      "--members", ",".join(f"{n}={m.address}" for n, m in members.items())],
                            workdir, "ready")
        self.client_ports = ready["ports"]
        host, port = ready["control"].rsplit(":", 1)
        self.proxy_control = socket.create_connection((host, int(port)))

        self.t0_ns = now_ns() + START_LEAD_NS
        self.emit("run", t0_ns=self.t0_ns, experiment=self.experiment.name, scenario=os.path.basename(story.path),
                  variant=story.variant, rep=self.rep, ttl_s=story.ttl_s, app=story.app, policy=story.policy,
                  prefix=PREFIX, clients=names, run_for_ns=story.run_for_ns,
                  real=self.experiment.describe(), initial_stock=story.initial_stock,
                  stock_key=STOCK_KEY if story.stock_in_store else None, services=sorted(services))
        for c in story.clients:
            argv = [h, "client", "--name", c.name, "--ttl", str(story.ttl_s), "--prefix", PREFIX,
                    "--endpoints", ",".join("http://" + a for a in self.client_ports[c.name].values()),
                    "--steps", json.dumps(c.steps), f"--unlock={'true' if c.release else 'false'}",
                    "--unlock-timeout", f"{story.request_timeout_ns}ns", "--start-at-ns", str(self.t0_ns + c.start_ns)]
            if resource:
                argv += ["--resource", resource]
            if c.iterations != 1 or c.think_ns:
                argv += ["--iterations", str(c.iterations), "--think", f"{c.think_ns}ns"]
            if services:
                argv += ["--services", ",".join(f"{n}={a}" for n, a in services.items())]
            if story.stock_in_store:
                argv += ["--stock-key", STOCK_KEY]
            argv += self.experiment.client_flags(story, c)
            # stdin: the byte that lets a client go on from its pause point.
            self._spawn(c.name, argv, workdir, None, stdin=subprocess.PIPE)
        self.experiment.begin(self)
        self._loop(names)
        self.emit("end", clients_exited=sorted(self.client_exited))
        # Stop the helpers now so their last records (the resource's final state) are in.
        for name in ("resource", "observer", "proxy", *self.story.services):
            if name in self.procs:
                procs.stop(self.procs[name])
                self._drain(name)
        self.records.sort(key=lambda r: r.get("t_ns", 0))
        return self.records

    def _drain(self, name: str, timeout_s: float = 2.0) -> None:
        """Reads what is left of name's stream after it ended."""
        deadline = now_ns() + int(timeout_s * 1e9)
        while name in self.open_streams and now_ns() < deadline:
            try:
                who, line = self.queue.get(timeout=0.1)
            except queue.Empty:
                continue
            self._handle(who, line)

    def _handle(self, name, line) -> None:
        if line is None:
            self.open_streams.discard(name)
            proc = self.procs.get(name)
            if name in self.story_client_names():
                proc.wait()
                self.client_exited.add(name)
                self.emit("proc-exit", target=name, returncode=proc.returncode)
            return
        rec = self._parse(name, line)
        self.experiment.on_record(rec, self)

    def story_client_names(self):
        return {c.name for c in self.story.clients}

    def _loop(self, names: list[str]) -> None:
        cap = self.t0_ns + self.story.run_for_ns + GRACE_NS
        settle_until = None
        while True:
            now = now_ns()
            while self.timers and self.timers[0][0] <= now:
                _, _, action = heapq.heappop(self.timers)
                action()
                now = now_ns()
            if settle_until is None and all(n in self.client_exited for n in names):
                settle_until = now + SETTLE_NS
            if settle_until is not None and now >= settle_until:
                return
            if now >= cap:
                for n in names:
                    if n not in self.client_exited:
                        self.signal_client(n, signal.SIGKILL, "run cap reached")
                self.emit("cap", cap_ns=cap)
                deadline = now + 3_000_000_000
                while any(n not in self.client_exited for n in names) and now_ns() < deadline:
                    try:
                        self._handle(*self.queue.get(timeout=0.1))
                    except queue.Empty:
                        pass
                return
            wake = min([cap, settle_until or cap] + ([self.timers[0][0]] if self.timers else []))
            try:
                name, line = self.queue.get(timeout=max(0.0, min(0.05, (wake - now) / 1e9)))
            except queue.Empty:
                continue
            self._handle(name, line)


def service_latencies(story) -> dict[str, int]:
    """service name -> its latency in ns; ValueError for a drawn latency, which the real service does not make."""
    out = {}
    for name, text in story.services.items():
        try:
            out[name] = duration_ns(text)
        except ValueError:
            raise ValueError(f"service.{name}.latency {text!r}: the real service answers after a fixed latency") \
                from None
    return out
