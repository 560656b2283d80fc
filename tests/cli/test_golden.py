"""Behaviour that a redesign must not change: every catalogue scenario's `locksim run --json` — every variant's
verdicts and witnesses, expectations, liveness, faults, per-client figures and event count — byte for byte equal
to tests/golden/SCENARIO.json, recorded before the layering redesign (issue 10). A deliberate change of behaviour
records new golden files in the same commit and says why:

    for f in scenarios/*.toml; do ./build/locksim run $f --json > tests/golden/$(basename $f .toml).json; done

Every variant's --trace (22 MB in all, too much to keep) is pinned by its SHA-256 in tests/golden/traces.sha256,
recorded before the speed work of issue 15. A deliberate change records new hashes the same way:

    for f in scenarios/*.toml; do ./build/locksim run $f --trace out/$(basename $f .toml).jsonl > /dev/null; done
    (cd out && for t in *.jsonl; do echo "$(sha256sum $t | cut -c1-64)  $t"; done) > tests/golden/traces.sha256

Sweeps, too: the small sweeps in SWEEPS below (one or two per family of models: Redlock, a single node, a
replica with failover, etcd, ZooKeeper, fencing), their per-cell CSV and every run's row (--per-run), pinned by
SHA-256 in tests/golden/sweeps.sha256, recorded during the speed work of issue 15 and equal to the binary's from
before it. test_sweeps_are_unchanged prints the command that records new hashes.
"""
import hashlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted(p.stem for p in (ROOT / "scenarios").glob("*.toml"))


def test_every_catalogue_scenario_has_a_golden_file():
    assert SCENARIOS and sorted(p.stem for p in (ROOT / "tests" / "golden").glob("*.json")) == SCENARIOS


@pytest.mark.parametrize("name", SCENARIOS)
def test_json_is_unchanged(locksim, name):
    result = locksim("run", f"scenarios/{name}.toml", "--json")
    assert result.returncode == 0, result.stderr
    golden = (ROOT / "tests" / "golden" / f"{name}.json").read_text()
    assert result.stdout == golden, f"{name}: --json differs from tests/golden/{name}.json"


def golden_trace_hashes():
    lines = (ROOT / "tests" / "golden" / "traces.sha256").read_text().splitlines()
    return dict(reversed(line.split("  ")) for line in lines if line)


def test_every_catalogue_scenario_has_its_traces_pinned():
    pinned = {name.split(".")[0] for name in golden_trace_hashes()}
    assert pinned == set(SCENARIOS)


@pytest.mark.parametrize("name", SCENARIOS)
def test_traces_are_unchanged(locksim, name, tmp_path):
    result = locksim("run", f"scenarios/{name}.toml", "--trace", tmp_path / f"{name}.jsonl")
    assert result.returncode == 0, result.stderr
    written = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in tmp_path.glob("*.jsonl")}
    pinned = {file: digest for file, digest in golden_trace_hashes().items() if file.split(".")[0] == name}
    assert written.keys() == pinned.keys(), f"{name}: traces written {sorted(written)}, pinned {sorted(pinned)}"
    changed = sorted(file for file in written if written[file] != pinned[file])
    assert not changed, f"{name}: these traces differ from tests/golden/traces.sha256: {changed}"


# (scenario, sweep arguments): small grids, every run pinned through --per-run.
SWEEPS = [
    ("redlock-clock-jump", ["--vary", "fault.C-wall-clock-jump.by=+1s..+19s:+6s", "--seeds", "40"]),
    ("redlock-clock-drift", ["--vary", "clock.C.drift=0ppm..30000ppm:15000ppm", "--seeds", "10"]),
    ("single-node-gc-pause", ["--vary", "fault.c1-gc-pause.length=5s..15s:5s", "--vary", "lock.ttl=5s,10s", "--seeds", "10"]),
    ("master-replica-failover", ["--vary", "lock.ttl=2s,10s", "--seeds", "20"]),
    ("etcd-gc-pause", ["--vary", "fault.c1-gc-pause.length=5s,15s", "--seeds", "4"]),
    ("zookeeper-partition", ["--vary", "lock.ttl=3s,6s", "--seeds", "10"]),
    ("fencing-token-taken-late", ["--vary", "fault.r1-clock-step.by=+5s,+15s", "--seeds", "10"]),
]


def golden_sweep_hashes():
    lines = (ROOT / "tests" / "golden" / "sweeps.sha256").read_text().splitlines()
    return dict(reversed(line.split("  ")) for line in lines if line)


def test_every_pinned_sweep_is_run():
    assert set(golden_sweep_hashes()) == {f"{name}.{kind}.csv" for name, _ in SWEEPS for kind in ("cells", "runs")}


@pytest.mark.parametrize("name,args", SWEEPS, ids=[name for name, _ in SWEEPS])
def test_sweeps_are_unchanged(locksim, name, args, tmp_path):
    cells, runs = tmp_path / f"{name}.cells.csv", tmp_path / f"{name}.runs.csv"
    result = locksim("sweep", f"scenarios/{name}.toml", *args, "--threads", "2", "--out", cells, "--per-run", runs)
    assert result.returncode == 0, result.stderr
    pinned = golden_sweep_hashes()
    changed = [f.name for f in (cells, runs) if hashlib.sha256(f.read_bytes()).hexdigest() != pinned[f.name]]
    record = (f"locksim sweep scenarios/{name}.toml {' '.join(args)} --out {name}.cells.csv --per-run {name}.runs.csv,"
              " then their sha256sum into tests/golden/sweeps.sha256")
    assert not changed, f"{name}: these sweep outputs differ from tests/golden/sweeps.sha256: {changed}; a deliberate change records new hashes: {record}"
