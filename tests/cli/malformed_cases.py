"""The battery of malformed inputs: every case is a file (or none) and a command
line, with the exit code and the message fragments a user must see.

A case is Case(name, snippet, args, code, fragments, key, files, setup, rewrite, absent):
  snippet    TOML appended to BASE (the file is written as battery.toml), or
             a Replace(old, new) edit of BASE, or Raw(text) for a whole file;
             None runs the command without writing a file.
  args       the command line after `locksim`; "{file}" is the file's path.
  code       the expected exit code.
  fragments  strings the message must contain (stderr, or stdout for exit 0).
  key        when set, the message must name it as "battery.toml:LINE: KEY:"
             (the line is where the key is written: the test finds it).
  files      more files beside battery.toml ({name: text or bytes}); "{dir}"
             in args is their directory.
  setup      commands that must succeed first (a sweep to --resume).
  rewrite    battery.toml's new snippet after the setup (a changed scenario).
  absent     strings the message must not contain (an error that would only
             follow from the real one).
"""
import zlib
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Union

BASE = """[scenario]
name = "battery"
run_for = "20s"

[client.c1]
steps = ["read", "write"]

[client.c2]
start = "1s"
steps = ["read", "write"]
"""


@dataclass
class Replace:
    old: str
    new: str


@dataclass
class Raw:
    text: Union[str, bytes]


@dataclass
class Case:
    name: str
    snippet: Optional[Union[str, Replace, Raw]]
    args: List[str]
    code: int
    fragments: List[str]
    key: Optional[str] = None
    files: Dict[str, Union[str, bytes]] = field(default_factory=dict)
    setup: List[List[str]] = field(default_factory=list)
    rewrite: Optional[str] = None
    absent: List[str] = field(default_factory=list)


def tag(text):
    """A short stable suffix that tells apart cases on the same key."""
    return f"{zlib.crc32(text.encode()) % 1000:03d}"


RUN = ["run", "{file}"]
VALIDATE = ["validate", "{file}"]
CASES: List[Case] = []


def case(name, snippet, fragments, key=None, args=VALIDATE, code=2, files=None, setup=None, rewrite=None, absent=None):
    CASES.append(Case(name, snippet, list(args), code, list(fragments), key, dict(files or {}), list(setup or []),
                      rewrite, list(absent or [])))


LIMIT = "longer than the longest supported run, 100 years"

# ---------------------------------------------------------------- TOML syntax
for name, text in [
    ("unclosed-string", 'story = "no end\n'),
    ("bad-table-header", "[lock\n"),
    ("duplicate-key", '[lock]\nttl = "1s"\nttl = "2s"\n'),
    ("duplicate-table", "[lock]\n[lock]\n"),
    ("reopened-base-table", '[scenario]\nstory = "again"\n'),
    ("bad-escape", '[lock]\nkey = "a\\qb"\n'),
    ("bare-word-value", "[lock]\nttl = fast\n"),
    ("key-without-value", "[lock]\nttl =\n"),
    ("unterminated-array", '[redis]\nnodes = ["r1", "r2"\n'),
    ("unclosed-inline-table", "[lock]\nx = {a = 1\n"),
    ("value-without-key", '[lock]\n= "1s"\n'),
    ("two-values-one-line", '[lock]\nttl = "1s" key = "k"\n'),
    ("control-character", '[lock]\nkey = "a\x01b"\n'),
    ("deep-nesting", "[lock]\nx = " + "[" * 300 + "]" * 300 + "\n"),
    ("leading-zero-integer", "[lock]\nattempts = 007\n"),
    ("integer-overflow", "[lock]\nattempts = 99999999999999999999\n"),
]:
    case("toml-" + name, text, ["battery.toml:", "invalid TOML"])
case("toml-nul-byte", Raw(BASE.encode() + b"\x00\n"), ["battery.toml:", "invalid TOML"])
case("toml-invalid-utf8", Raw(BASE.encode() + b'[lock]\nkey = "\xff\xfe"\n'), ["battery.toml:", "invalid TOML"])
case("toml-binary-garbage", Raw(bytes(range(256)) * 4), ["battery.toml:", "invalid TOML"])

# ---------------------------------------------------------------- files
case("file-missing", None, ["no-such-file.toml", "cannot open the scenario file"], args=["validate", "no-such-file.toml"])
case("file-directory", None, ["is a directory, not a scenario file"], args=["validate", "scenarios"])
case("file-dev-zero", None, ["/dev/zero", "larger than 4 MiB"], args=["validate", "/dev/zero"])
case("file-too-large", Raw(BASE + "#" * (5 << 20) + "\n"), ["larger than 4 MiB, the most a scenario file may be"])
case("file-empty", Raw(""), ["scenario.name", "missing required key"])
case("run-missing-file-name", None, ["which scenario file?"], args=["run"])
case("validate-no-files", None, ["which files?"], args=["validate"])

# ---------------------------------------------------------------- types
TYPE_CASES = [
    ("lock", "ttl", "5", "expected a duration string"),
    ("lock", "ttl", "true", "expected a duration string"),
    ("lock", "key", "5", "expected a string"),
    ("lock", "protocol", "1", "expected one of"),
    ("lock", "attempts", '"3"', "expected an integer"),
    ("lock", "attempts", "1.5", "expected an integer"),
    ("lock", "watchdog", '"yes"', "expected true or false"),
    ("lock", "drift_factor", '"1%"', "expected a number such as 0.01"),
    ("lock", "retry_delay", "100", "expected a latency string"),
    ("lock", "clock", "[]", "expected one of"),
    ("redis", "nodes", '"r1"', "expected an array of strings"),
    ("redis", "nodes", "[1, 2]", "expected an array of strings"),
    ("redis", "persistence", "0", "expected one of"),
    ("redis", "min_replicas_to_write", '"1"', "expected an integer"),
    ("redlock", "check_validity", "0", "expected true or false"),
    ("redlock", "quorum", '"2"', "expected an integer"),
    ("resource", "initial_stock", '"1"', "expected an integer"),
    ("resource", "name", "1", "expected a string"),
    ("network", "latency", "1", "expected a latency string"),
    ("network", "loss", "0.1", "expected a rate string"),
    ("sentinel", "names", "3", "expected an array of strings"),
    ("sentinel", "down_after", "30", "expected a duration string"),
]
REDLOCK = '[lock]\nprotocol = "redlock"\n'


def table(section, body):
    """[section] with |body|; [redlock] keys only apply to the Redlock protocol."""
    return (REDLOCK if section == "redlock" else "") + f"[{section}]\n{body}"


for section, key, value, fragment in TYPE_CASES:
    case(f"type-{section}-{key}-{value.strip(chr(34))[:8]}", table(section, f"{key} = {value}\n"), [fragment],
         key=f"{section}.{key}")
case("type-section-not-table", Raw("lock = 5\n" + BASE), ["expected a table"], key="lock")
case("type-client-not-table", Replace("[client.c2]\nstart", "[client]\nc3 = 1\n[client.c2]\nstart"),
     ["expected a table such as [client.NAME]"], key="client.c3")
case("type-steps-not-array", Replace('start = "1s"\nsteps = ["read", "write"]', 'start = "1s"\nsteps = "read"'),
     ["expected an array of strings"], key="client.c2.steps")
case("type-step-not-string", Replace('start = "1s"\nsteps = ["read", "write"]', 'start = "1s"\nsteps = ["read", 2]'),
     ["one element is integer 2"], key="client.c2.steps")
case("type-run-for-integer", Replace('run_for = "20s"', "run_for = 20"), ["expected a duration string"],
     key="scenario.run_for")
case("type-seed-string", Replace('run_for = "20s"', 'run_for = "20s"\nseed = "7"'), ["expected an integer"],
     key="scenario.seed")
case("type-variant-not-table", "[variant]\nfast = 1\n", ["expected a table such as [variant.fast]"], key="variant.fast")
case("type-expect-verdict", '[expect]\ninvariant = "broken"\n', ['expected one of "holds", "violated"'],
     key="expect.invariant")
case("type-groups-flat", '[fault.p]\nkind = "partition"\nat = "1s"\ngroups = ["c1", "c2"]\n',
     ["expected an array of groups"], key="fault.p.groups")

