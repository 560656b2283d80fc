"""Histories (docs/history.md): `run --history` writes one, `check` judges it.

The round trip holds over the whole catalogue: every variant's history,
judged by `check`, gives `run`'s verdicts, counts, witnesses, liveness,
faults and clients exactly. `check` says unknown — never holds — where the
history does not record what a property needs or the clocks' bounds allow
both answers, and refuses a malformed history naming its file, line and key.
"""
import json
import os
import re
import subprocess

import pytest

EXAMPLE = "docs/examples/gc-pause.history.jsonl"
SAME = ("status", "count", "witness")


def catalogue(locksim):
    listing = locksim("list").stdout.splitlines()
    return sorted({line.split()[0] for line in listing if line and not line.startswith(" ")})


def test_the_round_trip_gives_runs_verdicts_over_the_whole_catalogue(locksim, tmp_path):
    names = catalogue(locksim)
    assert len(names) >= 30, names
    checked = 0
    for name in names:
        ran = locksim("run", name, "--json", "--history", tmp_path / f"{name}.jsonl")
        assert ran.returncode in (0, 1), ran.stderr
        variants = json.loads(ran.stdout)["variants"]
        for v in variants:
            path = tmp_path / (f"{name}.{v['name']}.jsonl" if len(variants) > 1 else f"{name}.jsonl")
            checked_run = locksim("check", path, "--json")
            assert checked_run.returncode in (0, 1), checked_run.stderr
            judged = json.loads(checked_run.stdout)
            for prop, verdict in v["verdicts"].items():
                for field in SAME:
                    assert judged["verdicts"][prop][field] == verdict[field], (name, v["name"], prop, field)
            for part in ("liveness", "faults", "clients"):
                assert judged[part] == v[part], (name, v["name"], part)
            violated = any(x["status"] == "violated" for x in v["verdicts"].values())
            assert checked_run.returncode == (1 if violated else 0)
            checked += 1
    assert checked >= 90, checked


def test_the_history_is_the_format_the_docs_describe(locksim, tmp_path, root):
    """Every line of a simulated history uses only the docs' event types and fields."""
    doc = (root / "docs" / "history.md").read_text()
    table = doc[doc.index("| type | recorded by | fields | meaning |"):]
    types = {m.group(1): m.group(2) for m in re.finditer(r"^\| `([a-z-]+)` \| [^|]+ \|([^|]*)\|", table, re.M)}
    assert {"grant", "op", "key-held", "end"} <= set(types)
    path = tmp_path / "h.jsonl"
    assert locksim("run", "redlock-crash-restart", "--variant", "base", "--history", path).returncode in (0, 1)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["format"] == "locksim-history/1"
    for line in lines[1:]:
        fields = set(re.findall(r"`([a-z_]+)`", types[line["type"]]))
        extra = set(line) - {"t", "p", "local", "type"} - fields
        assert not extra, (line["type"], extra)
    assert lines[-1]["type"] == "end"
    assert [x["t"] for x in lines[1:]] == sorted(x["t"] for x in lines[1:])


def test_the_docs_example_is_the_file_and_judged_as_the_docs_say(locksim, root):
    doc = (root / "docs" / "history.md").read_text()
    block = doc[doc.index("<!-- history-example -->"):doc.index("<!-- /history-example -->")]
    inline = [line for line in block.splitlines() if line.startswith("{")]
    assert inline == (root / EXAMPLE).read_text().splitlines()
    judged = locksim("check", EXAMPLE, "--json")
    assert judged.returncode == 1, judged.stderr
    status = {v["id"]: v["status"] for v in json.loads(judged.stdout)["verdicts"].values()}
    assert status == {"P1": "holds", "P2": "violated", "P3": "holds", "P4": "violated", "P5": "holds"}
    table = locksim("check", EXAMPLE).stdout
    assert "P2 belief-exclusive     VIOLATED" in table and "c1 (session 1)" in table


