"""What a repetition needs beyond the pause after a step (runner.py): the
client's acquire/release styles, a stop or crash *inside* a lock request, and
faults at a time of the story — for the rows that opt in (rows.Row.modes).

- **A point inside a request** (`at = "c1 acquire-sent"`, `"c1 setnx-ok"`):
  the client says it is there and blocks its thread (node/sync_point.js), so
  nothing it has not done yet can happen. A `pause` is made as runner.py makes
  one (SIGSTOP to the client's process group, seen in /proc, SIGCONT `length`
  after), but released through a go file instead of stdin, which the blocked
  client cannot read. A `crash` is SIGKILL of the group: the process is gone
  with whatever it had not sent; its sockets close (a request already written
  is in the server's receive queue and still runs). The history gets `fault
  crash`, which ends any belief of the client (docs/history.md); its exit by
  SIGKILL is then not a problem of the run.
- **A clock step at a time** (`kind = "clock-jump"`, `at = "6s"`): of a
  client, by its Date.now() offset file (node/clock_shim.js, milliseconds);
  of a redis-server, by its shim's offset (wall_steps.py). A client whose
  clock steps after a grant has that grant's promised end moved
  (timed_faults.correct_promised_ends).
- **A partition from the start** (client against nodes, never healed): the
  client is given a port where nothing listens for each node it is cut from.
- **A redis-server's crash at a time**: SIGKILL, and a restart on its port
  after `restart_after` (no sooner than `redis.delayed_restart`), with the
  story's persistence (redis_node.py reads whether the key came back); a
  machine crash of an `aof-everysec` node under the volatile-writes shim,
  which loses what was not fsynced (volatile_aof.py). Such a node's everysec
  fsync clock is started at t0's wall-clock second, as locksim's node starts
  at t0 (aof_phase.py: t0 just after a whole second, a throwaway write before it).
- **A drifting redis-server clock** (`[clock.NODE] drift`): its shim offset
  set every millisecond.
- **The run's end** for a client that never gets the lock: it stops trying
  when the next try would start after run_for, as locksim's run ends.
- **A replicated deployment** (`[redis] replicas`, `[sentinel]`): replicas,
  sentinels, links between zones, partitions that heal, a node's crash at a
  client's phase (replication.py).
"""
import os
import signal
import threading
import time

from . import aof_phase, procs, volatile_aof
from .pause import go_on, pause_group
from .redis_node import RedisNode
from .replication import Replicated
from .story import Story, duration_ns
from .timed_faults import Timed, TimedFaults, correct_promised_ends
from .wall_steps import ShiftedRedisNode

SYNC_POINTS = ("acquire-sent", "setnx-ok")