# ---------------------------------------------------------------- durations and ranges
DURATION_KEYS = [
    ("lock", "ttl"), ("lock", "request_timeout"), ("lock", "drift_fixed"), ("lock", "renew_every"),
    ("lock", "wait_timeout"), ("redlock", "node_timeout"), ("redis", "fsync_every"), ("redis", "delayed_restart"),
    ("redis", "ack_every"), ("redis", "replication_delay"), ("redis", "min_replicas_max_lag"),
    ("sentinel", "down_after"), ("sentinel", "ping_every"), ("sentinel", "failover_timeout"),
    ("sentinel", "client_follow_delay"),
]
for section, key in DURATION_KEYS:
    case(f"range-{section}-{key}-too-long", table(section, f'{key} = "99999999999999h"\n'),
         ['"99999999999999h" is ' + LIMIT], key=f"{section}.{key}")
for section, key in [("lock", "ttl"), ("lock", "request_timeout"), ("redlock", "node_timeout"),
                     ("redis", "fsync_every"), ("sentinel", "down_after"), ("sentinel", "ping_every")]:
    case(f"range-{section}-{key}-zero", table(section, f'{key} = "0s"\n'), ["must be greater than zero"],
         key=f"{section}.{key}")
    case(f"range-{section}-{key}-negative", table(section, f'{key} = "-1s"\n'), ["must be greater than zero"],
         key=f"{section}.{key}")
for section, key in [("lock", "drift_fixed"), ("redis", "delayed_restart"), ("redis", "replication_delay")]:
    case(f"range-{section}-{key}-negative", f'[{section}]\n{key} = "-5ms"\n', ["must not be negative"],
         key=f"{section}.{key}")
for text, fragment in [
    ('"2562048h"', LIMIT), ('"876601h"', LIMIT), ('"9223372036854775808ns"', LIMIT),
    ('"1.0000000001s"', "finer than 1ns"), ('"10"', "has no unit"), ('"10 parsecs"', "bad duration"),
    ('"ten seconds"', "bad duration"), ('"1e3s"', "bad duration"), ('"--1s"', "bad duration"), ('""', "bad duration"),
    ('"5d"', "bad duration"), ('"1.s"', "bad duration"),
]:
    case(f"duration-ttl-{text.strip(chr(34))[:14]}", f"[lock]\nttl = {text}\n", [fragment], key="lock.ttl")
case("duration-run-for-too-long", Replace('run_for = "20s"', 'run_for = "876601h"'), [LIMIT], key="scenario.run_for")
case("duration-run-for-zero", Replace('run_for = "20s"', 'run_for = "0s"'), ["must be greater than zero"],
     key="scenario.run_for")
case("duration-offset-too-far-back", '[clock.c1]\noffset = "-876601h"\n',
     ["reaches further back than the longest supported run, 100 years"], key="clock.c1.offset")
case("duration-start-too-long", Replace('start = "1s"', 'start = "99999999999999h"'), [LIMIT], key="client.c2.start")
case("duration-think-negative", Replace('start = "1s"', 'start = "1s"\nthink = "-1s"'), ["must not be negative"],
     key="client.c2.think")
for text, fragment in [
    ('"uniform(1ms, 99999999999999h)"', "is " + LIMIT), ('"uniform(5s, 1s)"', "needs LOW <= HIGH"),
    ('"exponential(876601h)"', LIMIT), ('"lognormal(1ms, -1)"', "is not a positive number"),
    ('"lognormal(1ms, nan)"', "is not a positive number"), ('"pareto(1ms, inf)"', "is not a positive number"),
    ('"pareto(1ms)"', "expected pareto(SCALE, ALPHA)"), ('"gaussian(1ms, 1)"', "unknown latency distribution"),
    ('"uniform(1ms, 5ms"', "missing ')'"), ('"uniform(-1ms, 5ms)"', "is not a duration"),
    ('"-1ms"', 'must not be negative, got "-1ms"'),
]:
    case(f"latency-{text.strip(chr(34))[:16]}", f"[network]\nlatency = {text}\n", [fragment], key="network.latency")
for text, fragment in [
    ('"-1000000ppm"', "drift must be above -1000000ppm"), ('"1000001ppm"', "at most 1000000ppm"),
    ('"200%"', "at most 1000000ppm"), ('"-100%"', "drift must be above"), ('"0.00001%"', "finer than 1 ppm"),
    ('"5"', "has no unit"), ('"5 bananas"', "bad rate"), ('"1e3ppm"', "bad rate"),
]:
    case(f"drift-{text.strip(chr(34))[:12]}", f"[clock.c1]\ndrift = {text}\n", [fragment], key="clock.c1.drift")
for text, fragment in [('"101%"', "loss must be between 0% and 100%"), ('"-1%"', "loss must be between 0% and 100%")]:
    case(f"loss-{text.strip(chr(34))}", f"[network]\nloss = {text}\n", [fragment], key="network.loss")
for section, key, value, fragment in [
    ("lock", "attempts", "-1", "must be at least 0"), ("lock", "drift_factor", "1.0", "must be at least 0 and below 1"),
    ("lock", "drift_factor", "-0.01", "must be at least 0 and below 1"), ("lock", "wait_replicas", "-1", "must be at least 0"),
    ("redlock", "quorum", "-1", "must be between 1 and 1"), ("redlock", "quorum", "2", "must be between 1 and 1"),
    ("resource", "initial_stock", "-1", "must be at least 0"),
]:
    case(f"range-{section}-{key}-{value}", table(section, f"{key} = {value}\n"), [fragment], key=f"{section}.{key}")
for key, value, fragment in [("seed", "-1", "must be at least 0"), ("max_events", "0", "must be at least 1"),
                             ("max_events", "99999999999", "must be at most 10000000000"),
                             ("max_facts", "0", "must be at least 1"), ("max_facts", "1000000000", "must be at most 100000000")]:
    case(f"range-scenario-{key}-{value}", Replace('run_for = "20s"', f'run_for = "20s"\n{key} = {value}'), [fragment],
         key=f"scenario.{key}")
case("range-iterations-zero", Replace('start = "1s"', 'start = "1s"\niterations = 0'), ["must be at least 1"],
     key="client.c2.iterations")
case("range-iterations-huge", Replace('start = "1s"', 'start = "1s"\niterations = 9999999999'),
     ["must be at most 2147483647"], key="client.c2.iterations")
case("range-occurrence-zero", '[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "c1 read"\noccurrence = 0\nlength = "1s"\n',
     ["must be at least 1"], key="fault.g.occurrence")
case("range-wait-timeout-fraction", '[lock]\nwait_timeout = "1.5ms"\n', ["must be a whole number of milliseconds"],
     key="lock.wait_timeout")
case("range-max-lag-fraction", '[redis]\nmin_replicas_max_lag = "1500ms"\n', ["must be a whole number of seconds"],
     key="redis.min_replicas_max_lag")
case("range-pause-too-long", '[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "1s"\nlength = "876601h"\n', [LIMIT],
     key="fault.g.length")
case("range-jump-too-long", '[fault.j]\nkind = "clock-jump"\ntarget = "c1"\nat = "1s"\nby = "-876601h"\n',
     ["reaches further back than"], key="fault.j.by")
case("range-at-too-long", '[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "99999999999999h"\nlength = "1s"\n', [LIMIT],
     key="fault.g.at")
case("range-after-too-long", '[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "c1 read"\nafter = "876601h"\nlength = "1s"\n',
     [LIMIT], key="fault.g.after")
case("range-work-too-long", Replace('start = "1s"\nsteps = ["read", "write"]', 'start = "1s"\nsteps = ["work 876601h"]'),
     [LIMIT], key="client.c2.steps")
case("range-at-drawn-too-long", '[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "uniform(0s, 876601h)"\nlength = "1s"\n',
     [LIMIT], key="fault.g.at")

