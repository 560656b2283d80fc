"""The side-by-side verdict matrix (analysis/compare_plot.py) from a real `locksim compare --out` CSV, and the
review report's side-by-side section."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from analysis import compare_plot, report

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def compare_csv(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("compare") / "cells.csv"
    binary = report.locksim_path(None)
    done = subprocess.run([str(binary), "compare", "scenarios/compare/gc-pause.toml", "scenarios/compare/failover.toml",
                           "--seeds", "30", "--threads", "2", "--out", str(out)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return out


def test_matrix_reads_every_story_and_service(compare_csv):
    m = compare_plot.load(compare_csv)
    assert m.stories == ["compare-gc-pause", "compare-failover"]
    assert m.services[:3] == ["base", "sentinel", "redlock"] and "etcd-fenced" in m.services
    assert m.rate("compare-failover", "redis-fenced", "P1") is None  # the failover story has no such variant
    assert m.rate("compare-failover", "etcd", "P1") == 0.0
    assert m.rate("compare-failover", "base", "P1") == 1.0


def test_an_all_zero_panel_stays_white_on_a_fixed_scale(compare_csv, tmp_path):
    m = compare_plot.load(compare_csv)
    for key in list(m.rates):
        if key[2] == "P1":
            m.rates[key] = 0.0
    fig = compare_plot.draw(m)
    p1 = fig.axes[0]
    image = p1.get_images()[0]
    assert image.get_clim() == (0.0, 1.0), "the scale is fixed, never stretched to the data"
    texts = {t.get_text() for t in p1.texts}
    assert "0" in texts and texts <= {"0", "—"}, texts
    # Every drawn cell is the colour map's lowest colour (white): zero on the fixed scale.
    data = image.get_array()
    lowest = image.cmap(image.norm(0.0))
    assert all(tuple(image.cmap(image.norm(v))) == tuple(lowest) for v in data.compressed())
    assert lowest[:3] == (1.0, 1.0, 1.0), lowest
    out = compare_plot.render(m, [tmp_path / "m.png", tmp_path / "m.svg"])
    assert all(p.stat().st_size > 0 for p in out)


def test_bad_input_is_one_line_exit_2(tmp_path, capsys):
    bad = tmp_path / "not.csv"
    bad.write_text("a,b\n1,2\n")
    assert compare_plot.main([str(bad), "--out", str(tmp_path / "x.png")]) == 2
    assert "not a locksim compare CSV" in capsys.readouterr().err


def test_report_gains_the_side_by_side_section(compare_csv, tmp_path):
    out = report.build(ROOT / "scenarios" / "etcd-gc-pause.toml", tmp_path / "r.html", compare=compare_csv)
    page = out.read_text()
    assert '<h2 id="compare">Side by side</h2>' in page
    assert "compare-failover" in page and "P1 100%" in page


def test_the_plot_outlines_the_cells_that_locksim_compare_notes(tmp_path):
    """tests/data/gap-story.toml, whose pause fires in about half the runs (base), a tenth (rarer), 95 % (nearly)
    and every run (always): the plot finds, by the same rule, the cells and properties the command's note names,
    in the same order; it outlines them and its footer names the fewest; the others draw no outline."""
    out = tmp_path / "gap.csv"
    done = subprocess.run([str(report.locksim_path(None)), "compare", "tests/data/gap-story.toml", "--seeds", "200",
                           "--threads", "2", "--out", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    [note] = [line.strip() for line in done.stdout.splitlines() if line.strip().startswith("note:")]
    m = compare_plot.load(out)
    gaps = compare_plot.gaps(m)
    assert [g.service for g in gaps] == ["rarer", "base"]

    def named(held: bool) -> str:
        return ", ".join(f"{g.service} " + " ".join(p for p in g.pids if (m.violations[(g.story, g.service, p)] == 0)
                                                     == held) for g in gaps)
    assert f"a 0% ({named(True)}) may only mean it did not happen" in note
    assert f"a rate ({named(False)}) may read low" in note
    fig = compare_plot.draw(m)
    outlined = [p for ax in fig.axes for p in ax.patches if p.get_linestyle() != "solid"]
    assert len(outlined) == sum(len(g.pids) for g in gaps)
    assert any("dashed outline" in t.get_text() and "late-pause in 12 % of rarer's runs" in t.get_text()
               for t in fig.texts)