def edited(root, tmp_path, edit, name="h.jsonl"):
    """The docs' example, each line a dict passed through |edit| (header first)."""
    lines = [json.loads(line) for line in (root / EXAMPLE).read_text().splitlines()]
    lines = edit(lines)
    path = tmp_path / name
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def local_clocks(lines):
    lines[0]["time"] = "local"
    for line in lines[1:]:
        line.pop("t", None)
        line.pop("promised_end", None)
    return lines


def statuses(locksim, path, *args):
    judged = locksim("check", path, "--json", *args)
    assert judged.returncode in (0, 1), judged.stderr
    return {v["id"]: (v["status"], v["unknown_because"]) for v in json.loads(judged.stdout)["verdicts"].values()}


def test_local_clocks_need_a_bound_and_are_judged_within_it(locksim, root, tmp_path):
    path = edited(root, tmp_path, local_clocks)
    refused = locksim("check", path)
    assert refused.returncode == 2 and "--clock-uncertainty" in refused.stderr
    pointless = locksim("check", EXAMPLE, "--clock-uncertainty", "1ms")
    assert pointless.returncode == 2 and "common clock" in pointless.stderr
    # c2's grant is 4 ms after c1's promised end, on two clocks: within 2 ms
    # the order is certain (P1 holds); within 10 ms it is not.
    tight = statuses(locksim, path, "--clock-uncertainty", "2ms")
    assert {k: s for k, (s, _) in tight.items()} == {"P1": "holds", "P2": "violated", "P3": "holds",
                                                      "P4": "violated", "P5": "holds"}
    loose = statuses(locksim, path, "--clock-uncertainty", "10ms")
    assert loose["P1"][0] == "unknown" and "10ms" in loose["P1"][1]
    assert loose["P2"][0] == "violated"  # 4 s of overlap: no 10 ms moves it
    huge = statuses(locksim, path, "--clock-uncertainty", "1h")
    assert all(s == "unknown" for s, _ in huge.values()), huge
    too_far = locksim("check", path, "--clock-uncertainty", "25h")
    assert too_far.returncode == 2 and "more than a day" in too_far.stderr
    # A pair of its own: c1's and c2's clocks 1 ms apart decide P1 again.
    paired = statuses(locksim, path, "--clock-uncertainty", "10ms", "--clock-uncertainty", "c1:c2=1ms")
    assert paired["P1"][0] == "holds", paired
    for bad, words in ((["c1:c2=1ms"], "needs the one for every other pair"), (["1ms", "c1=1ms"], "A:B=D"),
                       (["1ms", "c1:c9=1ms"], "no process of the history"), (["1ms", "2ms"], "given twice"),
                       (["1ms", "c1:c1=1ms"], "name two")):
        refused = locksim("check", path, *[x for b in bad for x in ("--clock-uncertainty", b)])
        assert refused.returncode == 2 and words in refused.stderr, (bad, refused.stderr)

    def decades(lines):
        lines[-1]["local"] = 2 ** 62
        return lines
    long_ago = statuses(locksim, edited(root, tmp_path, lambda x: decades(local_clocks(x)), "d.jsonl"),
                        "--clock-uncertainty", "1ms")
    assert all(s == "unknown" and "decades" in why for s, why in long_ago.values()), long_ago


def test_what_is_not_recorded_is_unknown_never_holds(locksim, root, tmp_path):
    def unrecorded(lines):
        lines[0]["service"]["recorded"] = False
        lines[0]["app"] = "unknown"
        return [x for x in lines if x.get("type") not in ("key-held", "key-dropped", "app")]

    path = edited(root, tmp_path, unrecorded)
    got = statuses(locksim, path)
    assert got["P4"][0] == "unknown" and "service.recorded" in got["P4"][1]
    # So are the figures read off the holder over time.
    liveness = json.loads(locksim("check", path, "--json").stdout)["liveness"]
    assert liveness["unheld_ns"] is None and liveness["longest_stuck_ns"] is None
    assert "longest stuck unknown, unheld unknown" in locksim("check", path).stdout
    assert got["P5"][0] == "unknown" and "app is unknown" in got["P5"][1]
    assert got["P2"][0] == "violated"