# ---------------------------------------------------------------- names
for snippet, key, fragment in [
    ('[lock]\ntll = "5s"\n', "lock.tll", 'unknown key (did you mean "lock.ttl"?)'),
    ('[lock]\ncolour = "red"\n', "lock.colour", "unknown key; [lock] takes: protocol"),
    ('[locks]\nttl = "5s"\n', "locks", 'unknown key (did you mean "lock"?)'),
    ('[redis]\nnode = ["r1"]\n', "redis.node", 'did you mean "redis.nodes"?'),
    (REDLOCK + '[redlock]\nquorom = 2\n', "redlock.quorom", 'did you mean "redlock.quorum"?'),
    (REDLOCK + '[redlock]\nfailed_attempt_cleanup = "wait"\n', "redlock.failed_attempt_cleanup",
     'expected one of "send", "await", "at-give-up"'),
    ('[lock]\nprotocol = "redlock"\nfencing = "incr-in-script"\n', "lock.fencing",
     'use fencing = "incr" (one designated node'),
    ('[lock]\nacquire = "setnx-then-expire"\nfencing = "incr-in-script"\n', "lock.acquire",
     'cannot be combined with acquire = "setnx-then-expire"'),
    ('[lock]\nfencing = "incr-in-script"\nfencing_key = "lock"\n', "lock.fencing_key",
     "the fencing counter and the lock share the key"),
    ('[network]\nlatencey = "1ms"\n', "network.latencey", 'did you mean "network.latency"?'),
    ('[expect]\ninvariants = "holds"\n', "expect.invariants", 'did you mean "expect.invariant"?'),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "1s"\nlenght = "1s"\n', "fault.g.lenght", "unknown key"),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "1s"\nlength = "1s"\nby = "1s"\n', "fault.g.by",
     '"by" does not apply to a pause fault'),
    ('[fault.g]\nkind = "paws"\ntarget = "c1"\nat = "1s"\n', "fault.g.kind", 'did you mean "pause"?'),
    ('[fault.g]\ntarget = "c1"\nat = "1s"\n', "fault.g.kind", "missing required key"),
    ('[fault.g]\nkind = "pause"\nat = "1s"\nlength = "1s"\n', "fault.g.target", "missing required key"),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nlength = "1s"\n', "fault.g.at", "missing required key"),
    ('[fault.g]\nkind = "pause"\ntarget = "c9"\nat = "1s"\nlength = "1s"\n', "fault.g.target",
     'unknown process "c9" (did you mean "c1"?)'),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "c9 read"\nlength = "1s"\n', "fault.g.at", 'unknown client "c9"'),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "r1 read"\nlength = "1s"\n', "fault.g.at",
     '"r1" is a redis node; phase triggers name a client'),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "c1 aquired"\nlength = "1s"\n', "fault.g.at",
     'unknown phase "aquired" (did you mean "acquired"?)'),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "c1 read now"\nlength = "1s"\n', "fault.g.at",
     'or "PROCESS PHASE" such as'),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "+uniform(1s, 2s)"\nlength = "1s"\n', "fault.g.at",
     "a drawn trigger time takes no sign"),
    ('[fault.j]\nkind = "clock-jump"\ntarget = "c1"\nat = "1s"\nby = "uniform(1s, 2s)"\n', "fault.j.by",
     "a drawn jump needs a direction"),
    ('[fault.p]\nkind = "partition"\nat = "1s"\ngroups = [["c1"], ["c9"]]\n', "fault.p.groups", 'unknown process "c9"'),
    ('[fault.p]\nkind = "partition"\nat = "1s"\ngroups = [["c1"], ["c1"]]\n', "fault.p.groups",
     '"c1" is in more than one group'),
    ('[fault.p]\nkind = "partition"\nat = "1s"\ngroups = [["c1", "c2"]]\n', "fault.p.groups",
     "a partition needs at least two groups"),
    ('[fault.p]\nkind = "partition"\nat = "1s"\ngroups = [["c1"], []]\n', "fault.p.groups",
     "a group must name at least one process"),
    ('[fault.p]\nkind = "partition"\nat = "1s"\ngroups = [["c1"], ["c2"]]\nmode = "block"\n', "fault.p.mode",
     'expected one of "drop", "hold"'),
    ('[link.l]\nfrom = "c1"\nto = "r9"\n', "link.l.to", 'unknown process "r9"'),
    ('[link.l]\nfrom = "c1"\nto = "c1"\n', "link.l.to", "a link joins two different processes"),
    ('[link.l]\nto = "r1"\n', "link.l.from", "missing required key"),
    ('[clock.c9]\ndrift = "1%"\n', "clock.c9", 'unknown process "c9"'),
    ('[lock]\nprotocol = "red-lock"\n', "lock.protocol", 'did you mean "redlock"?'),
    ('[lock]\nacquire = "setnx"\n', "lock.acquire", 'expected one of "set-nx-px", "setnx-then-expire"'),
    ('[lock]\nrelease = "delete"\n', "lock.release", 'expected one of "compare-and-delete", "del"'),
    ('[lock]\nfencing = "token"\n', "lock.fencing", 'expected one of "none", "incr"'),
    ('[lock]\nclock = "realtime"\n', "lock.clock", 'expected one of "monotonic", "wall"'),
    ('[lock]\npreset = "redlock-go"\n', "lock.preset", "expected one of"),
    ('[lock]\nkey = ""\n', "lock.key", "must not be empty"),
    ('[redis]\nexpiry_clock = "steady"\n', "redis.expiry_clock", 'expected one of "wall", "monotonic"'),
    ('[redis]\nactive_expiry = "sampled"\n', "redis.active_expiry", 'expected one of "instant", "cron"'),
    ('[lock]\nscripts = "sha"\n', "lock.scripts", 'expected one of "eval", "evalsha"'),
    ('[lock]\nreconnect_delay = "-1s"\n', "lock.reconnect_delay", "negative"),
    ('[fault.k]\nkind = "crash"\ntarget = "r1"\nat = "1s"\nwhat = "vm"\n', "fault.k.what",
     'expected one of "machine", "process"'),
    ('[redis]\npersistence = "rdb"\n', "redis.persistence", "expected one of"),
    ('[redis]\nnodes = []\n', "redis.nodes", "needs at least one node name"),
    ('[redis]\nnodes = ["r 1"]\n', "redis.nodes", 'bad process name "r 1"'),
    ('[redis]\nnodes = ["r1", "r1"]\n', "redis.nodes", 'node "r1" is listed twice'),
    ('[redis]\nnodes = ["c1"]\n', "client.c1", 'name "c1" is already taken by the redis node'),
    ('[resource]\npolicy = "fencin"\n', "resource.policy", 'did you mean "fencing"?'),
    ('[resource]\npolicy = "fence"\n', "resource.policy", 'expected one of "none", "fencing", "unique-token-cas"'),
    ('[redis]\nreplicas = ["R1"]\n[sentinel]\nnames = ["s1", "s2"]\nquorum = 0\n', "sentinel.quorum",
     "must be between 1 and 2"),
    ('[resource]\napp = "counters"\n', "resource.app", 'did you mean "counter"?'),
    ('[resource]\nname = "c1"\n', "client.c1", 'is already taken by the resource'),
    ('[redlock]\nfencing_node = "r9"\n[lock]\nprotocol = "redlock"\n', "redlock.fencing_node", 'unknown redis node "r9"'),
    ('[service.identity]\nlatency = "fast"\n', "service.identity.latency", "bad duration"),
]:
    case("name-" + key.replace(".", "-") + "-" + tag(snippet), snippet, [fragment], key=key)
case("name-unknown-step", Replace('start = "1s"\nsteps = ["read", "write"]', 'start = "1s"\nsteps = ["read", "wirte"]'),
     ['unknown step "wirte" (did you mean "write"?)'], key="client.c2.steps")
case("name-step-argument", Replace('start = "1s"\nsteps = ["read", "write"]', 'start = "1s"\nsteps = ["read 2s"]'),
     ['step "read" takes no argument'], key="client.c2.steps")
case("name-work-without-duration", Replace('start = "1s"\nsteps = ["read", "write"]', 'start = "1s"\nsteps = ["work"]'),
     ['step "work" needs a duration or latency'], key="client.c2.steps")
case("name-call-unknown-service", Replace('start = "1s"\nsteps = ["read", "write"]', 'start = "1s"\nsteps = ["call identity"]'),
     ['unknown service "identity"'], key="client.c2.steps")
case("name-bad-client-name", Replace("[client.c2]", '[client."c 2"]'), ['bad process name "c 2"'])
case("name-no-clients", Raw('[scenario]\nname = "x"\n'), ["at least one client is required"], key="client")
case("name-missing-scenario-name", Replace('name = "battery"\n', ""), ["missing required key"], key="scenario.name")
case("name-empty-scenario-name", Replace('name = "battery"', 'name = ""'), ["must not be empty"], key="scenario.name")
case("name-variant-base", '[variant.base]\nlock.ttl = "1s"\n', ['"base" is the scenario itself'], key="variant.base")
case("name-variant-unknown-key", '[variant.v]\nlock.tll = "1s"\n', ['did you mean "variant.v.lock.ttl"?'],
     key="variant.v.lock.tll")
