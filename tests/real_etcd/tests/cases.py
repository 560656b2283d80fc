"""The hand-written runs the tests judge: each a function that returns one run's records.

test_judge.py asserts judge.py's verdict on each; test_history.py turns
each into a history and has `locksim check` judge it too. A case's name
says the story; the times are seconds from t0.
"""
from records import Story


def clean_handover(clients=("c1", "c2")):
    """c1 holds 0–5 s and unlocks; c2, waiting, gets the lock; the ladder ticks every 100 ms."""
    st = Story(clients=clients)
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


def p1_grant_inside_the_promised_window():
    st = Story()
    st.lease("c1", 0.0)
    st.grant("c1", 0.01)
    st.keepalive("c1", 3.4)       # c1's deadline: 13.4 s
    st.lease("c2", 1.0)
    st.grant("c2", 12.0)          # the server let c1 go early (or c2's recipe skipped a check)
    st.check_failed("c1", 14.0)
    return st.end(20)


def p1_grant_at(grant_s):
    """c1's window is its reply at 5 ms + 10 s; c2 is granted at grant_s."""
    st = Story()
    st.lease("c1", 0.0)
    st.keepalive("c1", 0.005)
    st.grant("c1", 0.01)
    st.lease("c2", 1.0)
    st.grant("c2", grant_s)
    return st.end(20)


def p1_grant_at_the_release():
    st = Story()
    st.lease("c1", 0.0)
    st.grant("c1", 0.01)
    st.unlock("c1", 4.0)
    st.lease("c2", 1.0)
    st.grant("c2", 4.0)
    return st.end(20)


def p2_a_pause_ends_nothing():
    st = Story()
    st.lease("c1", 0.0)
    st.grant("c1", 0.01)          # then frozen: no check, no unlock until 15 s
    st.lease("c2", 1.0)
    st.grant("c2", 10.6)
    st.unlock("c2", 10.7)
    st.unlock("c1", 15.1)
    return st.end(20)


def p2_done_closed_ends_the_belief():
    st = Story()
    st.lease("c1", 0.0)
    st.grant("c1", 0.01)
    st.check_failed("c1", 10.2)
    st.lease("c2", 1.0)
    st.grant("c2", 10.5)
    st.unlock("c2", 10.6)
    return st.end(20)


def p2_killed_holder():
    st = Story()
    st.lease("c1", 0.0)
    st.grant("c1", 0.01)
    st.kill("c1", 3.5)
    st.lease("c2", 1.0)
    st.grant("c2", 13.8)
    return st.end(20)


def p2_holder_that_never_checks():
    st = Story()
    st.lease("c1", 0.0)
    st.grant("c1", 0.01)
    st.lease("c2", 1.0)
    st.grant("c2", 13.8)
    return st.end(20)


def p3_x_y_x():
    st = clean_handover()
    st.op("c1", "write", 5.25)    # c1 again after c2's ops: X, Y, X
    return st.end(8)


def p3_y_then_x():
    st = Story()
    st.lease("c1", 0.0)
    st.lease("c2", 1.0)
    st.grant("c1", 0.01)
    st.grant("c2", 10.5)
    st.op("c2", "write", 10.6)
    st.op("c1", "write", 15.0)   # Y then X: nothing of X was cut in two
    return st.end(20)


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
    return st.end(20)


def p4_without_a_ladder():
    st = Story()
    st.lease("c1", 0.0)
    st.put("c1", 0.002)
    st.grant("c1", 0.003)
    st.lease("c2", 6.0)
    st.put("c2", 6.002)
    st.delete("c1", 10.52)
    st.op("c1", "read", 7.0)      # after c2 asked for the lock, before the deletion's arrival: the records cannot say
    st.op("c1", "read", 11.0)
    return st.end(20)


def p4_a_waiters_op():
    st = clean_handover()
    st.op("c2", "write", 2.0)     # c2 waits behind c1's lower revision
    return st.end(8)


def p5_lost_update():
    st = Story()
    st.lease("c1", 0.0)
    st.lease("c2", 1.0)
    st.grant("c1", 0.01)
    st.op("c1", "read", 0.02)
    st.grant("c2", 10.5)
    st.op("c2", "read", 10.6)
    st.op("c2", "write", 10.7, value=1)
    st.op("c1", "write", 15.0, value=1)      # computed from its read of 0 before the pause
    return st.end(20)


def p5_no_app():
    st = Story(app="none")
    st.lease("c1", 0.0)
    st.grant("c1", 0.01)
    return st.end(5)


def unlock_right_after_ops(lease_alive):
    """c3 writes 1 ms before it unlocks, inside one ladder tick; the observer may have found its lease alive."""
    st = clean_handover(clients=("c1", "c2", "c3"))
    st.lease("c3", 5.3)
    st.put("c3", 5.31)
    st.grant("c3", 6.0)
    st.op("c3", "write", 6.050)
    st.add("c3", "unlock-invoke", 6.051, lease="cc", key=st.key("c3"))
    st.delete("c3", 6.053, commit_s=6.052)
    if lease_alive:
        st.add("observer", "lease-status", 6.054, lease="cc", alive=True, ttl_s=9)
    records = st.end(8)
    if lease_alive:
        rev = next(r["revision"] for r in records if r["event"] == "delete" and r["lease"] == "cc")
        next(r for r in records if r["event"] == "lease-status")["delete_revision"] = rev
    return records


# name -> records, every case above once (each P1 boundary on its own).
CASES = {
    "clean-handover": lambda: clean_handover().end(8),
    "p1-grant-inside-the-promised-window": p1_grant_inside_the_promised_window,
    "p1-grant-at-the-window-end": lambda: p1_grant_at(10.005),
    "p1-grant-a-nanosecond-before-the-window-end": lambda: p1_grant_at(10.004999999),
    "p1-grant-at-the-release": p1_grant_at_the_release,
    "p2-a-pause-ends-nothing": p2_a_pause_ends_nothing,
    "p2-done-closed-ends-the-belief": p2_done_closed_ends_the_belief,
    "p2-killed-holder": p2_killed_holder,
    "p2-holder-that-never-checks": p2_holder_that_never_checks,
    "p3-x-y-x": p3_x_y_x,
    "p3-y-then-x": p3_y_then_x,
    "p4-op-after-the-revocation": lambda: partitioned(10.6),
    "p4-op-before-the-revocation": lambda: partitioned(10.3),
    "p4-op-inside-the-commit-bounds": lambda: partitioned(10.505),
    "p4-without-a-ladder": p4_without_a_ladder,
    "p4-a-waiters-op": p4_a_waiters_op,
    "p5-lost-update": p5_lost_update,
    "p5-no-app": p5_no_app,
    "p4-unlock-the-lease-outlived": lambda: unlock_right_after_ops(lease_alive=True),
    "p4-unlock-without-the-lease-status": lambda: unlock_right_after_ops(lease_alive=False),
}
