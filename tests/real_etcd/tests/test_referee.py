"""The referee's parts that need no cluster: when a fault triggers, how a scenario is read, how a locksim trace becomes facts, and when real and simulated verdicts disagree."""
import textwrap

from referee import compare, experiments, facts, magnitudes, scenario, triggers

MS = 1_000_000


def test_the_keepalive_trigger_skips_the_session_start_reply_and_fires_once_it_holds():
    fired = []
    t = triggers.KeepaliveTrigger("c1", 1, fired.append)
    t.feed({"proc": "c1", "event": "keepalive", "t_ns": 5 * MS})        # the session-start reply
    t.feed({"proc": "c2", "event": "keepalive", "t_ns": 6 * MS})        # another client's
    t.feed({"proc": "c1", "event": "grant", "t_ns": 7 * MS})
    assert fired == []
    t.feed({"proc": "c1", "event": "keepalive", "t_ns": 3500 * MS})
    assert fired == [3500 * MS]
    t.feed({"proc": "c1", "event": "keepalive", "t_ns": 7000 * MS})
    assert fired == [3500 * MS]                                           # once


def test_a_session_start_reply_that_loses_the_race_to_the_grant_does_not_count():
    fired = []
    t = triggers.KeepaliveTrigger("c1", 1, fired.append)
    t.feed({"proc": "c1", "event": "grant", "t_ns": 7 * MS})
    t.feed({"proc": "c1", "event": "keepalive", "t_ns": 9 * MS})        # the session-start reply, after the grant
    assert fired == []
    t.feed({"proc": "c1", "event": "keepalive", "t_ns": 3500 * MS})
    assert fired == [3500 * MS]


def test_an_extension_before_the_grant_fires_the_trigger_at_the_grant_and_replies_are_ordered_by_time():
    fired = []
    t = triggers.KeepaliveTrigger("c1", 1, fired.append)
    t.feed({"proc": "c1", "event": "keepalive", "t_ns": 5 * MS})
    t.feed({"proc": "c1", "event": "keepalive", "t_ns": 3500 * MS})     # a slow Lock: an extension before it returned
    assert fired == []                                                    # not holding yet
    t.feed({"proc": "c1", "event": "grant", "t_ns": 3600 * MS})
    assert fired == [3500 * MS]
    late = []
    t = triggers.KeepaliveTrigger("c1", 1, late.append)
    t.feed({"proc": "c1", "event": "keepalive", "t_ns": 5 * MS})
    t.feed({"proc": "c1", "event": "keepalive", "t_ns": 3509 * MS})     # written before the grant record...
    t.feed({"proc": "c1", "event": "grant", "t_ns": 3507 * MS})         # ...whose Lock returned first
    assert late == [3509 * MS]