case("name-variant-to-run", "", ['unknown variant "fenced"'], args=["run", "{file}", "--variant", "fenced"])

# ---------------------------------------------------------------- variants that compose: extends and unset
FAST = '[variant.fast]\nlock.ttl = "1s"\n'
case("variant-extends-unknown", FAST + '[variant.v]\nextends = "fsat"\n',
     ['unknown variant "fsat" (did you mean "fast"?); variants: base, fast, v'], key="variant.v.extends")
case("variant-extends-itself", '[variant.v]\nextends = "v"\n', ["a variant cannot extend itself"],
     key="variant.v.extends")
case("variant-extends-cycle", '[variant.a]\nextends = "b"\n[variant.b]\nextends = "a"\n',
     ["variants extend each other in a cycle: a -> b -> a"], key="variant.a.extends")
case("variant-extends-not-a-string", '[variant.v]\nextends = ["fast"]\n' + FAST,
     ['expected the name of another variant, such as "tuned", got an array'], key="variant.v.extends")
case("variant-unset-typo", '[variant.v]\nunset = ["clinet.c2"]\n',
     ['"clinet.c2" names nothing that variant "v" inherits from the base (did you mean "client.c2"?)'],
     key="variant.v.unset")
case("variant-unset-not-inherited", '[variant.v]\nunset = ["lock.ttl"]\n',
     ['"lock.ttl" names nothing that variant "v" inherits from the base'], key="variant.v.unset")
case("variant-unset-removed-by-the-extended", '[variant.a]\nunset = ["client.c2"]\n[variant.b]\nextends = "a"\n'
     'unset = ["client.c2"]\n', ['"client.c2" names nothing that variant "b" inherits from variant "a"'],
     key="variant.b.unset")
case("variant-unset-not-an-array", '[variant.v]\nunset = "client.c2"\n',
     ['expected an array of strings, got string "client.c2"'], key="variant.v.unset")
case("variant-unset-not-strings", '[variant.v]\nunset = [1]\n',
     ["expected an array of strings, but one element is integer 1"], key="variant.v.unset")
case("variant-unset-malformed", '[variant.v]\nunset = ["client..c2"]\n',
     ['"client..c2" is not a key or table such as "redlock", "lock.preset" or "fault.gc"'], key="variant.v.unset")
case("variant-unset-leaves-a-gap", '[variant.v]\nunset = ["scenario.name"]\n',
     ["missing required key", '(in variant "v")'])
case("name-too-many-processes", Raw(BASE.replace('[client.c1]', "[redis]\nreplicas = [" + ", ".join(
    f'"x{i}"' for i in range(10001)) + "]\n\n[client.c1]")),
     ["processes; a scenario has at most 10000"])

# ---------------------------------------------------------------- contradictions
for snippet, key, fragment in [
    ('[lock]\nttl = "3s"\nwatchdog = true\nrenew_every = "3s"\n', "lock.renew_every",
     "the lease would expire before its first renewal"),
    ('[lock]\nttl = "10ms"\ndrift_factor = 0.5\ndrift_fixed = "5ms"\n', "lock.drift_fixed",
     "no lease could ever be valid"),
    ('[resource]\npolicy = "fencing"\n', "resource.policy", 'set lock.fencing = "incr"'),
    ('[lock]\nfencing = "incr"\nfencing_key = "lock"\n', "lock.fencing_key", "the fencing counter and the lock share the key"),
    ('[resource]\ninitial_stock = 3\n', "resource.initial_stock", 'initial_stock applies to app = "stock"'),
    ('[fault.r]\nkind = "restart"\ntarget = "r1"\nat = "5s"\n', "fault.r.target", '"r1" never crashes'),
    ('[fault.c]\nkind = "crash"\ntarget = "r1"\nat = "10s"\n[fault.r]\nkind = "restart"\ntarget = "r1"\nat = "5s"\n',
     "fault.r.at", 'comes before "r1" first crashes, at 10s'),
    ('[fault.c]\nkind = "crash"\ntarget = "c1"\nat = "1s"\n[fault.r]\nkind = "restart"\ntarget = "c1"\nat = "5s"\n',
     "fault.r.target", "a crashed client stays down"),
    ('[fault.c]\nkind = "crash"\ntarget = "c1"\nat = "1s"\nrestart_after = "1s"\n', "fault.c.restart_after",
     "a crashed client stays down"),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "25s"\nlength = "1s"\n', "fault.g.at",
     "fires at 25s, after the run ends (run_for = 20s); it would never happen"),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "15s"\nafter = "10s"\nlength = "1s"\n', "fault.g.after",
     "fires at 25s, after the run ends"),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "c1 read"\nafter = "20s"\nlength = "1s"\n', "fault.g.after",
     "after its phase, which is after the run ends"),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "uniform(30s, 40s)"\nlength = "1s"\n', "fault.g.at",
     "fires at 30s at the earliest"),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "1s"\noccurrence = 2\nlength = "1s"\n', "fault.g.occurrence",
     "occurrence counts phases"),
    ('[fault.j1]\nkind = "clock-jump"\ntarget = "c1"\nat = "1s"\nby = "876000h"\n'
     '[fault.j2]\nkind = "clock-jump"\ntarget = "c1"\nat = "2s"\nby = "876000h"\n', "fault.j1.by",
     "jumps adding up to"),
    ('[redis]\nreplicas = ["R1"]\n[lock]\nprotocol = "redlock"\n', "redis.replicas", "replicas are for the single-node lock"),
    ('[redis]\nnodes = ["r1", "r2"]\n', "redis.nodes", "the single-node lock uses exactly one node"),
    ('[sentinel]\nnames = ["s1"]\n', "sentinel.names", "sentinels fail the master over to one of its replicas"),
    ('[redis]\nreplicas = ["R1"]\n[sentinel]\nnames = ["s1"]\nquorum = 2\n', "sentinel.quorum", "must be between 1 and 1"),
    ('[sentinel]\nquorum = 2\n', "sentinel.quorum", "[sentinel] has no names"),
    ('[lock]\nwait_replicas = 1\n', "lock.wait_replicas", "must be 0 without replicas"),
    ('[redis]\nmin_replicas_to_write = 1\n', "redis.min_replicas_to_write", "must be 0 without replicas"),
    ('[lock]\nprotocol = "redlock"\nacquire = "setnx-then-expire"\n', "lock.acquire",
     "Redlock always acquires with SET NX PX"),
    ('[lock]\nprotocol = "redlock"\nrelease = "del"\n', "lock.release", "Redlock always releases with compare-and-delete"),
    ('[redlock]\nrequests = "parallel"\n', "redlock.requests", '[redlock] applies only with protocol = "redlock"'),
    ('[lock]\npreset = "node-redlock-5.0.0-beta.2"\n', "lock.preset", 'it needs protocol = "redlock"'),
    ('[expect]\nsessions-at-least = 3\nsessions-at-most = 2\n', "expect.sessions-at-most", "is below sessions-at-least"),
    ('[expect]\nlongest-stuck-at-least = "2s"\nlongest-stuck-at-most = "1s"\n', "expect.longest-stuck-at-most",
     "is below longest-stuck-at-least"),
]:
    case("contradiction-" + key.replace(".", "-") + "-" + tag(snippet), snippet, [fragment], key=key)
case("contradiction-clock-range", Raw(BASE.replace('run_for = "20s"', 'run_for = "876600h"') +
                                     '[clock.c1]\noffset = "876600h"\n'),
     ['"c1"\'s clock could read 200 years from zero (offset 100 years, run_for 100 years at up to +0% drift',
      "a clock reads at most ±150 years"], key="clock.c1.offset")
case("contradiction-start-after-run", Replace('start = "1s"', 'start = "25s"'),
     ["the client starts at 25s, after the run ends"], key="client.c2.start")
case("contradiction-in-variant-only", '[variant.late]\nscenario.run_for = "500ms"\n',
     ['the client starts at 1s, after the run ends (run_for = 500ms) (in variant "late")'], key="client.c2.start")

# ---------------------------------------------------------------- several errors at once
case("every-error-listed", '[lock]\nttl = "5q"\nrenew_every = 3\n[fault.g]\nkind = "pause"\ntarget = "c9"\nat = "1s"\nlength = "1s"\n',
     ['lock.ttl: bad duration "5q"', "lock.renew_every: expected a duration string",
      'fault.g.target: unknown process "c9"'])