def test_a_promise_of_unknown_end_is_judged_both_ways(locksim, root, tmp_path):
    def unknown_end(lines):
        for x in lines:
            if x.get("type") == "grant" and x["session"] == "s1":
                x["promised_end"] = "unknown"
        return lines

    path = edited(root, tmp_path, unknown_end)
    got = statuses(locksim, path)
    # c2 was granted inside the longest window c1 could have meant, not the shortest.
    assert got["P1"][0] == "unknown" and "promise" in got["P1"][1]
    # Known within a range: c1's end somewhere in [11 s, 11.005 s], c2 granted at 11.004 s.
    def ranged_end(latest):
        def edit(lines):
            for x in lines:
                if x.get("type") == "grant" and x["session"] == "s1":
                    x["promised_end_latest"] = latest
            return lines
        return edit
    within = statuses(locksim, edited(root, tmp_path, ranged_end(11_005_000_000), "within.jsonl"))
    assert within["P1"][0] == "unknown" and "not known exactly" in within["P1"][1], within
    before = statuses(locksim, edited(root, tmp_path, ranged_end(11_003_000_000), "before.jsonl"))
    assert before["P1"][0] == "holds", before
    # Its trace says so too: a drawing never shows an unknown as holds.
    trace = tmp_path / "t.jsonl"
    locksim("check", path, "--trace", trace)
    verdicts = {x["id"]: x for x in map(json.loads, trace.read_text().splitlines()) if x["type"] == "verdict"}
    assert verdicts["P1"]["status"] == "unknown" and verdicts["P1"]["witness"] is None


def test_check_writes_a_trace_the_timeline_draws(locksim, root, tmp_path):
    trace = tmp_path / "t.jsonl"
    assert locksim("check", EXAMPLE, "--trace", trace).returncode == 1
    lines = [json.loads(line) for line in trace.read_text().splitlines()]
    assert lines[0]["type"] == "run"
    verdicts = {x["property"]: x["status"] for x in lines if x["type"] == "verdict"}
    assert verdicts["belief-exclusive"] == "violated", verdicts
    png = tmp_path / "t.png"
    drawn = subprocess.run(["/usr/bin/python3", root / "analysis" / "timeline.py", trace, "--out", png],
                           capture_output=True, text=True, timeout=120)
    assert drawn.returncode == 0, drawn.stderr
    assert png.stat().st_size > 10000


# (name, edit of the example's lines, the key the error names or None, fragments)
def _replace(index, **fields):
    def edit(lines):
        lines[index].update(fields)
        return lines
    return edit


def _drop(index):
    return lambda lines: lines[:index] + lines[index + 1:]


def _insert(index, line):
    return lambda lines: lines[:index] + [line] + lines[index:]


