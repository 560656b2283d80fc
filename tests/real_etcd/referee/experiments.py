"""The experiments: which catalogue story each mirrors, and how its faults are made for real.

The story (TTL, clients, steps, resource, fault sizes, link latencies) and
the variants come from the scenario file (scenario.py), read when the
experiment runs, so a revised file changes the real run too. Where the file
ties a fault to a client's keepalive (`at = "c1 extended"`, `occurrence`)
the real run does the same on the real replies (KeepaliveTrigger says how
they are counted); where it says a time, the real run uses that time from
t0. How each fault is made:

  partitioned-holder   the file's partition cutting one client off from every
                       member: right after that client's n-th keepalive
                       extension (the file's occurrence; 1 when the file
                       gives a time), its traffic to every member is blackholed at
                       the proxy, never healed; it still reaches the
                       resource. A [link] from the client with a latency
                       (slow-network) becomes a fixed proxy delay on all of
                       that client's member links, both ways.
  gc-pause             the file's pause at a client's step (`at = "c1 read"`):
                       the client waits at a pause point right after that
                       step, the driver freezes it there with SIGSTOP and
                       continues it (SIGCONT) `length` later (Pause).
  leader-failover      the file's crash of its initial leader (s1) at a time:
                       the member that leads then gets SIGKILL (`what =
                       "process"`) or SIGSTOP for the rest of the run (`what
                       = "machine"`: silence, connections open, no reset).
  wait-without-recheck the file's pause at a time: SIGSTOP from the driver,
                       SIGCONT `length` later.
  leader-clock-step    the file's crash of c1 at its keepalive reply and clock
                       jump of the leader `after` it: SIGKILL right after
                       c1's n-th keepalive extension, then the leader's wall clock
                       stepped by `by` through the shim. Before the file had
                       those variants, the brief's three (no step, +15 s,
                       −5 s after 500 ms) are used on its base story.
  redlock-vs-etcd      the file's etcd variants: the leader's wall clock
                       stepped `by` at a time (the shim), and in
                       etcd-gc-pause c1 paused at a time as in
                       wait-without-recheck; its Redis variants are skipped.

A variant the real cluster cannot be — another etcd release
(`lock.preset`), a Mutex that re-reads its key (`recheck = true`) — is
skipped with its reason. Each experiment also names its roles (holder,
waiter), the magnitudes (magnitudes.py) that say how close the story came
to breaking, and the faults that must have fired for a repetition to count.
"""
import os
import re
import signal

from . import scenario
from .procs import now_ns as procs_now
from .scenario import duration_ns
from .triggers import KeepaliveTrigger, Pause

RELEASE = "etcd-3.4.23"


class NotRealisable(ValueError):
    """A variant asks for something the real cluster is not."""


class Experiment:
    name = ""
    scenario = ""            # file name under scenarios/
    roles: dict[str, str] = {}
    magnitudes: list[str] = []
    required_faults: list[str] = []

    def path(self, scenarios_dir: str) -> str:
        return os.path.join(scenarios_dir, self.scenario)

    def story(self, scenarios_dir: str, variant: str):
        story = scenario.load(self.path(scenarios_dir), variant)
        if story.preset not in (None, RELEASE):
            raise NotRealisable(f"lock.preset = {story.preset!r}: the real cluster is {RELEASE}")
        if story.recheck:
            raise NotRealisable("store_lock.recheck = true: etcd 3.4.23's Mutex (clientv3/concurrency/mutex.go) "
                                "does not re-read its key after the wait")
        self.prepare(story)
        return story

    def variants(self, scenarios_dir: str) -> tuple[list[str], dict[str, str]]:
        """The file's variants this experiment runs, and those it skips with why."""
        run, skipped = [], {}
        for v in scenario.variants(self.path(scenarios_dir)):
            try:
                self.story(scenarios_dir, v)
                run.append(v)
            except NotRealisable as e:
                skipped[v] = str(e)
        return run, skipped

    def prepare(self, story) -> None:
        """Reads the fault parameters from the story (NotRealisable if it cannot be made for real)."""

    def describe(self) -> dict:
        """The real fault plan, recorded in the run's `run` record."""
        return {}

    def client_flags(self, story, client) -> list[str]:
        return []

    def begin(self, run) -> None:
        pass

    def on_record(self, rec: dict, run) -> None:
        pass


def _fault_of_kind(story, kind: str) -> str | None:
    names = [n for n, f in story.faults.items() if f.get("kind") == kind]
    if len(names) > 1:
        raise NotRealisable(f"more than one {kind} fault: {names}")
    return names[0] if names else None


