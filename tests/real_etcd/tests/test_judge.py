"""The judge's five properties on hand-written records: each must come out violated where the story breaks it, holds where it does not, and unknown where the records cannot decide."""
from records import S, T0, Story

from referee import judge
from referee.facts import from_real


def verdicts(records):
    return {name: v.status for name, v in judge.judge(records).items()}


def clean_handover():
    """c1 holds 0–5 s and unlocks; c2, waiting, gets the lock; the ladder ticks every 100 ms."""
    st = Story()
    st.lease("c1", 0.000)
    st.lease("c2", 1.000)
    st.put("c1", 0.002)
    st.grant("c1", 0.003)
    st.keepalive("c1", 3.400)
    st.put("c2", 1.002)
    for i in range(1, 70):
        st.ladder(i * 0.1 - 0.001, i * 0.1 + 0.001)
    st.op("c1", "read", 1.0)
    st.op("c1", "write", 1.1)
    st.unlock("c1", 5.000, ok_at_s=5.003)
    st.delete("c1", 5.002)
    st.grant("c2", 5.004)
    st.op("c2", "read", 5.1)
    st.op("c2", "write", 5.2)
    st.unlock("c2", 5.3, ok_at_s=5.302)
    st.delete("c2", 5.301)
    return st


def test_a_clean_handover_holds_everything():
    assert verdicts(clean_handover().end(8)) == dict.fromkeys(
        ["grant-exclusive", "belief-exclusive", "resource-exclusive", "resource-current", "invariant"], "holds")


def test_p1_a_grant_inside_the_holders_promised_window_is_violated():
    st = Story()
    st.lease("c1", 0.0)
    st.grant("c1", 0.01)
    st.keepalive("c1", 3.4)       # c1's deadline: 13.4 s
    st.lease("c2", 1.0)
    st.grant("c2", 12.0)          # the server let c1 go early (or c2's recipe skipped a check)
    st.check_failed("c1", 14.0)
    v = judge.judge(st.end(20))["grant-exclusive"]
    assert v.status == "violated" and v.count == 1
    assert "c2 granted at 12.000s while c1's promised window ran to 13.400s" in v.witness


def test_p1_a_grant_at_the_window_end_or_at_the_release_is_allowed_and_a_nanosecond_before_is_not():
    for grant_s, status in ((10.005, "holds"), (10.004999999, "violated")):
        st = Story()
        st.lease("c1", 0.0)
        st.keepalive("c1", 0.005)     # c1's window: the reply + 10 s
        st.grant("c1", 0.01)
        st.lease("c2", 1.0)
        st.grant("c2", grant_s)
        assert judge.judge(st.end(20))["grant-exclusive"].status == status, grant_s
    released = Story()
    released.lease("c1", 0.0)
    released.grant("c1", 0.01)
    released.unlock("c1", 4.0)
    released.lease("c2", 1.0)
    released.grant("c2", 4.0)
    assert judge.judge(released.end(20))["grant-exclusive"].status == "holds"


def test_p2_overlapping_beliefs_are_violated_and_a_pause_ends_nothing():
    st = Story()
    st.lease("c1", 0.0)
    st.grant("c1", 0.01)          # then frozen: no check, no unlock until 15 s
    st.lease("c2", 1.0)
    st.grant("c2", 10.6)
    st.unlock("c2", 10.7)
    st.unlock("c1", 15.1)
    v = judge.judge(st.end(20))["belief-exclusive"]
    assert v.status == "violated" and v.count == 1
    assert "c2 began believing at 10.600s while c1 believed from 0.010s until 15.100s (released)" in v.witness


def test_p2_a_check_that_found_done_closed_ends_the_belief():
    st = Story()
    st.lease("c1", 0.0)
    st.grant("c1", 0.01)
    st.check_failed("c1", 10.2)
    st.lease("c2", 1.0)
    st.grant("c2", 10.5)
    st.unlock("c2", 10.6)
    assert judge.judge(st.end(20))["belief-exclusive"].status == "holds"


def test_p2_a_killed_holder_stops_believing_and_one_that_never_checks_believes_to_the_end():
    killed = Story()
    killed.lease("c1", 0.0)
    killed.grant("c1", 0.01)
    killed.kill("c1", 3.5)
    killed.lease("c2", 1.0)
    killed.grant("c2", 13.8)
    assert judge.judge(killed.end(20))["belief-exclusive"].status == "holds"
    silent = Story()
    silent.lease("c1", 0.0)
    silent.grant("c1", 0.01)
    silent.lease("c2", 1.0)
    silent.grant("c2", 13.8)
    assert judge.judge(silent.end(20))["belief-exclusive"].status == "violated"


def test_p3_x_y_x_is_violated_and_y_then_x_is_not():
    st = clean_handover()
    st.op("c1", "write", 5.25)    # c1 again after c2's ops: X, Y, X
    v = judge.judge(st.end(8))["resource-exclusive"]
    assert v.status == "violated" and v.count == 1 and "c1 write accepted at 5.250s resumed its session" in v.witness
    late_only = Story()
    late_only.lease("c1", 0.0)
    late_only.lease("c2", 1.0)
    late_only.grant("c1", 0.01)
    late_only.grant("c2", 10.5)
    late_only.op("c2", "write", 10.6)
    late_only.op("c1", "write", 15.0)   # Y then X: nothing of X was cut in two
    assert judge.judge(late_only.end(20))["resource-exclusive"].status == "holds"


