"""The interactive timeline: its data (lanes, tooltips, what a violation highlights) without a browser, the page it
writes, and the page in Debian's headless Chromium driven through puppeteer-core (tests/browser)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from analysis import timeline_html
from analysis.timeline_html_data import UNIT_NS, drop_bursts, timeline_data, when
from analysis.trace import Message, load

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
S = 1_000_000_000


@pytest.fixture(scope="module")
def traces(locksim_bin, tmp_path_factory) -> dict[str, Path]:
    """Real traces: "scenario.variant" -> path, for the stories the tests look at."""
    out = tmp_path_factory.mktemp("html")
    for name in ("redlock-clock-jump", "sentinel-split-brain", "etcd-leader-failover", "oversell-incident",
                 "single-node-gc-pause"):
        done = subprocess.run([str(locksim_bin), "run", f"scenarios/{name}.toml", "--trace", str(out / f"{name}.jsonl")],
                              capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert done.returncode == 0, done.stderr
    # A scenario of one variant writes NAME.jsonl, of several NAME.VARIANT.jsonl.
    return {p.stem if "." in p.stem else f"{p.stem}.base": p for p in out.glob("*.jsonl")}


def _items(data, group: str):
    return [i for i in data.items if i.group == group]


def test_a_redlock_run_has_a_lane_per_client_node_and_the_resource(traces):
    data = timeline_data(load(traces["redlock-clock-jump.base"]))
    assert data.lane_ids() == ["violations", "client:c1", "client:c2", "holder", "node:A", "node:B", "node:C",
                               "node:D", "node:E", "resource:resource", "network"]
    beliefs = [i for i in _items(data, "client:c1") if "lt-belief" in i.class_name]
    assert [(i.content, i.start_ns) for i in beliefs] == [("s1", 106_000_000)]
    # The page opens on the activity (4.1 s of a 20 s run), not on the idle end.
    assert 4 * S < data.view_end_ns < 5 * S and data.end_ns == 20 * S


def test_tooltips_give_true_time_and_the_process_own_clock(traces):
    """C's wall clock jumped +15 s at 1 s and its copy of c1's key expired then: the hold's tooltip says so in both
    times; c1's clocks never moved, and its tooltip says that instead of repeating the number."""
    data = timeline_data(load(traces["redlock-clock-jump.base"]))
    (hold,) = [i for i in _items(data, "node:C") if "lt-hold" in i.class_name and i.start_ns < S]
    assert "C&#x27;s wall clock 16 s, monotonic 1 s" in hold.title and "expired" in hold.title
    (jump,) = [i for i in _items(data, "node:C") if "lt-clock" in i.class_name]
    assert jump.content == "wall clock jumps +15 s" and "1 s · C&#x27;s wall clock 16 s" in jump.title
    belief = next(i for i in _items(data, "client:c1") if "lt-belief" in i.class_name)
    assert "its clocks read true time" in belief.title


def test_a_violation_names_the_items_of_its_witness_sessions(traces):
    trace = load(traces["redlock-clock-jump.base"])
    data = timeline_data(trace)
    by_property = {v["property"]: v for v in data.violations}
    assert set(by_property) == {"grant-exclusive", "belief-exclusive", "resource-exclusive", "resource-current"}
    p1 = by_property["grant-exclusive"]
    named = {i.id: i for i in data.items if i.id in p1["items"]}
    assert {s for i in named.values() for s in i.sessions} == {1, 2}
    # Both beliefs, both windows, every node's copy of either value, the holder's two stretches, the writes.
    kinds = sorted(i.class_name.split()[0] for i in named.values())
    assert kinds.count("lt-belief") == 2 and kinds.count("lt-window") == 2 and kinds.count("lt-holder") == 2
    assert kinds.count("lt-hold") == 6 and kinds.count("lt-op") == 3
    # Every item of those sessions, and nothing else.
    assert set(p1["items"]) == {i.id for i in data.items if {1, 2} & set(i.sessions)}
    assert p1["start"] == 2_106_000_000 / UNIT_NS


def test_partitions_show_their_groups(traces):
    data = timeline_data(load(traces["sentinel-split-brain.base"]))
    (cut,) = [i for i in _items(data, "network") if "lt-partition" in i.class_name]
    assert cut.content == "partition {M, c1} | {R, s1, s2, s3, c2}"
    assert (cut.start_ns, cut.end_ns) == (1 * S, 10 * S)


def test_consensus_members_show_their_roles(traces):
    data = timeline_data(load(traces["etcd-leader-failover.base"]))
    roles = [i.content for i in data.items if "lt-role" in i.class_name and i.group.startswith("node:")]
    assert any(r.startswith("leader · term") for r in roles) and any(r.startswith("follower of") for r in roles)


def test_resource_ops_say_accepted_or_rejected_with_their_tokens(traces):
    """Kleppmann's pause, fenced: c2's write with token 2 is accepted, c1's late one with token 1 bounces."""
    data = timeline_data(load(traces["single-node-gc-pause.fenced"]))
    ops = {(i.content, i.start_ns): i for i in data.items if i.class_name.startswith("lt-op")}
    c2_write = ops[("c2 write", 10_025_000_000)]
    assert "lt-op-ok" in c2_write.class_name
    assert "<b>c2&#x27;s write accepted</b>" in c2_write.title
    assert "<td>fencing token</td><td>2</td>" in c2_write.title and "<td>verdict</td><td>accepted</td>" in c2_write.title
    c1_write = ops[("c1 write ✗", 15_007_000_000)]
    assert "lt-op-rejected" in c1_write.class_name
    assert "<td>fencing token</td><td>1</td>" in c1_write.title
    assert "<td>verdict</td><td>rejected (stale-token)</td>" in c1_write.title
    # An unfenced story's ops carry no token row at all.
    unfenced = [i for i in timeline_data(load(traces["oversell-incident.base"])).items if i.class_name.startswith("lt-op")]
    assert unfenced and not any("fencing token" in i.title for i in unfenced)