case("base-error-listed-once", '[lock]\nttl = "5q"\n[variant.a]\nlock.key = "a"\n[variant.b]\nlock.key = "b"\n',
     ['lock.ttl: bad duration "5q"'])

# ---------------------------------------------------------------- --set
SET = ["run", "{file}", "--set"]
for value, key, fragment in [
    ("lock.ttl", "", 'expected KEY=VALUE such as "lock.ttl=10s"'),
    ("=5s", "", "missing key before '='"),
    ("lock..ttl=5s", "lock..ttl", "empty part in dotted key"),
    ("variant.x.lock.ttl=5s", "variant.x.lock.ttl", "--set cannot change variants"),
    ("lock.ttl=5s\nresource.policy=fencing", "lock.ttl", "a --set is one KEY=VALUE on one line"),
    ('lock.ttl="5s"\nresource.app="stock"', "lock.ttl", "a --set is one KEY=VALUE on one line"),
    ("lock.tll=5s", "lock.tll", 'did you mean "lock.ttl"?'),
    ("lock.ttl=99999999999999h", "lock.ttl", LIMIT),
    ("lock.ttl=5", "lock.ttl", "expected a duration string"),
    ("client.c9.start=1sec", "client.c9.start", 'bad duration "1sec"'),
    ("clock.c1.drift=2000000ppm", "clock.c1.drift", "at most 1000000ppm"),
    ("scenario.run_for=1ms", "client.c2.start", "the client starts at 1s, after the run ends"),
]:
    case("set-" + (key or value)[:20].replace("\n", "-") + "-" + tag(value), "", [fragment],
         args=SET + [value])

# ---------------------------------------------------------------- command-line numbers
for value, fragment in [
    ("-1", "--seed must be a whole number from 0 to 18446744073709551615, got '-1'"),
    ("18446744073709551616", "got '18446744073709551616'"), ("1e8", "got '1e8'"), ("+1", "got '+1'"),
    ("0x10", "got '0x10'"), (" 1", "got ' 1'"), ("", "got ''"), ("seven", "got 'seven'"), ("1.0", "got '1.0'"),
]:
    case(f"cli-seed-{value.strip() or 'empty'}", "", [fragment], args=["run", "{file}", "--seed", value])
case("cli-seed-max-runs", "", ["seed 18446744073709551615"], args=["run", "{file}", "--seed", "18446744073709551615"],
     code=0)
case("cli-unknown-option", "", ["unrecognised option '--sede'"], args=["run", "{file}", "--sede", "1"])
case("cli-unknown-command", None, ["unknown command 'rn' (did you mean \"run\"?)"], args=["rn"])
case("cli-unknown-command-suggests", None, ["unknown command 'serach' (did you mean \"search\"?)",
                                            "'locksim --help' lists the commands"], args=["serach"])
case("cli-two-files", "", ["too many positional options"], args=["run", "{file}", "{file}"])
# `--set lock.ttl=5 seconds` unquoted: the shell's second word is named, with the quoting that keeps it.
UNQUOTED = "'seconds' follows --set lock.ttl=5 but is not an option or a file"
QUOTED = "as --set 'lock.ttl=5 seconds'"
case("cli-unquoted-set-value-run", "", [UNQUOTED, QUOTED], args=["run", "{file}", "--set", "lock.ttl=5", "seconds"])
case("cli-unquoted-set-value-before-file", "", [UNQUOTED, QUOTED],
     args=["run", "--set", "lock.ttl=5", "seconds", "{file}"])
case("cli-unquoted-set-value-equals", "", [UNQUOTED, QUOTED],
     args=["sweep", "{file}", "--set=lock.ttl=5", "seconds", "--seeds", "1", "--vary", "lock.ttl=1s,2s"])

# ---------------------------------------------------------------- budgets at run time
case("run-event-budget", Replace('run_for = "20s"', 'run_for = "20s"\nmax_events = 20'),
     ["variant base, seed 1: the run stopped after 20 events", "([scenario] max_events)"], args=RUN)
case("run-fact-budget", Replace('run_for = "20s"', 'run_for = "20s"\nmax_facts = 5'),
     ["the run recorded 5 facts", "([scenario] max_facts)"], args=RUN)
case("run-zero-time-loop", Replace('[client.c1]\nsteps = ["read", "write"]',
                                   '[network]\nlatency = "0"\n[lock]\nretry_delay = "0"\n'
                                   '[client.c1]\nsteps = ["read", "write"]\nrelease = false'),
     ["the run recorded 4000000 facts by 1s of 20s"], args=RUN)
case("run-drawn-jump-out-of-range",
     Raw(BASE.replace('run_for = "20s"', 'run_for = "876600h"\nmax_events = 100000') +
                          '[fault.j]\nkind = "clock-jump"\ntarget = "c1"\nat = "1s"\n'
                          'by = "+exponential(876600h)"\n[fault.k]\nkind = "clock-jump"\ntarget = "c1"\nat = "2s"\n'
                          'by = "+exponential(876600h)"\n'),
     ["c1's clock would read more than 150 years from zero"], args=["run", "{file}", "--seed", "3"])

# ---------------------------------------------------------------- sweeps: numbers and options
SWEEP = ["sweep", "{file}", "--vary", "lock.ttl=5s,10s"]
for value in ["-1", "0", "1e8", "1000000001", "many"]:
    case(f"sweep-seeds-{value}", "", [f"--seeds must be a whole number from 1 to 1000000000, got '{value}'"],
         args=SWEEP + ["--seeds", value])
for value in ["0", "-1", "1e8", "257", "two"]:
    case(f"sweep-threads-{value}", "", [f"--threads must be a whole number from 1 to 256, got '{value}'"],
         args=SWEEP + ["--seeds", "1", "--threads", value])
for value in ["0/3", "4/3", "1/0", "1/2000000", "x", "1/2/3", "-1/2", "1/"]:
    case(f"sweep-shard-{value.replace('/', '-of-')}", "",
         [f"--shard expects K/N with 1 <= K <= N <= 1000000, such as 2/4, got '{value}'"],
         args=SWEEP + ["--seeds", "1", "--shard", value])
case("sweep-no-seeds", "", ["how many seeds per cell? (--seeds N)"], args=SWEEP)
case("sweep-grid-and-vary", "", ["--grid and --vary are exclusive"],
     args=SWEEP + ["--seeds", "1", "--grid", "{dir}/grid.csv"], files={"grid.csv": "lock.ttl\n5s\n"})
case("sweep-resume-without-out", "", ["--resume needs --out"], args=SWEEP + ["--seeds", "1", "--resume"])
case("sweep-set-and-vary-same-key", "", ["lock.ttl is also a sweep key; give it in one place"],
     args=SWEEP + ["--seeds", "1", "--set", "lock.ttl=3s"])
case("sweep-unknown-variant", "", ['unknown variant "fenced"'], args=SWEEP + ["--seeds", "1", "--variant", "fenced"])
case("sweep-variant-twice", FAST, ["--variant fast is given twice; name each variant once"],
     args=SWEEP + ["--seeds", "1", "--variant", "fast", "--variant", "base", "--variant", "fast"])
case("sweep-all-variants-and-variant", FAST, ["--all-variants and --variant are exclusive"],
     args=SWEEP + ["--seeds", "1", "--all-variants", "--variant", "fast"])
case("sweep-variant-typo", FAST, ['unknown variant "fsat" (did you mean "fast"?)'],
     args=SWEEP + ["--seeds", "1", "--variant", "base", "--variant", "fsat"])

