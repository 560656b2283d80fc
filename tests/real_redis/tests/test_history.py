"""Writing and checking histories, on hand-made records (pure functions)."""
from realredis import history


def _header(recorded=True):
    return history.header(source="test", processes=[{"name": "c1", "kind": "client", "clock": "wall"},
                                                    {"name": "c2", "kind": "client", "clock": "wall"},
                                                    {"name": "r1", "kind": "redis", "clock": "wall"},
                                                    {"name": "storage", "kind": "resource", "clock": "monotonic"}],
                          nodes=["r1"], key="lock", recorded=recorded, app="counter", faults=["gc"])


def _grant(t, p, session):
    return {"t": t, "p": p, "local": t, "type": "grant", "session": session, "value": "v" + session, "token": -1,
            "validity_ns": 10, "clock": "wall", "lease_end_local": t + 10, "promised_end": t + 10}


def test_header_quorum_is_a_majority():
    assert _header()["service"]["quorum"] == 1
    h = history.header(source="", processes=[], nodes=list("ABCDE"), key="lock", recorded=False, app="counter",
                       faults=[])
    assert h["service"]["quorum"] == 3 and h["service"]["recorded"] is False and h["service"]["masters"] == [None] * 5


def test_merge_sorts_by_t_stably_and_ends_once_last():
    records = [{"t": 5, "p": "c1", "local": 1, "type": "want"},
               {"t": 2, "p": "c2", "local": 2, "type": "want"},
               {"t": 5, "p": "c1", "local": 3, "type": "give-up"},
               {"t": 9, "p": "observer", "local": 9, "type": "end"}]
    lines = history.merge(_header(), records, end_t=3, end_local=3)
    assert [line.get("type") for line in lines[1:]] == ["want", "want", "give-up", "end"]
    assert [line["local"] for line in lines[1:4]] == [2, 1, 3]     # equal t keep their order
    assert lines[-1]["t"] == 5                                      # never before the last record
    assert history.validate(lines) == []


def test_a_good_history_validates():
    records = [{"t": 0, "p": "c1", "local": 0, "type": "want"},
               {"t": 1, "p": "c1", "local": 1, "type": "invoke", "op": 1, "kind": "acquire"},
               {"t": 2, "p": "r1", "local": 2, "type": "key-held", "key": "lock", "value": "vs1"},
               {"t": 3, "p": "c1", "local": 3, "type": "complete", "op": 1, "kind": "acquire", "outcome": "ok"},
               _grant(3, "c1", "s1"),
               {"t": 4, "p": "observer", "local": 4, "type": "fault", "fault": "pause", "target": "c1"},
               {"t": 4, "p": "observer", "local": 4, "type": "fault-fired", "fault": "gc", "took_effect": True},
               {"t": 5, "p": "storage", "local": 5, "type": "op", "session": "s1", "client": "c1", "op": "write",
                "accepted": True, "reject": "none", "token": -1},
               {"t": 5, "p": "storage", "local": 5, "type": "app", "app": "counter", "counter": 1, "increments": 1,
                "elements": 0, "size": 0, "stock": 0, "quiescent": False},
               {"t": 6, "p": "r1", "local": 6, "type": "key-dropped", "key": "lock", "value": "vs1",
                "reason": "expired"},
               {"t": 7, "p": "c1", "local": 7, "type": "belief-end", "session": "s1", "reason": "released"}]
    assert history.validate(history.merge(_header(), records, 8, 8)) == []


def test_validate_names_what_is_wrong():
    head = _header()
    bad = [head,
           {"t": 5, "p": "c1", "local": 5, "type": "want"},
           {"t": 4, "p": "c1", "local": 4, "type": "want"},                                   # out of order
           {"t": 6, "p": "c9", "local": 6, "type": "want"},                                   # unknown process
           {"t": 7, "p": "storage", "local": 7, "type": "op", "session": "s1", "client": "c1", "op": "read",
            "accepted": True, "reject": "none", "token": -1},                                 # before its grant
           {"t": 8, "p": "c1", "local": 8, "type": "complete", "op": 1, "kind": "acquire"},  # no outcome
           {"t": 9, "p": "r1", "local": 9, "type": "key-dropped", "key": "lock", "value": "v", "reason": "gone"},
           {"t": 9, "p": "observer", "local": 9, "type": "fault-fired", "fault": "other", "took_effect": True},
           {"t": 10, "p": "observer", "local": 10, "type": "end"},
           {"t": 11, "p": "c1", "local": 11, "type": "want"}]                                 # after end
    errors = "\n".join(history.validate(bad))
    for expected in ("before the previous", "'c9' is not in the header", "used before its grant",
                     "missing outcome", "reason 'gone'", "'other' is not in the header's faults",
                     "end is not the last line"):
        assert expected in errors, (expected, errors)


def test_a_session_granted_twice_is_refused():
    lines = history.merge(_header(), [_grant(1, "c1", "s1"), _grant(2, "c2", "s1")], 3, 3)
    assert any("granted twice" in e for e in history.validate(lines))


def test_bad_header_is_refused():
    head = dict(_header(), format="locksim-history/2")
    head["service"] = dict(head["service"], nodes=["r9"])
    errors = "\n".join(history.validate([head, {"t": 0, "p": "observer", "local": 0, "type": "end"}]))
    assert "format" in errors and "'r9' is not a process" in errors
