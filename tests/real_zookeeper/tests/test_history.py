"""The real-ZooKeeper referee on hand-made records (no servers, no JVM): the
story's faults as the run makes them, the client's lines as the driver turns
them into history records, the history written and judged, the magnitudes."""
import io
import json
import os

from realredis import history
from realzk import story as zkstory
from realzk import zkmagnitudes
from realzk.runner import Repetition

SCENARIOS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "scenarios")


def _story(**kw) -> zkstory.Story:
    base = dict(path="x.toml", name="x", variant="base", members=["s1", "s2", "s3"], tick_ns=2 * 10**9,
                ttl_ns=6 * 10**9, policy="obey-suspended", app="counter", resource_policy="none",
                run_for_ns=30 * 10**9, clients=[zkstory.Client("c1", 0, ["read", "write"]),
                                                zkstory.Client("c2", 500_000_000, ["read", "write"])])
    base.update(kw)
    return zkstory.Story(**base)


def test_partition_cuts_the_client_from_every_member_only():
    s = _story(faults={"cut": {"kind": "partition", "groups": [["c1"], ["s1", "s2", "s3"]], "at": "1s"}})
    [p] = zkstory.partitions(s)
    assert p["at_ns"] == 10**9 and p["length_ns"] is None
    assert p["cut"] == [("c1", "s1"), ("c1", "s2"), ("c1", "s3")]


def test_pause_names_the_clients_own_phase():
    s = _story(faults={"gc": {"kind": "pause", "target": "c1", "at": "c1 read", "length": "15s"}})
    assert zkstory.pause_of(s, "c1") == {"name": "gc", "phase": "read", "length_ns": 15 * 10**9}
    assert zkstory.pause_of(s, "c2") is None


def test_the_catalogue_rows_are_read_as_locksim_merges_them():
    path = os.path.join(SCENARIOS, "zookeeper-gc-pause.toml")
    s = zkstory.load(path, "czxid-fenced")
    assert (s.ttl_ns, s.resource_policy, s.policy) == (10 * 10**9, "fencing", "obey-suspended")
    assert zkstory.load(path, "obey-lost").policy == "obey-lost"


class _Proc:
    def __init__(self, lines):
        self.stdout = io.StringIO("".join(json.dumps(line) + "\n" for line in lines))
        self.stdin = io.StringIO()


def test_client_lines_become_records_relative_to_t0(tmp_path):
    rep = Repetition(_story(), 1, "unused")
    rep.t0 = 1_000
    rep._read_client(_Proc([
        {"control": "ready"},
        {"t": 1_500, "p": "c1", "local": 1_500, "type": "store-state", "state": "CONNECTED"},
        {"t": 2_000, "p": "c1", "local": 2_000, "type": "want"},
        {"t": 2_100, "p": "c1", "local": 2_100, "type": "grant", "session": "c1-1", "value": "/n", "token": 7,
         "validity_ns": 4_000, "clock": "monotonic", "lease_end_local": 6_000, "promised_end": 6_000,
         "promised_end_latest": 7_000},
        {"control": "pause-point", "after": "read"},
    ]), "c1", None)
    assert rep.ready == {"c1"} and rep.states == [{"t": 500, "client": "c1", "state": "CONNECTED"}]
    grant = rep.records[1]
    assert (grant["t"], grant["promised_end"], grant["promised_end_latest"], grant["lease_end_local"]) == \
        (1_100, 5_000, 6_000, 5_000)


def test_history_without_the_observer_has_unrecorded_keys_and_validates(tmp_path):
    rep = Repetition(_story(), 1, "unused")
    rep.t0 = 0
    rep.records = [{"t": 1, "p": "c1", "local": 1, "type": "want"},
                   {"t": 2, "p": "observer", "local": 2, "type": "fault-fired", "fault": "gc", "took_effect": True}]

    class _Res:
        records = [{"t": 3, "p": "storage", "local": 3, "type": "app", "app": "counter", "quiescent": True}]
    rep.story.faults = {"gc": {"kind": "pause"}}
    out = tmp_path / "h.jsonl"
    rep._write(str(out), _Res(), str(tmp_path))
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert history.validate(lines) == []
    # No observer lines: the owner changes are not known, and the header says why.
    assert lines[0]["service"] == {"nodes": ["s1", "s2", "s3"], "quorum": 1, "key": "lock",
                                   "masters": [None, "s1", "s1"], "recorded": False, "replicated_state": True}
    assert "not recorded: the observer never became ready" in lines[0]["source"]


def test_magnitudes_measure_the_next_grant_and_the_late_write():
    trace = [{"t": 10, "type": "fault", "fault": "pause"},
             {"type": "belief", "client": "c1", "session": 1, "start": 0, "end": 15_000, "promised_end": 6_000},
             {"type": "belief", "client": "c2", "session": 2, "start": 10_000, "end": 10_005, "promised_end": 16_000},
             {"t": 15_001, "type": "op", "session": 1, "accepted": False},
             {"t": 15_002, "type": "resume"}]
    m = zkmagnitudes.measure(trace)
    assert m["grant_after_fault_ns"] == 9_990 and m["first_end_after_fault_ns"] == 14_990
    assert (m["late_accepted"], m["late_rejected"], m["overlap_ns"]) == (0, 1, 5)
    assert zkmagnitudes.summary([m], "late_rejected") == "1..1"
