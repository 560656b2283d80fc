"""The review report (analysis/report.py): one self-contained HTML page per scenario, checked in headless Chromium.

These tests run the real simulator ($LOCKSIM_BIN, as CTest sets it, or build/locksim) on catalogue scenarios and
use the hand-made sweep fixture data/sweep_gc_grid.csv for the sweep section.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from analysis import report

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
GRID = DATA / "sweep_gc_grid.csv"
GC = ROOT / "scenarios" / "single-node-gc-pause.toml"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars", "--mute-audio"]



def make_report(locksim: Path, out: Path, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "analysis" / "report.py"), *map(str, args),
                           "--locksim", str(locksim), "--out", str(out)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)


@pytest.fixture(scope="module")
def gc_report(locksim_bin, tmp_path_factory) -> Path:
    """The GC-pause story (base, fenced) with the TTL × pause-length sweep: curves and heat maps."""
    out = tmp_path_factory.mktemp("report") / "gc.html"
    done = make_report(locksim_bin, out, GC, "--sweep", GRID, "--x", "fault.c1-gc-pause.length", "--y", "lock.ttl",
                       "--property", "invariant")
    assert done.returncode == 0, done.stderr
    return out


def images(page: str) -> list[bytes]:
    return [base64.b64decode(m) for m in re.findall(r'<img src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)]


def test_report_tells_story_verdicts_and_expectations(gc_report):
    """The page has the scenario's title and story, a verdict table per variant with witnesses and ✓ marks."""
    page = gc_report.read_text(encoding="utf-8")
    assert "A GC pause outlasts the lease and the paused client&#x27;s late write lands (Kleppmann)" in page
    assert "c1 takes the lock at 0, reads the counter and is frozen" in page
    assert 'id="variant-base"' in page and 'id="variant-fenced"' in page
    assert "every variant matches its expectations" in page
    assert page.count('title="matches [expect]">✓ violated') >= 5  # base P2-P5, fenced P2
    assert "write accepted at 15.005s while no one held the lock" in page  # P4's first witness
    assert "fencing tokens from INCR" in page  # the fenced variant's description
    assert "locksim run scenarios/single-node-gc-pause.toml --json" in page  # how to reproduce


def test_report_is_self_contained(gc_report):
    """Nothing fetched from elsewhere: every figure is an inline PNG that decodes, every script is inline (the
    interactive timelines': the library once, then a timeline per variant)."""
    page = gc_report.read_text(encoding="utf-8")
    assert not re.search(r"<script[^>]*\bsrc=", page) and "<link" not in page.lower() and "@import" not in page
    assert page.count('class="lt-root"') == 2 and "sourceMappingURL" not in page
    assert not re.search(r'(src|href)="(?!data:|#)', page), "an attribute points outside the page"
    assert "url(" not in page
    pngs = images(page)
    # two timelines (base and fenced both violate), two curves and two heat maps (one per variant)
    assert len(pngs) == 6
    for png in pngs:
        assert png[:8] == PNG_MAGIC and int.from_bytes(png[16:20], "big") > 600
    assert page.count("<table") >= 4  # overview, two verdict tables, the sweep's rows


def test_report_marks_mismatched_expectations(locksim_bin, tmp_path):
    """A verdict that differs from [expect] (a TTL longer than the pause: nothing breaks) is marked ✗."""
    out = tmp_path / "mismatch.html"
    done = make_report(locksim_bin, out, GC, "--variant", "base", "--set", "lock.ttl=20s")
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    assert "✗ expected violated" in page and "differs from [expect]" in page
    assert "Nothing violated in this run. Show its timeline" in page
    assert len(images(page)) == 1  # the timeline, folded in a <details>
    assert "overrides <code>lock.ttl=20s</code>" in page


def test_report_bad_input_is_one_line_exit_2(locksim_bin, tmp_path, capsys):
    """A missing scenario, a sweep without the key, --x without --sweep, a bad override: one line, exit 2."""
    done = make_report(locksim_bin, tmp_path / "x.html", ROOT / "scenarios" / "no-such.toml")  # as a user runs it
    assert done.returncode == 2 and done.stderr.startswith("report: ") and "no such file" in done.stderr
    cases = [
        ([GC, "--sweep", GRID, "--x", "clock.C.drift"], "no swept key 'clock.C.drift'"),
        ([GC, "--x", "lock.ttl"], "need --sweep"),
        ([GC, "--set", "lock.nonsense=1"], "locksim run failed"),
        ([GC, "--sweep", tmp_path / "none.csv", "--x", "lock.ttl"], "no such file"),
    ]
    for args, message in cases:
        code = report.main([*map(str, args), "--locksim", str(locksim_bin), "--out", str(tmp_path / "x.html")])
        err = capsys.readouterr().err
        assert code == 2, (args, err)
        assert message in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "x.html").exists()


