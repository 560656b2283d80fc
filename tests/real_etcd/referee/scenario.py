"""A catalogue scenario file, read as the real run needs it.

The real run takes its story from the same file locksim runs, so that when
the file changes both sides change: the lock's TTL, each client's start time
and steps, whether it releases, the resource's policy and application, the
run length, and the parameters of the faults (a pause's length, a clock
jump's size, a crash's time). A variant's keys are laid over the base as
locksim lays them (a dotted key in [variant.NAME] replaces that key).

What the file cannot say for the real run — *when* a fault lands relative to
what the real processes do (right after a keepalive reply, say) — is the
experiment's part (experiments.py).
"""
import copy
import tomllib
from dataclasses import dataclass, field

_UNITS_NS = {"ns": 1, "us": 1_000, "ms": 1_000_000, "s": 1_000_000_000, "min": 60_000_000_000,
             "h": 3_600_000_000_000}


def duration_ns(text: str) -> int:
    """'10s', '250ms', '-5s', '+15s', '1.5s', '0' → nanoseconds (plain durations only, no distributions)."""
    t = text.strip()
    sign = 1
    if t[:1] in "+-":
        sign = -1 if t[0] == "-" else 1
        t = t[1:]
    if t == "0":
        return 0
    for unit in sorted(_UNITS_NS, key=len, reverse=True):
        if t.endswith(unit):
            number = t[: -len(unit)]
            try:
                value = float(number) if "." in number else int(number)
            except ValueError:
                break
            return sign * int(round(value * _UNITS_NS[unit]))
    raise ValueError(f"not a plain duration: {text!r}")


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


@dataclass
class Story:
    path: str
    name: str
    variant: str
    ttl_s: int
    request_timeout_ns: int
    policy: str          # the resource: "none" or "fencing" (locksim's names)
    app: str             # "counter" or "none"
    run_for_ns: int
    clients: list[Client]
    faults: dict[str, dict]
    recheck: bool
    links: dict[str, dict] = field(default_factory=dict)
    preset: str | None = None
    expect: dict = field(default_factory=dict)

    def client(self, name: str) -> Client:
        for c in self.clients:
            if c.name == name:
                return c
        raise KeyError(name)


def _lay_over(base: dict, over: dict) -> None:
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _lay_over(base[key], value)
        else:
            base[key] = copy.deepcopy(value)


def variants(path: str) -> list[str]:
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    return ["base"] + list(doc.get("variant", {}).keys())


def load(path: str, variant: str = "base") -> Story:
    """The story of path's variant; KeyError if the file has no such variant."""
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    spec = copy.deepcopy({k: v for k, v in doc.items() if k != "variant"})
    expect = dict(spec.get("expect", {}))
    if variant != "base":
        var = doc.get("variant", {}).get(variant)
        if var is None:
            raise KeyError(f"{path} has no variant {variant!r} (variants: {', '.join(variants(path))})")
        if "extends" in var or "unset" in var:
            # Composed variants are locksim's to resolve; laid over the base as
            # plain keys they would run another story, silently.
            raise ValueError(f"{path}: variant {variant} uses extends/unset, which the real referee does not read")
        over = {k: v for k, v in var.items() if k not in ("description", "expect")}
        _lay_over(spec, over)
        _lay_over(expect, var.get("expect", {}))
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
                              int(c.get("attempts", lock.get("attempts", 0)))))
    return Story(path=path, name=spec["scenario"]["name"], variant=variant, ttl_s=ttl_ns // 1_000_000_000,
                 request_timeout_ns=duration_ns(lock.get("request_timeout", "1s")),
                 policy=resource.get("policy", "none"), app=resource.get("app", "counter"),
                 run_for_ns=duration_ns(spec["scenario"].get("run_for", "60s")), clients=clients,
                 faults=spec.get("fault", {}), links=spec.get("link", {}), preset=lock.get("preset"),
                 # etcd 3.4.23 (the releases table of scenarios/FORMAT.md) does not re-read.
                 recheck=bool(spec.get("store_lock", {}).get("recheck", False)),
                 expect=expect)
