"""A sweep carries its provenance, and a 0 % that may only mean the story did not happen is flagged:
analysis/provenance.py on hand-made rows, and the plot and report commands on a real sweep."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from analysis import provenance

ROOT = Path(__file__).resolve().parents[2]
LOCKSIM = os.environ.get("LOCKSIM_BIN", str(ROOT / "build" / "locksim"))

MANIFEST = {"format": "locksim sweep manifest", "scenario_path": "scenarios/x.toml", "scenario_name": "x",
            "scenario_hash": "0123456789abcdef", "variant": "base", "set": ["fault.gc.length=uniform(5s, 25s)"],
            "vary": ["lock.ttl=5s,10s"], "seeds": 20, "locksim_version": "0.8.0", "grid_path": "",
            "command_line": ["/x/locksim", "sweep", "scenarios/x.toml", "--vary", "lock.ttl=5s,10s"],
            "faults": ["gc"], "clients": ["c1"], "expect": {"grant-exclusive": "violated"}}


def rows(**columns) -> pd.DataFrame:
    base = {"lock.ttl": ["5s", "10s"], "grant-exclusive.violated": [0, 4], "grant-exclusive.rate": [0.0, 0.2],
            "grant-exclusive.first_seed": ["", "12345678901234567890"], "fault.gc.fired": [0.5, 1.0]}
    base.update(columns)
    return pd.DataFrame(base)


def test_provenance_lines_say_what_was_run():
    lines = provenance.provenance_lines(MANIFEST)
    assert "content hash 0123456789abcdef" in lines[0] and "20 seeds per cell" in lines[0]
    assert lines[1] == "fixed: fault.gc.length=uniform(5s, 25s) · swept: lock.ttl=5s,10s"
    assert lines[2] == "command: locksim sweep scenarios/x.toml --vary lock.ttl=5s,10s"
    assert "not recorded" in provenance.provenance_lines(None)[0]


def test_a_quiet_cell_whose_fault_did_not_always_fire_is_flagged():
    warnings = provenance.story_warnings(rows(), ["lock.ttl"], ["grant-exclusive"], MANIFEST)
    assert any("lock.ttl=5s: gc fired in 50 % of runs" in w for w in warnings)
    assert any("the story expects grant-exclusive violated, yet no run broke it at lock.ttl=5s" in w for w in warnings)
    # Nothing to say when every quiet cell had its faults and the story does not expect a violation.
    calm = rows(**{"fault.gc.fired": [1.0, 1.0]})
    assert provenance.story_warnings(calm, ["lock.ttl"], ["grant-exclusive"], {**MANIFEST, "expect": {}}) == []


def test_replay_command_rebuilds_the_run():
    row = rows().iloc[1]
    command = provenance.replay_command(MANIFEST, ["lock.ttl"], row, row["grant-exclusive.first_seed"])
    assert command == ("locksim run scenarios/x.toml --variant base --set 'fault.gc.length=uniform(5s, 25s)' "
                       "--set lock.ttl=10s --seed 12345678901234567890")
    assert provenance.replay_command(None, ["lock.ttl"], row, "1") is None


@pytest.fixture(scope="module")
def ttl_sweep(tmp_path_factory) -> Path:
    """docs/sweeps.md's own example: redlock-clock-drift's TTL swept away from the 10 s its story assumes."""
    out = tmp_path_factory.mktemp("ttl") / "ttl.csv"
    done = subprocess.run([LOCKSIM, "sweep", "scenarios/redlock-clock-drift.toml", "--vary", "lock.ttl=5s,10s,30s",
                           "--seeds", "3", "--out", str(out)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    return out


def test_the_readme_ttl_sweep_warns_instead_of_a_silent_zero(ttl_sweep, tmp_path):
    """sweep_plots prints a warning (exit 0) and writes it, with the provenance, under the figure."""
    done = subprocess.run([sys.executable, str(ROOT / "analysis" / "sweep_plots.py"), "curve", str(ttl_sweep), "--x",
                           "lock.ttl", "--out", str(tmp_path / "ttl.svg")], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert ("warning: the story expects grant-exclusive violated, yet no run broke it at lock.ttl=5s; lock.ttl=30s"
            in done.stderr)
    svg = (tmp_path / "ttl.svg").read_text()
    assert "the story expects grant-exclusive violated" in svg and "content hash" in svg


def test_the_manifest_names_faults_clients_and_expectations(ttl_sweep):
    manifest = json.loads(Path(str(ttl_sweep) + ".json").read_text())
    assert manifest["expect"] == {"base": {"grant-exclusive": "violated", "belief-exclusive": "violated"}}
    frame = pd.read_csv(ttl_sweep, dtype=str)
    seeds = frame["grant-exclusive.first_seed"].fillna("").tolist()
    assert seeds[0] == "" and seeds[1].isdigit() and seeds[2] == ""  # only 10 s tells the story
    # The seed replays: locksim run with the cell's --set and that seed violates P1.
    command = provenance.replay_command(manifest, ["lock.ttl"], frame.iloc[1], seeds[1]).split()
    replay = subprocess.run([LOCKSIM, *command[1:], "--json"], capture_output=True, text=True, cwd=ROOT)
    verdict = json.loads(replay.stdout)["variants"][0]["verdicts"]["grant-exclusive"]
    assert verdict["status"] == "violated"


# --- several variants in one sweep: every row judged, labelled and replayed as its own variant ---------------------

MULTI = {**MANIFEST, "manifest_version": 2, "variants": ["base", "etcd"],
         "expect": {"base": {"grant-exclusive": "violated"}, "etcd": {"grant-exclusive": "holds"}}}
del MULTI["variant"]


def multi_rows() -> pd.DataFrame:
    frame = pd.concat([rows(), rows()], ignore_index=True)
    frame.insert(0, "variant", ["base", "base", "etcd", "etcd"])
    frame["fault.gc.fired"] = 1.0
    frame.loc[3, "grant-exclusive.first_seed"] = "777"
    return frame


def test_each_row_is_held_to_its_own_variants_expectations():
    """Only base expects P1 violated: its quiet cell is flagged, named with its variant; etcd's quiet cells are not."""
    warnings = provenance.story_warnings(multi_rows(), ["lock.ttl"], ["grant-exclusive"], MULTI)
    assert warnings == ["each of these cells' own variant expects grant-exclusive violated, yet no run broke it at "
                        "base: lock.ttl=5s: the swept values may change the story's premise (step times tied to one "
                        "TTL, a drift inside the allowance...)"]
    assert provenance.expectations(MULTI, "etcd") == {"grant-exclusive": "holds"}
    assert provenance.expectations(MANIFEST, "base") == {"grant-exclusive": "violated"}  # version 1: flat
    assert provenance.expectations(MANIFEST, "etcd") == {}