MALFORMED = [
    ("unknown-version", _replace(0, format="locksim-history/9"), "format", ["locksim-history/1"]),
    ("no-header", _drop(0), "format", ["header"]),
    ("out-of-order", _replace(5, t=1), "t", ["out of order"]),
    ("unknown-client", _replace(2, p="c9"), "p", ["no process of the header"]),
    ("unknown-client-of-op", _replace(14, client="c3"), "client", ["no process of the header"]),
    ("release-before-grant", _insert(1, {"t": 0, "p": "c1", "local": 0, "type": "release", "session": "s1"}),
     "session", ["before its grant"]),
    ("never-granted", _insert(1, {"t": 0, "p": "c1", "local": 0, "type": "release", "session": "s7"}),
     "session", ["never granted"]),
    ("granted-twice", _insert(6, {"t": 3000000, "p": "c1", "local": 3000000, "type": "grant", "session": "s1",
                                  "value": "a1", "token": -1, "validity_ns": 1, "clock": "monotonic",
                                  "lease_end_local": 1, "promised_end": 1}), "session", ["granted twice"]),
    ("session-of-another-client", _replace(17, session="s2"), "session", ["granted to c2, not c1"]),
    ("typo-in-a-field", _replace(4, reasn="x"), "reasn", ["no such field"]),
    ("unknown-type", _replace(1, type="wants"), "type", ["did you mean"]),
    ("bad-word", _replace(4, outcome="okay"), "outcome", ["ok | fail | info"]),
    ("complete-without-invoke", _drop(2), "op", ["without being invoked"]),
    ("no-end", _drop(21), None, ["no end event"]),
    ("after-end", lambda lines: lines + [dict(lines[1], t=20000000001)], None, ["after the end"]),
    ("unknown-fault", _replace(7, fault="gc-paws"), "fault", ["not in the header's faults"]),
    ("client-event-by-observer", _replace(1, p="observer"), "p", ["recorded by its client"]),
    ("key-event-by-a-client", _replace(3, p="c1"), "p", ["node of the header's service"]),
    ("t-missing", lambda lines: [lines[0]] + [{k: v for k, v in lines[1].items() if k != "t"}] + lines[2:], "t",
     ["missing"]),
    ("t-in-a-local-history", lambda lines: [dict(lines[0], time="local")] + lines[1:], "t", ["time is local"]),
    ("not-an-integer", _replace(3, local="soon"), "local", ["must be an integer"]),
    ("before-zero", _replace(1, t=-1), "t", ["before 0"]),
    ("past-the-range", _replace(21, t=2 ** 62 + 1), "t", ["beyond"]),
    ("change-without-a-range", _replace(11, change=1), "change", ["give its t_latest"]),
    ("one-change-two-ranges", lambda lines: _replace(11, change=1, t_latest=11_004_000_000)(
        _replace(9, change=1, t_latest=11_004_000_000)(lines)), "change", ["one instant"]),
    ("changes-out-of-order", lambda lines: _replace(11, change=1, t_latest=11_004_000_000)(
        _replace(9, change=2, t_latest=11_004_000_000)(lines)), "change", ["order of their numbers"]),
    ("a-later-change-ending-earlier", lambda lines: _replace(11, change=2, t_latest=11_004_000_000)(
        _replace(9, change=1, t_latest=11_009_000_000)(lines)), "t_latest", ["a lower number happened first"]),
    ("reserved-name", lambda lines: [dict(lines[0], processes=lines[0]["processes"] + [
        {"name": "observer", "kind": "other", "clock": "monotonic"}])] + lines[1:], "name", ["reserved"]),
]


@pytest.mark.parametrize("case", MALFORMED, ids=[c[0] for c in MALFORMED])
def test_a_malformed_history_is_refused_with_file_line_and_key(locksim, root, tmp_path, case):
    name, edit, key, fragments = case
    path = edited(root, tmp_path, edit)
    refused = locksim("check", path)
    assert refused.returncode == 2, (refused.stdout, refused.stderr)
    message = refused.stderr
    assert message.count("\n") == 1, message
    assert str(path) in message
    if key is not None:
        assert re.search(re.escape(str(path)) + r":\d+: (processes\[\d+\]: )?" + re.escape(key) + ":", message), message
    for fragment in fragments:
        assert fragment in message, message


def test_a_line_that_is_not_json_is_refused(locksim, tmp_path, root):
    path = tmp_path / "h.jsonl"
    text = (root / EXAMPLE).read_text().splitlines()
    text[3] = text[3][:-1]
    path.write_text("\n".join(text) + "\n")
    refused = locksim("check", path)
    assert refused.returncode == 2 and f"{path}:4: not JSON" in refused.stderr, refused.stderr
    assert locksim("check", tmp_path / "none.jsonl").returncode == 2