def partitioned(op_at_s):
    """c1's key is revoked: the ladder puts it between 10.49 s and 10.51 s; c1 reads at op_at_s."""
    st = Story()
    st.lease("c1", 0.0)
    st.put("c1", 0.002)
    st.grant("c1", 0.003)
    st.lease("c2", 6.0)
    st.put("c2", 6.002)
    for i in range(1, 105):                       # ladder every 100 ms up to 10.4 s
        st.ladder(i * 0.1 - 0.005, i * 0.1 + 0.005)
    st.ladder(10.49, 10.495)                      # committed before the deletion: deletion ≥ 10.49 s
    st.delete("c1", 10.52, commit_s=10.499)       # the observer learns it at 10.52 s
    st.ladder(10.50, 10.51)                       # committed after it: deletion ≤ 10.51 s
    st.grant("c2", 10.53)
    st.op("c1", "read", op_at_s)
    return st


def test_p4_an_op_after_the_revocation_is_violated():
    v = judge.judge(partitioned(10.6).end(20))["resource-current"]
    assert v.status == "violated" and v.count == 1 and "while the holder was bb" in v.witness


def test_p4_an_op_before_the_revocation_holds():
    assert judge.judge(partitioned(10.3).end(20))["resource-current"].status == "holds"


def test_p4_an_op_inside_the_commit_bounds_is_unknown_never_guessed():
    v = judge.judge(partitioned(10.505).end(20))["resource-current"]
    assert v.status == "unknown" and v.count == 0 and v.unknown == 1


def test_p4_without_a_ladder_a_revocation_leaves_ops_since_the_last_known_commit_unknown():
    st = Story()
    st.lease("c1", 0.0)
    st.put("c1", 0.002)
    st.grant("c1", 0.003)
    st.lease("c2", 6.0)
    st.put("c2", 6.002)
    st.delete("c1", 10.52)
    st.op("c1", "read", 3.0)      # after c2's put, before the deletion's arrival: the records cannot say
    st.op("c1", "read", 11.0)
    v = judge.judge(st.end(20))["resource-current"]
    assert v.status == "violated" and v.count == 1 and v.unknown == 1


def test_p4_an_op_of_a_waiter_whose_key_is_not_the_lowest_is_violated():
    st = clean_handover()
    st.op("c2", "write", 2.0)     # c2 waits behind c1's lower revision
    assert judge.judge(st.end(8))["resource-current"].status == "violated"


def test_p5_a_lost_update_is_violated_and_no_app_holds():
    st = Story()
    st.lease("c1", 0.0)
    st.lease("c2", 1.0)
    st.grant("c1", 0.01)
    st.op("c1", "read", 0.02)
    st.grant("c2", 10.5)
    st.op("c2", "read", 10.6)
    st.op("c2", "write", 10.7, value=1)
    st.op("c1", "write", 15.0, value=1)      # computed from its read of 0 before the pause
    v = judge.judge(st.end(20))["invariant"]
    assert v.status == "violated" and "counter is 1 after 2 accepted writes: 1 update(s) lost" in v.witness
    none = Story(app="none")
    none.lease("c1", 0.0)
    none.grant("c1", 0.01)
    assert judge.judge(none.end(5))["invariant"].status == "holds"


def test_facts_promise_end_is_the_last_reply_so_far_plus_ttl_and_before_any_reply_the_first_timeout():
    st = Story()
    st.lease("c1", 0.0)
    st.grant("c1", 0.01)
    st.keepalive("c1", 3.4)
    st.keepalive("c1", 6.8)
    st.keepalive("c1", 9.0, ttl_s=0)   # a lease-gone reply extends nothing
    s = from_real(st.end(20)).get("c1")
    assert s.promise_end(T0 + 1 * S) == T0 + 6 * S
    assert s.promise_end(T0 + 5 * S) == T0 + 13_400_000_000
    assert s.promise_end(T0 + 19 * S) == T0 + 16_800_000_000
    assert s.last_renewal() == T0 + 6_800_000_000


def unlock_right_after_ops(lease_alive):
    """c2 writes 1 ms before it unlocks, inside one ladder tick; the observer may have found its lease alive."""
    st = clean_handover()
    st.lease("c3", 5.3)
    st.put("c3", 5.31)
    st.grant("c3", 6.0)
    st.op("c3", "write", 6.050)
    st.add("c3", "unlock-invoke", 6.051, lease="cc", key=st.key("c3"))
    st.delete("c3", 6.053, commit_s=6.052)
    if lease_alive:
        st.add("observer", "lease-status", 6.054, lease="cc", alive=True, ttl_s=9)
    return st


def test_p4_a_deletion_the_lease_outlived_was_the_unlock_and_bounds_the_commit_from_below():
    records = unlock_right_after_ops(lease_alive=True).end(8)
    rev = next(r["revision"] for r in records if r["event"] == "delete" and r["lease"] == "cc")
    next(r for r in records if r["event"] == "lease-status")["delete_revision"] = rev
    assert judge.judge(records)["resource-current"].status == "holds"


def test_p4_without_the_lease_status_the_same_op_is_unknown():
    v = judge.judge(unlock_right_after_ops(lease_alive=False).end(8))["resource-current"]
    assert v.status == "unknown" and v.unknown == 1
