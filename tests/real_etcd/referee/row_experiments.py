"""The catalogue's last two etcd rows, made for real (experiments.py is at its size limit).

  no-faults-consensus     the control: three clients, three cycles each
                          (Lock, read, work 20 ms, write, Unlock, think
                          100 ms), no faults. Only the base variant is etcd;
                          the others are other protocols, skipped. The
                          file's lognormal(2 ms, 0.5) network latency is not
                          made: clients, proxy and members talk over
                          loopback, tens of microseconds a hop (the proxy
                          could add a fixed delay to the clients' links, not
                          a drawn one, and the members' Raft traffic is not
                          proxied at all). With no faults, latency only
                          changes the timing magnitudes (docs/real-etcd.md).
  oversell-incident-etcd  one unit of stock, three buyers; the identity
                          service stalled from 0 to 30 s (the service
                          process SIGSTOPped, SIGCONTed 30 s later, as
                          Pause stops a client at a time); each buyer cut
                          off from every member at its partition's time
                          (the proxy's blackhole, as partitioned-holder
                          makes it) and healed `heal_after` later (the
                          proxy's heal: held bytes go on). Base: the stock at
                          the resource (`--app stock`); txn-guarded
                          (store.stock): the stock in etcd, sold by a Txn
                          guarded by the buyer's key's create revision.
                          The file's jittered links (lognormal around
                          1 ms) are loopback as it is: its own jitter is
                          what orders the three buyers' reads at 30 s.
"""
from . import experiments
from .experiments import Experiment, NotRealisable, _fault_of_kind
from .triggers import Pause
from .runner import service_latencies
from .scenario import duration_ns


def _etcd_only(load):
    """Another protocol's variant is not the real cluster's to run."""
    try:
        return load()
    except ValueError as e:
        if "lock.protocol" in str(e):
            raise NotRealisable("another protocol's variant: the real referee runs etcd only") from e
        raise


class NoFaultsConsensus(Experiment):
    name = "no-faults-consensus"
    scenario = "no-faults-consensus.toml"
    roles = {"holder": "c1", "waiter": "c2"}
    magnitudes = ["sessions_granted", "longest_grant_wait", "longest_handover"]
    required_faults: list[str] = []

    def story(self, scenarios_dir, variant):
        return _etcd_only(lambda: super(NoFaultsConsensus, self).story(scenarios_dir, variant))

    def prepare(self, story):
        if story.faults:
            raise NotRealisable(f"faults {sorted(story.faults)}: the control has none")
        self.latency = story.network_latency

    def describe(self):
        return {"network": {"file_latency": self.latency, "made": "loopback as it is (not the file's latency)"}}


class OversellIncident(Experiment):
    name = "oversell-incident-etcd"
    scenario = "oversell-incident-etcd.toml"
    roles = {"holder": "c1", "waiter": "c2", "third": "c3"}
    magnitudes = ["final_stock", "stale_rejections", "waiter_grant_after_holder_key_deleted",
                  "third_grant_after_waiter_key_deleted", "holder_key_deleted_after_promise_end",
                  "waiter_grant_after_promise_end", "belief_overlap"]
    required_faults = ["pause", "blackhole", "heal"]

    def prepare(self, story):
        try:
            service_latencies(story)
        except ValueError as e:
            raise NotRealisable(str(e)) from e
        self.stalls = []
        for name, fault in story.faults.items():
            if fault.get("kind") == "pause":
                if fault.get("target") not in story.services:
                    raise NotRealisable(f"fault {name}: only a service's stall is made for this story")
                self.stalls.append(Pause(story, name))
        self.cuts = []
        clients = {c.name for c in story.clients}
        for name, fault in story.faults.items():
            if fault.get("kind") != "partition":
                continue
            cut = [g[0] for g in fault["groups"] if len(g) == 1 and g[0] in clients]
            if len(cut) != 1 or fault.get("mode", "drop") != "drop":
                raise NotRealisable(f"fault {name}: the real partition cuts one client off from every member, dropping")
            try:
                at = duration_ns(str(fault["at"]))
            except ValueError as e:
                raise NotRealisable(f"fault {name}: a partition at a time of the story only") from e
            heal = fault.get("heal_after")
            self.cuts.append({"name": name, "target": cut[0], "at_ns": at,
                              "heal_ns": None if heal is None else at + duration_ns(str(heal))})
        if _fault_of_kind(story, "clock-jump") or _fault_of_kind(story, "crash"):
            raise NotRealisable("a crash or a clock jump: not in this story's real plan")
        self.latency = story.network_latency

    def describe(self):
        plan = {"network": {"file_latency": self.latency, "made": "loopback as it is (not the file's latency)"},
                "stalls": [s.describe()["pause"] for s in self.stalls],
                "partitions": [{**c, "how": "proxy blackhole of the client's member links, both ways; heal: "
                                           "forwarding again, held bytes delivered"} for c in self.cuts]}
        return plan

    def begin(self, run):
        for stall in self.stalls:
            stall.begin(run)
        for c in self.cuts:
            run.at(c["at_ns"], lambda c=c: run.emit("fault", kind="blackhole", name=c["name"], target=c["target"],
                                                     proxy=run.proxy(f"blackhole {c['target']}")))
            if c["heal_ns"] is not None:
                run.at(c["heal_ns"], lambda c=c: run.emit("heal", name=c["name"], target=c["target"],
                                                          proxy=run.proxy(f"heal {c['target']}")))


experiments.ALL.update({e.name: e for e in (NoFaultsConsensus, OversellIncident)})
