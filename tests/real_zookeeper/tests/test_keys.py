"""The lock's owner changes from hand-made observer records (realzk/keys.py; no servers, no JVM):
the listings and the zxid ladder bound each change, the clients' records narrow it where sound,
and anything the records cannot bound consistently leaves the keys out (recorded false). Then
whole histories with those key events, judged by `locksim check` (LOCKSIM_BIN): P4 is what the
records imply."""
import json
import os

import pytest
from realredis import history, judged
from realzk import keys
from realzk.runner import Repetition
from test_history import _story

Z = 0x1_0000_0000     # the first zxid of epoch 1
MS = 1_000_000
A = "_c_aaaa-lock-0000000000"
B = "_c_bbbb-lock-0000000001"
C = "_c_cccc-lock-0000000003"
PATH = "/locksim/lock"


def _kid(name, czxid, owner):
    return {"name": name, "czxid": czxid, "owner": owner}


def _listing(t, pzxid, cversion, kids):
    return {"t": t, "type": "children", "sent": t - MS, "pzxid": pzxid, "cversion": cversion, "children": kids}


def _ladder(zxid, sent, replied):
    return {"t": replied, "type": "ladder", "sent": sent, "zxid": zxid}


def _frame(*records):
    """An observer's lines around the records: connected, ready, an empty first listing, a final one."""
    head = [{"t": -2000 * MS, "type": "session", "state": "SyncConnected"}, {"t": -1999 * MS, "type": "ready"},
            _listing(-1998 * MS, Z + 1, 0, [])]
    return head + list(records) + [{"t": 30_000 * MS, "type": "final"}]


def test_a_creation_is_bounded_by_the_ladder_steps_around_its_czxid():
    obs = _frame(_ladder(Z + 9, 100 * MS, 101 * MS), _listing(140 * MS, Z + 10, 1, [_kid(A, Z + 10, "a1")]),
                 _ladder(Z + 11, 150 * MS, 160 * MS))
    events, why = keys.key_events(obs, [], PATH, "lock", "s1")
    assert why is None
    [held] = events
    assert (held["type"], held["value"], held["t"], held["t_latest"], held["change"]) == \
        ("key-held", f"{PATH}/{A}", 100 * MS, 160 * MS, 1)


def test_a_deletion_among_other_changes_keeps_the_whole_listing_interval():
    # Between the two listings: A (the owner) went, a node came and went unseen (cversion moved
    # 4 for 2 changes seen) and C came. B was there throughout, so B owns after A, at a zxid
    # somewhere in (Z+20, Z+24): not Z+25, C's own creation and the last change.
    obs = _frame(_ladder(Z + 5, 50 * MS, 51 * MS),
                 _listing(100 * MS, Z + 20, 2, [_kid(A, Z + 10, "a1"), _kid(B, Z + 20, "b2")]),
                 _ladder(Z + 15, 200 * MS, 210 * MS), _ladder(Z + 21, 300 * MS, 310 * MS),
                 _ladder(Z + 24, 400 * MS, 410 * MS), _ladder(Z + 26, 500 * MS, 510 * MS),
                 _listing(600 * MS, Z + 25, 6, [_kid(B, Z + 20, "b2"), _kid(C, Z + 25, "c3")]))
    changes = keys.owner_changes([r for r in obs if r["type"] == "children"])
    assert changes[-1] == (Z + 21, Z + 24, A, B)
    events, why = keys.key_events(obs, [], PATH, "lock", "s1")
    assert why is None
    dropped, held = events[-2:]
    assert (dropped["value"], held["value"]) == (f"{PATH}/{A}", f"{PATH}/{B}")
    # After the step below Z+21 was sent, before the step above Z+24 replied.
    assert (held["t"], held["t_latest"]) == (200 * MS, 510 * MS) and dropped["reason"] == "expired"


def test_a_lone_deletion_is_exactly_the_new_pzxid():
    a, b = _listing(100 * MS, Z + 20, 2, [_kid(A, Z + 10, "a1"), _kid(B, Z + 20, "b2")]), \
        _listing(600 * MS, Z + 30, 3, [_kid(B, Z + 20, "b2")])
    assert keys._interval(a, b, {}) == [(Z + 30, Z + 30, A, B)]


def test_two_nodes_that_may_each_have_owned_leave_the_keys_out():
    obs = _frame(_listing(100 * MS, Z + 20, 2, [_kid(A, Z + 10, "a1"), _kid(B, Z + 20, "b2")]),
                 _listing(600 * MS, Z + 30, 4, []))
    events, why = keys.key_events(obs, [], PATH, "lock", "s1")
    assert events == [] and "either may have owned" in why


def test_a_broken_watch_leaves_the_keys_out():
    obs = _frame(_listing(140 * MS, Z + 10, 1, [_kid(A, Z + 10, "a1")]),
                 {"t": 200 * MS, "type": "watch-broken", "error": "KeeperException$ConnectionLossException"})
    events, why = keys.key_events(obs, [], PATH, "lock", "s1")
    assert events == [] and "watch broke" in why
    disconnected = _frame({"t": 200 * MS, "type": "session", "state": "Disconnected"})
    assert "Disconnected" in keys.key_events(disconnected, [], PATH, "lock", "s1")[1]
    assert "final listing" in keys.key_events(_frame()[:-1], [], PATH, "lock", "s1")[1]


