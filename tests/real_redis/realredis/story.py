"""A catalogue scenario file, read as the real run needs it.

The real run takes its story from the same file `locksim run` reads, so a
revised file changes both sides: the TTL, the nodes, each client's start
time, steps and retry delay, the resource's policy and application, fencing,
and the faults' parameters. A variant's keys are laid over the base as
locksim lays them; a variant built with `extends`/`unset`, or a time written
as a distribution, is refused (the real run would have to guess it).
"""
import copy
import tomllib
from dataclasses import dataclass, field

_UNITS_NS = {"ns": 1, "us": 1_000, "ms": 1_000_000, "s": 1_000_000_000, "min": 60_000_000_000}


def duration_ns(text: str) -> int:
    """'10s', '250ms', '1.5s', '-5s', '0' -> nanoseconds (plain durations only)."""
    t = text.strip()
    sign = -1 if t.startswith("-") else 1
    t = t.lstrip("+-")
    if t == "0":
        return 0
    for unit in sorted(_UNITS_NS, key=len, reverse=True):
        if t.endswith(unit):
            number = t[: -len(unit)]
            try:
                value = float(number)
            except ValueError:
                break
            return sign * int(round(value * _UNITS_NS[unit]))
    raise ValueError(f"not a plain duration: {text!r}")


@dataclass
class Client:
    name: str
    start_ns: int
    steps: list[str]
    retry_delay_ns: int | None    # None: the library's (preset's) own
    release: bool = True


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


def _lay_over(base: dict, over: dict) -> None:
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _lay_over(base[key], value)
        else:
            base[key] = copy.deepcopy(value)


def load(path: str, variant: str = "base") -> Story:
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    spec = copy.deepcopy({k: v for k, v in doc.items() if k != "variant"})
    expect = dict(spec.get("expect", {}))
    if variant != "base":
        var = doc.get("variant", {}).get(variant)
        if var is None:
            raise KeyError(f"{path} has no variant {variant!r}")
        if "extends" in var or "unset" in var:
            raise ValueError(f"{path}: variant {variant} uses extends/unset, which the real referee does not read")
        _lay_over(spec, {k: v for k, v in var.items() if k not in ("description", "expect")})
        _lay_over(expect, var.get("expect", {}))
    lock = spec.get("lock", {})
    protocol = lock.get("protocol", "single")
    if protocol not in ("single", "redlock", "none"):
        raise ValueError(f"{path}: lock.protocol {protocol!r}: the real-Redis referee runs single, redlock and none")
    default_delay = lock.get("retry_delay")
    clients = []
    for name, c in spec.get("client", {}).items():
        delay = c.get("retry_delay", default_delay)
        clients.append(Client(name, duration_ns(c.get("start", "0s")), list(c.get("steps", [])),
                              duration_ns(delay) if delay is not None else None,
                              bool(c.get("release", True))))
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
