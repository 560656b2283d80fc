"""A replicated deployment for real: a master, its replicas and Redis Sentinel,
with the network between them made of driver links (link_proxy.py).

For the stories with `[redis] replicas` and `[sentinel]` (master-replica-
failover, sentinel-split-brain, no-faults-replicated):

- **Replicas** are redis-servers started with `--replicaof` the master's
  port *through a link* that delays the master's stream by the story's
  `replication_delay` — loopback would replicate in microseconds, so a crash
  could never land inside the lag the story is about. The options the story
  gives (`min_replicas_to_write`, `min_replicas_max_lag`) go to every node, as
  locksim gives them. A replica's MONITOR lines from its master link are not
  key events: locksim records a node's keys only while it is a master.
- **Sentinels** are `redis-server --sentinel` processes monitoring the master
  with the story's quorum, `down_after` and `failover_timeout`; the story's
  `ping_every` is set with `SENTINEL DEBUG ping-period` (real Sentinel pings
  once a second by default: the story's 100 ms would otherwise be a gap).
  The run starts only once every replica is in sync and every sentinel knows
  the replicas and its peers.
- **Zones** (one `partition` fault's groups): a process reaches another in its
  own zone directly and one in another zone through a link of that zone; at
  the fault's `at` every link between zones is cut, and healed `heal_after`
  later. Sentinels and replicas must share a zone (the sentinels find the
  replicas at the address the master reports, which no link can cut).
- **A node's crash** (`kind = "crash"`) at a time or at a client's phase
  (`at = "c1 acquired"`: the client stops there until the crash is made):
  every link from the node first drops what it still holds — the stream a
  crashed machine had not yet put on the wire — then the node is SIGKILLed.
- **Roles**: a driver thread asks every node `ROLE` every few milliseconds
  and records a `role` event when one changes (its `t` is the poll that saw
  it: up to a poll period late); `epoch` counts the promotions seen, as the
  sentinels' configuration epoch counts failovers (a sentinel's own epoch,
  read at that poll, often still has the old value: it learns of the
  promotion later, from INFO). A replica promoted while it held the lock's key, or a master demoted
  while it held one, leaves the key events inexact (service.recorded false):
  when that key began or stopped to count is not seen by MONITOR.
"""
import os
import threading
import time

from . import procs
from .link_proxy import Link
from .redis_node import RedisNode
from .resp import Connection, RedisError, request
from .story import Story, duration_ns

MASTER_NAME = "mymaster"
ROLE_POLL_S = 0.002
READY_TIMEOUT_S = 30


