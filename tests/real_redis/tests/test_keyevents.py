"""The lock key's events from a MONITOR feed, on hand-written feed lines."""
from realredis.keyevents import AMBIGUOUS_NS, KeyTracker, parse_monitor_line

S = 1_000_000_000
MS = 1_000_000


def _tracker():
    events = []
    return KeyTracker("lock", lambda kind, t, f: events.append((kind, t, f.get("value"), f.get("reason")))), events


def test_parse_monitor_lines():
    line = '+1732831234.123456 [0 lua] "set" "lock" "ab\\"c" "PX" "10000"'
    assert parse_monitor_line(line) == (1732831234_123456000, ["set", "lock", 'ab"c', "PX", "10000"])
    assert parse_monitor_line('+1.5 [0 127.0.0.1:5000] "del" "lock"') == (1_500_000_000, ["del", "lock"])
    assert parse_monitor_line("+OK") is None
    assert parse_monitor_line('+1.000001 [0 unix:/x] "get" "\\x41"') == (1_000_001_000, ["get", "A"])


def test_nx_set_holds_then_refused_then_expires_at_set_plus_px():
    tr, ev = _tracker()
    tr.command(0, ["set", "lock", "a", "NX", "PX", "10000"])
    tr.command(1 * S, ["SET", "lock", "b", "NX", "PX", "10000"])       # refused: held
    tr.command(11 * S, ["set", "lock", "b", "NX", "PX", "10000"])      # after the expiry
    assert ev == [("key-held", 0, "a", None), ("key-dropped", 10 * S, "a", "expired"),
                  ("key-held", 11 * S, "b", None)]
    assert tr.exact


def test_redlock_set_without_nx_and_delete_and_other_keys():
    tr, ev = _tracker()
    tr.command(0, ["exists", "lock"])
    tr.command(1, ["set", "lock", "a", "PX", "10000"])
    tr.command(2, ["set", "lock:fencing-token", "x"])                 # another key: ignored
    tr.command(3, ["set", "lock", "b", "PX", "10000"])                # overwrites (an extension by another value)
    tr.command(4, ["get", "lock"])
    tr.command(5, ["del", "lock"])
    tr.command(6, ["del", "lock"])                                    # nothing held: nothing dropped
    assert ev == [("key-held", 1, "a", None), ("key-dropped", 3, "a", "overwritten"), ("key-held", 3, "b", None),
                  ("key-dropped", 5, "b", "deleted")]


def test_pexpire_moves_the_expiry_and_finish_records_due_expiries():
    tr, ev = _tracker()
    tr.command(0, ["set", "lock", "a", "PX", "1000"])
    tr.command(500 * MS, ["pexpire", "lock", "2000"])
    tr.finish(2 * S)
    assert ev[-1] == ("key-held", 0, "a", None)                       # not yet: expires at 2.5 s
    tr.finish(3 * S)
    assert ev[-1] == ("key-dropped", 2500 * MS, "a", "expired")


def test_crash_loses_the_key():
    tr, ev = _tracker()
    tr.command(0, ["set", "lock", "a", "PX", "10000"])
    tr.crash(S)
    assert ev[-1] == ("key-dropped", S, "a", "lost-in-crash")
    tr.crash(2 * S)
    assert len(ev) == 2


def test_an_nx_set_at_the_expiry_instant_is_not_guessed():
    tr, _ = _tracker()
    tr.command(0, ["set", "lock", "a", "NX", "PX", "10000"])
    tr.command(10 * S - AMBIGUOUS_NS // 2, ["set", "lock", "b", "NX", "PX", "10000"])
    assert not tr.exact and tr.ambiguities
    tr2, _ = _tracker()
    tr2.command(0, ["set", "lock", "a", "NX", "PX", "10000"])
    tr2.command(10 * S + AMBIGUOUS_NS // 2, ["set", "lock", "b", "NX", "PX", "10000"])
    assert not tr2.exact
