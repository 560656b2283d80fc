"""A stepped server clock is mapped back onto the common clock, and a client clock step moves promised ends."""
from realredis.keyevents import KeyTracker
from realredis.timed_faults import correct_promised_ends
from realredis.wall_steps import WallSteps

S = 1_000_000_000
MS = 1_000_000
BASE = 1_700_000_000 * S     # the machine's wall clock at common t = 0


def test_no_step_is_the_machine_clock():
    w = WallSteps(lambda: BASE)
    assert w.to_common(BASE + 3 * S, 0) == 3 * S
    assert w.first_reach(BASE + 3 * S) == 3 * S


def test_forward_step_expires_a_key_at_the_step_and_maps_later_commands_back():
    # fencing-token-taken-late: SET PX 10 s at 1 ms, +15 s at 1 s, next SET at 1.5 s.
    w = WallSteps(lambda: BASE)
    w.step(1 * S, 15 * S)
    assert w.to_common(BASE + 1 * MS, 0) == 1 * MS
    assert w.to_common(BASE + 16 * S + 500 * MS, 1 * MS) == 1500 * MS
    assert w.first_reach(BASE + 10 * S + 1 * MS) == 1 * S        # the key's expiry: reached at the step
    assert w.first_reach(BASE + 20 * S) == 5 * S                 # a later one: on the stepped clock
    # A reading the step jumped over (a command racing the store) lands at the step.
    assert w.to_common(BASE + 5 * S, 1 * S) == 1 * S


def test_backward_step_reading_seen_twice_takes_the_first_not_before_the_previous_event():
    w = WallSteps(lambda: BASE)
    w.step(6 * S, -10 * S)
    assert w.to_common(BASE + 3 * S, 0) == 3 * S                 # before the step
    assert w.to_common(BASE + 3 * S, 6 * S) == 13 * S            # the same reading after it
    assert w.first_reach(BASE + 5 * S) == 5 * S


def test_tracker_on_the_shifted_clock_and_mapping_together():
    # Redis compares expiry with its own (shifted) clock: the tracker is fed shifted readings.
    w = WallSteps(lambda: BASE)
    events = []

    def emit(kind, wall, fields):
        t = w.first_reach(wall) if fields.get("reason") == "expired" else w.to_common(wall, 0)
        events.append((kind, t, fields["value"]))
    tr = KeyTracker("lock", emit)
    tr.command(BASE + 1 * MS, ["set", "lock", "a", "NX", "PX", "10000"])
    w.step(1 * S, 15 * S)
    tr.command(BASE + 16 * S + 500 * MS, ["set", "lock", "b", "NX", "PX", "10000"])
    assert events == [("key-held", 1 * MS, "a"), ("key-dropped", 1 * S, "a"), ("key-held", 1500 * MS, "b")]
    assert tr.exact


def test_setnx_takes_the_key_without_expiry_and_expire_gives_it_one():
    events = []
    tr = KeyTracker("lock", lambda kind, t, f: events.append((kind, t, f["value"], f.get("reason"))))
    tr.command(0, ["setnx", "lock", "a"])
    tr.command(1, ["setnx", "lock", "b"])                        # refused: held
    tr.finish(100 * S)
    assert events == [("key-held", 0, "a", None)]                # no TTL: held to the end
    tr.command(100 * S, ["expire", "lock", "10"])
    tr.finish(111 * S)
    assert events[-1] == ("key-dropped", 110 * S, "a", "expired")


def test_client_clock_step_after_a_grant_moves_its_promised_end():
    grant = {"type": "grant", "p": "c1", "t": 1 * S, "promised_end": 10 * S, "promised_end_latest": 10 * S + MS}
    before = {"type": "grant", "p": "c1", "t": 7 * S, "promised_end": 15 * S}
    other = {"type": "grant", "p": "c2", "t": 1 * S, "promised_end": 10 * S}
    correct_promised_ends([grant, before, other], {"c1": [(6 * S, -10 * S)]})
    assert grant["promised_end"] == 20 * S and grant["promised_end_latest"] == 20 * S + MS   # back 10 s: later
    assert before["promised_end"] == 15 * S          # granted after the step: read the stepped clock already
    assert other["promised_end"] == 10 * S
    forward = {"type": "grant", "p": "c1", "t": 1 * S, "promised_end": 10 * S}
    correct_promised_ends([forward], {"c1": [(6 * S, 15 * S)]})
    assert forward["promised_end"] == 6 * S          # forward past the end: over at the step