def test_a_trace_without_clock_lines_gives_true_time_only():
    """Hand-made traces (and traces of older versions) have no clock lines: true time, and nothing invented."""
    trace = load(DATA / "single_node_gc_pause.jsonl")
    assert trace.clocks == {}
    assert when(1_500_000_000, "c1", trace.clocks) == "1.5 s"
    data = timeline_data(trace)
    assert [v["property_id"] for v in data.violations] == ["P2", "P3", "P4", "P5"]


def test_drops_between_the_same_two_processes_are_one_burst():
    def drop(t, to="M"):
        return Message(t, "partition-drop", "s1", to, "PING")
    bursts = drop_bursts([drop(0), drop(100), drop(150, "R"), drop(10**9)], gap_ns=200)
    assert [[m.t for m in b] for b in bursts] == [[0, 100], [150], [10**9]]


def test_the_page_is_one_file_that_fetches_nothing(traces, tmp_path):
    out = tmp_path / "t.html"
    assert timeline_html.main([str(traces["redlock-clock-jump.base"]), "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=", text) and "sourceMappingURL" not in text
    # Every script ends where it should: the library's own text never closes its tag early.
    assert text.count("</script>") == 4  # the library, the page script, the data, the mount
    assert text.count(timeline_html.library_text()[:200].replace("</script", "<\\/script")) == 1
    payload = re.search(r'<script type="application/json" id="timeline-data">(.*?)</script>', text, re.S).group(1)
    data = json.loads(payload)
    assert len(data["groups"]) == 11 and data["violations"]


def test_bad_input_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    assert timeline_html.main([str(DATA / "single_node_gc_pause.jsonl"), "--out", str(tmp_path / "t.png")]) == 2
    assert "is an .html file" in capsys.readouterr().err
    assert timeline_html.main([str(tmp_path / "missing.jsonl"), "--out", str(tmp_path / "t.html")]) == 2
    monkeypatch.setattr(timeline_html, "LIBRARY", tmp_path / "nowhere.js")
    assert timeline_html.main([str(DATA / "single_node_gc_pause.jsonl"), "--out", str(tmp_path / "t.html")]) == 2
    err = capsys.readouterr().err
    assert "npm ci --prefix" in err and err.count("\n") == 2  # one line per failure above


# --- in a real browser ------------------------------------------------------------------------------------------


def _browser_tools() -> tuple[str, Path]:
    chromium = next((shutil.which(n) for n in ("chromium", "chromium-browser") if shutil.which(n)), None)
    web = ROOT / "analysis" / "web"
    if chromium is None or shutil.which("node") is None:
        pytest.skip("no Chromium or Node.js: bash scripts/setup installs them")
    if not (web / "node_modules" / "puppeteer-core").is_dir() or not timeline_html.LIBRARY.is_file():
        pytest.skip("no analysis/web/node_modules: bash scripts/setup runs npm ci there")
    return chromium, web


@pytest.mark.parametrize("story", ["redlock-clock-jump.base", "sentinel-split-brain.base",
                                   "etcd-leader-failover.base", "redlock-clock-jump.monotonic-expiry"])
def test_the_page_works_in_headless_chromium(traces, tmp_path, story):
    """Loads with no console error and fetches nothing; every lane renders; hovering an op shows its tooltip; the
    wheel zooms; a violation's button selects exactly what its witness names; a lane can be hidden."""
    chromium, web = _browser_tools()
    page = tmp_path / f"{story}.html"
    assert timeline_html.main([str(traces[story]), "--out", str(page)]) == 0
    shot = tmp_path / f"{story}.png"
    done = subprocess.run(["node", str(ROOT / "tests" / "browser" / "timeline_page_check.cjs"), str(page), str(shot)],
                          capture_output=True, text=True, timeout=180,
                          env={**os.environ, "LOCKSIM_WEB": str(web), "CHROMIUM": chromium})
    found = json.loads(done.stdout.strip().splitlines()[-1]) if done.stdout.strip() else {"failures": [done.stderr]}
    assert done.returncode == 0 and not found["failures"], found
    assert found["lanes_drawn"] == found["lanes_expected"] and found["tooltip"]
    assert shot.stat().st_size > 10_000
    keep = os.environ.get("LOCKSIM_SCREENSHOTS")
    if keep:  # for a person to look at
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(keep) / shot.name)


def test_an_invariant_witness_names_the_session_whose_op_broke_it():
    """P5's witness names the session whose write lost the update (c1's late write): it highlights that session's
    items, the write among them."""
    data = timeline_data(load(DATA / "single_node_gc_pause.jsonl"))
    (p5,) = [v for v in data.violations if v["property_id"] == "P5"]
    named = [i for i in data.items if i.id in p5["items"]]
    assert named and all(1 in i.sessions for i in named)
    assert any("lt-op-ok" in i.class_name and i.start_ns == p5["start"] * UNIT_NS for i in named)


def test_an_acquire_attempt_lists_the_replies_it_got(traces):
    """c1's first attempt in redlock-clock-jump: A, B and C answer OK; D and E are cut off from it."""
    data = timeline_data(load(traces["redlock-clock-jump.base"]))
    first = next(i for i in _items(data, "client:c1") if "lt-attempt" in i.class_name)
    assert "replies</td><td>A ok · B ok · C ok</td>" in first.title
    etcd = timeline_data(load(traces["etcd-leader-failover.base"]))
    attempt = next(i for i in _items(etcd, "client:c1") if "lt-attempt" in i.class_name)
    assert re.search(r"replies</td><td>s\d ok", attempt.title)
