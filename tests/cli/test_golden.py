"""Behaviour that a redesign must not change: every catalogue scenario's `locksim run --json` — every variant's
verdicts and witnesses, expectations, liveness, faults, per-client figures and event count — byte for byte equal
to tests/golden/SCENARIO.json, recorded before the layering redesign (issue 10). A deliberate change of behaviour
records new golden files in the same commit and says why:

    for f in scenarios/*.toml; do ./build/locksim run $f --json > tests/golden/$(basename $f .toml).json; done

Every variant's --trace (22 MB in all, too much to keep) is pinned by its SHA-256 in tests/golden/traces.sha256,
recorded before the speed work of issue 15. A deliberate change records new hashes the same way:

    for f in scenarios/*.toml; do ./build/locksim run $f --trace out/$(basename $f .toml).jsonl > /dev/null; done
    (cd out && for t in *.jsonl; do echo "$(sha256sum $t | cut -c1-64)  $t"; done) > tests/golden/traces.sha256
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