_RENEWAL = re.compile(r"^(?P<client>\S+) extended$")


def _renewal_trigger(fault: dict, default_client: str, default_n: int) -> tuple[str, int, bool]:
    """(client, n, from_file): the file's `at = "CLIENT extended"` with its occurrence, else the default."""
    m = _RENEWAL.match(str(fault.get("at", "")))
    if m:
        return m["client"], int(fault.get("occurrence", 1)), True
    return default_client, default_n, False


class PartitionedHolder(Experiment):
    name = "partitioned-holder"
    scenario = "etcd-partitioned-holder.toml"
    roles = {"holder": "c1", "waiter": "c2"}
    magnitudes = ["waiter_grant_after_holder_last_renewal", "waiter_grant_after_promise_end",
                  "holder_done_after_last_renewal", "holder_belief_end_after_last_renewal",
                  "holder_belief_end_after_promise_end", "holder_last_write_after_waiter_grant",
                  "holder_key_deleted_after_promise_end", "belief_overlap"]
    required_faults = ["blackhole"]
    DEFAULT_RENEWAL = 1

    def prepare(self, story):
        name = _fault_of_kind(story, "partition")
        if name is None:
            raise NotRealisable("no partition fault")
        self.fault = story.faults[name]
        clients = {c.name for c in story.clients}
        cut = [g[0] for g in self.fault["groups"] if len(g) == 1 and g[0] in clients]
        if len(cut) != 1 or self.fault.get("heal_after") or self.fault.get("mode", "drop") != "drop":
            raise NotRealisable("the real partition cuts one client off for good, dropping")
        self.target = cut[0]
        _, self.renewal, self.from_file = _renewal_trigger(self.fault, self.target, self.DEFAULT_RENEWAL)
        self.delay = {}
        for link in story.links.values():
            ends = {link.get("from"), link.get("to")}
            if self.target in ends and "latency" in link:
                try:
                    latency = duration_ns(link["latency"])
                except ValueError as e:
                    raise NotRealisable(f"link latency {link['latency']!r}: only fixed latencies are made for real") from e
                self.delay = {"up_ns": latency, "down_ns": latency if link.get("both_ways") else 0}

    def describe(self):
        return {"blackhole": {"target": self.target, "healed": False, "file_at": self.fault["at"],
                              "when": f"right after {self.target}'s keepalive extension #{self.renewal} (once it holds)"
                                      + ("" if self.from_file else " (the file gives a time; #2 is used)")},
                "link_delay": ({"client": self.target, **self.delay, "members": "all"} if self.delay else None)}

    def begin(self, run):
        if self.delay:
            answer = run.proxy(f"delay {self.target} {self.delay['up_ns']}ns {self.delay['down_ns']}ns")
            run.emit("link-delay", target=self.target, proxy=answer, **self.delay)

        def cut(reply_ns):
            answer = run.proxy(f"blackhole {self.target}")
            run.emit("fault", kind="blackhole", target=self.target, trigger_t_ns=reply_ns, proxy=answer)
        self.trigger = KeepaliveTrigger(self.target, self.renewal, cut)

    def on_record(self, rec, run):
        self.trigger.feed(rec)


class GcPause(Experiment):
    name = "gc-pause"
    scenario = "etcd-gc-pause.toml"
    roles = {"holder": "c1", "waiter": "c2"}
    magnitudes = ["waiter_grant_after_holder_last_renewal", "waiter_grant_after_promise_end",
                  "holder_key_deleted_after_promise_end", "holder_last_write_after_waiter_grant", "belief_overlap"]
    required_faults = ["pause"]

    def prepare(self, story):
        name = _fault_of_kind(story, "pause")
        if name is None:
            raise NotRealisable("no pause fault")
        try:
            self.pause = Pause(story, name)
        except ValueError as e:
            raise NotRealisable(str(e)) from e

    def describe(self):
        return self.pause.describe()

    def client_flags(self, story, client):
        return self.pause.client_flags(client)

    def begin(self, run):
        self.pause.begin(run)

    def on_record(self, rec, run):
        self.pause.on_record(rec, run)


class WaitWithoutRecheck(GcPause):
    name = "wait-without-recheck"
    scenario = "etcd-wait-without-recheck.toml"
    roles = {"holder": "c3", "waiter": "c2"}
    magnitudes = ["waiter_grant_after_holder_grant", "waiter_grant_after_own_key_deleted", "belief_overlap"]
    required_faults = ["pause"]