def test_run_history_names_each_variant_and_refuses_to_overwrite_the_scenario(locksim, tmp_path, root):
    ran = locksim("run", "single-node-gc-pause", "--history", tmp_path / "h.jsonl")
    assert ran.returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.base.jsonl", "h.fenced.jsonl"]
    same = locksim("run", "single-node-gc-pause", "--variant", "base", "--history", tmp_path / "x.jsonl",
                   "--trace", tmp_path / "x.jsonl")
    assert same.returncode == 2 and "--history" in same.stderr and "--trace" in same.stderr


def test_no_mangled_history_crashes_check(locksim, root, tmp_path):
    """Lines deleted, repeated, swapped, fields dropped or given values of every JSON type, on a common clock and a
    local one: each is judged (0, 1) or refused in one line (2), never a crash."""
    import random
    rng = random.Random(40)
    base = [json.loads(line) for line in (root / EXAMPLE).read_text().splitlines()]
    junk = [None, True, -1, 0, 2 ** 62 + 1, -(2 ** 63), 2 ** 64, 1.5, "", "c1", "unknown", [], {}, ["c1"], {"a": 1}]
    for case in range(int(os.environ.get("LOCKSIM_MANGLED_CASES", "300"))):
        local = case % 3 == 0
        lines = json.loads(json.dumps(local_clocks(json.loads(json.dumps(base))) if local else base))
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(lines))
            what = rng.randrange(5)
            if what == 0:
                del lines[i]
            elif what == 1:
                lines.insert(rng.randrange(len(lines) + 1), json.loads(json.dumps(lines[i])))
            elif what == 2:
                j = rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
            elif lines and isinstance(lines[i], dict) and lines[i]:
                key = rng.choice(sorted(lines[i]))
                if what == 3:
                    del lines[i][key]
                else:
                    lines[i][key] = rng.choice(junk)
        path = tmp_path / f"m{case}.jsonl"
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
        done = locksim("check", path, *(["--clock-uncertainty", "3ms"] if local else []))
        assert done.returncode in (0, 1, 2), (case, done.returncode, done.stderr)
        if done.returncode == 2:
            assert done.stderr.count("\n") == 1 and str(path) in done.stderr, (case, done.stderr)


def test_the_same_run_writes_the_same_history_and_judgement(locksim, tmp_path):
    for i in (1, 2):
        locksim("run", "redlock-clock-jump", "--history", tmp_path / f"{i}.jsonl", "--seed", "7")
    variants = sorted(p.name.split(".")[1] for p in tmp_path.glob("1.*.jsonl"))
    assert variants == ["base", "monotonic-expiry"], variants
    for variant in variants:
        first, second = tmp_path / f"1.{variant}.jsonl", tmp_path / f"2.{variant}.jsonl"
        assert first.read_bytes() == second.read_bytes()
        judged = [locksim("check", p, "--json").stdout.replace(str(p), "H") for p in (first, second)]
        assert judged[0] == judged[1] and '"verdicts"' in judged[0]


def catalogue_histories(locksim, tmp_path):
    """(scenario, its run's verdicts for one variant, that variant's history as a list of lines), all variants."""
    for name in catalogue(locksim):
        ran = json.loads(locksim("run", name, "--json", "--history", tmp_path / f"{name}.jsonl").stdout)
        several = len(ran["variants"]) > 1
        for v in ran["variants"]:
            path = tmp_path / (f"{name}.{v['name']}.jsonl" if several else f"{name}.jsonl")
            yield name, v, [json.loads(line) for line in path.read_text().splitlines()]


def tally_against_the_run(locksim, path, v, *args):
    """check's verdicts on |path| against run's |v|: (decided, unknown); fails on a decided verdict that differs."""
    judged = locksim("check", path, "--json", *args)
    assert judged.returncode in (0, 1), (v["name"], judged.stderr)
    decided = unknown = 0
    for prop, verdict in json.loads(judged.stdout)["verdicts"].items():
        if verdict["status"] == "unknown":
            unknown += 1
        else:
            decided += 1
            assert verdict["status"] == v["verdicts"][prop]["status"], (v["name"], prop, args)
    return decided, unknown


