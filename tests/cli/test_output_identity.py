"""Every command that writes refuses, before it runs, two outputs that are one file — however spelt (`x.csv`,
`./x.csv`, `../dir/x.csv`), through a symlink, existing or not yet — and an output that is the scenario it reads,
naming both flags; and every command that takes --variant refuses one named twice."""
import pathlib
import shutil

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
STORY = ROOT / "scenarios" / "single-node-gc-pause.toml"  # variants base and fenced
SEARCH = ROOT / "scenarios" / "search" / "gc-pause.toml"


@pytest.fixture
def here(tmp_path):
    """A working directory `work/` holding a copy of the story (s.toml) and of a search space (g.toml)."""
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(STORY, work / "s.toml")
    shutil.copy(SEARCH, work / "g.toml")
    return work


def refused(result, *fragments):
    assert result.returncode == 2, result.stdout + result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr
    for fragment in fragments:
        assert fragment in result.stderr, result.stderr


SWEEP = ["sweep", "s.toml", "--vary", "lock.ttl=5s", "--seeds", "2"]


@pytest.mark.parametrize("out, per_run", [
    ("x.csv", "./x.csv"),            # the case: exited 0 with the two streams interleaved
    ("x.csv", "../work/x.csv"),
    ("x.csv", "sub/../x.csv"),
    ("x.csv", "x.csv.json"),          # the per-run file over --out's manifest
])
def test_sweep_outputs_spelt_differently(locksim, here, out, per_run):
    (here / "sub").mkdir()
    refused(locksim(*SWEEP, "--out", out, "--per-run", per_run, cwd=here), "are the same file", "--per-run")
    assert not (here / "x.csv").exists() and not (here / "x.csv.json").exists(), "nothing was written"


def test_a_dangling_symlink_is_the_file_it_would_create(locksim, here):
    (here / "link.csv").symlink_to("later.csv")
    refused(locksim(*SWEEP, "--out", "later.csv", "--per-run", "link.csv", cwd=here),
            "--out later.csv and --per-run link.csv are the same file")
    (here / "dlink").symlink_to(here / "sub")  # a symlinked directory that does not exist yet either
    refused(locksim(*SWEEP, "--out", "sub/r.csv", "--per-run", "dlink/r.csv", cwd=here), "are the same file")
    assert not (here / "later.csv").exists() and not (here / "sub").exists()


def test_run_trace_is_not_the_scenario_and_each_variant_has_its_own(locksim, here):
    before = (here / "s.toml").read_bytes()
    refused(locksim("run", "s.toml", "--variant", "base", "--trace", "../work/s.toml", cwd=here),
            "the scenario file s.toml and --trace ../work/s.toml are the same file")
    (here / "scenario-link.jsonl").symlink_to("s.toml")
    refused(locksim("run", "s.toml", "--variant", "fenced", "--trace", "scenario-link.jsonl", cwd=here),
            "the scenario file s.toml and --trace scenario-link.jsonl")
    assert (here / "s.toml").read_bytes() == before
    # With several variants, each writes a trace of its own, named after it.
    ran = locksim("run", "s.toml", "--trace", "t.jsonl", cwd=here)
    assert ran.returncode == 0, ran.stderr
    base, fenced = (here / "t.base.jsonl").read_text(), (here / "t.fenced.jsonl").read_text()
    assert base and fenced and base != fenced and not (here / "t.jsonl").exists()


def test_compare_shrink_search_and_merge_spare_what_they_read(locksim, here):
    refused(locksim("compare", "s.toml", "--seeds", "2", "--out", "./s.toml", cwd=here),
            "the scenario file s.toml and --out ./s.toml are the same file")
    refused(locksim("shrink", "s.toml", "--out", "../work/s.toml", cwd=here),
            "the scenario file s.toml and --out ../work/s.toml are the same file")
    # A search writes search.json, found-N.*, crash-N.toml and near-miss-*.toml into --out: never over its scenario.
    (here / "o").mkdir()
    shutil.copy(here / "g.toml", here / "o" / "found-1.toml")
    refused(locksim("search", "o/found-1.toml", "--budget", "5", "--out", "./o", cwd=here),
            "the scenario file o/found-1.toml and --out ./o's found-1.toml are the same file")
    kept = locksim("search", "g.toml", "--budget", "5", "--out", ".", cwd=here)  # a scenario of another name is fine
    assert kept.returncode in (0, 1) and (here / "search.json").exists(), kept.stderr
    for k in (1, 2):
        done = locksim("search", "g.toml", "--budget", "8", "--shard", f"{k}/2", "--out", f"shard{k}", cwd=here)
        assert done.returncode in (0, 1), done.stderr
    before = (here / "shard1" / "search.json").read_bytes()
    refused(locksim("search-merge", "shard1", "shard2", "--out", "./shard1/", cwd=here),
            "--out ./shard1/ and the shard directory shard1 are the same directory")
    assert (here / "shard1" / "search.json").read_bytes() == before


@pytest.mark.parametrize("command", [
    ["run", "s.toml", "--trace", "t.jsonl"],
    ["compare", "s.toml", "--seeds", "2"],
    ["search", "g.toml", "--budget", "2"],
    ["shrink", "s.toml"],
])
def test_a_variant_named_twice_is_refused(locksim, here, command):
    """`run --variant base --variant base --trace t.jsonl` wrote the same trace twice; now no command takes it."""
    result = locksim(*command, "--variant", "base", "--variant", "base", cwd=here)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "--variant" in result.stderr and ("given twice" in result.stderr or "more than once" in result.stderr)
    assert len(result.stderr.splitlines()) == 1, "the one line, not the whole help"
    assert not list(here.glob("t*.jsonl")), "nothing ran"
