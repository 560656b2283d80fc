"""locksim search, search-merge and shrink from the command line: exit codes,
what is written, determinism across threads and shards, and the regression
corpus of findings (scenarios/found/) replayed."""
import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CANARY = ROOT / "tests" / "data" / "search-canary.toml"
FOUND = sorted((ROOT / "scenarios" / "found").glob("*.toml"))
SEARCH_SPACES = sorted((ROOT / "scenarios" / "search").glob("*.toml"))


def summary(directory):
    return json.loads((directory / "search.json").read_text())


# Every saved finding replays from its file alone and still breaks what its
# [expect] says: the regression corpus.
@pytest.mark.parametrize("path", FOUND, ids=[p.stem for p in FOUND])
def test_found_corpus_replays(locksim, path):
    r = locksim("run", path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "violated" in r.stdout
    assert path.read_text().startswith("# Found by `locksim search"), "each finding says how it was found"


def test_found_corpus_is_not_empty():
    assert len(FOUND) >= 5


# Each story's search space finds a violation of the story's property, and a
# shrunk finding has no more faults than the published counterexample.
PUBLISHED_FAULTS = {"gc-pause": 1, "redlock-clock-jump": 3, "redlock-crash-restart": 3,
                    "redlock-delayed-replies": 1, "sentinel-failover": 1,
                    # the planted compound counterexamples: three pauses; a pause and a step (or two pauses)
                    "redlock-compound-pauses": 3, "pause-plus-clock-step": 2}


@pytest.mark.parametrize("path", SEARCH_SPACES, ids=[p.stem for p in SEARCH_SPACES])
def test_each_search_space_finds_its_story(locksim, path, tmp_path):
    r = locksim("search", path, "--seed", "1", "--threads", "2", "--explain-seeds", "20", "--out", tmp_path)
    assert r.returncode == 1, r.stdout + r.stderr
    s = summary(tmp_path)
    assert s["findings"], r.stdout
    finding = s["findings"][0]
    assert finding["property"] in s["hunt"]
    assert finding["faults_shrunk"] <= PUBLISHED_FAULTS[path.stem]
    replay = locksim("run", tmp_path / "found-1.toml")
    assert replay.returncode == 0, replay.stdout + replay.stderr
    for ext in (".md", ".trace.jsonl"):
        assert (tmp_path / ("found-1" + ext)).stat().st_size > 0


# The remedies: "not found", exit 0, the statement that is no proof, the
# coverage, and the closest run written as a near miss that replays alone.
@pytest.mark.parametrize("path,variant", [("gc-pause", "fenced"), ("redlock-clock-jump", "monotonic-expiry"),
                                          ("redlock-crash-restart", "aof-always"),
                                          ("redlock-crash-restart", "delayed-restart"),
                                          ("redlock-compound-pauses", "fenced"),
                                          ("pause-plus-clock-step", "fenced")])
def test_safe_configurations_find_nothing(locksim, path, variant, tmp_path):
    r = locksim("search", ROOT / "scenarios" / "search" / (path + ".toml"), "--variant", variant,
                "--budget", "3000", "--threads", "2", "--out", tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "not found in 3000 runs (portfolio). Not a proof of safety" in r.stdout
    assert "fewer than 3/3000 (0.1%) break a hunted property, at 95 % confidence" in r.stdout
    assert "coverage (what was tried; nothing else was):" in r.stdout and "closest margin" in r.stdout
    assert "fired in" in r.stdout and "runs by searched faults fired" in r.stdout
    s = summary(tmp_path)
    assert s["result"] == "not found" and not s["findings"]
    assert s["near_misses"], "the closest run is kept"
    near = s["near_misses"][0]
    assert near["margin_ns"] >= 0 and near["property"] in s["hunt"]
    assert f"near miss: " in r.stdout and near["file"] in r.stdout
    replay = locksim("run", near["file"])
    assert replay.returncode == 0 and "matches [expect]" in replay.stdout, replay.stdout + replay.stderr
    text = pathlib.Path(near["file"]).read_text()
    assert "a near miss, not a counterexample" in text and "to spare" in text


# Same file, options and seed: the same --json whatever --threads (the wall
# clock's runs/s is not in it).
def test_json_is_the_same_on_one_thread_and_two(locksim, tmp_path):
    outs = []
    for threads in ("1", "2"):
        d = tmp_path / threads
        r = locksim("search", ROOT / "scenarios/search/gc-pause.toml", "--seed", "3", "--all", "--threads", threads,
                    "--explain-seeds", "10", "--json", "--out", d)
        assert r.returncode == 1, r.stderr
        outs.append(r.stdout.replace(str(d), "DIR"))
    assert outs[0] == outs[1]
    assert (tmp_path / "2" / "found-1.toml").read_text() == (tmp_path / "1" / "found-1.toml").read_text()


def test_canary_is_found_by_every_strategy(locksim):
    for strategy in ("uniform", "swarm", "phase", "margin", "portfolio"):
        r = locksim("search", CANARY, "--strategy", strategy, "--no-shrink", "--explain-seeds", "5", "--json")
        assert r.returncode == 1, strategy + r.stderr
        assert json.loads(r.stdout)["findings"][0]["property"] == "invariant"


# Shards searched apart and merged in any order give one result, and its
# finding replays.
def test_shards_merge_in_any_order(locksim, tmp_path):
    dirs = []
    for k in (1, 2, 3):
        d = tmp_path / f"shard{k}"
        r = locksim("search", ROOT / "scenarios/search/gc-pause.toml", "--seed", "4", "--budget", "3000",
                    "--shard", f"{k}/3", "--explain-seeds", "5", "--out", d)
        assert r.returncode in (0, 1), r.stderr
        dirs.append(d)
    a = locksim("search-merge", dirs[2], dirs[0], dirs[1], "--out", tmp_path / "a")
    b = locksim("search-merge", *dirs, "--out", tmp_path / "b")
    assert a.returncode == b.returncode == 1, a.stdout + a.stderr
    sa, sb = summary(tmp_path / "a"), summary(tmp_path / "b")
    for s in (sa, sb):
        for f in s["findings"] + s["near_misses"] + s["crashes"]:
            f["file"] = pathlib.Path(f["file"]).name
    assert sa == sb
    assert sa["shards"] == [1, 2, 3] and sa["shard_count"] == 3
    assert sa["runs"] == sum(summary(d)["runs"] for d in dirs)
    for kind in sa["coverage"]["kinds"]:
        assert kind["placed"] == sum(k["placed"] for d in dirs for k in summary(d)["coverage"]["kinds"]
                                     if k["kind"] == kind["kind"])
    first = min((f["shard"], f["run"]) for d in dirs for f in summary(d)["findings"])
    assert (sa["findings"][0]["shard"], sa["findings"][0]["run"]) == first
    assert locksim("run", tmp_path / "a" / "found-1.toml").returncode == 0


def test_merge_refuses_shards_of_different_searches(locksim, tmp_path):
    for k, seed in ((1, "4"), (2, "5")):
        locksim("search", ROOT / "scenarios/search/gc-pause.toml", "--variant", "fenced", "--seed", seed,
                "--budget", "200", "--shard", f"{k}/2", "--out", tmp_path / str(k))
    r = locksim("search-merge", tmp_path / "1", tmp_path / "2", "--out", tmp_path / "m")
    assert r.returncode == 2
    assert "is a shard of another search: its seed is 5, not 4" in r.stderr
    twice = locksim("search-merge", tmp_path / "1", tmp_path / "1", "--out", tmp_path / "m")
    assert twice.returncode == 2 and "given twice" in twice.stderr
    missing = locksim("search-merge", tmp_path / "nowhere", "--out", tmp_path / "m")
    assert missing.returncode == 2 and "search.json: cannot open" in missing.stderr


# locksim shrink on a story written by hand: fewer faults, smaller magnitudes,
# still broken; exit 1 when the run breaks nothing.
def test_shrink_a_catalogue_story(locksim, tmp_path):
    out = tmp_path / "shrunk.toml"
    r = locksim("shrink", ROOT / "scenarios/redlock-clock-jump.toml", "--explain-seeds", "10", "--out", out)
    assert r.returncode == 0, r.stdout + r.stderr
    text = out.read_text()
    assert "# Shrunk by `locksim shrink" in text
    assert text.count("[fault.") == 2  # the jump and c1's partition; c2's is not needed
    assert 'by = "+7.7s"' in text     # bisected from the story's +15 s
    assert locksim("run", out).returncode == 0
    safe = locksim("shrink", ROOT / "scenarios/redlock-clock-jump.toml", "--variant", "monotonic-expiry")
    assert safe.returncode == 1 and "breaks no property: nothing to shrink" in safe.stderr and safe.stdout == ""


def test_shrink_to_standard_output_writes_the_scenario_alone_and_records_every_flag(locksim, tmp_path):
    """Without --out, standard output is only the shrunk scenario (`shrink X > x.toml` reads back); the finding
    goes to standard error; the header's replay command keeps the --variant and every --set that made the run."""
    r = locksim("shrink", ROOT / "scenarios/redlock-clock-jump.toml", "--set", "lock.ttl=10s", "--set",
                "redlock.node_timeout=50ms", "--explain-seeds", "3")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("# Shrunk by `locksim shrink ") and "finding 1:" not in r.stdout
    assert "--set lock.ttl=10s --set redlock.node_timeout=50ms --seed 1" in r.stdout.splitlines()[0]
    assert "finding 1: P1 grant-exclusive" in r.stderr
    saved = tmp_path / "shrunk.toml"
    saved.write_text(r.stdout)
    assert locksim("validate", saved).returncode == 0
    assert locksim("run", saved).returncode == 0


@pytest.mark.parametrize("args,fragment", [
    (["search", "scenarios/search/gc-pause.toml", "--strategy", "bogus"], "unknown --strategy 'bogus'"),
    (["search", "scenarios/search/gc-pause.toml", "--shard", "3/2"], "--shard expects K/N"),
    (["search", "scenarios/search/gc-pause.toml", "--budget", "0"], "--budget must be a whole number"),
    (["search", "scenarios/search/gc-pause.toml", "--property", "bogus"], "unknown property 'bogus'"),
    (["search", "scenarios/search/gc-pause.toml", "--time", "0s"], "--time expects a duration"),
    (["search", "scenarios/single-node-gc-pause.toml"], "has no [search] section"),
    (["search", "scenarios/search/gc-pause.toml", "--variant", "nope"], 'unknown variant "nope"'),
    (["search-merge", "--out", "x"], "give the shards' directories"),
    (["shrink", "scenarios/redlock-clock-jump.toml", "--property", "bogus"], "unknown property 'bogus'"),
])
def test_bad_search_command_lines_exit_2(locksim, args, fragment):
    r = locksim(*args)
    assert r.returncode == 2, r.stdout + r.stderr
    assert fragment in r.stderr


# Replay lines name locksim as the user invoked it: the path typed, or the bare
# name when a shell found it on PATH (an installed locksim).
def test_replay_lines_name_the_command_as_invoked(locksim, tmp_path):
    space = ROOT / "scenarios" / "search" / "gc-pause.toml"
    typed = subprocess.run([locksim.binary, "search", space, "--seed", "1", "--budget", "2000", "--out", tmp_path / "a"],
                           capture_output=True, text=True, timeout=120)
    assert typed.returncode == 1, typed.stdout + typed.stderr
    assert f"replay: {locksim.binary} run {tmp_path / 'a' / 'found-1.toml'}" in typed.stdout
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "locksim").symlink_to(locksim.binary)
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}")
    on_path = subprocess.run(["locksim", "search", space, "--seed", "1", "--budget", "2000", "--out", "b"],
                             capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert on_path.returncode == 1, on_path.stdout + on_path.stderr
    assert "replay: locksim run b/found-1.toml" in on_path.stdout


# A run that crashes the simulator (the hidden, test-only planted-crash fault
# aborts it) does not end the search: each crashing run is written as
# crash-N.toml, which reproduces the crash alone; the rest are searched as
# usual; the exit status is 3. Shards merge their crashes.
def test_a_crashing_run_is_written_down_and_the_search_goes_on(locksim, tmp_path):
    space = ROOT / "tests" / "planted" / "search-planted-crash.toml"
    r = locksim("search", space, "--budget", "128", "--threads", "2", "--out", tmp_path / "a")
    assert r.returncode == 3, r.stdout + r.stderr
    s = summary(tmp_path / "a")
    assert s["result"] == "crashed" and s["runs"] == 128
    assert 0 < s["coverage"]["failures"] < 128
    assert len(s["crashes"]) == min(10, s["coverage"]["failures"])
    first = s["crashes"][0]
    assert first["what"] == "killed by signal 6 (Aborted)"
    assert f"crash: run {first['run']} killed by signal 6 (Aborted)" in r.stdout
    crash_file = tmp_path / "a" / "crash-1.toml"
    assert "It reproduces from this file alone" in crash_file.read_text()
    replay = locksim("run", crash_file)
    assert replay.returncode in (-6, 134), "the crash reproduces"
    shards = []
    for k in (1, 2):
        d = tmp_path / f"shard{k}"
        assert locksim("search", space, "--budget", "128", "--shard", f"{k}/2", "--out", d).returncode == 3
        shards.append(d)
    merged = locksim("search-merge", shards[1], shards[0], "--out", tmp_path / "m")
    assert merged.returncode == 3, merged.stdout + merged.stderr
    m = summary(tmp_path / "m")
    assert m["result"] == "crashed" and m["crashes"][0]["shard"] == 1
    assert [(c["shard"], c["run"]) for c in m["crashes"]] == sorted((c["shard"], c["run"]) for c in m["crashes"])
    assert m["coverage"]["failures"] == sum(summary(d)["coverage"]["failures"] for d in shards)
    assert (tmp_path / "m" / "crash-1.toml").exists()
    # Per property the closest near miss of either shard.
    assert m["near_misses"], "the planted space holds with near misses"
    for near in m["near_misses"]:
        theirs = [n["margin_ns"] for d in shards for n in summary(d)["near_misses"] if n["property"] == near["property"]]
        assert near["margin_ns"] == min(theirs), near["property"]


# --strategy exhaustive: the discretisation and its case count first, every
# case once, then the certificate over that discretisation (or the finding);
# shards merge into the same certificate; too many cases are refused with
# the count.
def test_exhaustive_certifies_a_stated_discretisation(locksim, tmp_path):
    space = ROOT / "scenarios" / "search" / "gc-pause.toml"
    one = ("--set", "search.max_faults=1")
    r = locksim("search", space, "--variant", "fenced", "--strategy", "exhaustive", *one, "--out", tmp_path / "all")
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "exhaustive search of search-gc-pause, variant fenced: 576 cases"
    assert "    pause length: 100ms 999ms 1.001s 8.999s 9.001s 9.999s 10.001s 29.999s 30s" in lines
    assert ("exhaustive over this discretisation: 576 cases, none violates P5 invariant. It covers the placements, "
            "triggers and magnitude classes listed, not the values between them.") in lines
    s = summary(tmp_path / "all")
    assert s["runs"] == s["discretisation"]["cases"] == 576 and s["result"] == "not found"
    for k in (1, 2):
        assert locksim("search", space, "--variant", "fenced", "--strategy", "exhaustive", *one,
                       "--shard", f"{k}/2", "--out", tmp_path / f"s{k}").returncode == 0
    merged = locksim("search-merge", tmp_path / "s2", tmp_path / "s1", "--out", tmp_path / "m")
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert summary(tmp_path / "m")["statement"] == s["statement"]
    part = locksim("search-merge", tmp_path / "s1", "--out", tmp_path / "p")
    assert "incomplete: 288 of 576 cases" in part.stdout
    broken = locksim("search", space, "--strategy", "exhaustive", *one, "--no-shrink", "--explain-seeds", "1", "--json")
    assert broken.returncode == 1 and json.loads(broken.stdout)["findings"][0]["strategy"] == "exhaustive"
    refused = locksim("search", space, "--strategy", "exhaustive", "--max-cases", "1000")
    assert refused.returncode == 2
    assert "has 166,752 cases, more than --max-cases 1000: raise --max-cases, or narrow the space" in refused.stderr


# Shrinking and explaining a finding run edits of it hundreds of times, in a
# process of their own: when one crashes the model, the finding is kept as
# found (it replays), the report says what happened, and the exit is 3.
def test_a_crash_while_shrinking_keeps_the_finding(locksim, tmp_path):
    r = locksim("search", ROOT / "tests" / "planted" / "search-crash-while-shrinking.toml", "--threads", "2",
                "--explain-seeds", "5", "--out", tmp_path)
    assert r.returncode == 3, r.stdout + r.stderr
    assert "shrinking or explaining this finding crashed the model: killed by signal 6 (Aborted)" in r.stdout
    found = tmp_path / "found-1.toml"
    assert "Shrinking or explaining it crashed the model (killed by signal 6 (Aborted)): kept as found" in found.read_text()
    replay = locksim("run", found)
    assert replay.returncode == 0 and "violated" in replay.stdout, replay.stdout + replay.stderr
    assert summary(tmp_path)["result"] == "crashed"


def test_search_states_its_size_first(locksim, tmp_path):
    """Before it starts, a search says its budget (a shard's part, --time) on stderr; stdout is unchanged."""
    result = locksim("search", "scenarios/search/gc-pause.toml", "--budget", "40", "--shard", "2/4", "--time", "5min",
                     "--threads", "1", "--json")
    assert result.returncode in (0, 1), result.stderr
    json.loads(result.stdout)
    assert result.stderr.splitlines()[0] == ("locksim search: up to 10 runs (shard 2/4 of 40) or 5m00s (--time) on "
                                             "1 thread; it stops at the first finding")
    every = locksim("search", "scenarios/search/gc-pause.toml", "--budget", "30", "--all", "--progress", "--json")
    assert "up to 30 runs (--budget)" in every.stderr and "once every hunted property has a finding" in every.stderr
    assert "locksim search: done: " in every.stderr, "--progress ends with a line, however short the search"