def as_local(lines, offsets):
    """A common-clock history as its processes would have logged it on clocks |offsets| ns off true time: each
    event at t + its recorder's offset, each lease end at its true end + the client's (no end: unknown)."""
    header, events = lines[0], lines[1:]
    header = dict(header, time="local")
    out = [header]
    for e in events:
        e = dict(e)
        offset = offsets[e["p"]]
        e["local"] = e.pop("t") + offset
        if "promised_end" in e:
            end = e.pop("promised_end")
            if end is None:
                e.pop("lease_end_local")
            else:
                e["lease_end_local"] = end + offset
        out.append(e)
    return out


def test_on_local_clocks_every_decided_verdict_is_the_true_one(locksim, tmp_path):
    """The catalogue's histories on clocks up to u apart (the true order among those the bound allows): wherever
    check decides, it decides what the run's true times say — never holds where the run was violated."""
    import random
    rng = random.Random(7)
    decided = unknown = 0
    for name, v, lines in catalogue_histories(locksim, tmp_path):
        u = rng.choice([1_000_000, 5_000_000, 50_000_000])
        names = [p["name"] for p in lines[0]["processes"]] + ["observer"]
        offsets = {n: rng.randint(0, u) for n in names}
        local = tmp_path / "local.jsonl"
        local.write_text("".join(json.dumps(x) + "\n" for x in as_local(lines, offsets)))
        # One pair told more tightly, as it truly is: a pair's own bound.
        a, b = rng.sample(names, 2)
        pair = f"{a}:{b}={abs(offsets[a] - offsets[b])}ns"
        d, n = tally_against_the_run(locksim, local, v, "--clock-uncertainty", f"{u}ns", "--clock-uncertainty", pair)
        decided, unknown = decided + d, unknown + n
    assert decided > 100, (decided, unknown)

def test_a_real_etcd_run_is_judged_over_its_key_changes_ranges(locksim, root, tmp_path):
    """The real-etcd referee's history in the docs: its owner changes known only within ranges still decide P4
    (c1's late write is outside them); without the keys, P4 is unknown, never holds."""
    example = "docs/examples/real-etcd-gc-pause.history.jsonl"
    got = statuses(locksim, example)
    assert {k: s for k, (s, _) in got.items()} == {"P1": "holds", "P2": "violated", "P3": "violated",
                                                    "P4": "violated", "P5": "violated"}
    lines = [json.loads(line) for line in (root / example).read_text().splitlines()]
    assert any("change" in x and x["t_latest"] > x["t"] for x in lines[1:] if x["type"] == "key-held")
    lines[0]["service"]["recorded"] = False
    keyless = tmp_path / "keyless.jsonl"
    keyless.write_text("".join(json.dumps(x) + "\n" for x in lines if not x.get("type", "").startswith("key-")))
    assert statuses(locksim, keyless)["P4"][0] == "unknown"


def test_a_key_event_known_only_within_a_range_is_judged_over_it(locksim, root, tmp_path):
    """c2's key written somewhere in [t, t_latest]: its op is from the holder only if the write came first."""
    def ranged(latest):
        def edit(lines):
            lines = [x for x in lines if not (x.get("type") in ("op", "app") and x.get("session") == "s1")]
            lines = [x for x in lines if not (x.get("type") == "app" and x.get("counter") == 2)]
            for x in lines:
                if x.get("type") == "key-held" and x.get("value") == "b2":
                    x["t_latest"] = latest
            return lines
        return edit

    before = statuses(locksim, edited(root, tmp_path, ranged(11_009_000_000), "before.jsonl"))
    assert before["P4"][0] == "holds", before
    spanning = statuses(locksim, edited(root, tmp_path, ranged(11_020_000_000), "spanning.jsonl"))
    assert spanning["P4"][0] == "unknown" and "time ranges" in spanning["P4"][1], spanning
    assert spanning["P2"][0] == "violated"  # no key event moves a belief
    refused = locksim("check", edited(root, tmp_path, ranged(1), "bad.jsonl"))
    assert refused.returncode == 2 and "t_latest" in refused.stderr and "before the event's t" in refused.stderr


