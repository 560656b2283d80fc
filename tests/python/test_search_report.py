"""The report's search section (analysis/search_report.py, report.py --search) on real searches."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from analysis import search_report

ROOT = Path(__file__).resolve().parents[2]
SPACE = ROOT / "scenarios" / "search" / "gc-pause.toml"



def search(locksim: Path, out: Path, *args) -> Path:
    done = subprocess.run([str(locksim), "search", str(SPACE), "--explain-seeds", "10", "--out", str(out), *args],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 1), done.stderr
    return out


def report(locksim: Path, search_dir: Path, out: Path, *args) -> str:
    done = subprocess.run([sys.executable, str(ROOT / "analysis" / "report.py"), str(SPACE), *args, "--search",
                           str(search_dir), "--locksim", str(locksim), "--out", str(out)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    return out.read_text(encoding="utf-8")


def section_of(page: str) -> str:
    start = page.index('<h2 id="search">')
    return page[start:page.index('<h2 id="reproduce">')]


def test_a_finding_gets_its_story_timeline_and_tables(locksim_bin, tmp_path):
    found = search(locksim_bin, tmp_path / "found", "--seed", "1")
    part = section_of(report(locksim_bin, found, tmp_path / "r.html", "--variant", "base"))
    assert "1 finding</b> in " in part
    assert "Finding 1: P5 invariant" in part and "pause of c1 for 11s at c1 read" in part
    assert len(re.findall(r'<img src="data:image/png;base64,', part)) == 1, "the finding's timeline"
    for heading in ("Which faults it needs", "How likely the violation is once each fault has happened",
                    "Safety margins of this run", "Coverage", "What shrinking changed"):
        assert heading in part
    assert "<td>0/10 (0%)</td>" in part, "removing the pause: no violation"
    assert "hunting P5 invariant" in part and "strategy portfolio" in part


def test_nothing_found_says_so_honestly_with_coverage(locksim_bin, tmp_path):
    safe = search(locksim_bin, tmp_path / "safe", "--variant", "fenced", "--budget", "2000")
    part = section_of(report(locksim_bin, safe, tmp_path / "r.html", "--variant", "fenced"))
    assert "not found in 2000 runs (portfolio). Not a proof of safety" in part
    assert "fewer than 3/2000 (0.15%) break a hunted property, at 95 % confidence" in part
    assert "Finding" not in part
    assert re.search(r"<tr><td>pause</td><td>\d+</td><td>\d+</td><td>\d+</td><td>[^<]*</td></tr>", part)
    assert "Coverage: what was tried, and nothing else was" in part
    assert "<b>Near miss</b>: P5 invariant held with" in part and "near-miss-invariant.toml" in part


def test_untried_magnitudes_are_named():
    m = {"key": "length", "low": 0, "high": 9_999_999_999, "unit": "ns", "fired_per_tenth": [1, 0, 0, 1, 1, 1, 1, 1, 1, 0]}
    assert search_report.never_fired(m) == ["1s..3s", "9s..10s"]


def test_a_directory_without_search_json_is_refused(locksim_bin, tmp_path):
    with pytest.raises(search_report.SearchReportError, match="search.json: no such file"):
        search_report.load(tmp_path)
    done = subprocess.run([sys.executable, str(ROOT / "analysis" / "report.py"), str(SPACE), "--search",
                           str(tmp_path), "--locksim", str(locksim_bin), "--out", str(tmp_path / "r.html")],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 2 and "search.json: no such file" in done.stderr


def test_durations_read_like_the_simulators():
    assert search_report.duration_text(-2_004_000_000) == "-2.004s"
    assert search_report.duration_text(340_000_000) == "340ms"
    assert search_report.duration_text(0) == "0s"
    assert search_report.duration_text(None) == "–"
