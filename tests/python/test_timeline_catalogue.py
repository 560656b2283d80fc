"""Timelines of real catalogue runs: their labels never overlap, whatever the window.

The scenarios are run by the real simulator ($LOCKSIM_BIN, as CTest sets it, or build/locksim). The busiest picture
of the catalogue is transactional-contention's no-lock variant (over two hundred labels, drawn whole); the zoomed
windows are those where, before labels were placed as boxes, a burst's count written just above its line ran into
the next burst's count on the network lane.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from analysis import style, timeline
from analysis.trace import Trace, load
from label_boxes import overlapping_texts

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def catalogue(locksim_bin, tmp_path_factory):
    """run(scenario, variant) -> the trace of that catalogue variant (each run once per module)."""
    out = tmp_path_factory.mktemp("catalogue")
    traces: dict[tuple[str, str], Trace] = {}

    def run(scenario: str, variant: str) -> Trace:
        if (scenario, variant) not in traces:
            path = out / f"{scenario}.{variant}.jsonl"
            done = subprocess.run([str(locksim_bin), "run", str(ROOT / "scenarios" / f"{scenario}.toml"),
                                   "--variant", variant, "--trace", str(path)],
                                  capture_output=True, text=True, cwd=ROOT, timeout=120)
            assert done.returncode == 0, done.stderr
            traces[scenario, variant] = load(path)
        return traces[scenario, variant]
    return run


@pytest.mark.parametrize("scenario, variant, window", [
    ("transactional-contention", "no-lock", (None, None)),
    ("sentinel-split-brain", "base", (2.0, 4.0)),
    ("master-replica-failover", "base", (0.7, 2.7)),
])
def test_labels_never_overlap_on_catalogue_runs(catalogue, scenario, variant, window):
    """Every visible text of the figure (labels, lane names, ticks, legend, titles, witness lines) keeps clear of
    every other, as the renderer measures them."""
    with style.context():
        fig = timeline.draw(catalogue(scenario, variant), window=window)
    assert overlapping_texts(fig) == []