def test_verdict_frame_for_notebooks(locksim_bin, tmp_path):
    """verdict_frame gives the overview as a table: V/H per property, ✓ where it matches [expect]."""
    doc, traces, command = report.run_scenario(locksim_bin, ROOT / "scenarios" / "redlock-clock-jump.toml",
                                               tmp_path)
    frame = report.verdict_frame(doc)
    assert list(frame.index) == ["base", "monotonic-expiry"]
    assert frame.loc["base", "P1 grant-exclusive"] == "V ✓"
    assert frame.loc["monotonic-expiry", "P1 grant-exclusive"] == "H ✓"
    assert frame.loc["base", "P5 invariant"] == "H"  # not applicable: no expectation, no mark
    assert set(traces) == {"base", "monotonic-expiry"} and all(p.exists() for p in traces.values())
    assert command[:2] == ["locksim", "run"]


# --- in a browser ---------------------------------------------------------------------------

def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no Chromium: install Debian's chromium (scripts/setup does) to check the report in a browser")


PROBE = """<script>
window.addEventListener('load', function () {
  var imgs = Array.prototype.slice.call(document.images);
  var ok = imgs.filter(function (i) { return i.complete && i.naturalWidth > 0; });
  var m = document.createElement('div');
  m.id = 'img-check';
  m.textContent = 'loaded ' + ok.length + ' of ' + imgs.length + ' images; widths ' +
    ok.map(function (i) { return i.naturalWidth; }).join(' ');
  document.body.appendChild(m);
});
</script>"""