class LeaderFailover(Experiment):
    name = "leader-failover"
    scenario = "etcd-leader-failover.toml"
    roles = {"holder": "c1", "waiter": "c2"}
    magnitudes = ["election_after_leader_crash", "waiter_grant_after_holder_release", "holder_longest_renewal_gap",
                  "belief_overlap"]
    required_faults = ["crash"]
    POLL_NS = 100_000_000         # how often the driver asks who leads after the crash
    POLL_FOR_NS = 20_000_000_000
    # scenarios/FORMAT.md: a crash's `what` defaults to "machine".
    HOW = {"process": signal.SIGKILL, "machine": signal.SIGSTOP}

    def prepare(self, story):
        name = _fault_of_kind(story, "crash")
        if name is None:
            raise NotRealisable("no crash fault")
        self.fault = story.faults[name]
        if self.fault.get("restart_after"):
            raise NotRealisable("a crashed member that restarts is not made for real")
        try:
            self.at_ns = duration_ns(self.fault["at"])
        except ValueError as e:
            raise NotRealisable(f"crash at {self.fault['at']!r}: the real run crashes the leader at a time") from e
        self.what = self.fault.get("what", "machine")
        self.sig = self.HOW[self.what]

    def describe(self):
        how = ("SIGKILL: the process dies, its host refuses connections at once" if self.what == "process" else
               "SIGSTOP for the rest of the run: the member goes silent, its connections stay open and "
               "unanswered, as a dead machine's do (no reset)")
        return {"crash": {"target": f"the leader (the file's {self.fault['target']}, its initial leader)",
                          "at_ns": self.at_ns, "what": self.what, "how": how}}

    def begin(self, run):
        def crash():
            leader = run.cluster.leader()
            t = procs_now()
            sent = leader is not None and run.cluster.kill(leader, self.sig)
            took = bool(sent)
            if sent and self.sig == signal.SIGSTOP:
                took = run.cluster.wait_stopped(leader)
            run.emit("fault", kind="crash", target=leader, what=self.what, signal=signal.Signals(self.sig).name,
                     sent=bool(sent), took_effect=took, fault_t_ns=t)

            # Who leads now: asked of the other members every POLL_NS until one does.
            def poll():
                asked = procs_now()
                now_leader = run.cluster.leader(exclude=(leader,))
                if now_leader is not None:
                    run.emit("leader", leader=now_leader, asked_ns=asked, after_crash_of=leader)
                elif asked - t < self.POLL_FOR_NS:
                    run.at_abs(asked + self.POLL_NS, poll)
            run.at_abs(t + self.POLL_NS, poll)
        run.at(self.at_ns, crash)


class LeaderClockStep(Experiment):
    name = "leader-clock-step"
    scenario = "etcd-wall-clock-jump.toml"
    roles = {"holder": "c1", "waiter": "c2"}
    magnitudes = ["holder_key_deleted_after_promise_end", "waiter_grant_after_promise_end",
                  "waiter_grant_after_holder_last_renewal"]
    required_faults = ["crash"]
    # The brief's variants, used while the file has none of its own (an
    # older file whose jump is at a time and whose holder never crashes).
    BRIEF = {"holder-crashes": 0, "forward-step-holder-crashes": 15_000_000_000,
             "backward-step-holder-crashes": -5_000_000_000}
    BRIEF_AFTER_NS = 500_000_000

    def _file_has_crash_variants(self, scenarios_dir) -> bool:
        base = scenario.load(self.path(scenarios_dir), "base")
        return any(f.get("kind") == "crash" and f.get("target") in {c.name for c in base.clients}
                   for f in base.faults.values())

    def variants(self, scenarios_dir):
        if self._file_has_crash_variants(scenarios_dir):
            return super().variants(scenarios_dir)
        return list(self.BRIEF), {"(the file's own)": "no holder crash in the file yet: the brief's variants run"}

    def story(self, scenarios_dir, variant):
        if variant in self.BRIEF and not self._file_has_crash_variants(scenarios_dir):
            story = scenario.load(self.path(scenarios_dir), "base")
            story.variant = variant
            self.holder, self.renewal, self.after_ns = "c1", 1, self.BRIEF_AFTER_NS
            self.step_ns, self.source = self.BRIEF[variant], "the brief's variant on the file's base story"
            return story
        return super().story(scenarios_dir, variant)

    def prepare(self, story):
        crash = _fault_of_kind(story, "crash")
        jump = _fault_of_kind(story, "clock-jump")
        if crash is None:
            raise NotRealisable("no crash fault")
        self.holder, self.renewal, from_file = _renewal_trigger(story.faults[crash], story.faults[crash]["target"], 1)
        if not from_file:
            raise NotRealisable("the crash is not at a keepalive reply of the holder")
        self.step_ns, self.after_ns = 0, 0
        if jump is not None:
            try:
                self.step_ns = duration_ns(str(story.faults[jump]["by"]))
            except ValueError as e:
                raise NotRealisable(f"clock jump by {story.faults[jump]['by']!r}: only fixed steps") from e
            self.after_ns = duration_ns(story.faults[jump].get("after", "0s"))
        self.source = "the file's variant"

    def describe(self):
        return {"crash": {"target": self.holder, "how": "SIGKILL",
                          "when": f"right after {self.holder}'s keepalive extension #{self.renewal} (once it holds)"},
                "clock_step": {"target": "the leader", "by_ns": self.step_ns,
                               "when": f"{self.after_ns / 1e9:g}s after that reply"},
                "story_source": self.source}

    def begin(self, run):
        def kill(reply_ns):
            run.signal_client(self.holder, signal.SIGKILL, "holder crashes")
            run.emit("fault", kind="crash", target=self.holder, trigger_t_ns=reply_ns)
            leader = run.cluster.leader()
            run.emit("leader", leader=leader)

            def step():
                if self.step_ns == 0:
                    run.emit("fault", kind="clock-step", target=leader, by_ns=0, note="no step in this variant")
                    return
                offset = run.cluster.step_wall_clock(leader, self.step_ns)
                run.emit("fault", kind="clock-step", target=leader, by_ns=self.step_ns, offset_ns=offset)
            run.at_abs(reply_ns + self.after_ns, step)
        self.trigger = KeepaliveTrigger(self.holder, self.renewal, kill)

    def on_record(self, rec, run):
        self.trigger.feed(rec)