def test_bounds_that_contradict_each_other_leave_the_keys_out():
    # The step below the creation was sent after the step above it replied: lo > hi.
    obs = _frame(_ladder(Z + 9, 300 * MS, 301 * MS), _listing(140 * MS, Z + 10, 1, [_kid(A, Z + 10, "a1")]),
                 _ladder(Z + 11, 150 * MS, 160 * MS))
    events, why = keys.key_events(obs, [], PATH, "lock", "s1")
    assert events == [] and "not bounded consistently" in why


def test_no_ladder_step_below_leaves_the_keys_out():
    obs = _frame(_listing(140 * MS, Z + 10, 1, [_kid(A, Z + 10, "a1")]), _ladder(Z + 11, 150 * MS, 160 * MS))
    assert "not bounded consistently" in keys.key_events(obs, [], PATH, "lock", "s1")[1]


# --- whole histories: c1 holds A, is frozen, its session expires, c2 (B) takes over and releases ---

def _client(t, p, type_, **fields):
    return {"t": t, "p": p, "local": t, "type": type_, **fields}


def _grant(t, p, session, node, validity):
    return _client(t, p, "grant", session=session, value=f"{PATH}/{node}", token=-1, validity_ns=validity,
                   clock="monotonic", lease_end_local=t + validity, promised_end=t + validity)


def _clients():
    return [_client(0, "c1", "want"), _client(10 * MS, "c1", "invoke", op=1, kind="acquire"),
            _client(20 * MS, "c1", "complete", op=1, kind="acquire", outcome="ok"),
            _grant(20 * MS, "c1", "c1-1", A, 6000 * MS),
            _client(100 * MS, "c2", "want"), _client(100 * MS, "c2", "invoke", op=1, kind="acquire"),
            _client(10_060 * MS, "c2", "complete", op=1, kind="acquire", outcome="ok"),
            _grant(10_060 * MS, "c2", "c2-1", B, 6000 * MS),
            _client(10_100 * MS, "c2", "release", session="c2-1"),
            _client(10_100 * MS, "c2", "belief-end", session="c2-1", reason="released"),
            _client(10_100 * MS, "c2", "invoke", op=2, kind="release"),
            _client(10_110 * MS, "c2", "complete", op=2, kind="release", outcome="ok"),
            _client(15_010 * MS, "c1", "belief-end", session="c1-1", reason="validity-check")]


def _observed():
    return _frame(_ladder(Z + 9, 0, 1 * MS), _listing(12 * MS, Z + 10, 1, [_kid(A, Z + 10, "a1")]),
                  _ladder(Z + 11, 30 * MS, 31 * MS),
                  _listing(101 * MS, Z + 20, 2, [_kid(A, Z + 10, "a1"), _kid(B, Z + 20, "b2")]),
                  _ladder(Z + 29, 10_000 * MS, 10_001 * MS), _ladder(Z + 31, 10_040 * MS, 10_050 * MS),
                  _listing(10_051 * MS, Z + 30, 3, [_kid(B, Z + 20, "b2")]),
                  _ladder(Z + 39, 10_090 * MS, 10_091 * MS), _ladder(Z + 41, 10_150 * MS, 10_200 * MS),
                  _listing(10_150 * MS, Z + 40, 4, []), _listing(29_000 * MS, Z + 40, 4, []))


class _Resource:
    def __init__(self, writes):
        self.records, n = [], 0
        for t, client in writes:
            n += 1
            self.records += [{"t": t, "p": "storage", "local": t, "type": "op", "session": f"{client}-1",
                              "client": client, "op": "write", "accepted": True, "reject": "none", "token": -1},
                             {"t": t, "p": "storage", "local": t, "type": "app", "app": "counter", "counter": n,
                              "increments": n, "elements": 0, "size": 0, "stock": 0, "quiescent": False}]
        self.records.append({"t": 20_000 * MS, "p": "storage", "local": 20_000 * MS, "type": "app",
                             "app": "counter", "counter": n, "increments": n, "elements": 0, "size": 0,
                             "stock": 0, "quiescent": True})


def _judge(tmp_path, writes) -> tuple[dict, list[dict]]:
    rep = Repetition(_story(), 1, "unused")
    rep.t0, rep.leader = 0, "s2"
    rep.records, rep.observed = _clients(), _observed()
    rep.handles = [_client(10_110 * MS, "c2", "zk-session", after="release", id="b2")]
    out = tmp_path / "h.jsonl"
    result = rep._write(str(out), _Resource(writes), str(tmp_path))
    assert result["errors"] == [] and result["keys_left_out"] is None
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    return judged.check(os.environ["LOCKSIM_BIN"], str(out)), lines