# ---------------------------------------------------------------- sweeps: --vary specs
for spec, fragment in [
    ("lock.ttl", "expected KEY=SPEC"),
    ("=1s", "missing key before '='"),
    ("lock.ttl=", "empty SPEC"),
    ("lock.ttl=1s..2s", "needs a step (A..B:STEP) or a factor (A..B*F)"),
    ("lock.ttl=2s..1s:1s", "is empty: its start is past its end"),
    ("lock.ttl=1s..2s:0s", "the step must be greater than zero"),
    ("lock.ttl=1s..8s:1s*2", "has both a step (:) and a factor (*)"),
    ("lock.ttl=1s..10s*1", "the factor must be greater than 1"),
    ("lock.ttl=0s..10s*2", "a geometric range needs a start greater than zero"),
    ("lock.ttl=1ns..1000s:1ns", "has more than 1000000 values"),
    ("lock.ttl=1s..10ppm:1s", "mixes kinds of value"),
    ("lock.ttl=1h..2562047h*1000000", "is longer than the longest supported run, 100 years"),
    ("lock.ttl=1ns..2562047h*1.5", "is not exact"),
    ("lock.ttl=5s,,10s", "has an empty value"),
    ("lock.ttl=fast", "--vary: lock.ttl: bad duration \"fast\""),
    ("lock.ttl=99999999999999h", "is longer than the longest supported run, 100 years"),
    ("lock.tll=5s", 'did you mean "lock.ttl"?'),
    ("clock.c1.drift=0%..300%:100%", "at most 1000000ppm"),
]:
    case("sweep-vary-" + spec.split("=")[-1][:18].replace("/", "-") + "-" + tag(spec), "", [fragment],
         args=["sweep", "{file}", "--seeds", "1", "--vary", spec])
case("sweep-vary-twice", "", ["--vary lock.ttl is given twice"],
     args=["sweep", "{file}", "--seeds", "1", "--vary", "lock.ttl=1s", "--vary", "lock.ttl=2s"])

# ---------------------------------------------------------------- sweeps: grid files
GRID = ["sweep", "{file}", "--seeds", "1", "--grid", "{dir}/grid.csv"]
for name, text, fragment in [
    ("header-only", "lock.ttl\n", "no cells; the grid has a header but no rows"),
    ("empty", "", "empty grid file"),
    ("nul-byte", b"lock.ttl\n5\x00s\n", "grid.csv:2: a NUL byte"),
    ("latin1", b"lock.ttl\n5s\xe9\n", "grid.csv:2: a byte that is not UTF-8"),
    ("too-few", "lock.ttl,client.c2.start\n5s\n", "grid.csv:2: this row has fewer values than the header's 2 keys"),
    ("too-many", "lock.ttl\n5s,1s\n", "grid.csv:2: this row has more values than the header's 1 keys"),
    ("unclosed-quote", 'lock.ttl\n"5s\n', "grid.csv:2: a quoted value is not closed"),
    ("duplicate-key", "lock.ttl,lock.ttl\n5s,6s\n", "grid.csv:1: key 'lock.ttl' is named twice"),
    ("empty-key", "lock.ttl,\n5s,6s\n", "grid.csv:1: column 2 has no key"),
    ("nine-columns", ",".join(f"k{i}" for i in range(9)) + "\n" + ",".join("1" for _ in range(9)) + "\n",
     "grid.csv:1: 9 columns; a grid has at most 8 keys"),
    ("bad-value", "lock.ttl\n5s\nfast\n", 'grid.csv:3: lock.ttl: bad duration "fast"'),
    ("too-long-value", "lock.ttl\n99999999999999h\n", "is longer than the longest supported run, 100 years"),
    ("long-line", "lock.ttl\n" + "x" * (20 << 20) + "\n", "grid.csv:2: a line longer than"),
    ("long-value", "lock.ttl\n" + "y" * 5000 + "\n", '"yyyyyyyyyy'),
]:
    case(f"sweep-grid-{name}", "", [fragment], args=GRID, files={"grid.csv": text})
case("sweep-grid-missing", "", ["cannot read grid file", "No such file or directory"],
     args=["sweep", "{file}", "--seeds", "1", "--grid", "{dir}/none.csv"])
case("sweep-grid-directory", "", ["cannot read grid file", "it is a directory"],
     args=["sweep", "{file}", "--seeds", "1", "--grid", "{dir}"])
case("sweep-grid-bad-value-named-once", "", ["...)\n", '..." (5000 bytes)'], args=GRID,
     files={"grid.csv": "lock.ttl\n" + "x" * 5000 + "\n"})
case("long-value-quoted-by-its-start", "[lock]\nkey = 5\nttl = \"" + "z" * 3000 + "\"\n",
     ['lock.ttl: bad duration "zzzzzzzz', '..." (3000 bytes)'], key="lock.ttl")
case("sweep-grid-bom-crlf-blank-lines", "", ["scenario,variant,lock.ttl,runs"], code=0, args=GRID,
     files={"grid.csv": b"\xef\xbb\xbflock.ttl\r\n5s\r\n\r\n10s\r\n\r\n"})

# ---------------------------------------------------------------- sweeps: output files and --resume
OUT = ["sweep", "{file}", "--seeds", "2", "--vary", "lock.ttl=5s,10s", "--out", "{dir}/out.csv"]
case("sweep-same-file-dot-slash", "", ["are the same file"],
     args=OUT + ["--per-run", "{dir}/./out.csv"])
case("sweep-out-is-scenario", "", ["the scenario file", "are the same file"],
     args=["sweep", "{file}", "--seeds", "1", "--vary", "lock.ttl=5s", "--out", "{file}"])
case("sweep-resume-no-manifest", "", ["has no manifest", "cannot tell which sweep wrote it"],
     args=OUT + ["--resume"], files={"out.csv": "scenario,variant,lock.ttl,runs\n"})
case("sweep-resume-changed-set", "", ["was written by a different sweep", "--set differs"],
     args=OUT + ["--resume", "--set", "client.c2.start=2s"], setup=[OUT])
case("sweep-resume-changed-seeds", "", ["was written by a different sweep", "seeds"],
     args=[a if a != "2" else "3" for a in OUT] + ["--resume"], setup=[OUT])
case("sweep-resume-changed-scenario", "", ["the scenario file changed since the sweep started"],
     args=OUT + ["--resume"], setup=[OUT], rewrite="[lock]\nkey = \"other\"\n")
case("sweep-resume-bad-row", "", ["--resume:", "runs is"], args=OUT + ["--resume"],
     setup=[OUT, ["!corrupt", "{dir}/out.csv", ",2,", ",3,"]])
case("sweep-run-error-names-the-cell", Replace('run_for = "20s"', 'run_for = "20s"\nmax_events = 20'),
     ["variant base, cell lock.ttl=5s, replica 0, seed", "the run stopped after 20 events"],
     args=["sweep", "{file}", "--seeds", "1", "--vary", "lock.ttl=5s", "--out", "{dir}/out.csv"])

# ---------------------------------------------------------------- faults and steps that cannot happen
for snippet, key, fragment in [
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "c1 decremented"\nlength = "1s"\n', "fault.g.at",
     'c1 never reaches "decremented"'),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "c1 lost-lock"\nlength = "1s"\n', "fault.g.at",
     'c1 never reaches "lost-lock"'),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "c1 setnx-ok"\nlength = "1s"\n', "fault.g.at",
     'c1 never reaches "setnx-ok"'),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "c1 acquired"\noccurrence = 2\nlength = "1s"\n',
     "fault.g.occurrence", 'c1 reaches "acquired" at most once in a run, so occurrence 2 never comes'),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "c1 read"\noccurrence = 3\nlength = "1s"\n',
     "fault.g.occurrence", 'c1 reaches "read" at most once in a run'),
    ('[lock]\nattempts = 2\n[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "c1 acquire-failed"\noccurrence = 3\n'
     'length = "1s"\n', "fault.g.occurrence", 'c1 reaches "acquire-failed" at most 2 times'),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "1s"\nlength = "1s"\n[expect]\nfired = ["gc"]\n', "expect.fired",
     'unknown fault "gc"; faults: g'),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "1s"\nlength = "1s"\n[expect]\nfired = ["g", "g"]\n',
     "expect.fired", 'fault "g" is listed twice'),
    ('[expect]\nfired = ["g"]\n', "expect.fired", "the scenario has no faults"),
]:
    case("unreachable-" + key.replace(".", "-") + "-" + tag(snippet), snippet, [fragment], key=key)
for app, steps, fragment in [
    ("register", '["read", "decrement"]', 'step "decrement" does not apply to app = "register" (it applies to stock)'),
    ("counter", '["add"]', 'step "add" does not apply to app = "counter" (it applies to collection)'),
    ("collection", '["read"]', 'step "read" does not apply to app = "collection"'),
    ("stock", '["write"]', 'step "write" does not apply to app = "stock" (it applies to counter, register)'),
    ("stock", '["decrement"]', 'put a "read" step before it, or use "check-and-decrement"'),
    ("counter", '["mark", "write"]', 'step "mark" marks the resource for the unique-token-cas policy'),
]:
    case(f"step-{app}-{steps.strip('[]').replace(chr(34), '').replace(', ', '-')}",
         Raw(BASE.replace('start = "1s"\nsteps = ["read", "write"]', f'start = "1s"\nsteps = {steps}')
             + f'[resource]\napp = "{app}"\n'),
         [fragment], key="client.c2.steps")

