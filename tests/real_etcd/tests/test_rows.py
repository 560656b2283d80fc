"""The last two catalogue rows on hand-made records: sessions per grant (a client that locks again under one
lease), the stock's P5 at the resource and in etcd, and their histories (valid, and judged by locksim check as
by judge.py)."""
import os

import pytest

import history_format
import row_cases

from referee import facts, history, judge, locksim_check, magnitudes

LOCKSIM = os.environ.get("LOCKSIM_BIN")
needs_check = pytest.mark.skipif(not LOCKSIM, reason="LOCKSIM_BIN names a locksim with the check command")


def verdicts(records):
    return {name: v.status for name, v in judge.judge(records).items()}


def test_each_grant_is_a_session_of_its_own_under_one_lease():
    f = facts.from_real(row_cases.two_cycles_of_c1_around_c2().finish(1))
    assert list(f.sessions) == ["aa", "bb", "aa.2"]
    first, second = f.of("c1")
    assert (first.iteration, second.iteration) == (0, 1) and first.lease == second.lease == "aa"
    assert first.belief_end_reason == second.belief_end_reason == "released"
    assert round((second.grant_ns - second.want_ns) / 1e6) == 5           # its second Lock call to its grant
    assert round((first.key_deleted_ns - first.grant_ns) / 1e6) == 48      # the first key's deletion, not the second's
    assert len(first.writes) == len(second.writes) == 1


def test_three_sessions_taking_turns_hold_everything():
    assert set(verdicts(row_cases.two_cycles_of_c1_around_c2().finish(1)).values()) == {"holds"}


def test_a_session_resumed_after_another_clients_is_still_p3_across_sessions_of_one_lease():
    v = judge.judge(row_cases.c1_resumes_its_first_session_after_c2().finish(1))
    assert v["resource-exclusive"].status == "violated" and v["resource-exclusive"].count == 1
    assert v["resource-current"].status == "violated"      # c1's first key was gone by then


def test_the_history_has_one_acquire_grant_and_release_per_cycle():
    lines = history.convert(row_cases.two_cycles_of_c1_around_c2().finish(1))
    history_format.validate(lines)
    c1 = [x for x in lines if x.get("p") == "c1"]
    assert [x["session"] for x in c1 if x["type"] == "grant"] == ["aa", "aa.2"]
    assert [x["type"] for x in c1 if x["type"] in ("want", "release")] == ["want", "release", "want", "release"]
    assert {x["session"] for x in lines if x.get("type") == "op"} == {"aa", "bb", "aa.2"}


def test_a_stock_below_zero_violates_p5_and_the_last_unit_sold_once_holds():
    v = judge.judge(row_cases.stock_oversold())["invariant"]
    assert v.status == "violated" and "stock is -1 after 2 sale(s): oversold by 1" in v.witness
    assert facts.from_real(row_cases.stock_oversold()).final_stock == -2
    assert judge.judge(row_cases.stock_oversold(initial=3))["invariant"].status == "holds"


def test_the_stock_kept_in_etcd_is_judged_from_the_txns_and_the_observers_last_read():
    records = row_cases.stock_in_etcd()
    v = verdicts(records)
    assert v["invariant"] == "holds" and v["resource-exclusive"] == "holds"
    assert v["resource-current"] == "violated"    # c1's and c2's reads at revision 6, when c3 held
    f = facts.from_real(records)
    assert (f.final_stock, f.stale_rejections) == (0, 2)
    assert judge.judge(row_cases.stock_in_etcd(final=False))["invariant"].status == "unknown"


def test_reads_at_one_revision_whose_calls_overlap_leave_p3_unknown_and_sequential_ones_decide_it():
    overlapping = row_cases.stock_in_etcd(read_order=("c3", "c1", "c2"), call_s=0.005)
    v = judge.judge(overlapping)["resource-exclusive"]
    assert v.status == "unknown" and v.unknown == 1 and "concurrent reads" in v.notes[0]
    sequential = row_cases.stock_in_etcd(read_order=("c3", "c1", "c2"), call_s=0.001)
    v = judge.judge(sequential)["resource-exclusive"]
    assert v.status == "violated"
    assert "c3 decrement accepted at 30.020s resumed its session after c1's read" in v.witness


def test_the_txn_guarded_history_records_the_leaders_decisions_as_the_resources_at_the_reply():
    records = row_cases.stock_in_etcd()
    lines = history.convert(records)
    history_format.validate(lines)
    assert lines[0]["app"] == "stock"
    ops = [x for x in lines if x.get("type") == "op"]
    assert [(x["client"], x["op"], x["reject"]) for x in ops if not x["accepted"]] == \
        [("c1", "decrement", "stale-token"), ("c2", "decrement", "stale-token")]
    assert all(x["p"] == "resource" for x in ops)
    t0 = next(r["t0_ns"] for r in records if r.get("event") == "run")
    replies = sorted(r["t_ns"] - t0 for r in records if r.get("event") == "store-op")
    assert [x["t"] for x in ops] == replies          # at the reply: the decision's latest instant
    stock = [(x["stock"], x["quiescent"]) for x in lines if x.get("type") == "app"]
    assert stock[0] == (1, True) and stock[-1] == (0, True) and min(s for s, _ in stock) == 0


@needs_check
@pytest.mark.parametrize("case", ["cycles", "resumed", "oversold", "in-etcd", "in-etcd-no-final"])
def test_locksim_check_judges_the_rows_records_as_the_judge_does(case, tmp_path):
    records = {"cycles": lambda: row_cases.two_cycles_of_c1_around_c2().finish(1),
               "resumed": lambda: row_cases.c1_resumes_its_first_session_after_c2().finish(1),
               "oversold": row_cases.stock_oversold, "in-etcd": row_cases.stock_in_etcd,
               "in-etcd-no-final": lambda: row_cases.stock_in_etcd(final=False)}[case]()
    path = tmp_path / f"{case}.history.jsonl"
    history.write(str(path), history.convert(records))
    checked = locksim_check.check(LOCKSIM, str(path))
    for name, status in verdicts(records).items():
        assert checked[name]["status"] == status, (name, checked[name])


def test_the_controls_magnitudes_count_sessions_and_time_only_hand_overs_to_a_waiting_client():
    f = facts.from_real(row_cases.two_cycles_of_c1_around_c2().finish(1))
    roles = {"holder": "c1", "waiter": "c2"}
    got = magnitudes.measure(f, ["sessions_granted", "longest_grant_wait", "longest_handover"], roles)
    # c2 waits from 0 s to its grant at 60 ms; c1's second cycle begins after c2's Unlock: no hand-over.
    assert got == {"sessions_granted": 3, "longest_grant_wait": 60_000_000, "longest_handover": 10_000_000}