needs_locksim = pytest.mark.skipif(not os.environ.get("LOCKSIM_BIN"), reason="LOCKSIM_BIN names no locksim")


@needs_locksim
def test_the_history_records_the_owner_changes_with_their_bounds(tmp_path):
    _, lines = _judge(tmp_path, [])
    assert history.validate(lines) == []
    assert lines[0]["service"] == {"nodes": ["s1", "s2", "s3"], "quorum": 1, "key": "lock",
                                   "masters": ["s2", None, "s2"], "recorded": True, "replicated_state": True}
    changes = [(x["change"], x["type"], x["value"][-1], x["t"] // MS, x["t_latest"] // MS, x.get("reason"))
               for x in lines if "change" in x]
    # A: after c1's acquire, before its grant. A -> B at its ladder steps (Z+30 is exact), before
    # c2's grant. B's release: after its invoke (it returned on B's own session), before it returned.
    assert changes == [(1, "key-held", "0", 10, 20, None),
                       (2, "key-dropped", "0", 10_000, 10_050, "expired"), (2, "key-held", "1", 10_000, 10_050, None),
                       (3, "key-dropped", "1", 10_100, 10_110, "deleted")]


@needs_locksim
def test_a_late_write_after_the_expiry_violates_p4(tmp_path):
    checked, _ = _judge(tmp_path, [(50 * MS, "c1"), (10_070 * MS, "c2"), (15_000 * MS, "c1")])
    assert checked["verdicts"]["resource-current"] == "violated"


@needs_locksim
def test_writes_inside_ownership_hold_p4(tmp_path):
    checked, _ = _judge(tmp_path, [(50 * MS, "c1"), (9_000 * MS, "c1"), (10_070 * MS, "c2")])
    assert checked["verdicts"]["resource-current"] == "holds"


@needs_locksim
def test_a_write_inside_a_changes_range_leaves_p4_unknown(tmp_path):
    checked, _ = _judge(tmp_path, [(50 * MS, "c1"), (10_020 * MS, "c1")])
    assert checked["verdicts"]["resource-current"] == "unknown"


def test_listings_printed_out_of_order_are_taken_in_cversion_order():
    # The shutdown hook's final listing can print before the lister's last one.
    obs = _frame(_ladder(Z + 9, 100 * MS, 101 * MS), _listing(300 * MS, Z + 12, 2, []),
                 _listing(140 * MS, Z + 10, 1, [_kid(A, Z + 10, "a1")]), _ladder(Z + 11, 150 * MS, 160 * MS),
                 _ladder(Z + 13, 400 * MS, 410 * MS))
    events, why = keys.key_events(obs, [], PATH, "lock", "s1")
    assert why is None and [(e["type"], e["change"]) for e in events] == [("key-held", 1), ("key-dropped", 2)]


def test_two_owners_gone_between_listings_pass_in_sequence_when_both_were_granted():
    # A expired and B, granted at once, released before the observer listed again: B's grant says
    # B owned, so A -> B -> none, both within the listings' zxid range, in that order.
    a, b = _listing(100 * MS, Z + 20, 2, [_kid(A, Z + 10, "a1"), _kid(B, Z + 20, "b2")]), \
        _listing(600 * MS, Z + 30, 4, [])
    assert keys._interval(a, b, {}, {A, B}) == [(Z + 21, Z + 30, A, B), (Z + 21, Z + 30, B, None)]
    with pytest.raises(keys.NotBounded):
        keys._interval(a, b, {}, {A})


def test_a_ladder_steps_read_of_pzxid_bounds_a_change_the_listings_merged():
    # A and B went between listings 10 s apart: by the listings alone, anywhere in (Z+20, Z+40].
    # The step at Z+25 still read pzxid Z+20 (both changes are above Z+25); the step at Z+41 read
    # Z+40 (both had committed by its read).
    obs = _frame(_ladder(Z + 5, 50 * MS, 51 * MS),
                 _listing(100 * MS, Z + 20, 2, [_kid(A, Z + 10, "a1"), _kid(B, Z + 20, "b2")]),
                 {**_ladder(Z + 25, 9_000 * MS, 9_001 * MS), "pzxid": Z + 20, "read": 9_002 * MS},
                 {**_ladder(Z + 41, 9_500 * MS, 9_501 * MS), "pzxid": Z + 40, "read": 9_502 * MS},
                 _listing(10_100 * MS, Z + 40, 4, []))
    clients = [_client(90 * MS, "c2", "invoke", op=1, kind="acquire"), _grant(9_200 * MS, "c2", "c2-1", B, MS)]
    events, why = keys.key_events(obs, clients, PATH, "lock", "s1")
    assert why is None
    spans = [(e["change"], e["type"], e["t"] // MS, e["t_latest"] // MS) for e in events]
    # A -> B: after the Z+25 step was sent, before B's grant; B -> none: before the Z+41 step replied
    # (its read at 9.502 s is later).
    assert spans[1:] == [(2, "key-dropped", 9_000, 9_200), (2, "key-held", 9_000, 9_200),
                         (3, "key-dropped", 9_000, 9_501)]
