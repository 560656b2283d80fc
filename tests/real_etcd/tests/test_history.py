"""Each hand-written run (cases.py) as a history: valid by docs/history.md, and — with LOCKSIM_BIN — judged by `locksim check` as judge.py judges the records, except where the two legitimately differ (KNOWN_DIFFERENCES says why)."""
import json
import os
import subprocess

import pytest

import cases
import history_format
from records import S, T0, Story

from referee import compare, experiments, history, judge, locksim_check

LOCKSIM = os.environ.get("LOCKSIM_BIN")
needs_check = pytest.mark.skipif(not LOCKSIM, reason="LOCKSIM_BIN names a locksim with the check command")

def key_events(lines):
    return [line for line in lines if line.get("type") in ("key-held", "key-dropped")]


@pytest.mark.parametrize("case", sorted(cases.CASES))
def test_every_case_becomes_a_valid_history(case):
    records = cases.CASES[case]()
    lines = history.convert(records)
    history_format.validate(lines)
    header = lines[0]
    assert header["service"] == {"nodes": ["s1", "s2", "s3"], "quorum": 1, "key": "/locksim/lock",
                                 "replicated_state": True, "recorded": True, "masters": [None, "s1", "s1"]}
    assert not any(line.get("type") in ("role", "store-session") for line in lines)
    # Each owner change: numbered by its revision, within its commit bounds, the old owner's key first.
    changes = {}
    for line in key_events(lines):
        changes.setdefault(line["change"], []).append(line)
        assert line["t_latest"] >= line["t"] and line["p"] == "s1"
    for events in changes.values():
        assert len({(e["t"], e["t_latest"]) for e in events}) == 1
        assert [e["type"] for e in events] in (["key-held"], ["key-dropped"], ["key-dropped", "key-held"])
    assert list(changes) == sorted(changes)


def test_a_watch_that_broke_leaves_the_keys_out_and_says_why():
    records = cases.CASES["p4-op-after-the-revocation"]()
    records.insert(-2, {"t_ns": records[-3]["t_ns"], "proc": "observer", "event": "watch-error", "error": "lost"})
    lines = history.convert(records)
    assert lines[0]["service"]["recorded"] is False and not key_events(lines)
    assert "the lock's keys are not recorded: the observer's watch broke" in lines[0]["source"]


@needs_check
@pytest.mark.parametrize("case", sorted(cases.CASES))
def test_locksim_check_judges_every_case_as_the_judge_does(case, tmp_path):
    records = cases.CASES[case]()
    path = tmp_path / f"{case}.history.jsonl"
    history.write(str(path), history.convert(records))
    checked = locksim_check.check(LOCKSIM, str(path))
    judged = {name: v.status for name, v in judge.judge(records).items()}
    got = {name: checked[name]["status"] for name in judged}
    assert got == judged, {name: checked[name] for name in judged}


def test_the_grant_carries_the_clients_own_deadline_and_each_later_reply_extends_it():
    st = Story()
    st.lease("c1", 0.0)               # keepalive started: deadline 6 s until a reply
    st.keepalive("c1", 0.005)         # a reply before the grant: already in the grant's promise
    st.grant("c1", 0.01)
    st.keepalive("c1", 3.4)
    st.keepalive("c1", 9.0, ttl_s=0)  # the lease is gone: extends nothing
    lines = history.convert(st.end(20))
    [grant] = [x for x in lines if x.get("type") == "grant"]
    assert grant["lease_end_local"] == T0 + 10_005_000_000 and grant["promised_end"] == 10_005_000_000
    assert grant["validity_ns"] == 9_995_000_000 and grant["t"] == 10_000_000 and grant["local"] == T0 + 10_000_000
    [extend] = [x for x in lines if x.get("type") == "extend"]
    assert extend["t"] == 3_400_000_000 and extend["promised_end"] == 13_400_000_000


def test_an_extension_never_moves_the_promise_back():
    st = Story(ttl_s=5)
    st.lease("c1", 0.0)               # first-keepalive deadline: 6 s
    st.grant("c1", 0.01)
    st.keepalive("c1", 0.5)           # 0.5 + 5 s is before 6 s: clientv3 sets it, the promise stays at 6 s
    lines = history.convert(st.end(20))
    [extend] = [x for x in lines if x.get("type") == "extend"]
    assert extend["promised_end"] == 6 * S


def test_beliefs_end_with_the_reason_the_records_give():
    reasons = {}
    for case, client in (("p1-grant-at-the-release", "c1"), ("p2-done-closed-ends-the-belief", "c1"),
                         ("p2-killed-holder", "c1"), ("p2-holder-that-never-checks", "c1")):
        lines = history.convert(cases.CASES[case]())
        reasons[case] = [x["reason"] for x in lines if x.get("type") == "belief-end" and x.get("p") == client]
    assert reasons == {"p1-grant-at-the-release": ["released"], "p2-done-closed-ends-the-belief": ["session-lost"],
                       "p2-killed-holder": ["crashed"], "p2-holder-that-never-checks": []}   # the end ends it
    exited = Story()
    exited.lease("c1", 0.0)
    exited.grant("c1", 0.01)
    exited.add("driver", "proc-exit", 2.0, target="c1", returncode=0)
    assert [x["reason"] for x in history.convert(exited.end(5)) if x.get("type") == "belief-end"] == ["abandoned"]


