"""A ZooKeeper catalogue story, read as the real run needs it.

From the same file `locksim run` reads, through `locksim merged`
(tests/real_common/story_file.py): the ensemble's members and tick, the
session timeout T (`lock.ttl`), the application's policy on Curator's
connection states, the clients' start times, steps and cycles, the
resource's app and policy, and the faults. Curator's own timings
(SUSPENDED after 2T/3 of silence, LOST one T later) are the library's and
cannot be set: a story that sets `suspended_after` or `lost_after` to
something else is refused rather than run with the library's.
"""
from dataclasses import dataclass, field

from story_file import duration_ns, read


@dataclass
class Client:
    name: str
    start_ns: int
    steps: list[str]
    iterations: int = 1
    think_ns: int = 0


@dataclass
class Story:
    path: str
    name: str
    variant: str
    members: list[str]
    tick_ns: int
    ttl_ns: int
    policy: str
    app: str
    resource_policy: str
    run_for_ns: int
    clients: list[Client]
    faults: dict[str, dict] = field(default_factory=dict)
    expect: dict = field(default_factory=dict)


def load(path: str, variant: str = "base", locksim: str | None = None) -> Story:
    spec = read(path, variant, locksim)
    lock = spec.get("lock", {})
    if lock.get("protocol") != "zookeeper":
        raise ValueError(f"{path} {variant}: lock.protocol {lock.get('protocol')!r}: this referee runs zookeeper")
    if lock.get("preset", "zookeeper-3.8.0") != "zookeeper-3.8.0":
        raise ValueError(f"{path} {variant}: preset {lock['preset']!r}: Debian 12 ships ZooKeeper 3.8.0 only")
    ttl = duration_ns(lock.get("ttl", "60s"))
    store_lock = spec.get("store_lock", {})
    for key, library in (("suspended_after", 2 * ttl // 3), ("lost_after", ttl)):
        if key in store_lock and duration_ns(store_lock[key]) != library:
            raise ValueError(f"{path} {variant}: store_lock.{key} differs from Curator's own ({library} ns)")
    clients = [Client(name, duration_ns(c.get("start", "0s")), list(c.get("steps", [])),
                      int(c.get("iterations", 1)), duration_ns(str(c.get("think", "0s"))))
               for name, c in spec.get("client", {}).items()]
    store = spec.get("store", {})
    resource = spec.get("resource", {})
    return Story(path=path, name=spec["scenario"]["name"], variant=variant,
                 members=list(store.get("members", ["s1", "s2", "s3"])),
                 tick_ns=duration_ns(store.get("lessor_tick", "2s")), ttl_ns=ttl,
                 policy=store_lock.get("policy", "obey-suspended"), app=resource.get("app", "counter"),
                 resource_policy=resource.get("policy", "none"),
                 run_for_ns=duration_ns(spec["scenario"].get("run_for", "60s")), clients=clients,
                 faults=spec.get("fault", {}), expect=dict(spec.get("expect", {})))


def pause_of(story: Story, client: str) -> dict | None:
    """The pause fault on client (`at = "cN PHASE"`), with its phase and length in ns."""
    for name, fault in story.faults.items():
        if fault.get("kind") == "pause" and fault.get("target") == client:
            who, _, phase = fault.get("at", "").partition(" ")
            if who != client or not phase:
                raise ValueError(f"fault {name}: at {fault.get('at')!r}: the real run pauses at a client's own phase")
            return {"name": name, "phase": phase, "length_ns": duration_ns(fault.get("length", "0s"))}
    return None


def partitions(story: Story) -> list[dict]:
    """Partition faults at a time: {name, at_ns, length_ns or None, cut: [(client, member)]}."""
    out = []
    for name, fault in story.faults.items():
        if fault.get("kind") != "partition":
            continue
        groups = [set(g) for g in fault.get("groups", [])]
        cut = [(c.name, m) for c in story.clients for m in story.members
               if not any(c.name in g and m in g for g in groups) and any(c.name in g for g in groups)]
        out.append({"name": name, "at_ns": duration_ns(fault["at"]), "cut": cut,
                    "length_ns": duration_ns(fault["length"]) if "length" in fault else None})
    return out


def check_supported(story: Story) -> None:
    for name, fault in story.faults.items():
        if fault.get("kind") not in ("pause", "partition"):
            raise ValueError(f"fault {name}: kind {fault.get('kind')!r}: the real run makes pauses and partitions")
    for c in story.clients:
        for step in c.steps:
            if step.split()[0] not in ("read", "write", "work", "check"):
                raise ValueError(f"{c.name}: step {step!r}: the Java client does read, write, work and check")
