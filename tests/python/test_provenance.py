"""A sweep carries its provenance, and a number that may only mean the story did not happen — a fault it needs fired
in too few of the cell's runs — is flagged, and nothing else is: analysis/provenance.py on hand-made rows, and the
plot command on real sweeps."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from analysis import provenance, sweep_plots

ROOT = Path(__file__).resolve().parents[2]
LOCKSIM = os.environ.get("LOCKSIM_BIN", str(ROOT / "build" / "locksim"))

MANIFEST = {"format": "locksim sweep manifest", "scenario_path": "scenarios/x.toml", "scenario_name": "x",
            "scenario_hash": "0123456789abcdef", "variant": "base", "set": ["fault.gc.length=uniform(5s, 25s)"],
            "vary": ["lock.ttl=5s,10s"], "seeds": 20, "locksim_version": "0.8.0", "grid_path": "",
            "command_line": ["/x/locksim", "sweep", "scenarios/x.toml", "--vary", "lock.ttl=5s,10s"],
            "faults": ["gc"], "clients": ["c1"], "expect": {"grant-exclusive": "violated"}}


def rows(**columns) -> pd.DataFrame:
    """Two cells of a sweep over lock.ttl, 20 runs each: 5 s never violated, 10 s violated 4 times."""
    base = {"scenario": ["x", "x"], "variant": ["base", "base"], "lock.ttl": ["5s", "10s"], "runs": [20, 20],
            "grant-exclusive.violated": [0, 4], "grant-exclusive.rate": [0.0, 0.2],
            "grant-exclusive.ci_low": [0.0, 0.08], "grant-exclusive.ci_high": [0.16, 0.42],
            "grant-exclusive.first_seed": ["", "12345678901234567890"], "fault.gc.fired": [0.5, 1.0]}
    base.update(columns)
    return pd.DataFrame(base)


def test_provenance_lines_say_what_was_run():
    lines = provenance.provenance_lines(MANIFEST)
    assert "content hash 0123456789abcdef" in lines[0] and "20 seeds per cell" in lines[0]
    assert lines[1] == "fixed: fault.gc.length=uniform(5s, 25s) · swept: lock.ttl=5s,10s"
    assert lines[2] == "command: locksim sweep scenarios/x.toml --vary lock.ttl=5s,10s"
    assert "not recorded" in provenance.provenance_lines(None)[0]


def test_the_gap_rule_holds_the_shared_cases():
    """provenance.gap_matters decides as sim/sweep/story_gap.h does, on the cases both are held to."""
    with open(ROOT / "tests" / "data" / "story_gap_cases.csv", newline="", encoding="utf-8") as f:
        cases = list(csv.DictReader(f))
    assert len(cases) >= 10
    for c in cases:
        assert provenance.gap_matters(int(c["runs"]), int(c["violated"]), int(c["fired"])) == (c["matters"] == "1"), \
            c["why"]


def test_a_quiet_cell_whose_fault_fired_in_half_its_runs_is_flagged():
    """A 0 % over 20 runs of which 10 had the pause: one warning line for the fault, naming the cell and share."""
    warnings = provenance.story_warnings(rows(), ["lock.ttl"], ["grant-exclusive"], MANIFEST)
    assert warnings == ["gc fired with an effect in only 50 % of the runs at lock.ttl=5s: the runs without it did "
                        "not test the story, so there a 0 % (grant-exclusive) may only mean it did not happen"]
    [gap] = provenance.story_gaps(rows(), ["lock.ttl"], ["grant-exclusive"], MANIFEST)
    assert (gap.cell, gap.fired, gap.runs, gap.held, gap.understated) == (("x", "base", "5s"), 10, 20,
                                                                           ("grant-exclusive",), ())


def test_no_warning_where_the_faults_fired_however_the_story_was_expected_to_end():
    """A 0 % where every fault fired is the answer, even when [expect] says the property breaks (the TTL outlasts
    every pause); one run in twenty without the fault moves nothing either; and a fault the story does not need
    (the manifest's story_faults leaves it out) is not its premise."""
    fired = rows(**{"fault.gc.fired": [1.0, 1.0]})
    assert provenance.story_warnings(fired, ["lock.ttl"], ["grant-exclusive"], MANIFEST) == []
    nearly = rows(**{"fault.gc.fired": [0.95, 0.95]})
    assert provenance.story_warnings(nearly, ["lock.ttl"], ["grant-exclusive"], MANIFEST) == []
    background = rows(**{"fault.drops.fired": [0.5, 0.5], "fault.gc.fired": [1.0, 1.0]})
    assert provenance.story_warnings(background, ["lock.ttl"], ["grant-exclusive"],
                                     {**MANIFEST, "story_faults": ["gc"]}) == []
    assert provenance.story_faults(None, background) == ["gc", "drops"]  # no manifest: every fault counts


def test_many_cells_make_one_line_per_fault_without_a_list():
    """Forty cells whose pause fired in 30-69 % of their runs: one line that counts them and names the fewest, and
    says which 0 % and which rates it concerns — never a list that stops at "(and N more)"."""
    ttls = [f"{t}s" for t in range(1, 41)]
    frame = pd.DataFrame({"scenario": "x", "variant": "base", "lock.ttl": ttls, "runs": 100,
                          "grant-exclusive.violated": 0, "grant-exclusive.rate": 0.0,
                          "grant-exclusive.ci_low": 0.0, "grant-exclusive.ci_high": 0.037,
                          "belief-exclusive.violated": 30, "belief-exclusive.rate": 0.3,
                          "belief-exclusive.ci_low": 0.22, "belief-exclusive.ci_high": 0.398,
                          "fault.gc.fired": [0.3 + t / 100 for t in range(40)]})
    warnings = provenance.story_warnings(frame, ["lock.ttl"], ["grant-exclusive", "belief-exclusive"], MANIFEST)
    assert warnings == ["gc fired with an effect in too few runs at 40 of 40 cells (the fewest: 30 % at lock.ttl=1s): "
                        "the runs without it did not test the story, so there a 0 % (grant-exclusive) may only mean "
                        "it did not happen and a rate (belief-exclusive) may read low"]
    assert "more)" not in warnings[0]


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


def test_the_ttl_sweep_of_the_docs_draws_no_warning_for_a_right_zero(ttl_sweep, tmp_path):
    """docs/sweeps.md's TTL sweep: at 5 s and 30 s no run breaks grant-exclusive, which [expect] says breaks — but
    both partitions fired in every run, so that 0 % is the answer for those TTLs: no warning, on stderr or in the
    figure, which still says what was run."""
    done = subprocess.run([sys.executable, str(ROOT / "analysis" / "sweep_plots.py"), "curve", str(ttl_sweep), "--x",
                           "lock.ttl", "--out", str(tmp_path / "ttl.svg")], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "warning" not in done.stderr
    svg = (tmp_path / "ttl.svg").read_text()
    assert "warning" not in svg and "content hash" in svg


def test_a_sweep_whose_pause_missed_runs_warns_and_marks_them(locksim_bin, tmp_path):
    """tests/data/gap-story.toml with its pause drawn over 80 s of a 40 s run (it fires in about half the runs) or
    over 8 s (every run): the plot warns once for the pause, on stderr and under the figure, and draws hollow only
    the points of the half-fired cell."""
    out = tmp_path / "gap.csv"
    done = subprocess.run([LOCKSIM, "sweep", "tests/data/gap-story.toml", "--vary",
                           "fault.late-pause.at=uniform(0s, 8s),uniform(0s, 80s)", "--seeds", "40", "--out", str(out)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    drawn = subprocess.run([sys.executable, str(ROOT / "analysis" / "sweep_plots.py"), "curve", str(out), "--x",
                            "fault.late-pause.at", "--out", str(tmp_path / "gap.svg")], capture_output=True, text=True,
                           cwd=ROOT)
    assert drawn.returncode == 0, drawn.stderr
    warnings = [line for line in drawn.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "late-pause fired with an effect in only" in warnings[0]
    assert "at fault.late-pause.at=uniform(0s, 80s)" in warnings[0]
    plan = sweep_plots.curve_series(sweep_plots.load(out), "fault.late-pause.at")
    sweep_plots.annotate(plan, out, plan.sweep.properties)
    assert plan.marks_drawn() and plan.gap_marks in plan.notes
    hollow = {s.x_text[i] for s in plan.series for i, d in enumerate(s.in_doubt(plan.gaps)) if d}
    assert hollow == {"uniform(0s, 80s)"}


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
    frame["variant"] = ["base", "base", "etcd", "etcd"]
    frame["fault.gc.fired"] = 1.0
    frame.loc[3, "grant-exclusive.first_seed"] = "777"
    return frame


def test_each_row_is_held_to_its_own_variants_expectations():
    """Each variant's [expect] is its own. An expectation alone draws no warning where every fault fired (a 0 % is
    then the answer); a fault that missed runs is named with the row's variant when the sweep has several."""
    assert provenance.story_warnings(multi_rows(), ["lock.ttl"], ["grant-exclusive"], MULTI) == []
    gappy = multi_rows()
    gappy.loc[2, "fault.gc.fired"] = 0.5
    (warning,) = provenance.story_warnings(gappy, ["lock.ttl"], ["grant-exclusive"], MULTI)
    assert "x · etcd: lock.ttl=5s" in warning
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
    """sweep_plots --by variant draws a line per variant and lists every variant under the figure; the variants
    whose story a 20 s TTL removes break nothing there, with every fault fired: no warning."""
    done = subprocess.run([sys.executable, str(ROOT / "analysis" / "sweep_plots.py"), "curve", str(composed_sweep),
                           "--x", "lock.ttl", "--property", "belief-exclusive", "--by", "variant",
                           "--out", str(tmp_path / "rve.svg")], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "yet no run broke it" not in done.stderr  # 0 % where every fault fired is an answer, not a warning
    svg = (tmp_path / "rve.svg").read_text()
    assert "variants base, tuned, tuned-gc-pause, etcd, etcd-gc-pause" in svg
    for variant in ("tuned-gc-pause", "etcd-gc-pause"):
        assert variant in svg