class Replicated:
    def __init__(self, story: Story, workdir: str, observe, t0_ref, wall_minus_mono_ns: int):
        spec = story.spec
        self.story, self.workdir, self._observe = story, workdir, observe
        self._t0_ref, self._offset = t0_ref, wall_minus_mono_ns
        redis = spec.get("redis", {})
        self.master_name = story.nodes[0]
        if len(story.nodes) != 1:
            raise ValueError("redis.nodes: a replicated story has one master")
        self.replica_names = list(redis.get("replicas", []))
        sentinel = spec.get("sentinel", {})
        self.sentinel_names = list(sentinel.get("names", []))
        self._sentinel_spec = sentinel
        self._delay_ns = duration_ns(str(redis.get("replication_delay", "0s")))
        self.node_args = _replication_options(redis)
        self._zones = self._zones_of(spec.get("fault", {}))
        self.links: list[Link] = []
        self._crossing: list[Link] = []     # the links between two zones: what a partition cuts
        self._views: dict[tuple[str, int], int] = {}       # (process, zone) -> the port that zone reaches it by
        self.nodes: dict[str, RedisNode] = {}
        self._sentinels: dict[str, tuple[int, object]] = {}
        self._logs: list = []
        self._roles: dict[str, tuple] = {}
        self._promotions = 0
        self._stop = threading.Event()
        self._role_thread = None

    # --- zones and links ---

    def _zones_of(self, faults: dict) -> dict[str, int]:
        partitions = [(n, f) for n, f in faults.items() if f.get("kind") == "partition"]
        if len(partitions) > 1:
            raise ValueError("a replicated story is made for real with one partition at most")
        if not partitions:
            return {}
        name, fault = partitions[0]
        zones = {p: i for i, group in enumerate(fault.get("groups", [])) for p in group}
        sentinel_zones = {zones.get(s) for s in self.sentinel_names} | {zones.get(r) for r in self.replica_names}
        if len(sentinel_zones) > 1:
            raise ValueError(f"fault {name}: the real run needs the sentinels and replicas in one zone")
        return zones

    def zone(self, process: str) -> int:
        return self._zones.get(process, -1)

    def view(self, target: str, real_port: int, viewer: str) -> int:
        """The port `viewer` reaches `target` by: its own, or a link of the viewer's zone."""
        zone = self.zone(viewer)
        if not self._zones or zone == self.zone(target):
            return real_port
        if (target, zone) not in self._views:
            link = self._link(f"{target}-from-zone{zone}", real_port, 0, crossing=True)
            self._views[(target, zone)] = link.port
        return self._views[(target, zone)]

    def _link(self, name: str, target_port: int, delay_ns: int, crossing: bool) -> Link:
        link = Link(name, target_port, delay_ns)
        self.links.append(link)
        if crossing:
            self._crossing.append(link)
        return link

    # --- start-up ---

    def start(self, master: RedisNode) -> list[RedisNode]:
        """Starts the replicas and sentinels; returns when everyone is in sync. The replicas' nodes."""
        self.nodes[master.name] = master
        for name in self.replica_names:
            link = self._link(f"{master.name}-to-{name}", master.port, self._delay_ns,
                              crossing=self.zone(name) != self.zone(master.name))
            node = RedisNode(name, master.tracker.key, self.workdir, self._t0_ref, self._offset,
                             extra_args=[*self.node_args, "--replicaof", "127.0.0.1", str(link.port)])
            node.master_link_ports = {link.port}
            self.nodes[name] = node
        self._wait(self._replicas_in_sync, "the replicas to sync with the master")
        for name in self.sentinel_names:
            self._start_sentinel(name, self.view(master.name, master.port, name))
        self._wait(self._sentinels_ready, "the sentinels to find the replicas and each other")
        self._roles = {name: _role(node.port) for name, node in self.nodes.items()}
        return [self.nodes[n] for n in self.replica_names]

    def _start_sentinel(self, name: str, master_port: int) -> None:
        s = self._sentinel_spec
        port = procs.free_port()
        directory = os.path.join(self.workdir, name)
        os.makedirs(directory)
        conf = os.path.join(directory, "sentinel.conf")
        quorum = int(s.get("quorum", min(2, len(self.sentinel_names))))
        with open(conf, "w") as f:
            f.write(f"port {port}\nbind 127.0.0.1\ndir {directory}\n"
                    f"sentinel monitor {MASTER_NAME} 127.0.0.1 {master_port} {quorum}\n"
                    f"sentinel down-after-milliseconds {MASTER_NAME} {_ms(s.get('down_after', '30s'))}\n"
                    f"sentinel failover-timeout {MASTER_NAME} {_ms(s.get('failover_timeout', '180s'))}\n")
        log = open(os.path.join(directory, "sentinel.log"), "w")
        self._logs.append(log)
        proc = procs.start(["redis-server", conf, "--sentinel"], stdout=log, stderr=log)
        self._sentinels[name] = (port, proc)
        _wait_port(port)
        _command(port, ["SENTINEL", "DEBUG", "ping-period", str(_ms(s.get("ping_every", "1s")))])

    def _wait(self, ready, what: str) -> None:
        deadline = time.monotonic() + READY_TIMEOUT_S
        while not ready():
            if time.monotonic() > deadline:
                raise RuntimeError(f"waited {READY_TIMEOUT_S} s for {what}")
            time.sleep(0.05)

    def _replicas_in_sync(self) -> bool:
        info = _command(self.nodes[self.master_name].port, ["INFO", "replication"])
        good = _info_field(info, "min_slaves_good_slaves")
        if good is not None and int(good) < int(self._node_args_value("--min-replicas-to-write")):
            return False
        return all("master_link_status:up" in _command(self.nodes[n].port, ["INFO", "replication"])
                   for n in self.replica_names)

    def _node_args_value(self, option: str) -> str:
        args = self.node_args
        return args[args.index(option) + 1] if option in args else "0"

    def _sentinels_ready(self) -> bool:
        for port, _ in self._sentinels.values():
            replicas = _command(port, ["SENTINEL", "REPLICAS", MASTER_NAME])
            peers = _command(port, ["SENTINEL", "SENTINELS", MASTER_NAME])
            if len(replicas) < len(self.replica_names) or len(peers) < len(self._sentinels) - 1:
                return False
        return True

    # --- what clients are given ---

    def client_config(self, client: str) -> dict:
        """node/sentinel_follow.js's keys: where the client finds the master and the sentinels."""
        master = self.nodes[self.master_name]
        views = {str(n.port): self.view(name, n.port, client) for name, n in self.nodes.items()}
        lock = self.story.spec.get("lock", {})
        return {"follow": {
            "master_name": MASTER_NAME,
            "master": self.view(self.master_name, master.port, client),
            "sentinels": [self.view(s, port, client) for s, (port, _) in self._sentinels.items()],
            "port_views": views,
            "follow_delay_ms": _ms(self._sentinel_spec.get("client_follow_delay", "0s")),
            "command_timeout_ms": _ms(lock.get("request_timeout", "1s"))}}

    # --- faults ---

    def cut(self, t_ns: int) -> bool:
        for link in self._crossing:
            link.cut()
        return True

    def heal(self, t_ns: int) -> bool:
        for link in self.links:
            link.heal()
        return True

    def crash(self, name: str) -> bool:
        """The node's machine crashes: its links lose what they hold from it, then SIGKILL."""
        node = self.nodes[name]
        for link in self.links:
            if link.target_port == node.port:
                link.lose_from_target()
        node.kill()
        return True

    # --- roles ---

    def start_roles(self) -> None:
        self._role_thread = threading.Thread(target=self._watch_roles, name="roles", daemon=True)
        self._role_thread.start()

    def _watch_roles(self) -> None:
        # A replica's master is reported by the port it connects to: a node's own or a link's.
        port_names = {n.port: name for name, n in self.nodes.items()}
        port_names.update({link.port: port_names[link.target_port] for link in self.links
                           if link.target_port in port_names})     # (not the links to sentinels)
        connections: dict[str, Connection] = {}
        while not self._stop.wait(ROLE_POLL_S):
            for name, node in self.nodes.items():
                if node.proc.poll() is not None:
                    connections.pop(name, None)
                    continue
                try:
                    if name not in connections:
                        connections[name] = Connection(node.port)
                    role = _role(node.port, connections[name])
                except (OSError, RedisError):
                    connections.pop(name, None)
                    continue
                if role != self._roles.get(name):
                    self._role_changed(name, node, role, port_names)
        for conn in connections.values():
            conn.close()

    def _role_changed(self, name: str, node: RedisNode, role: tuple, port_names: dict) -> None:
        self._roles[name] = role
        master = None if role[0] == "master" else port_names.get(role[1], f"port {role[1]}")
        t = procs.now_ns() - self._t0_ref()
        if master is None:
            self._promotions += 1
        self._observe_as(name, t, "role", {"master": master, "epoch": self._promotions})
        if role[0] == "master":
            node.master_link_ports = set()
            try:
                held = "holding the key" if _command(node.port, ["GET", node.tracker.key]) is not None else None
            except (OSError, RedisError):
                held = "and went away before it was asked for the key"
            if held:
                node.tracker.exact = False
                node.tracker.ambiguities.append(f"{name} was promoted {held}: when its key began to count "
                                                "is not seen")
        else:
            node.master_link_ports = {role[1]}
            if node.tracker.value is not None:
                node.tracker.exact = False
                node.tracker.ambiguities.append(f"{name} was demoted holding the key")

    def _observe_as(self, process: str, t: int, kind: str, fields: dict) -> None:
        node = self.nodes[process]
        node.records.append({"t": t, "p": process, "local": t + self._t0_ref() + self._offset, "type": kind,
                             **fields})

    def masters(self, names: list[str]) -> list:
        """The header's service.masters: per node, its master when the run starts."""
        return [None if n == self.master_name else self.master_name for n in names]

    def processes(self) -> list[dict]:
        return [{"name": s, "kind": "sentinel", "clock": "wall"} for s in self._sentinels]

    def stop(self) -> None:
        self._stop.set()
        if self._role_thread:
            self._role_thread.join(timeout=5)
        for _, proc in self._sentinels.values():
            procs.stop(proc)
        for link in self.links:
            link.close()
        for log in self._logs:
            log.close()