def test_the_driver_faults_are_the_observers_with_the_scenario_files_names():
    st = Story()
    st.lease("c1", 0.0)
    st.grant("c1", 0.01)
    st.add("driver", "fault", 3.5, kind="blackhole", target="c1", trigger_t_ns=T0 + 3_499_000_000, proxy="ok")
    st.add("driver", "signal", 4.0, target="c1", signal="SIGSTOP", sent=True, why="pause", stopped=True)
    st.add("driver", "fault", 4.001, kind="pause", name="p", target="c1", length_ns=15 * S,
           fault_t_ns=T0 + 4 * S, took_effect=False)
    st.add("driver", "signal", 19.0, target="c1", signal="SIGCONT", sent=True, why="p ends")
    st.add("driver", "fault", 5.0, kind="crash", target="s2", what="process", signal="SIGKILL", sent=True,
           took_effect=True, fault_t_ns=T0 + 4_999_000_000)
    st.add("driver", "fault", 6.0, kind="clock-step", target="s1", by_ns=15 * S, offset_ns=15 * S)
    lines = history.convert(st.end(20), {"partition": "cut", "pause": "freeze", "crash": "die",
                                         "clock-jump": "jump"})
    history_format.validate(lines)
    got = [(x["t"], x.get("type"), x["fault"], x.get("target", x.get("took_effect"))) for x in lines
           if x.get("p") == "observer" and x.get("type") != "end"]
    assert got == [(3_500_000_000, "fault", "partition", None), (3_500_000_000, "fault-fired", "cut", True),
                   (4 * S, "fault", "pause", "c1"), (4 * S, "fault-fired", "freeze", False),
                   (4_999_000_000, "fault", "crash", "s2"), (4_999_000_000, "fault-fired", "die", True),
                   (6 * S, "fault", "clock-jump", "s1"), (6 * S, "fault-fired", "jump", True),
                   (19 * S, "fault", "resume", "c1")]
    assert lines[0]["faults"] == ["cut", "freeze", "die", "jump"]


def test_a_resource_that_never_recorded_its_final_state_leaves_the_application_unknown():
    st = Story()
    st.lease("c1", 0.0)
    st.grant("c1", 0.01)
    st.op("c1", "write", 1.0)
    records = [r for r in st.end(5) if r["event"] != "final"]
    lines = history.convert(records)
    history_format.validate(lines)
    assert lines[0]["app"] == "unknown" and not any(x.get("type") == "app" for x in lines)


def test_a_rejection_the_format_has_no_word_for_is_refused_not_renamed():
    st = Story()
    st.lease("c1", 0.0)
    st.grant("c1", 0.01)
    st.op("c1", "write", 1.0, accepted=False)
    records = st.end(5)
    next(r for r in records if r["event"] == "op")["reason"] = "unknown-op"
    with pytest.raises(history.NotConvertible, match="unknown-op"):
        history.convert(records)


def test_the_validator_refuses_what_the_format_refuses():
    good = history.convert(cases.p3_x_y_x())
    history_format.validate(good)
    op = next(i for i, x in enumerate(good) if x.get("type") == "op")
    grant = next(i for i, x in enumerate(good) if x.get("type") == "grant")
    broken = {
        "an op before its session's grant": good[:grant] + [dict(good[op], t=good[grant]["t"])] + good[grant:],
        "a field the format does not have": good[:op] + [dict(good[op], seq=1)] + good[op + 1:],
        "out of order": good[:op] + [dict(good[op], t=0)] + good[op + 1:],
        "no end": good[:-1],
        "an event after the end": good + [dict(good[op], t=good[-1]["t"])],
        "an unknown process": good[:op] + [dict(good[op], p="proxy")] + good[op + 1:],
    }
    for what, lines in broken.items():
        with pytest.raises(history_format.Invalid):
            history_format.validate(lines)
            print(what)


@needs_check
def test_locksim_check_accepts_the_validators_history_and_refuses_a_session_before_its_grant(tmp_path):
    good = history.convert(cases.p3_x_y_x())
    path = tmp_path / "h.jsonl"
    grant = next(i for i, x in enumerate(good) if x.get("type") == "grant")
    op = next(i for i, x in enumerate(good) if x.get("type") == "op")
    bad = good[:grant] + [dict(good[op], t=good[grant]["t"])] + good[grant:]
    history.write(str(path), bad)
    done = subprocess.run([LOCKSIM, "check", str(path), "--json"], capture_output=True, text=True)
    assert done.returncode == 2 and "before its grant" in done.stderr


def test_the_history_goes_beside_the_records():
    assert history.history_path("/d/gc-pause.base.rep03.jsonl") == "/d/gc-pause.base.rep03.history.jsonl"