class StoryFaults:
    def __init__(self, story: Story, lib: str, modes: bool, workdir: str, observe):
        self.story, self.lib, self.modes, self.workdir = story, lib, modes, workdir
        self._observe = observe
        self.crashed: set[str] = set()
        self.problems: list[str] = []   # what makes a repetition not count (runner.py reports them)
        self.timed = TimedFaults(observe)
        self.client_steps: dict[str, list[tuple[int, int]]] = {}
        # Only a row that asks for it (rows.Row.modes) gets these faults made here, so
        # that another module making the same kind of fault for other rows never doubles one.
        self.points = self._points() if modes else {}
        self._stepped_nodes = {f["target"] for f in story.faults.values()
                               if modes and f.get("kind") == "clock-jump" and f.get("target") in story.nodes}
        self._drifts = self._node_drifts() if modes else {}
        self._stepped_nodes |= set(self._drifts)
        self._drift_stop = threading.Event()
        self._drift_thread = None
        self.nodes: dict[str, RedisNode] = {}
        self.volatile_nodes: list[RedisNode] = []    # under the volatile-writes shim (volatile_aof.py)
        self.fsync_starts: list[aof_phase.FsyncClockStart] = []    # an everysec fsync clock started at t0 (aof_phase.py)
        self._dead_port = procs.free_port()     # nothing listens there: a partitioned client's node
        redis = story.spec.get("redis", {})
        self.replicated: Replicated | None = None
        self._replicated_wanted = modes and bool(redis.get("replicas") or story.spec.get("sentinel", {}).get("names"))
        self.node_points = self._node_points()   # client -> (phase, fault): a node crashed at the client's phase

    def _points(self) -> dict[str, tuple[str, dict]]:
        """client -> (point, fault) for the pauses and crashes at a point inside a request."""
        points = {}
        for name, fault in self.story.faults.items():
            who, _, phase = fault.get("at", "").partition(" ")
            if phase in SYNC_POINTS and fault.get("kind") in ("pause", "crash"):
                if fault.get("target") != who or who in points:
                    raise ValueError(f"fault {name}: the real run stops a client at its own point, once")
                points[who] = (phase, {"name": name, **fault})
            elif fault.get("kind") == "crash" and fault.get("target") in {c.name for c in self.story.clients}:
                raise ValueError(f"fault {name}: a crash at {fault.get('at')!r} is not made for real")
        return points

    def _node_points(self) -> dict[str, tuple[str, dict]]:
        """client -> (phase, fault) for a node's crash at a client's phase (`at = "c1 acquired"`)."""
        points = {}
        for name, fault in self.story.faults.items():
            who, _, phase = str(fault.get("at", "")).partition(" ")
            if fault.get("kind") == "crash" and fault.get("target") in self.story.nodes and phase:
                if not self._replicated_wanted or phase != "acquired" or who in points:
                    raise ValueError(f"fault {name}: a node's crash at {fault.get('at')!r} is made for real in a "
                                     "replicated story at a client's `acquired`, once per client")
                points[who] = (phase, {"name": name, **fault})
        return points

    def node(self, name: str, key: str, workdir: str, t0_ref, wall_minus_mono_ns: int) -> RedisNode:
        persistence = self.story.spec.get("redis", {}).get("persistence", "none") if self.modes else "none"
        if name in self._stepped_nodes:
            if self.modes and volatile_aof.wanted(self.story, name):
                raise ValueError(f"{name}: a stepped clock and a machine crash's lost AOF writes are not made together")
            shim = os.environ.get("LOCKSIM_REAL_REDIS_SHIM")
            if not shim or not os.path.exists(shim):
                raise ValueError(f"{name}'s clock steps: LOCKSIM_REAL_REDIS_SHIM must name "
                                 "liblocksim_vdso_clock_shim.so (built with the tests)")
            node = ShiftedRedisNode(name, key, workdir, t0_ref, wall_minus_mono_ns, shim, persistence=persistence)
        else:
            # A machine crash of an everysec AOF loses what was not fsynced: the shim holds it (volatile_aof.py).
            env = volatile_aof.env(os.path.join(workdir, name)) if self.modes and volatile_aof.wanted(
                self.story, name) else None
            node = RedisNode(name, key, workdir, t0_ref, wall_minus_mono_ns, persistence=persistence, env=env,
                             extra_args=self._replicated_args(workdir, t0_ref, wall_minus_mono_ns))
            if env:
                self.volatile_nodes.append(node)
        self.nodes[name] = node
        return node

    def _replicated_args(self, workdir: str, t0_ref, wall_minus_mono_ns: int) -> list[str]:
        if not self._replicated_wanted:
            return []
        self.replicated = Replicated(self.story, workdir, self._observe, t0_ref, wall_minus_mono_ns)
        return self.replicated.node_args

    def more_nodes(self) -> list[RedisNode]:
        """The replicas (started, in sync, watched by the sentinels), after the story's nodes."""
        if not self.replicated:
            return []
        return self.replicated.start(self.nodes[self.story.nodes[0]])

    def choose_t0(self, earliest_ns: int) -> int:
        """t0: earliest_ns, or, where a crashed node's AOF is everysec, the first instant a few ms after a
        whole second of its wall clock no earlier than that, its throwaway write planned before it
        (aof_phase.py)."""
        names = aof_phase.nodes(self.story, self.modes)
        if not names:
            return earliest_ns
        offset = aof_phase.server_wall_minus_mono(self.nodes[names[0]].port)
        second, write, t0 = aof_phase.choose(earliest_ns, offset)
        self.fsync_starts = [aof_phase.FsyncClockStart(n, self.nodes[n].port, second, write, t0, offset)
                             for n in names]
        return t0

    def client_config(self, client, t0_ns: int) -> dict:
        """Keys for node/modes.js; none for a row that does not use it."""
        if not self.modes:
            return {}
        lock = self.story.spec.get("lock", {})
        point, _ = self.points.get(client.name, (None, None))
        extra = {"modes": True, "acquire_style": lock.get("acquire", "set-nx-px"),
                 "release_style": lock.get("release", "compare-and-delete"),
                 "fencing_style": lock.get("fencing", "none"), "sync_point": point,
                 "go_file": os.path.join(self.workdir, f"{client.name}.go"),
                 "run_until_ns": str(t0_ns + self.story.run_for_ns)}
        if self.replicated:
            extra.update(self.replicated.client_config(client.name))
        if client.name in self.node_points:
            extra["pause_after"] = self.node_points[client.name][0]
        cut = self._cut_from(client.name) if not self._replicated_wanted else set()
        if cut:
            # A node the client is cut from answers on a port where nothing listens:
            # its connection is refused, and each request to it fails.
            extra["nodes"] = [self._dead_port if n in cut else self.nodes[n].port for n in self.story.nodes]
            extra["cut_ports"] = [self._dead_port]
        attempts = self.story.spec.get("client", {}).get(client.name, {}).get("attempts", lock.get("attempts"))
        if attempts is not None and not self.story.preset:
            extra["retry_count"] = attempts - 1 if attempts > 0 else -1    # 0: until the run ends
        return extra

    def _partitions(self) -> dict[str, dict]:
        return {name: f for name, f in self.story.faults.items() if f.get("kind") == "partition"} if self.modes else {}

    def _cut_from(self, client: str) -> set[str]:
        """The nodes a partition from the start keeps from client."""
        cut = set()
        for name, fault in self._partitions().items():
            groups = fault.get("groups", [])
            if duration_ns(str(fault.get("at", ""))) != 0 or "heal_after" in fault:
                raise ValueError(f"fault {name}: only a partition from the start that never heals is made for real "
                                 "(refused connections); one at a later time needs a proxy")
            everyone = {p for g in groups for p in g}
            if everyone - set(self.story.nodes) - {c.name for c in self.story.clients}:
                raise ValueError(f"fault {name}: the real run cuts clients from redis nodes only")
            for group in groups:
                if client in group:
                    cut |= {p for g in groups if g is not group for p in g if p in self.story.nodes}
        return cut

    def on_control(self, record: dict, proc, client: str) -> bool:
        """Handles a client's sync-point line, and its pause point where a node crashes; False for any other."""
        if record.get("control") == "pause-point" and client in self.node_points:
            threading.Thread(target=self._crash_node_at_point, args=(proc, client), daemon=True).start()
            return True
        if record.get("control") != "sync-point" or client not in self.points:
            return False
        _, fault = self.points[client]
        act = self._pause if fault["kind"] == "pause" else self._crash
        threading.Thread(target=act, args=(proc, client, fault), daemon=True).start()
        return True

    def _pause(self, proc, client: str, fault: dict) -> None:
        # Released through a go file: the client blocks its thread at the point and reads no stdin.
        go_file = os.path.join(self.workdir, f"{client}.go")
        if not pause_group(proc, client, fault["name"], duration_ns(fault.get("length", "0s")), self._observe,
                           lambda: open(go_file, "w").close()):
            self.problems.append(f"{client}: SIGSTOP not seen in /proc")

    def _crash(self, proc, client: str, fault: dict) -> None:
        self.crashed.add(client)
        killed = procs.signal_group(proc, signal.SIGKILL)
        self._observe("fault", {"fault": "crash", "target": client})
        self._observe("fault-fired", {"fault": fault["name"], "took_effect": killed})

    def _crash_node_at_point(self, proc, client: str) -> None:
        """The node crashes while the client waits at its phase; then the client goes on."""
        _, fault = self.node_points.pop(client)
        # Recorded as it is made: kill() waits for the process to be gone and its MONITOR to end.
        self._observe("fault", {"fault": "crash", "target": fault["target"]})
        took_effect = self.replicated.crash(fault["target"])
        self._observe("fault-fired", {"fault": fault["name"], "took_effect": took_effect})
        go_on(proc)

    def start(self, t0_ns: int) -> None:
        """Plans the timed faults and starts their thread."""
        for name, fault in self._partitions().items():
            if not self.replicated:
                self.timed.add(Timed(0, name, "partition", None, lambda t_ns: True))
                continue
            at = duration_ns(str(fault.get("at", "0s")))
            self.timed.add(Timed(at, name, "partition", None, self.replicated.cut))
            if "heal_after" in fault:
                self.timed.add(Timed(at + duration_ns(str(fault["heal_after"])), name, "heal", None,
                                     self.replicated.heal, fired=False))
        if self.replicated:
            self.replicated.start_roles()
        self._plan_node_crashes()
        for name, fault in self.story.faults.items():
            if fault.get("kind") != "clock-jump" or not self.modes:
                continue
            at = fault.get("at", "")
            if " " in at:
                raise ValueError(f"fault {name}: a clock step at a phase ({at!r}) is not made for real")
            by_ns = duration_ns(fault["by"])
            self.timed.add(Timed(duration_ns(at), name, "clock-jump", fault["target"],
                                 self._clock_step(fault["target"], by_ns)))
        self.timed.start(t0_ns)
        if self._drifts:
            self._drift_thread = threading.Thread(target=self._drift, args=(t0_ns,), name="clock-drift", daemon=True)
            self._drift_thread.start()

    def _node_drifts(self) -> dict[str, float]:
        """node -> its clock's rate error ([clock.NODE] drift = "2%": 2 % fast)."""
        drifts = {}
        for name, clock in self.story.spec.get("clock", {}).items():
            if "drift" not in clock:
                continue
            if name not in self.story.nodes:
                raise ValueError(f"clock.{name}.drift: the real run drifts a redis-server's clock only")
            text = str(clock["drift"]).strip()
            drifts[name] = float(text[:-1]) / 100 if text.endswith("%") else float(text)
        return drifts

    def _drift(self, t0_ns: int) -> None:
        """A drifting clock, made as a step every millisecond: the server's offset is rate x the time
        since t0 (locksim's clocks drift from the run's start), so it is never more than
        rate x 1 ms (20 us at 2 %) from a smooth drift."""
        while not self._drift_stop.wait(0.001):
            t = procs.now_ns() - t0_ns
            if t > 0:
                for name, rate in self._drifts.items():
                    self.nodes[name].step_clock(t, int(rate * t))

    def _plan_node_crashes(self) -> None:
        """A redis-server's crash at a time: SIGKILL, and a restart on its port `restart_after`
        later — or, with antirez's delayed restart, no sooner than `delayed_restart` after it."""
        delayed = duration_ns(str(self.story.spec.get("redis", {}).get("delayed_restart", "0s")))
        for name, fault in self.story.faults.items():
            node = self.nodes.get(fault.get("target")) if self.modes and fault.get("kind") == "crash" else None
            if node is None or " " in str(fault.get("at", "")):
                continue
            at = duration_ns(str(fault.get("at", "")))
            if self.replicated:
                if "restart_after" in fault:
                    raise ValueError(f"fault {name}: a restart in a replicated story is not made for real")
                self.timed.add(Timed(at, name, "crash", node.name, lambda t_ns, n=node: self.replicated.crash(n.name)))
                continue
            self.timed.add(Timed(at, name, "crash", node.name, lambda t_ns, n=node: n.kill() is not None))
            if "restart_after" in fault:
                down = max(duration_ns(str(fault["restart_after"])), delayed)
                self.timed.add(Timed(at + down, name, "restart", node.name,
                                     lambda t_ns, n=node: n.restart() is None, fired=False))

    def _clock_step(self, target: str, by_ns: int):
        if target in self.nodes:
            node = self.nodes[target]

            def step_node(t_ns: int) -> bool:
                node.step_clock(t_ns, node.wall.offset_now() + by_ns)
                return True
            return step_node
        path = os.path.join(self.workdir, f"{target}.clock-offset-ms")

        def step_client(t_ns: int) -> bool:
            with open(path) as f:
                offset_ms = int(f.read().strip() or 0)
            with open(path + ".new", "w") as f:
                f.write(f"{offset_ms + by_ns // 1_000_000}\n")
            os.replace(path + ".new", path)     # clock_shim.js never reads a half-written file
            self.client_steps.setdefault(target, []).append((t_ns, by_ns))
            return True
        return step_client

    def run_out(self, t0_ns: int) -> None:
        """A replicated story goes on after its clients are done, to run_for: a partition still heals
        and the sentinels still demote the old master, as in locksim's run."""
        if self.replicated:
            time.sleep(max(0.0, (t0_ns + self.story.run_for_ns - procs.now_ns()) / 1e9))

    def stop(self) -> None:
        """Ends the timed faults and the drift; called before the nodes close (their offset files go then)."""
        self._drift_stop.set()
        if self._drift_thread:
            self._drift_thread.join(timeout=5)
        self.timed.stop()
        if self.replicated:
            self.replicated.stop()

    def source_notes(self) -> list[str]:
        """What the history's source says beyond the row: how each everysec fsync clock was started,
        each volatile AOF's last write and its fsync."""
        notes = []
        for start in self.fsync_starts:
            node = self.nodes[start.name]
            held = synced = None
            if node in self.volatile_nodes:     # the shim's log: the throwaway is the AOF's first write
                log = volatile_aof.read_log(os.path.join(node.dir, volatile_aof.LOG))
                held = next((w for kind, _, w in log if kind == "held"), None)
                synced = next((w for kind, size, w in log if kind == "synced" and size > 0 and held is not None
                               and w >= held), None)
            notes.append(start.describe(held, synced))
        return notes + [volatile_aof.describe(n.name, volatile_aof.read_log(os.path.join(n.dir, volatile_aof.LOG)),
                                              n.killed_at) for n in self.volatile_nodes]

    def fix(self, records: list[dict]) -> None:
        """The promised ends a client's clock step moved; and a fsync clock not started as planned
        makes the repetition not count."""
        correct_promised_ends(records, self.client_steps)
        self.problems += [p for p in (s.problem() for s in self.fsync_starts) if p]