def test_with_key_events_in_ranges_every_decided_verdict_is_the_true_one(locksim, tmp_path):
    """The catalogue's histories with every key event known only within a range around its true instant: wherever
    check decides, it decides what the run's true times say."""
    import random
    rng = random.Random(11)
    decided = unknown = 0
    for name, v, lines in catalogue_histories(locksim, tmp_path):
        width = rng.choice([100_000, 2_000_000, 20_000_000])
        for x in lines[1:]:
            if x["type"] in ("key-held", "key-dropped"):
                early = rng.randint(0, min(width, x["t"]))
                x["t_latest"] = x["t"] + rng.randint(0, width)
                x["t"] -= early
        events = sorted(lines[1:-1], key=lambda x: x["t"])
        ranged = tmp_path / "ranged.jsonl"
        ranged.write_text("".join(json.dumps(x) + "\n" for x in [lines[0], *events, lines[-1]]))
        d, n = tally_against_the_run(locksim, ranged, v)
        decided, unknown = decided + d, unknown + n
    assert decided > 300 and unknown > 0, (decided, unknown)


def _store_history(numbered):
    """Three holders of a store's lock in turn, each change known only within a range; the ranges of the two
    changes overlap. c3, the last holder, writes after both: current whatever the instants, if the changes happened
    in their order (numbered); unnumbered, each event moves on its own and some orders leave c2 holding."""
    def key(t, event, value, change, **more):
        line = {"t": t, "p": "s1", "local": t, "type": event, "key": "lock", "value": value, **more}
        if change is not None:
            line["t_latest"] = t + 10_000_000
            if numbered:
                line["change"] = change
        return line

    def grant(t, client, session, value):
        return {"t": t, "p": client, "local": t, "type": "grant", "session": session, "value": value, "token": -1,
                "validity_ns": 1_000_000, "clock": "monotonic", "lease_end_local": t + 1_000_000,
                "promised_end": t + 1_000_000}

    header = {"format": "locksim-history/1", "time": "common", "source": "hand-written: three holders in turn",
              "processes": [{"name": n, "kind": "client", "clock": "monotonic"} for n in ("c1", "c2", "c3")] + [
                  {"name": "s1", "kind": "store", "clock": "monotonic"},
                  {"name": "storage", "kind": "resource", "clock": "monotonic"}],
              "service": {"nodes": ["s1"], "quorum": 1, "key": "lock", "replicated_state": True, "recorded": True},
              "app": "none", "faults": []}
    return [header, key(1_000_000, "key-held", "a1", None), grant(2_000_000, "c1", "s1", "a1"),
            key(10_000_000, "key-dropped", "a1", 1, reason="deleted"), key(10_000_000, "key-held", "b2", 1),
            key(15_000_000, "key-dropped", "b2", 2, reason="expired"), key(15_000_000, "key-held", "c3", 2),
            grant(21_000_000, "c2", "s2", "b2"), grant(26_000_000, "c3", "s3", "c3"),
            {"t": 30_000_000, "p": "storage", "local": 30_000_000, "type": "op", "session": "s3", "client": "c3",
             "op": "write", "accepted": True, "reject": "none", "token": -1},
            {"t": 40_000_000, "p": "observer", "local": 40_000_000, "type": "end"}]


def test_numbered_changes_happen_whole_and_in_their_order(locksim, tmp_path):
    for numbered, p4 in ((True, "holds"), (False, "unknown")):
        path = tmp_path / f"store-{numbered}.jsonl"
        path.write_text("".join(json.dumps(x) + "\n" for x in _store_history(numbered)))
        got = statuses(locksim, path)
        assert got["P4"][0] == p4, (numbered, got)
