"""The real resource's rules (resource_apps.py) on hand-made requests, and
against locksim's own resource on the same sequence of ops."""
import json
import os
import subprocess
import tempfile

import pytest

from realredis.resource_apps import Rules

SCENARIOS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "scenarios")


def req(op, session="c1-1", token=-1, lock_value="v1", client="c1", **extra):
    return {"op": op, "session": session, "client": client, "token": token, "lock_value": lock_value, **extra}


def judged(rules, request):
    """(accepted, reject) of the op line, and whether an app line followed."""
    reply, records = rules.judge(request)
    ops = [f for kind, f in records if kind == "op"]
    assert ops[-1]["accepted"] == reply["accepted"] and ops[-1]["reject"] == reply["reject"]
    return reply["accepted"], reply["reject"], any(kind == "app" for kind, _ in records)


def test_none_accepts_everything_with_or_without_a_token():
    rules = Rules("none", "counter")
    assert judged(rules, req("read")) == (True, "none", True)
    assert judged(rules, req("write", value=7)) == (True, "none", True)
    assert (rules.counter, rules.increments) == (7, 1)


@pytest.mark.parametrize("op,extra", [("read", {}), ("write", {"value": 1})])
def test_fencing_missing_and_stale_token_on_every_op(op, extra):
    rules = Rules("fencing", "register")
    assert judged(rules, req(op, token=-1, **extra)) == (False, "missing-token", False)
    assert judged(rules, req(op, token=2, **extra))[:2] == (True, "none")
    assert judged(rules, req(op, token=2, **extra))[:2] == (True, "none")     # equal: not stale
    assert judged(rules, req(op, token=1, **extra)) == (False, "stale-token", False)


def test_fencing_collection_split_update_leaves_size_behind():
    rules = Rules("fencing", "collection")
    assert judged(rules, req("add", token=1))[:2] == (True, "none")
    assert judged(rules, req("add", session="c2-1", token=2, client="c2"))[:2] == (True, "none")
    assert judged(rules, req("increment-size", session="c2-1", token=2, client="c2"))[:2] == (True, "none")
    assert judged(rules, req("increment-size", token=1)) == (False, "stale-token", False)
    assert (rules.elements, rules.size) == (2, 1)
    _, app = rules.app_line(True)
    assert (app["app"], app["elements"], app["size"], app["quiescent"]) == ("collection", 2, 1, True)


def test_add_and_increment_moves_both():
    rules = Rules("fencing", "collection")
    judged(rules, req("add-and-increment", token=1))
    assert (rules.elements, rules.size) == (1, 1)


def test_unique_token_cas_mark_mismatch():
    rules = Rules("unique-token-cas", "register")
    assert judged(rules, req("write", value=1)) == (False, "mark-mismatch", False)     # nothing marked yet
    assert judged(rules, req("mark", session="c2-1", lock_value="v2")) == (True, "none", True)
    assert judged(rules, req("mark", lock_value="v1")) == (True, "none", True)         # marks always pass
    assert judged(rules, req("write", lock_value="v1", value=1)) == (True, "none", True)
    assert judged(rules, req("write", session="c2-1", lock_value="v2", value=1)) == (False, "mark-mismatch", False)
    assert (rules.counter, rules.increments) == (1, 1)


def test_transactional_stages_until_commit():
    rules = Rules("transactional", "collection")
    reply, records = rules.judge(req("add"))
    assert reply["accepted"] and records == [] and rules.elements == 0
    reply, records = rules.judge(req("increment-size"))
    assert records == []
    reply, records = rules.judge(req("commit"))
    assert reply["accepted"]
    assert [(k, f.get("op")) for k, f in records] == [("op", "add"), ("op", "increment-size"), ("op", "commit"),
                                                      ("app", None)]
    assert (rules.elements, rules.size) == (1, 1)


def test_transactional_rolls_back_after_another_commit():
    rules = Rules("transactional", "collection")
    rules.judge(req("add"))                                          # c1 begins, then pauses
    for op in ("add", "increment-size", "commit"):
        assert rules.judge(req(op, session="c2-1", client="c2"))[0]["accepted"]
    rules.judge(req("increment-size"))
    reply, records = rules.judge(req("commit"))
    assert (reply["accepted"], reply["reject"]) == (False, "rolled-back")
    assert [(k, f["op"], f["reject"]) for k, f in records] == [("op", "commit", "rolled-back")]
    assert (rules.elements, rules.size) == (1, 1)                    # nothing of c1's happened
    for op in ("add", "increment-size", "commit"):                   # its cycle again, a new session
        assert rules.judge(req(op, session="c1-2"))[0]["accepted"]
    assert (rules.elements, rules.size, rules.commits) == (2, 2, 2)


def test_transactional_read_is_answered_at_once():
    rules = Rules("transactional", "counter")
    reply, records = rules.judge(req("read"))
    assert reply["value"] == 0 and [k for k, _ in records] == ["op"]


def test_unknown_policy_app_and_op_are_refused():
    with pytest.raises(ValueError):
        Rules("transactional-fenced", "counter")
    with pytest.raises(ValueError):
        Rules("none", "queue")
    with pytest.raises(ValueError):
        Rules("none", "counter").judge(req("add"))