def test_a_scenario_variant_is_laid_over_the_base(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(textwrap.dedent("""
        [scenario]
        name = "s"
        run_for = "20s"
        [lock]
        protocol = "etcd"
        ttl = "10s"
        [client.c1]
        steps = ["read", "work 8s"]
        [client.c2]
        start = "500ms"
        [fault.jump]
        kind = "clock-jump"
        target = "s1"
        at = "c1 extended"
        after = "500ms"
        by = "15s"
        [variant.back]
        fault.jump.by = "-5s"
        resource.policy = "fencing"
        [variant.newer]
        lock.preset = "etcd-3.5.33"
        """))
    base = scenario.load(str(path))
    back = scenario.load(str(path), "back")
    assert base.ttl_s == 10 and base.client("c2").start_ns == 500 * MS and base.policy == "none"
    assert back.faults["jump"]["by"] == "-5s" and back.faults["jump"]["after"] == "500ms" and back.policy == "fencing"
    assert scenario.duration_ns(back.faults["jump"]["by"]) == -5000 * MS
    assert scenario.variants(str(path)) == ["base", "back", "newer"]


def sim_trace():
    """A hand-written locksim trace: c1 holds, renews twice, is cut off; c2 takes over."""
    S = 1000 * MS
    return [
        {"t": 52 * MS, "type": "store-session", "client": "c1", "event": "opened", "ttl_ns": 10 * S},
        {"t": 6004 * MS, "type": "store-session", "client": "c2", "event": "opened", "ttl_ns": 10 * S},
        {"t": 408 * MS, "type": "grant", "session": 1, "client": "c1", "value": "v1"},
        {"t": 409 * MS, "type": "op", "session": 1, "client": "c1", "op": "write", "accepted": True},
        {"t": 16900 * MS, "type": "op", "session": 1, "client": "c1", "op": "write", "accepted": True},
        {"t": 16932 * MS, "type": "belief-end", "session": 1, "client": "c1", "reason": "validity-check"},
        {"t": 16932 * MS, "type": "release", "session": 1, "client": "c1"},
        {"t": 17002 * MS, "type": "key-dropped", "node": "s1", "value": "v1", "reason": "expired"},
        {"t": 17011 * MS, "type": "grant", "session": 2, "client": "c2", "value": "v2"},
        {"t": 17015 * MS, "type": "belief-end", "session": 2, "client": "c2", "reason": "released"},
        {"t": 30 * S, "type": "promise", "at": 408 * MS, "session": 1, "client": "c1", "promised_end": 10102 * MS, "from": "grant"},
        {"t": 30 * S, "type": "promise", "at": 3535 * MS, "session": 1, "client": "c1", "promised_end": 13535 * MS, "from": "extend"},
        {"t": 30 * S, "type": "promise", "at": 6868 * MS, "session": 1, "client": "c1", "promised_end": 16868 * MS, "from": "extend"},
        {"t": 30 * S, "type": "promise", "at": 17011 * MS, "session": 2, "client": "c2", "promised_end": 26006 * MS, "from": "grant"},
    ]


def test_a_locksim_trace_becomes_the_same_facts_and_magnitudes():
    f = facts.from_sim(sim_trace())
    c1 = f.get("c1")
    assert c1.last_renewal() == 6868 * MS and c1.key_deleted_ns == 17002 * MS and c1.release_ns == 16932 * MS
    m = magnitudes.measure(f, experiments.PartitionedHolder.magnitudes, {"holder": "c1", "waiter": "c2"})
    assert m["waiter_grant_after_holder_last_renewal"] == (17011 - 6868) * MS
    assert m["waiter_grant_after_promise_end"] == (17011 - 16868) * MS
    assert m["holder_key_deleted_after_promise_end"] == (17002 - 16868) * MS
    assert m["holder_belief_end_after_last_renewal"] == (16932 - 6868) * MS
    assert m["holder_belief_end_after_promise_end"] == (16932 - 16868) * MS
    assert m["holder_last_write_after_waiter_grant"] == (16900 - 17011) * MS
    assert m["belief_overlap"] == (16932 - 17011) * MS
    assert m["holder_done_after_last_renewal"] is None       # locksim records no Done()


def test_a_simulated_holder_frozen_before_its_first_keepalive_has_no_reply_and_the_first_timeouts_deadline():
    trace = [r for r in sim_trace() if not (r["type"] == "promise" and r.get("from") == "extend")]
    trace = [dict(r, promised_end=5005 * MS) if r["type"] == "promise" and r["session"] == 1 else r for r in trace]
    c1 = facts.from_sim(trace).get("c1")
    assert c1.last_renewal() is None and c1.promise_end(17000 * MS) == 5005 * MS
    m = magnitudes.measure(facts.from_sim(trace), ["waiter_grant_after_holder_last_renewal",
                                                    "waiter_grant_after_promise_end"], {"holder": "c1", "waiter": "c2"})
    assert m == {"waiter_grant_after_holder_last_renewal": None,
                 "waiter_grant_after_promise_end": (17011 - 5005) * MS}


def rep(p2, p4="holds", valid=True):
    statuses = {"grant-exclusive": "holds", "belief-exclusive": p2, "resource-exclusive": "holds",
                "resource-current": p4, "invariant": "holds"}
    return {"valid": valid, "problems": [], "verdicts": {k: {"status": v, "witness": None} for k, v in statuses.items()},
            "magnitudes": {m: 1 for m in experiments.PartitionedHolder.magnitudes}}


def seed(p2):
    return {"verdicts": {"grant-exclusive": "holds", "belief-exclusive": p2, "resource-exclusive": "holds",
                         "resource-current": "holds", "invariant": "holds"},
            "magnitudes": {m: 2 for m in experiments.PartitionedHolder.magnitudes}, "command": "locksim run x"}


def test_one_violating_rep_makes_the_verdict_violated_and_a_sim_that_never_violates_disagrees():
    exp = experiments.PartitionedHolder()
    r = compare.compare_one(exp, "base", [rep("holds"), rep("violated"), rep("holds")], [seed("holds")] * 4, None)
    p2 = next(p for p in r["properties"] if p["property"] == "belief-exclusive")
    assert p2["real"] == "violated" and p2["real_violated"] == 1 and p2["sim"] == "holds" and p2["agree"] is False
    assert compare.summarise([r])[0] == 1
    agree = compare.compare_one(exp, "base", [rep("violated")], [seed("holds"), seed("violated")], None)
    assert compare.summarise([agree])[0] == 0


def test_an_undecided_real_verdict_is_not_compared_and_an_invalid_rep_does_not_count():
    exp = experiments.PartitionedHolder()
    r = compare.compare_one(exp, "base", [rep("holds", p4="unknown"), rep("violated", valid=False)],
                            [seed("holds")], None)
    p4 = next(p for p in r["properties"] if p["property"] == "resource-current")
    p2 = next(p for p in r["properties"] if p["property"] == "belief-exclusive")
    assert p4["real"] == "unknown" and p4["agree"] is None
    assert p2["real"] == "holds" and p2["real_runs"] == 1 and p2["agree"] is True
    missing = compare.compare_one(exp, "gone", [rep("holds")], None, "unknown variant")
    assert compare.summarise([missing])[0] == 2 and compare.summarise([r, missing])[0] == 2