class RedlockVsEtcd(Experiment):
    """The team's Redlock story told on etcd (redlock-vs-etcd's `etcd` and `etcd-gc-pause`): the
    leader's wall clock steps at a time, through the shim, and c1 may be paused at a time. Its
    Redis variants are the real-Redis referee's."""
    name = "redlock-vs-etcd"
    scenario = "redlock-vs-etcd.toml"
    roles = {"holder": "c1", "waiter": "c2"}
    magnitudes = ["waiter_grant_after_promise_end", "holder_last_write_after_waiter_grant", "belief_overlap"]

    def story(self, scenarios_dir, variant):
        try:
            return super().story(scenarios_dir, variant)
        except ValueError as e:
            if "lock.protocol" in str(e):
                raise NotRealisable("a Redis variant: the real-Redis referee runs it (tests/real_redis)") from e
            raise

    def prepare(self, story):
        jump = _fault_of_kind(story, "clock-jump")
        if jump is None:
            raise NotRealisable("no clock jump")
        fault = story.faults[jump]
        try:
            self.jump_at_ns, self.step_ns = duration_ns(fault["at"]), duration_ns(str(fault["by"]))
        except ValueError as e:
            raise NotRealisable(f"clock jump at {fault['at']!r} by {fault['by']!r}: a fixed step at a time") from e
        pause = _fault_of_kind(story, "pause")
        self.pause = Pause(story, pause) if pause else None
        # Per variant: the faults this one needs to have fired (judge.faults_fired's kinds).
        self.required_faults = ["clock-step"] + (["pause"] if self.pause else [])

    def describe(self):
        plan = {"clock_step": {"target": "the leader (the file's s1)", "by_ns": self.step_ns,
                               "at_ns": self.jump_at_ns}}
        return {**plan, **(self.pause.describe() if self.pause else {})}

    def client_flags(self, story, client):
        return self.pause.client_flags(client) if self.pause else []

    def begin(self, run):
        def step():
            leader = run.cluster.leader()
            offset = run.cluster.step_wall_clock(leader, self.step_ns)
            run.emit("fault", kind="clock-step", target=leader, by_ns=self.step_ns, offset_ns=offset)
        run.at(self.jump_at_ns, step)
        if self.pause:
            self.pause.begin(run)

    def on_record(self, rec, run):
        if self.pause:
            self.pause.on_record(rec, run)


ALL = {e.name: e for e in (PartitionedHolder, GcPause, LeaderFailover, WaitWithoutRecheck, LeaderClockStep,
                           RedlockVsEtcd)}


def make(name: str) -> Experiment:
    return ALL[name]()

from . import row_experiments  # noqa: E402,F401  (no-faults-consensus, oversell-incident-etcd: added to ALL)