def test_replay_commands_name_the_rows_own_variant():
    """A row replays with its own --variant; a row whose variant the manifest does not list gets no command."""
    frame = multi_rows()
    command = provenance.replay_command(MULTI, ["lock.ttl"], frame.iloc[3], "777")
    assert command.startswith("locksim run scenarios/x.toml --variant etcd --set") and command.endswith("--seed 777")
    assert "--variant base" in provenance.replay_command(MULTI, ["lock.ttl"], frame.iloc[1], "1")
    assert provenance.replay_command(MANIFEST, ["lock.ttl"], frame.iloc[3], "777") is None  # joined from elsewhere


def test_provenance_lines_list_every_variant():
    assert "variants base, etcd, 20 seeds per cell" in provenance.provenance_lines(MULTI)[0]
    assert "variant base, 20 seeds per cell" in provenance.provenance_lines(MANIFEST)[0]


@pytest.fixture(scope="module")
def composed_sweep(tmp_path_factory) -> Path:
    """redlock-vs-etcd, all five variants, at the story's TTL and one that outlasts its clock step and pause."""
    out = tmp_path_factory.mktemp("composed") / "rve.csv"
    done = subprocess.run([LOCKSIM, "sweep", "redlock-vs-etcd", "--all-variants", "--vary", "lock.ttl=10s,20s",
                           "--seeds", "3", "--out", str(out)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    return out


def test_plots_of_a_multi_variant_sweep_say_so(composed_sweep, tmp_path):
    """sweep_plots --by variant draws a line per variant, warns for the variants whose story a 20 s TTL removes,
    and lists every variant under the figure."""
    done = subprocess.run([sys.executable, str(ROOT / "analysis" / "sweep_plots.py"), "curve", str(composed_sweep),
                           "--x", "lock.ttl", "--property", "belief-exclusive", "--by", "variant",
                           "--out", str(tmp_path / "rve.svg")], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert ("each of these cells' own variant expects belief-exclusive violated, yet no run broke it at base: "
            "lock.ttl=20s; tuned-gc-pause: lock.ttl=20s; etcd-gc-pause: lock.ttl=20s") in done.stderr
    svg = (tmp_path / "rve.svg").read_text()
    assert "variants base, tuned, tuned-gc-pause, etcd, etcd-gc-pause" in svg
    for variant in ("tuned-gc-pause", "etcd-gc-pause"):
        assert variant in svg