def _simulated(scenario, variant):
    """locksim's seed-1 history of a row: the clients' grants and the resource's lines."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "h.jsonl")
        subprocess.run([os.environ["LOCKSIM_BIN"], "run", os.path.join(SCENARIOS, scenario + ".toml"),
                        "--variant", variant, "--seed", "1", "--history", out],
                       check=True, capture_output=True)
        with open(out) as f:
            return [json.loads(line) for line in f][1:]


@pytest.mark.skipif("LOCKSIM_BIN" not in os.environ, reason="needs locksim (LOCKSIM_BIN)")
@pytest.mark.parametrize("scenario,variant,policy,app", [
    ("fencing-multistep-collection", "base", "fencing", "collection"),
    ("fencing-multistep-collection", "atomic-add", "fencing", "collection"),
    ("fencing-newer-holder-not-yet-written", "base", "fencing", "register"),
    ("fencing-newer-holder-not-yet-written", "unique-token-cas", "unique-token-cas", "register"),
])
def test_same_ops_same_lines_as_locksim(scenario, variant, policy, app):
    """Replays the ops of locksim's history (each judged op is one request:
    these policies stage nothing) and compares every op and app line."""
    lines = _simulated(scenario, variant)
    values = {g["session"]: g["value"] for g in lines if g["type"] == "grant"}
    simulated = [line for line in lines if line["p"] == "resource" and line["type"] in ("op", "app")
                 and not line.get("quiescent")]
    rules = Rules(policy, app)
    replayed = []
    for line in simulated:
        if line["type"] == "op":
            request = req(line["op"], session=line["session"], token=line["token"], client=line["client"],
                          lock_value=values[line["session"]], value=1)    # a register's write: 1, no read
            replayed += [{"type": kind, **fields} for kind, fields in rules.judge(request)[1]]
    strip = [{k: v for k, v in line.items() if k not in ("t", "p", "local")} for line in simulated]
    assert replayed == strip


@pytest.mark.skipif("LOCKSIM_BIN" not in os.environ, reason="needs locksim (LOCKSIM_BIN)")
@pytest.mark.parametrize("variant", ["transactional", "no-lock-transactional"])
def test_transactional_story_same_lines_as_locksim(variant):
    """The story's requests in the order the clients send them (staged ops
    leave no line until their commit, so they cannot be read back from the
    history): c1 adds and pauses, c2 does its update, c1 goes on and is
    rolled back, then does its cycle again in a new session."""
    lines = _simulated("fencing-multistep-collection", variant)
    tokens = {g["session"]: g["token"] for g in lines if g["type"] == "grant"}
    simulated = [line for line in lines if line["p"] == "resource" and line["type"] in ("op", "app")
                 and not line.get("quiescent")]
    order = [(1, "c1", "add"), (2, "c2", "add"), (2, "c2", "increment-size"), (2, "c2", "commit"),
             (1, "c1", "increment-size"), (1, "c1", "commit"),
             (3, "c1", "add"), (3, "c1", "increment-size"), (3, "c1", "commit")]
    rules = Rules("transactional", "collection")
    replayed = []
    for session, client, op in order:
        request = req(op, session=session, token=tokens[session], client=client)
        replayed += [{"type": kind, **fields} for kind, fields in rules.judge(request)[1]]
    strip = [{k: v for k, v in line.items() if k not in ("t", "p", "local")} for line in simulated]
    assert replayed == strip


def test_stock_get_compare_decr_oversells():
    """Three buyers each read the one unit, then each decrements: the stock goes to -2 (the incident)."""
    rules = Rules("none", "stock", initial_stock=1)
    for c in ("c1", "c2", "c3"):
        reply, records = rules.judge(req("read", session=f"{c}-1", client=c))
        assert reply["value"] == 1 and [k for k, _ in records] == ["op", "app"]
    for c in ("c1", "c2", "c3"):
        assert judged(rules, req("decrement", session=f"{c}-1", client=c, value=1)) == (True, "none", True)
    _, app = rules.app_line(True)
    assert (app["app"], app["stock"]) == ("stock", -2)


def test_stock_check_and_decrement_refuses_out_of_stock():
    rules = Rules("none", "stock", initial_stock=1)
    assert judged(rules, req("check-and-decrement")) == (True, "none", True)
    reply, records = rules.judge(req("check-and-decrement", session="c2-1", client="c2"))
    assert (reply["accepted"], reply["reject"], reply["value"]) == (False, "out-of-stock", 0)
    assert [(k, f["reject"]) for k, f in records] == [("op", "out-of-stock")]      # no app line: nothing changed
    assert rules.stock == 0


@pytest.mark.skipif("LOCKSIM_BIN" not in os.environ, reason="needs locksim (LOCKSIM_BIN)")
@pytest.mark.parametrize("variant", ["base", "atomic-decrement"])
def test_oversell_same_ops_same_lines_as_locksim(variant):
    """locksim's seed-1 ops of the oversell incident, replayed (the stock policy stages nothing):
    every op and app line the same, out-of-stock refusals included."""
    lines = _simulated("oversell-incident", variant)
    simulated = [line for line in lines if line["p"] == "resource" and line["type"] in ("op", "app")
                 and not line.get("quiescent")]
    rules = Rules("none", "stock", initial_stock=1)
    replayed = []
    for line in simulated:
        if line["type"] == "op":
            request = req(line["op"], session=line["session"], token=line["token"], client=line["client"])
            replayed += [{"type": kind, **fields} for kind, fields in rules.judge(request)[1]]
    strip = [{k: v for k, v in line.items() if k not in ("t", "p", "local")} for line in simulated]
    assert replayed == strip
