"""A catalogue scenario file, read as the real run needs it.

The real run takes its story from the same file `locksim run` reads, so a
revised file changes both sides: the TTL, the nodes, each client's start
time, steps and retry delay, the resource's policy and application, fencing,
and the faults' parameters. What a variant means is locksim's to say
(tests/real_common/story_file.py reads it through `locksim merged`); a time
written as a distribution is refused (the real run would have to guess it),
with two exceptions said explicitly: a retry delay `uniform(a, b)`, which the
clients draw per try as node-redlock draws its jitter, and a pause's length
`uniform(a, b)` (pause_length_ns), drawn once per repetition as locksim draws
one per seed.
"""
import random
from dataclasses import dataclass, field

from story_file import duration_ns, read  # noqa: F401  (duration_ns: used by the other modules)


@dataclass
class Client:
    name: str
    start_ns: int
    steps: list[str]
    retry_delay_ns: int | None    # None: the library's (preset's) own
    release: bool = True
    retry_jitter_ns: int = 0      # a delay drawn from uniform(d - j, d + j), as node-redlock's retryJitter


@dataclass
class Story:
    path: str
    name: str
    variant: str
    protocol: str               # "single" or "redlock"
    ttl_ns: int
    nodes: list[str]
    policy: str
    app: str
    fencing: bool
    preset: str | None
    drift_factor: float
    run_for_ns: int
    clients: list[Client]
    faults: dict[str, dict] = field(default_factory=dict)
    expect: dict = field(default_factory=dict)
    spec: dict = field(default_factory=dict)    # the whole file, variant laid over: keys read elsewhere


def _retry_delay(text: str | None) -> tuple[int | None, int]:
    """(delay, jitter) in ns: a plain duration, or uniform(a, b) — which node-redlock
    draws exactly, as retryDelay (a + b) / 2 with retryJitter (b - a) / 2."""
    if text is None:
        return None, 0
    t = text.strip()
    if t.startswith("uniform(") and t.endswith(")"):
        low, high = (duration_ns(x) for x in t[len("uniform("):-1].split(","))
        return (low + high) // 2, (high - low) // 2
    return duration_ns(t), 0


def pause_length_ns(text: str, rng: random.Random) -> int:
    """A pause's length: a plain duration, or uniform(LOW, HIGH) — the one distribution of a fault the
    real run draws (transactional-contention's "uniform(0s, 15s)"), once per repetition from rng, as
    locksim draws it once per seed. Any other distribution is refused (ValueError)."""
    t = text.strip()
    if t.startswith("uniform(") and t.endswith(")"):
        low, high = (duration_ns(x) for x in t[len("uniform("):-1].split(","))
        if not 0 <= low <= high:
            raise ValueError(f"pause length {text!r}: uniform(LOW, HIGH) with 0 <= LOW <= HIGH")
        return rng.randint(low, high)
    return duration_ns(t)


def draw_pause_length(fault: dict, rng: random.Random) -> list[str]:
    """Sets fault["length_ns"]; for a drawn length, returns what was drawn, for the history's source."""
    text = str(fault.get("length", "0s"))
    fault["length_ns"] = pause_length_ns(text, rng)
    return [f"{fault['name']} length {text} drew {fault['length_ns'] / 1e9:.3f}s"] if "(" in text else []


def load(path: str, variant: str = "base") -> Story:
    spec = read(path, variant)
    expect = dict(spec.get("expect", {}))
    lock = spec.get("lock", {})
    protocol = lock.get("protocol", "single")
    if protocol not in ("single", "redlock", "none"):
        raise ValueError(f"{path}: lock.protocol {protocol!r}: the real-Redis referee runs single, redlock and none")
    default_delay = lock.get("retry_delay")
    clients = []
    for name, c in spec.get("client", {}).items():
        delay, jitter = _retry_delay(c.get("retry_delay", default_delay))
        clients.append(Client(name, duration_ns(c.get("start", "0s")), list(c.get("steps", [])), delay,
                              bool(c.get("release", True)), jitter))
    resource = spec.get("resource", {})
    nodes = spec.get("redis", {}).get("nodes", ["r1"])
    if protocol == "none":
        nodes = []      # no lock: no redis-server, as locksim's history has no node
    return Story(path=path, name=spec["scenario"]["name"], variant=variant, protocol=protocol,
                 ttl_ns=duration_ns(lock.get("ttl", "10s")), nodes=list(nodes),
                 policy=resource.get("policy", "none"), app=resource.get("app", "counter"),
                 fencing=lock.get("fencing", "none") == "incr", preset=lock.get("preset"),
                 drift_factor=float(lock.get("drift_factor", 0.01)),
                 run_for_ns=duration_ns(spec["scenario"].get("run_for", "60s")),
                 clients=clients, faults=spec.get("fault", {}), expect=expect, spec=spec)
