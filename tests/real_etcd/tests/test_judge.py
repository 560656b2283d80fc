"""The judge's five properties on hand-written records: each must come out violated where the story breaks it, holds where it does not, and unknown where the records cannot decide."""
import cases
from records import S, T0, Story

from referee import judge
from referee.facts import from_real


def verdicts(records):
    return {name: v.status for name, v in judge.judge(records).items()}


def test_a_clean_handover_holds_everything():
    assert verdicts(cases.clean_handover().end(8)) == dict.fromkeys(
        ["grant-exclusive", "belief-exclusive", "resource-exclusive", "resource-current", "invariant"], "holds")


def test_p1_a_grant_inside_the_holders_promised_window_is_violated():
    v = judge.judge(cases.p1_grant_inside_the_promised_window())["grant-exclusive"]
    assert v.status == "violated" and v.count == 1
    assert "c2 granted at 12.000s while c1's promised window ran to 13.400s" in v.witness


def test_p1_a_grant_at_the_window_end_or_at_the_release_is_allowed_and_a_nanosecond_before_is_not():
    for grant_s, status in ((10.005, "holds"), (10.004999999, "violated")):
        assert judge.judge(cases.p1_grant_at(grant_s))["grant-exclusive"].status == status, grant_s
    assert judge.judge(cases.p1_grant_at_the_release())["grant-exclusive"].status == "holds"


def test_p2_overlapping_beliefs_are_violated_and_a_pause_ends_nothing():
    v = judge.judge(cases.p2_a_pause_ends_nothing())["belief-exclusive"]
    assert v.status == "violated" and v.count == 1
    assert "c2 began believing at 10.600s while c1 believed from 0.010s until 15.100s (released)" in v.witness


def test_p2_a_check_that_found_done_closed_ends_the_belief():
    assert judge.judge(cases.p2_done_closed_ends_the_belief())["belief-exclusive"].status == "holds"


def test_p2_a_killed_holder_stops_believing_and_one_that_never_checks_believes_to_the_end():
    assert judge.judge(cases.p2_killed_holder())["belief-exclusive"].status == "holds"
    assert judge.judge(cases.p2_holder_that_never_checks())["belief-exclusive"].status == "violated"


def test_p3_x_y_x_is_violated_and_y_then_x_is_not():
    v = judge.judge(cases.p3_x_y_x())["resource-exclusive"]
    assert v.status == "violated" and v.count == 1 and "c1 write accepted at 5.250s resumed its session" in v.witness
    assert judge.judge(cases.p3_y_then_x())["resource-exclusive"].status == "holds"


def test_p4_an_op_after_the_revocation_is_violated():
    v = judge.judge(cases.partitioned(10.6))["resource-current"]
    assert v.status == "violated" and v.count == 1 and "while the holder was bb" in v.witness


def test_p4_an_op_before_the_revocation_holds():
    assert judge.judge(cases.partitioned(10.3))["resource-current"].status == "holds"


def test_p4_an_op_inside_the_commit_bounds_is_unknown_never_guessed():
    v = judge.judge(cases.partitioned(10.505))["resource-current"]
    assert v.status == "unknown" and v.count == 0 and v.unknown == 1


def test_p4_without_a_ladder_a_revocation_leaves_ops_since_the_last_known_commit_unknown():
    v = judge.judge(cases.p4_without_a_ladder())["resource-current"]
    assert v.status == "violated" and v.count == 1 and v.unknown == 1


def test_p4_an_op_of_a_waiter_whose_key_is_not_the_lowest_is_violated():
    assert judge.judge(cases.p4_a_waiters_op())["resource-current"].status == "violated"


def test_p5_a_lost_update_is_violated_and_no_app_holds():
    v = judge.judge(cases.p5_lost_update())["invariant"]
    assert v.status == "violated" and "counter is 1 after 2 accepted writes: 1 update(s) lost" in v.witness
    assert judge.judge(cases.p5_no_app())["invariant"].status == "holds"


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


def test_p4_a_deletion_the_lease_outlived_was_the_unlock_and_bounds_the_commit_from_below():
    assert judge.judge(cases.unlock_right_after_ops(lease_alive=True))["resource-current"].status == "holds"


def test_p4_without_the_lease_status_the_same_op_is_unknown():
    v = judge.judge(cases.unlock_right_after_ops(lease_alive=False))["resource-current"]
    assert v.status == "unknown" and v.unknown == 1