# ---------------------------------------------------------------- triggers on server events and client starts
STORE = '[lock]\nprotocol = "etcd"\n'
SENTINEL = '[redis]\nreplicas = ["R"]\n[sentinel]\nnames = ["s1"]\n'
for snippet, key, fragment in [
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "c1 key-expired"\nlength = "1s"\n', "fault.g.at",
     '"c1" is a client; "key-expired" happens on a redis node, a replica or a store member (did you mean "r1"?)'),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "r1 key-expird"\nlength = "1s"\n', "fault.g.at",
     'unknown event "key-expird" (did you mean "key-expired"?); events of a redis node'),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "r9 key-dropped"\nlength = "1s"\n', "fault.g.at",
     'unknown process "r9" (did you mean "r1"?)'),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "r1 elected"\nlength = "1s"\n', "fault.g.at",
     '"elected" happens on a store member'),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "resource key-dropped"\nlength = "1s"\n', "fault.g.at",
     '"resource" is a resource; "key-dropped" happens on'),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "r1 promoted"\nlength = "1s"\n', "fault.g.at",
     'no [sentinel] to fail over to a replica, so "promoted" never happens on it'),
    ('[redis]\nreplicas = ["R"]\n[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "R key-expired"\nlength = "1s"\n',
     "fault.g.at", "a replica records no drop of its own"),
    (SENTINEL + '[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "s1 promoted"\nlength = "1s"\n', "fault.g.at",
     '"s1" is a sentinel; "promoted" happens on a redis node or a replica'),
    (SENTINEL + '[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "R read"\nlength = "1s"\n', "fault.g.at",
     '"R" is a replica; phase triggers name a client (clients: c1, c2); events of a replica'),
    (STORE + '[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "s1 promoted"\nlength = "1s"\n', "fault.g.at",
     '"s1" is a store member'),
    (STORE + '[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "s2 elect"\nlength = "1s"\n', "fault.g.at",
     'unknown event "elect" (did you mean "elected"?)'),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "r1 key-expired"\nafter = "20s"\nlength = "1s"\n',
     "fault.g.after", "fires 20s after its event, which is after the run ends"),
    ('[fault.g]\nkind = "pause"\ntarget = "c1"\nat = "r1 key-expired now"\nlength = "1s"\n', "fault.g.at",
     'or "PROCESS EVENT" such as "r1 key-expired"'),
    ('[client.c3]\nstart = "r1 key-expird"\n', "client.c3.start", 'did you mean "key-expired"?'),
    ('[client.c3]\nstart = "c2 key-expired"\n', "client.c3.start", '"c2" is a client; "key-expired" happens on'),
    ('[client.c3]\nstart = "uniform(1s, 2s)"\n', "client.c3.start", "a client's start is not drawn per run"),
    ('[client.c3]\nstart = "c3 acquired"\n', "client.c3.start", "c3 cannot wait for its own phase"),
    ('[client.c3]\nstart = "c4 acquired"\n[client.c4]\nstart = "c3 acquired"\n', "client.c3.start",
     "c3 starts on a phase of c4, c4 on one of c3: none of them would ever start"),
    ('[client.c3]\nstart = "c1 decremented"\n', "client.c3.start", 'c1 never reaches "decremented"'),
    ('[client.c3]\nstart = "c9 acquired"\n', "client.c3.start", 'unknown client "c9"'),
    ('[client.c3]\nstart = "5s"\nstart_after = "1s"\n', "client.c3.start_after",
     'start_after counts from a phase or an event in start; with a time, write the sum in start (start = "6s")'),
    ('[client.c3]\nstart_after = "1s"\n', "client.c3.start_after", "start_after counts from a phase or an event"),
    ('[client.c3]\nstart = "r1 key-expired"\nstart_after = "-1s"\n', "client.c3.start_after",
     "must not be negative"),
    ('[client.c3]\nstart = "r1 key-expired"\nstart_after = "20s"\n', "client.c3.start_after",
     "the client starts 20s after its event, which is after the run ends"),
    ('[client.c3]\nstart = "r1 key-expired"\nstart_after = 1\n', "client.c3.start_after", "expected a duration"),
]:
    case("event-trigger-" + key.replace(".", "-").replace("_", "-") + "-" + tag(snippet), snippet, [fragment],
         key=key)

# ---------------------------------------------------------------- per-client expectations
for snippet, key, fragment in [
    ('[expect.c9]\nsessions = 1\n', "expect.c9", "[expect.c9] names no client (did you mean \"c1\"?)"),
    ('[expect.c1]\nrejectd = 1\n', "expect.c1.rejectd", 'unknown key (did you mean "expect.c1.rejected"?)'),
    ('[expect.c1]\nwait = 5\n', "expect.c1.wait", 'expected a duration such as "< 31s", got integer 5'),
    ('[expect.c1]\nwait = "<< 3s"\n', "expect.c1.wait", 'bad duration "< 3s"'),
    ('[expect.c1]\nrejected = "150%"\n', "expect.c1.rejected", "a share is between 0% and 100%"),
    ('[expect.c1]\nsessions = "50%"\n', "expect.c1.sessions", 'expected a count such as 2 or ">= 1", got "50%"'),
    ('[expect.c1]\nsessions = -1\n', "expect.c1.sessions", "must not be negative, got -1"),
    ('[expect.c1]\naccepted = "> many"\n', "expect.c1.accepted", "expected a count such as"),
]:
    case("client-expect-" + key.replace(".", "-") + "-" + tag(snippet), snippet, [fragment], key=key)

# ---------------------------------------------------------------- the initial keyspace
for snippet, key, fragment in [
    ('[redis.initial]\nfence = 1.5\n', "redis.initial.fence", "expected an integer (a counter such as a fencing token)"),
    ('[redis.initial]\nlock = { value = 1, ttl = "0s" }\n', "redis.initial.lock.ttl", "must be greater than zero"),
    ('[redis.initial]\nlock = { ttl = "1s" }\n', "redis.initial.lock.value", "missing required key"),
    ('[redis.initial]\nlock = { value = 1, tll = "1s" }\n', "redis.initial.lock.tll", 'did you mean "redis.initial.lock.ttl"?'),
    ('[redis]\ninitial = 5\n', "redis.initial", "expected a table, got integer 5"),
    ('[redis.initial]\nlock = { value = 1, ttl = "876601h" }\n', "redis.initial.lock.ttl", LIMIT),
]:
    case("initial-" + key.replace(".", "-") + "-" + tag(snippet), snippet, [fragment], key=key)

# ---------------------------------------------------------------- consensus stores
ETCD = '[lock]\nprotocol = "etcd"\n'
for snippet, key, fragment in [
    ('[store]\nmembers = ["s1"]\n', "store.members", "[store] applies only to a lock kept in a consensus store"),
    ('[store_lock]\nrecheck = false\n', "store_lock.recheck", 'and the protocol is "single-node" (the default)'),
    ('[lock]\nprotocol = "zookeeper"\n[store_lock]\nrecheck = false\n', "store_lock.recheck",
     'store_lock.recheck does not apply to the protocol is "zookeeper"'),
    ('[lock]\nprotocol = "etcd"\n[store_lock]\npolicy = "obey-lost"\n', "store_lock.policy", "does not apply to"),
    ('[lock]\nprotocol = "chubby"\n[store_lock]\nrenew_deadline = "5s"\n', "store_lock.renew_deadline",
     "does not apply to"),
    ('[lock]\nprotocol = "etcd"\nacquire = "setnx-then-expire"\n', "lock.acquire",
     'lock.acquire describes a Redis client and does not apply to protocol = "etcd"'),
    ('[lock]\nprotocol = "etcd"\nfencing = "incr"\n', "lock.fencing", "its fencing token is the store's revision"),
    (ETCD + '[redis]\nnodes = ["r1"]\n', "redis.nodes", '[redis] applies to the Redis protocols, and the protocol is "etcd"'),
    (ETCD + '[sentinel]\nnames = ["x1"]\n', "sentinel.names", "the store elects its own leader"),
    (ETCD + '[store]\nmembers = []\n', "store.members", "needs at least one member name"),
    (ETCD + '[store]\ninitial_leader = "s9"\n', "store.initial_leader", 'unknown store member "s9"'),
    (ETCD + '[store]\nstock = true\n', "store.stock", 'it needs resource.app = "stock"'),
    (ETCD + '[store]\nttl_multiplier = 0\n', "store.ttl_multiplier", "1"),
    (ETCD + '[store]\nheartbeat = "0s"\n', "store.heartbeat", "must be greater than zero"),
    (ETCD + '[store_lock]\nkeepalive_every = "70s"\n', "store_lock.keepalive_every",  # the TTL is 60 s
     "not shorter than the session TTL"),
    ('[lock]\nprotocol = "kubernetes"\n[store_lock]\nrenew_deadline = "20s"\n', "store_lock.renew_deadline",
     "later than a contender may take over"),
    ('[lock]\nprotocol = "etcdd"\n', "lock.protocol", 'did you mean "etcd"?'),
]:
    case("store-" + key.replace(".", "-").replace("_", "-") + "-" + tag(snippet), snippet, [fragment], key=key)

