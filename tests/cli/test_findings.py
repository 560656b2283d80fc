"""Findings a reviewer can trust: every fault says whether it fired, [expect]
can require it, and a fault that cannot fire is refused before the run."""
import json
import re

import pytest

STORY = """
[scenario]
name = "never-fires"
run_for = "20s"

[lock]
ttl = "60s"

[client.c1]
steps = ["work 30s"]

[client.c2]
start = "1s"
steps = ["read", "write"]
retry_delay = "1s"

[fault.c2-pause]
kind = "pause"
target = "c2"
at = "c2 acquired"
length = "5s"

[fault.c1-pause]
kind = "pause"
target = "c1"
at = "2s"
length = "1s"
"""


@pytest.fixture
def story(tmp_path):
    path = tmp_path / "never.toml"
    path.write_text(STORY)
    return path


def test_a_fault_that_never_fires_is_reported_in_the_table(locksim, story):
    """c2 never gets the lock (c1 holds it past the run), so its pause never fires: the table says so."""
    result = locksim("run", story)
    assert result.returncode == 0, result.stderr
    assert "faults: c2-pause never fired; c1-pause fired at 2s" in result.stdout
    assert "  fault c2-pause never fired\n" in result.stdout


def test_fault_outcomes_in_json(locksim, story):
    """--json carries each fault: times fired, with effect, first time (ns), and the text."""
    result = locksim("run", story, "--json")
    faults = json.loads(result.stdout)["variants"][0]["faults"]
    assert faults == [
        {"name": "c2-pause", "fired": 0, "effective": 0, "first_at_ns": None, "first_effective_at_ns": None,
         "text": "never fired"},
        {"name": "c1-pause", "fired": 1, "effective": 1, "first_at_ns": 2_000_000_000,
         "first_effective_at_ns": 2_000_000_000, "text": "fired at 2s"},
    ]


def test_expect_fired_turns_a_silent_no_op_into_a_mismatch(locksim, story):
    """[expect] fired = [...] fails the run (exit 1) when a listed fault did not fire with an effect."""
    story.write_text(STORY + '\n[expect]\nfired = ["c2-pause", "c1-pause"]\n')
    result = locksim("run", story)
    assert result.returncode == 1
    assert "MISMATCH fired: expected c2-pause fires, got c2-pause never fired" in result.stdout
    assert "reproduce:" in result.stdout


def test_a_fault_without_effect_is_told_apart(locksim, story):
    """A pause of a crashed process fires but changes nothing: 'fired once, never with an effect'."""
    story.write_text(STORY + '\n[fault.c1-crash]\nkind = "crash"\ntarget = "c1"\nat = "1s"\n'
                     '[expect]\nfired = ["c1-pause"]\n')
    result = locksim("run", story)
    assert result.returncode == 1
    assert "fault c1-pause fired once, never with an effect" in result.stdout


def test_trace_has_a_fact_for_each_firing(locksim, story, tmp_path):
    """The trace says which named fault fired and whether it took effect."""
    trace = tmp_path / "t.jsonl"
    locksim("run", story, "--trace", trace)
    lines = [json.loads(l) for l in trace.read_text().splitlines()]
    fired = [l for l in lines if l["type"] == "fault-fired"]
    assert fired == [{"t": 2_000_000_000, "type": "fault-fired", "fault": "c1-pause", "took_effect": True}]


def test_per_client_outcomes_and_bounds(locksim, story):
    """Each client's sessions, ops, releases and longest wait are shown, in --json too, and [expect.NAME] bounds them."""
    story.write_text(STORY + '\n[expect.c2]\nsessions = 0\nwait = "< 10s"\n[expect.c1]\nsessions = ">= 1"\n')
    result = locksim("run", story)
    assert result.returncode == 1
    assert "    c2: 0 sessions; longest wait 19s (still waiting at the end)" in result.stdout
    assert "MISMATCH c2.wait: expected < 10s, got 19s (still waiting)" in result.stdout
    assert "c1.sessions" not in result.stdout  # that bound holds
    clients = json.loads(locksim("run", story, "--json").stdout)["variants"][0]["clients"]
    assert [c["name"] for c in clients] == ["c1", "c2"]
    assert clients[1]["longest_wait_ns"] == 19_000_000_000 and clients[1]["waiting_at_end"] is True
    assert set(clients[0]["rejected"]) == {"stale-token", "mark-mismatch", "out-of-stock", "missing-token",
                                             "rolled-back"}


def test_initial_keyspace(locksim, tmp_path):
    """[redis.initial]: a fencing counter that starts at 32 (first token 33) and a stale lock that expires after 5 s."""
    path = tmp_path / "initial.toml"
    path.write_text("""
[scenario]
name = "initial"
run_for = "30s"
[lock]
fencing = "incr"
[redis.initial]
fence = 32
lock = { value = "left-by-a-dead-client", ttl = "5s" }
[resource]
policy = "fencing"
[client.c1]
steps = ["read", "write"]
[expect.c1]
wait = "> 4.9s"
sessions = 1
""")
    trace = tmp_path / "t.jsonl"
    result = locksim("run", path, "--trace", trace)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = [json.loads(l) for l in trace.read_text().splitlines()]
    assert lines[1]["type"] == "key-held" and lines[1]["t"] == 0 and lines[1]["key"] == "lock"
    grant = next(l for l in lines if l["type"] == "grant")
    assert grant["token"] == 33 and grant["t"] > 5_000_000_000


def test_version(locksim):
    """locksim --version prints the version the sweep manifests record, the allocator the binary runs with and how it was built."""
    result = locksim("--version")
    assert result.returncode == 0
    version, allocator, build = result.stdout.splitlines()
    assert version.startswith("locksim ") and version.count(".") == 2
    assert re.fullmatch(r"allocator: (mimalloc \d+\.\d+\.\d+|the C library's malloc)", allocator), allocator
    assert re.fullmatch(r"build: (Release|Debug|RelWithDebInfo|MinSizeRel)(, link-time optimised)?"
                        r"(, writing a training profile|, built from a training profile)?", build), build


def test_run_a_catalogue_scenario_by_name_from_anywhere(locksim, tmp_path):
    """run NAME finds the catalogue scenario, also outside the repository (the catalogue the binary was built with)."""
    result = locksim("run", "single-node-gc-pause", "--variant", "base", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "single-node-gc-pause" in result.stdout
    missing = locksim("run", "no-such-story", cwd=tmp_path)
    assert missing.returncode == 2 and "no catalogue scenario of that name" in missing.stderr


def test_list_prints_paths(locksim):
    """list names each scenario with the path of its file."""
    lines = locksim("list").stdout.splitlines()
    assert ["client-presets", "scenarios/client-presets.toml"] in [line.split() for line in lines]


def test_trace_lines_are_in_time_order(locksim, tmp_path):
    """Every line's t is at or after the previous one's (promises are written when they are known, at the end)."""
    trace = tmp_path / "t.jsonl"
    locksim("run", "scenarios/redlock-delayed-replies.toml", "--variant", "base", "--trace", trace)
    times = [json.loads(l)["t"] for l in trace.read_text().splitlines()]
    assert times == sorted(times)
    promises = [json.loads(l) for l in trace.read_text().splitlines() if '"promise"' in l]
    assert promises and all(p["t"] == times[-1] and p["at"] < p["t"] for p in promises)
