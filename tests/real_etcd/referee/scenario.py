"""A catalogue scenario file, read as the real run needs it.

The real run takes its story from the same file locksim runs, so that when
the file changes both sides change: the lock's TTL, each client's start time
and steps, whether it releases, the resource's policy and application, the
run length, and the parameters of the faults (a pause's length, a clock
jump's size, a crash's time). What a variant means is locksim's to say
(tests/real_common/story_file.py reads it through `locksim merged`).

What the file cannot say for the real run — *when* a fault lands relative to
what the real processes do (right after a keepalive reply, say) — is the
experiment's part (experiments.py).
"""
from dataclasses import dataclass, field

from story_file import duration_ns, read, variants  # noqa: F401  (variants, duration_ns: used by callers)


def go_duration(ns: int) -> str:
    """Nanoseconds as a Go duration string."""
    return f"{ns}ns"


@dataclass
class Client:
    name: str
    start_ns: int
    steps: list[str]
    release: bool = True
    attempts: int = 0
    iterations: int = 1
    think_ns: int = 0


@dataclass
class Story:
    path: str
    name: str
    variant: str
    ttl_s: int
    request_timeout_ns: int
    policy: str          # the resource: "none" or "fencing" (locksim's names)
    app: str             # "counter", "stock" or "none"
    run_for_ns: int
    clients: list[Client]
    faults: dict[str, dict]
    recheck: bool
    links: dict[str, dict] = field(default_factory=dict)
    preset: str | None = None
    expect: dict = field(default_factory=dict)
    services: dict[str, str] = field(default_factory=dict)   # name -> its latency as the file writes it
    initial_stock: int = 1
    stock_in_store: bool = False   # store.stock: the stock lives in etcd, sold by a guarded Txn
    network_latency: str | None = None

    def client(self, name: str) -> Client:
        for c in self.clients:
            if c.name == name:
                return c
        raise KeyError(name)


def load(path: str, variant: str = "base") -> Story:
    """The story of path's variant; KeyError if the file has no such variant."""
    spec = read(path, variant)
    expect = spec.get("expect", {})
    lock = spec.get("lock", {})
    if lock.get("protocol") != "etcd":
        raise ValueError(f"{path}: lock.protocol is {lock.get('protocol')!r}, the real referee runs etcd only")
    ttl_ns = duration_ns(lock.get("ttl", "60s"))
    if ttl_ns % 1_000_000_000:
        raise ValueError(f"{path}: lock.ttl {lock.get('ttl')} is not whole seconds, which clientv3 needs")
    resource = spec.get("resource", {})
    clients = []
    for name, c in spec.get("client", {}).items():
        start = c.get("start", "0s")
        try:
            start_ns = duration_ns(start)
        except ValueError as e:
            raise ValueError(f"{path}: client.{name}.start {start!r}: the real referee starts clients at times only") from e
        clients.append(Client(name, start_ns, list(c.get("steps", [])), bool(c.get("release", True)),
                              int(c.get("attempts", lock.get("attempts", 0))), int(c.get("iterations", 1)),
                              duration_ns(str(c.get("think", "0s")))))
    return Story(path=path, name=spec["scenario"]["name"], variant=variant, ttl_s=ttl_ns // 1_000_000_000,
                 request_timeout_ns=duration_ns(lock.get("request_timeout", "1s")),
                 policy=resource.get("policy", "none"), app=resource.get("app", "counter"),
                 run_for_ns=duration_ns(spec["scenario"].get("run_for", "60s")), clients=clients,
                 faults=spec.get("fault", {}), links=spec.get("link", {}), preset=lock.get("preset"),
                 # etcd 3.4.23 (the releases table of scenarios/FORMAT.md) does not re-read.
                 recheck=bool(spec.get("store_lock", {}).get("recheck", False)),
                 expect=expect,
                 services={n: str(v.get("latency", "1ms")) for n, v in spec.get("service", {}).items()},
                 initial_stock=int(resource.get("initial_stock", 1)),
                 stock_in_store=bool(spec.get("store", {}).get("stock", False)),
                 network_latency=spec.get("network", {}).get("latency"))