def test_report_renders_in_headless_chromium(gc_report, tmp_path):
    """Chromium loads the page from a file with no network: every <img> decodes and the screenshot is not blank."""
    browser = chromium()
    probe = tmp_path / "probe.html"  # a copy with a probe script: the report itself has none
    probe.write_text(gc_report.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
    flags = [browser, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=10000"]
    done = subprocess.run([*flags, "--dump-dom", probe.as_uri()], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    m = re.search(r'<div id="img-check">loaded (\d+) of (\d+) images; widths ([\d ]*)</div>', done.stdout)
    assert m, "the probe did not run: " + done.stdout[-500:]
    assert int(m.group(1)) == int(m.group(2)) == 6
    assert all(int(w) > 600 for w in m.group(3).split())

    shot = tmp_path / "shot.png"
    done = subprocess.run([*flags, "--window-size=1280,2400", f"--screenshot={shot}", gc_report.as_uri()],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and shot.exists(), done.stderr[-2000:]
    import matplotlib.image
    pixels = matplotlib.image.imread(shot)[..., :3]
    assert pixels.shape[:2] == (2400, 1280)
    not_white = (pixels < 0.95).any(axis=2).mean()
    assert not_white > 0.03, f"the screenshot is almost blank ({not_white:.1%} not white)"
    # The timeline's colours are there: some clearly blue pixels (c1, Okabe-Ito blue #0072B2).
    blue = ((pixels[..., 2] > 0.6) & (pixels[..., 0] < 0.2)).mean()
    assert blue > 0.001, "no figure colours in the screenshot"


def test_report_shows_a_sweeps_provenance_and_replays_its_first_violation(locksim_bin, tmp_path):
    """With a manifest beside the CSV: what was run, each cell's replay command, and the timeline of the most
    violated cell's first violating run — and no warning: at 30 s the TTL outlasts the 15 s pause, which fired in
    every run, so 0 % is the answer there."""
    sweep = tmp_path / "ttl.csv"
    done = subprocess.run([str(locksim_bin), "sweep", str(GC), "--vary", "lock.ttl=5s,30s", "--seeds", "3",
                           "--out", str(sweep)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "report.html"
    result = make_report(locksim_bin, out, GC, "--sweep", sweep, "--x", "lock.ttl")
    assert result.returncode == 0, result.stderr
    page = out.read_text()
    assert "What was run." in page and "content hash" in page
    assert "Warning:" not in page
    assert re.search(r"locksim run \S+single-node-gc-pause.toml --variant base --set lock.ttl=5s --seed \d+", page)
    assert "timeline of the first run that violated" in page


def test_report_warns_where_a_fault_missed_runs_and_names_every_such_cell(locksim_bin, tmp_path):
    """tests/data/gap-story.toml swept over its pause's window: where the pause fired in about half the runs (80 s)
    or a tenth (400 s) the report warns once for the pause, names both cells in its table and captions the marks in
    the figure; the cell where it always fired (8 s) is in neither."""
    gap = ROOT / "tests" / "data" / "gap-story.toml"
    sweep = tmp_path / "gap.csv"
    done = subprocess.run([str(locksim_bin), "sweep", str(gap), "--vary",
                           "fault.late-pause.at=uniform(0s, 8s),uniform(0s, 80s),uniform(0s, 400s)", "--seeds", "20",
                           "--out", str(sweep)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "report.html"
    result = make_report(locksim_bin, out, gap, "--variant", "base", "--no-interactive", "--sweep", sweep, "--x",
                         "fault.late-pause.at")
    assert result.returncode == 0, result.stderr
    page = out.read_text()
    assert page.count("<b>Warning:</b> late-pause fired with an effect") == 1
    table = page[page.index("The cells these warnings concern (2)"):]
    table = table[:table.index("</table>")]
    assert "uniform(0s, 80s)" in table and "uniform(0s, 400s)" in table and "uniform(0s, 8s)" not in table
    assert "Hollow markers: the points these warnings concern" in page


def test_report_of_a_multi_variant_sweep_replays_each_rows_variant(locksim_bin, tmp_path):
    """A sweep of every variant of redlock-vs-etcd: the report names each replayed cell's variant, replays it with
    that --variant, judges each row by its own variant's [expect], and draws the replayed run of its variant."""
    scenario = ROOT / "scenarios" / "redlock-vs-etcd.toml"
    sweep = tmp_path / "rve.csv"
    done = subprocess.run([str(locksim_bin), "sweep", str(scenario), "--all-variants", "--vary", "lock.ttl=10s,20s",
                           "--seeds", "2", "--out", str(sweep)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "report.html"
    result = make_report(locksim_bin, out, scenario, "--sweep", sweep, "--x", "lock.ttl", "--variant", "base")
    assert result.returncode == 0, result.stderr
    page = out.read_text()
    assert "variants base, tuned, tuned-gc-pause, etcd, etcd-gc-pause" in page
    for variant in ("base", "tuned-gc-pause", "etcd-gc-pause"):
        assert f"<td>{variant}: lock.ttl=10s</td>" in page
        assert re.search(rf"locksim run \S+redlock-vs-etcd.toml --variant {variant} --set lock.ttl=10s --seed \d+",
                         page)
    assert "--variant etcd --set" not in page and "--variant tuned --set" not in page  # nothing of theirs broke
    assert "timeline of the first run that violated" in page


def test_report_without_interactive_timelines_has_no_script(locksim_bin, tmp_path):
    out = tmp_path / "plain.html"
    done = make_report(locksim_bin, out, GC, "--no-interactive")
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    assert "<script" not in page.lower() and 'class="lt-root"' not in page and "no scripts" in page


def test_report_interactive_timeline_works_in_chromium(gc_report, tmp_path):
    """The report's first interactive timeline passes the same browser checks as a timeline page of its own
    (tests/browser/timeline_page_check.cjs: lanes, tooltip, zoom, a violation's witness, hiding a lane)."""
    chromium()
    web = ROOT / "analysis" / "web"
    if shutil.which("node") is None or not (web / "node_modules" / "puppeteer-core").is_dir():
        pytest.skip("no Node.js or analysis/web/node_modules: bash scripts/setup installs them")
    done = subprocess.run(["node", str(ROOT / "tests" / "browser" / "timeline_page_check.cjs"), str(gc_report),
                           str(tmp_path / "report.png")], capture_output=True, text=True, timeout=180,
                          env={**os.environ, "LOCKSIM_WEB": str(web), "CHROMIUM": chromium()})
    found = json.loads(done.stdout.strip().splitlines()[-1]) if done.stdout.strip() else {"failures": [done.stderr]}
    assert done.returncode == 0 and not found["failures"], found
    assert found["violations"] >= 1 and found["highlighted"] >= 2


def test_report_judges_recorded_histories_beside_the_runs(locksim_bin, tmp_path, capsys):
    """--history: a real etcd run's history judged by locksim check, with its timeline — and, written without the
    store's keys, with its unknown said."""
    root = Path(__file__).resolve().parents[2]
    history = root / "docs" / "examples" / "real-etcd-gc-pause.history.jsonl"
    lines = [json.loads(line) for line in history.read_text().splitlines()]
    lines[0]["service"]["recorded"] = False
    keyless = tmp_path / "keyless.history.jsonl"
    keyless.write_text("".join(json.dumps(x) + "\n" for x in lines if not x.get("type", "").startswith("key-")))
    out = tmp_path / "r.html"
    assert report.main(["etcd-gc-pause", "--variant", "base", "--history", str(history), "--history", str(keyless),
                        "--out", str(out), "--locksim", str(locksim_bin), "--no-interactive"]) == 0
    page = out.read_text()
    section = page[page.index('<h2 id="histories">'):]
    assert '<span class="u">unknown</span>' in section and "service.recorded is false" in section
    assert section.count('<span class="v">VIOLATED</span>') == 4 + 3
    assert "data:image/png;base64," in section and "locksim check" in page
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format":"locksim-history/9"}\n')
    assert report.main(["etcd-gc-pause", "--history", str(bad), "--out", str(tmp_path / "x.html"),
                        "--locksim", str(locksim_bin), "--no-interactive"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "locksim check failed" in err and "format" in err
