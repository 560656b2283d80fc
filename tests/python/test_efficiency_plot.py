"""The efficiency curves (analysis/efficiency_plot.py) from real sweeps of transactional-contention: with and
without a lock the invariant holds; without one the resource throws work away, and an all-zero axis stays 0-1."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from analysis import efficiency_plot, report
from analysis.sweep_data import load

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def sweeps(tmp_path_factory) -> list[Path]:
    out = tmp_path_factory.mktemp("eff")
    binary = report.locksim_path(None)
    paths = []
    for variant in ("base", "no-lock"):
        path = out / f"{variant}.csv"
        done = subprocess.run([str(binary), "sweep", "scenarios/transactional-contention.toml", "--variant", variant,
                               "--vary", "service.backend.latency=5ms,40ms", "--seeds", "4", "--threads", "2",
                               "--out", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        paths.append(path)
    return paths


def test_the_lock_buys_efficiency_not_correctness(sweeps):
    with_lock, without = (load(p) for p in sweeps)
    assert (with_lock.frame["invariant.rate"] == 0).all() and (without.frame["invariant.rate"] == 0).all()
    assert (with_lock.frame["rollbacks.mean"] == 0).all()
    assert (without.frame["rollbacks.mean"] > 0).all()
    assert (with_lock.frame["commits.mean"] == 80).all() and (without.frame["commits.mean"] == 80).all()
    # More time inside each transaction, more of it thrown away.
    rows = without.frame.sort_values("rollbacks.mean")
    assert list(rows["service.backend.latency"]) == ["5ms", "40ms"]


def test_curves_draw_and_an_all_zero_axis_is_not_stretched(sweeps, tmp_path):
    fig = efficiency_plot.draw([load(sweeps[0])], "service.backend.latency")
    assert fig.axes[0].get_ylim() == (0.0, 1.0)  # no rollbacks at all: drawn 0 to 1
    assert efficiency_plot.main([str(p) for p in sweeps] + ["--x", "service.backend.latency",
                                                             "--out", str(tmp_path / "e.png")]) == 0
    assert (tmp_path / "e.png").stat().st_size > 0


def test_bad_input_is_one_line_exit_2(sweeps, tmp_path, capsys):
    assert efficiency_plot.main([str(sweeps[0]), "--x", "no.such.key", "--out", str(tmp_path / "e.png")]) == 2
    assert "no swept key" in capsys.readouterr().err