# ---------------------------------------------------------------- a misspelt protocol, and nothing after it
# The protocol decides which sections apply and which processes exist: judged against the default (single-node)
# protocol instead, the rest of the file would add errors that are not the user's. Only the misspelling shows.
FOLLOW_ONS = ["single-node lock uses exactly one node", "applies only with protocol", "applies only to a lock kept",
              "unknown process", "is a release of", 'the protocol is "single-node"']
REDLOCK_FILE = '[lock]\nprotocol = "redlock"\n[redis]\nnodes = ["A", "B", "C"]\n[redlock]\nquorum = 2\n[clock.A]\ndrift = "1%"\n'
for name, snippet, key, fragment, args in [
    ("redlock", REDLOCK_FILE.replace('"redlock"', '"redlok"', 1), "lock.protocol", 'did you mean "redlock"?', VALIDATE),
    ("etcd", '[lock]\nprotocol = "etc"\npreset = "etcd-3.4.23"\n[store]\nmembers = ["s1", "s2", "s3"]\n'
             '[fault.g]\nkind = "pause"\ntarget = "s1"\nat = "1s"\nlength = "1s"\n', "lock.protocol",
     'did you mean "etcd"?', VALIDATE),
    ("zookeeper", '[lock]\nprotocol = "zookeepr"\n[store_lock]\npolicy = "obey-lost"\n', "lock.protocol",
     'did you mean "zookeeper"?', VALIDATE),
    ("in-variant", REDLOCK_FILE + '[variant.v]\nlock.protocol = "redlok"\n', "variant.v.lock.protocol",
     'did you mean "redlock"?', VALIDATE),
    ("set", REDLOCK_FILE, None, '--set: lock.protocol: expected one of', ["run", "{file}", "--set", "lock.protocol=redlok"]),
    ("sweep-set", REDLOCK_FILE, None, 'did you mean "redlock"?',
     ["sweep", "{file}", "--seeds", "1", "--set", "lock.protocol=redlok"]),
]:
    case("protocol-misspelt-" + name, snippet, [fragment], key=key, args=args, absent=FOLLOW_ONS)

# ---------------------------------------------------------------- transactional resources, no lock
for snippet, key, fragment in [
    (Raw(BASE.replace('start = "1s"\nsteps = ["read", "write"]', 'start = "1s"\nsteps = ["read", "write", "commit"]')),
     "client.c2.steps", 'step "commit" commits a transactional resource\'s staged ops'),
    ('[resource]\npolicy = "transactional"\n', "client.c1.steps", 'these steps never "commit"'),
    ('[resource]\npolicy = "transactonal"\n', "resource.policy", 'did you mean "transactional"?'),
    ('[lock]\nprotocol = "none"\nacquire = "setnx-then-expire"\n', "lock.acquire", "(there is no lock service)"),
    ('[lock]\nprotocol = "none"\n[redis]\nnodes = ["r1"]\n', "redis.nodes", 'the protocol is "none"'),
    ('[expect]\nrollbacks-at-least = 3\nrollbacks-at-most = 1\n', "expect.rollbacks-at-most", "rollbacks-at-least"),
]:
    case("resource-" + key.replace(".", "-") + "-" + tag(str(snippet)), snippet, [fragment], key=key)

# ---------------------------------------------------------------- [search]: the space locksim search explores
PAUSE = '[search.pause]\ntargets = ["c1"]\nlength = "1s..2s"\n'
for snippet, key, fragment in [
    ('[search]\nhunt = ["invariant"]\n', "search", "searches nothing: add a [search.KIND] table"),
    ('[search]\nhunt = []\n' + PAUSE, "search.hunt", "hunts nothing"),
    ('[search]\nhunt = ["invariants"]\n' + PAUSE, "search.hunt", 'did you mean "invariant"?'),
    ('[search]\n[search.pause]\ntargets = ["c9"]\nlength = "1s..2s"\n', "search.pause.targets", 'unknown process "c9"'),
    ('[search]\n[search.pause]\ntargets = ["c1", "c1"]\nlength = "1s..2s"\n', "search.pause.targets", "listed twice"),
    ('[search]\n[search.pause]\ntargets = ["c1"]\nlength = "3s..2s"\n', "search.pause.length", "ends before it starts"),
    ('[search]\n[search.pause]\ntargets = ["c1"]\nlength = "2s"\n', "search.pause.length", "expected a range LOW..HIGH"),
    ('[search]\n[search.pause]\ntargets = ["c1"]\nlength = "1s..2parsecs"\n', "search.pause.length", "is not a duration"),
    ('[search]\nuntil = "30s"\n' + PAUSE, "search.until", "the window ends after the run"),
    ('[search]\nfrom = "5s"\nuntil = "5s"\n' + PAUSE, "search.from", "starts at or after its end"),
    ('[search]\nmax_faults = 0\n' + PAUSE, "search.max_faults", "must be at least 1"),
    ('[search]\nmax_faults = 17\n' + PAUSE, "search.max_faults", "16"),
    ('[search]\n[search.pause]\ntargets = ["c1"]\nlength = "1s..2s"\nby = "1s..2s"\n', "search.pause.by",
     '"by" does not apply to [search.pause]'),
    ('[search]\n[search.paws]\ntargets = ["c1"]\n', "search.paws", 'did you mean "search.pause"?'),
    ('[search]\n[search.crash]\ntargets = ["c1"]\nrestart_after = "1s..2s"\n', "search.crash.targets",
     "a client cannot restart"),
    ('[search]\n[search.partition]\ntargets = ["c1"]\n', "search.partition.targets", "at least two processes"),
    ('[search]\n[search.partition]\ntargets = ["c1", "r1"]\nmode = "late"\n', "search.partition.mode", '"either"'),
    ('[search]\nphases = ["acquird"]\n' + PAUSE, "search.phases", 'did you mean "acquired"?'),
    ('[search]\nphase_clients = ["r1"]\n' + PAUSE, "search.phase_clients", "r1"),
    ('[search]\nstory_faults = "kept"\n' + PAUSE, "search.story_faults", 'did you mean "keep"?'),
    ('[search]\nlatencies = ["fast"]\n' + PAUSE, "search.latencies", "fast"),
    ('[search]\n[search.clock-drift]\ntargets = ["c1"]\ndrift = "-200%..1%"\n', "search.clock-drift.drift",
     "drift must be above"),
    ('[search]\n[search.clock-jump]\ntargets = ["c1"]\n', "search.clock-jump.by", "required"),
    ('[search]\n' + PAUSE + '[variant.v]\nsearch.pause.length = "5s..1s"\n', "variant.v.search.pause.length",
     "ends before it starts"),
]:
    case("search-" + key.replace(".", "-").replace("_", "-") + "-" + tag(snippet), snippet, [fragment], key=key)
case("search-partition-too-many-targets",
     Raw(BASE + "".join(f'\n[client.x{i}]\nstart = "1s"\nsteps = ["read"]\n' for i in range(62)) +
         '\n[search]\n[search.partition]\ntargets = ["r1", "c1", "c2", '
         + ", ".join(f'"x{i}"' for i in range(62)) + ']\n'),
     ["a searched partition splits at most 62 processes, got 65"], key="search.partition.targets")