def test_judge_and_check_agreement_is_agree_disagree_or_undecided():
    j = {"grant-exclusive": {"status": "holds", "witness": None},
         "belief-exclusive": {"status": "violated", "witness": "w"},
         "resource-current": {"status": "violated", "witness": "w"}}
    c = {"grant-exclusive": {"status": "holds", "witness": None, "unknown_because": None},
         "belief-exclusive": {"status": "holds", "witness": None, "unknown_because": None},
         "resource-current": {"status": "unknown", "witness": None, "unknown_because": "no keys"}}
    got = locksim_check.compare(j, c)
    assert {k: v["agreement"] for k, v in got.items()} == {
        "grant-exclusive": "agree", "belief-exclusive": "disagree", "resource-current": "undecided"}
    assert got["resource-current"]["note"] == "no keys" and "judge.py: w" in got["belief-exclusive"]["note"]
    json.dumps(got)


def test_a_locksim_without_check_is_said_once_and_nothing_is_compared(tmp_path):
    old = tmp_path / "locksim"
    old.write_text("#!/bin/sh\necho \"locksim: unknown command '$1'\" >&2\nexit 2\n")
    old.chmod(0o755)
    assert not locksim_check.has_check(str(old))
    records = cases.p3_x_y_x()
    path = tmp_path / "partitioned-holder.base.rep01.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    verdicts = {name: v.as_dict() for name, v in judge.judge(records).items()}
    got = compare.check_history(str(path), records, verdicts, str(tmp_path), str(old), can_check=False)
    assert got["checked"] is False and got["error"] == locksim_check.NO_CHECK
    assert (tmp_path / "partitioned-holder.base.rep01.history.jsonl").exists()
    rep = {"valid": True, "problems": [], "rep": 1, "verdicts": verdicts, "history": got,
           "magnitudes": {m: None for m in experiments.PartitionedHolder.magnitudes}}
    text = compare.render(compare.compare_one(experiments.PartitionedHolder(), "base", [rep], None, "no sim"))
    assert "(0/1 checked)" in text and locksim_check.NO_CHECK in text and "DISAGREE" not in text


@needs_check
def test_a_disagreement_between_judge_and_check_is_printed_and_counted(tmp_path):
    records = cases.p3_x_y_x()
    path = tmp_path / "partitioned-holder.base.rep01.jsonl"
    verdicts = {name: v.as_dict() for name, v in judge.judge(records).items()}
    verdicts["belief-exclusive"] = dict(verdicts["belief-exclusive"], status="violated", witness="made up")
    got = compare.check_history(str(path), records, verdicts, str(tmp_path), LOCKSIM, can_check=True)
    assert got["against_judge"]["belief-exclusive"]["agreement"] == "disagree"
    rep = {"valid": True, "problems": [], "rep": 1, "verdicts": verdicts, "history": got,
           "magnitudes": {m: None for m in experiments.PartitionedHolder.magnitudes}}
    result = compare.compare_one(experiments.PartitionedHolder(), "base", [rep], None, "no sim")
    assert "DISAGREE judge.py/locksim check rep 1 P2 belief-exclusive: judge.py violated, locksim check holds" \
        in compare.render(result)
    status, summary = compare.summarise([result])
    assert status == 1 and "judge.py/locksim check rep 1 P2" in summary


def test_a_crash_never_sent_fired_without_effect_and_the_caps_kill_is_no_fault():
    st = Story()
    st.lease("c1", 0.0)
    st.grant("c1", 0.01)
    st.add("driver", "fault", 2.0, kind="crash", target=None, what="process", signal="SIGKILL", sent=False,
           took_effect=False, fault_t_ns=T0 + 2 * S)             # nobody led when the driver asked
    st.add("driver", "signal", 40.0, target="c1", signal="SIGKILL", sent=True, why="run cap reached")
    st.add("driver", "cap", 40.0, cap_ns=T0 + 40 * S)
    lines = history.convert(st.end(41), {"crash": "leader-crash"})
    history_format.validate(lines)
    observed = [(x["type"], x["fault"], x.get("took_effect")) for x in lines if x.get("p") == "observer"
                and x.get("type") != "end"]
    assert observed == [("fault-fired", "leader-crash", False)]
    assert [(x["t"], x["reason"]) for x in lines if x.get("type") == "belief-end"] == [(40 * S, "crashed")]


def test_a_registers_states_are_a_registers_not_a_counters():
    # Its writes set 1 without reading: as a counter, two writes would look like a lost update.
    st = Story(app="register")
    st.lease("c1", 0.0)
    st.grant("c1", 0.01)
    st.op("c1", "write", 1.0)
    st.op("c1", "write", 2.0)
    lines = history.convert(st.end(5))
    history_format.validate(lines)
    apps = [x for x in lines if x.get("type") == "app"]
    assert lines[0]["app"] == "register" and apps and all(x["app"] == "register" for x in apps)