def _replication_options(redis: dict) -> list[str]:
    args = []
    if "min_replicas_to_write" in redis:
        args += ["--min-replicas-to-write", str(int(redis["min_replicas_to_write"]))]
    if "min_replicas_max_lag" in redis:
        seconds = duration_ns(str(redis["min_replicas_max_lag"])) / 1e9
        if seconds != int(seconds):
            raise ValueError("redis.min_replicas_max_lag: Redis takes whole seconds")
        args += ["--min-replicas-max-lag", str(int(seconds))]
    return args


def _ms(text) -> int:
    return duration_ns(str(text)) // 1_000_000


def _wait_port(port: int) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            _command(port, ["PING"])
            return
        except OSError:
            time.sleep(0.02)
    raise RuntimeError(f"nothing answered on port {port}")


def _info_field(info: str, field: str) -> str | None:
    for line in info.splitlines():
        if line.startswith(field + ":"):
            return line.split(":", 1)[1].strip()
    return None


def _command(port: int, args: list[str]):
    return request(port, args)


def _role(port: int, conn: Connection | None = None) -> tuple:
    """('master', None), or ('slave', the port it replicates from)."""
    reply = conn.command(["ROLE"]) if conn else request(port, ["ROLE"])
    return ("master", None) if reply[0] == "master" else ("slave", int(reply[2]))
