"""Behaviour that a redesign must not change: every catalogue scenario's `locksim run --json` — every variant's
verdicts and witnesses, expectations, liveness, faults, per-client figures and event count — byte for byte equal
to tests/golden/SCENARIO.json, recorded before the layering redesign (issue 10). A deliberate change of behaviour
records new golden files in the same commit and says why:

    for f in scenarios/*.toml; do ./build/locksim run $f --json > tests/golden/$(basename $f .toml).json; done
"""
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
