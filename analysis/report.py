"""One scenario, all its variants (and optionally a sweep), as one self-contained HTML page for a design review.

A reviewer should not need the simulator, a server or a network to read what
a run found. So this command runs the scenario itself (``locksim run FILE
--json --trace ...``), reads the file's title and story with ``tomllib``, and
writes a single HTML file with everything inline: the CSS in a <style>
element, every figure a PNG in a ``data:`` URI, the interactive timelines'
script in <script> elements (vis-timeline and the page's own, see
``timeline_html``; ``--no-interactive`` leaves them out for a page with no
script at all), no font, no link to anything outside the page. It opens the
same from a mail attachment, a CI artefact or a USB stick.

The page, top to bottom:

1. the story (the scenario's title and ``story``), and what was run (file,
   seed, overrides, the exact commands that reproduce it);
2. an overview: one row per variant, one column per property (P1..P5), each
   cell the verdict, marked ✓ where it matches the file's ``[expect]`` and ✗
   where it does not;
3. per variant: its description, the verdict table with each violation's first
   witness and the expectation, the liveness numbers, and the run's timeline
   (``analysis/timeline.py``) with the witnesses marked — shown when something
   was violated, folded away when nothing was — and its interactive timeline
   (zoom, pan, tooltips, a violation's witness highlighted);
4. with ``--sweep``: per variant in the CSV, the violation rate against
   ``--x`` (a line per property; with ``--y``, a line per value of ``--y`` for
   one property) and, with ``--y``, a heat map of that property over both; a
   line per variant when the CSV has several and no ``--y``; and the sweep's
   rows, folded. The property for one-property plots is ``--property``, else
   the one the sweep saw violated most often;
5. the scenario file itself, folded.

CLI::

    /usr/bin/python3 analysis/report.py scenarios/single-node-gc-pause.toml --out report.html
        [--variant NAME ...] [--seed N] [--set KEY=VALUE ...]
        [--sweep results.csv --x KEY [--y KEY2] [--property NAME] [--where KEY=VALUE ...]]
        [--compare cells.csv] [--search DIR] [--locksim build/locksim]

``--compare`` takes a ``locksim compare --out`` CSV and adds the side-by-side verdict matrix (a table and
``compare_plot``'s heat maps). ``--search DIR`` takes a ``locksim search --out DIR`` (or ``search-merge``) directory
and adds the search section (``search_report.py``): what was searched, each finding with its timeline, necessity
and likelihood tables, and coverage.

The simulator is ``--locksim``, else ``$LOCKSIM_BIN``, else ``build/locksim``
under the repository, else ``locksim`` on PATH (an installed locksim). Exit status: 0 written; 2 bad input (a missing or
broken scenario or sweep, a simulator that fails), one line on stderr.
"""

from __future__ import annotations

import argparse
import base64
import html
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

if __package__ in (None, ""):  # run as a script: make `analysis` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
if __name__ == "__main__":  # a command: say what to install rather than fail inside the imports below
    from analysis.dependencies import exit_if_missing
    exit_if_missing("report")

from analysis.command_line import OneLineParser  # noqa: E402
from analysis import compare_plot, provenance, results, search_report, sweep_plots, timeline, timeline_html  # noqa: E402
from analysis.timeline_html_data import timeline_data  # noqa: E402
from analysis.style import OKABE_ITO, VIOLATION  # noqa: E402
from analysis.trace import PROPERTIES, TraceError, load, load_verdicts  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

__all__ = ["ReportError", "Scenario", "read_scenario", "locksim_path", "run_scenario", "verdict_rows",
           "liveness_text", "timeline_png", "verdict_frame", "witness_frame", "build", "main"]


class ReportError(Exception):
    """Something the report cannot be made from: reported as one line, exit 2."""


# --- inputs --------------------------------------------------------------------------------


@dataclass
class Scenario:
    path: Path
    name: str
    title: str
    story: str
    text: str  # the file as written
    variant_descriptions: dict[str, str] = field(default_factory=dict)


def read_scenario(path: Path) -> Scenario:
    """The scenario's name, title, story and variant descriptions, read with tomllib."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReportError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ReportError(f"{path}: cannot read ({e})") from None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ReportError(f"{path}: not TOML ({e})") from None
    head = doc.get("scenario", {}) if isinstance(doc.get("scenario"), dict) else {}
    variants = doc.get("variant", {}) if isinstance(doc.get("variant"), dict) else {}
    return Scenario(path=path, name=str(head.get("name", path.stem)), title=str(head.get("title", "")),
                    story=str(head.get("story", "")).strip(), text=text,
                    variant_descriptions={str(k): str(v.get("description", "")) for k, v in variants.items()
                                          if isinstance(v, dict)})


def locksim_path(explicit: Optional[str] = None) -> Path:
    """--locksim, else $LOCKSIM_BIN, else build/locksim in the repository, else locksim on PATH (installed)."""
    chosen = explicit or os.environ.get("LOCKSIM_BIN")
    if not chosen and not (ROOT / "build" / "locksim").is_file():
        chosen = shutil.which("locksim")
    candidate = Path(chosen or ROOT / "build" / "locksim")
    if not candidate.is_file() or not os.access(candidate, os.X_OK):
        raise ReportError(f"{candidate}: no locksim binary there (build it: cmake -S . -B build && cmake --build "
                          f"build --target locksim; or name one with --locksim / LOCKSIM_BIN)")
    return candidate


def scenario_path(argument: str, explicit_locksim: Optional[str] = None) -> Path:
    """A scenario file as ``locksim run`` takes it: a path, or a catalogue name (``locksim list`` finds it)."""
    path = Path(argument)
    if path.exists() or "/" in argument or argument.endswith(".toml"):
        return path
    listing = subprocess.run([str(locksim_path(explicit_locksim)), "list"], capture_output=True, text=True)
    for line in listing.stdout.splitlines():
        words = line.split()
        if len(words) == 2 and not line.startswith(" ") and words[0] == argument:
            return Path(words[1])
    raise ReportError(f"{argument}: no such file, and no catalogue scenario of that name (locksim list shows them)")


def run_scenario(locksim: Path, scenario: Path, workdir: Path, variants: Sequence[str] = (),
                 seed: Optional[int] = None, overrides: Sequence[str] = ()) -> tuple[dict, dict[str, Path], list[str]]:
    """Runs ``locksim run FILE --json --trace`` once for all (or the chosen) variants.

    Returns (the --json document, variant -> its trace file, the command as run). Exit 1 (a verdict differs
    from [expect]) is a finding, not an error; exit 2 and anything else is.
    """
    trace = workdir / "trace.jsonl"
    args = ["run", str(scenario), "--json", "--trace", str(trace)]
    for v in variants:
        args += ["--variant", v]
    if seed is not None:
        args += ["--seed", str(seed)]
    for o in overrides:
        args += ["--set", o]
    try:
        done = subprocess.run([str(locksim), *args], capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ReportError(f"{locksim}: could not run ({e})") from None
    if done.returncode not in (0, 1):
        first = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[0]
        raise ReportError(f"locksim run failed: {first}")
    try:
        doc = results.read_json(done.stdout)
    except results.ResultsError as e:
        raise ReportError(f"locksim run --json: {e}") from None
    names = [v["name"] for v in doc.get("variants", [])]
    traces = {}
    for name in names:
        per = workdir / f"trace.{name}.jsonl"
        traces[name] = per if per.exists() else trace
    shown = ["locksim", *args]
    shown[2] = display_path(scenario)
    shown[shown.index("--trace") + 1] = "trace.jsonl"
    return doc, traces, shown


def display_path(path: Path) -> str:
    """The path as a reader would type it: relative to the working directory when it is under it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


# --- pieces of the page ----------------------------------------------------------------------

E = html.escape


def _data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _figure(png: bytes, alt: str, caption: str = "") -> str:
    cap = f"<figcaption>{caption}</figcaption>" if caption else ""
    return f'<figure><img src="{_data_uri(png)}" alt="{E(alt)}">{cap}</figure>'


def _ns(ns: Optional[int]) -> str:
    return "–" if ns is None else timeline.fmt_duration(int(ns))


def _unknown_or_ns(ns: Optional[int]) -> str:
    """A figure a checked history could not measure is null: unknown, not zero."""
    return "unknown" if ns is None else _ns(ns)


def liveness_text(liveness: dict) -> str:
    """One sentence of liveness numbers, as the CLI's table prints them."""
    if not liveness:
        return ""
    attempts = liveness.get("acquire_attempts", 0)
    ok = liveness.get("acquire_ok", 0)
    parts = [f"{liveness.get('sessions', 0)} session{'s' if liveness.get('sessions', 0) != 1 else ''} from "
             f"{attempts} acquire attempt{'s' if attempts != 1 else ''}"
             + (f" ({100 * ok / attempts:.1f} % ok, {liveness.get('acquire_info', 0)} unknown)" if attempts else "")]
    if "mean_acquire_latency_ns" in liveness:
        parts.append(f"acquire latency mean {_ns(liveness['mean_acquire_latency_ns'])}, "
                     f"max {_ns(liveness.get('max_acquire_latency_ns'))}")
    if "longest_stuck_ns" in liveness:
        parts.append(f"longest stuck {_unknown_or_ns(liveness['longest_stuck_ns'])}")
    if "unheld_ns" in liveness:
        parts.append(f"unheld {_unknown_or_ns(liveness['unheld_ns'])} of {_ns(liveness.get('run_length_ns'))}")
    if liveness.get("expired_grants"):
        parts.append(f"{liveness['expired_grants']} grant(s) already expired when acquire returned")
    if liveness.get("gave_up"):
        parts.append(f"{liveness['gave_up']} client(s) gave up")
    return "; ".join(parts)


@dataclass
class VerdictRow:
    pid: str
    name: str
    status: str
    count: int
    expected: Optional[str]
    witness_at: str
    witness_text: str

    @property
    def violated(self) -> bool:
        return self.status == "violated"

    @property
    def matches(self) -> Optional[bool]:
        return None if self.expected is None else self.expected == self.status


def verdict_rows(variant: dict) -> list[VerdictRow]:
    """The five properties of one --json variant, in P1..P5 order, with their expectation (None: not stated)."""
    verdicts = variant.get("verdicts", {})
    expected = variant.get("expected", {}) or {}
    names = [n for n in PROPERTIES if n in verdicts] + [n for n in verdicts if n not in PROPERTIES]
    rows = []
    for name in names:
        v = verdicts[name]
        w = v.get("witness") or {}
        rows.append(VerdictRow(pid=v.get("id", PROPERTIES.get(name, "")), name=name, status=str(v.get("status")),
                               count=int(v.get("count", 0) or 0), expected=expected.get(name),
                               witness_at=str(w.get("at", "")), witness_text=str(w.get("text", ""))))
    return rows


def _mark(row: VerdictRow) -> str:
    if row.matches is None:
        return '<span class="noexp" title="the scenario states no expectation">not stated</span>'
    if row.matches:
        return f'<span class="ok" title="matches [expect]">✓ {E(row.expected)}</span>'
    return f'<span class="bad" title="differs from [expect]">✗ expected {E(row.expected)}</span>'


def _status(row: VerdictRow) -> str:
    return ('<span class="v">VIOLATED</span>' if row.violated else f'<span class="h">{E(row.status)}</span>')


def _overview(doc: dict) -> str:
    head = "".join(f'<th title="{E(n)}">{E(PROPERTIES[n])}<br><span class="pname">{E(n)}</span></th>'
                   for n in PROPERTIES)
    body = []
    for v in doc.get("variants", []):
        cells = []
        by_name = {r.name: r for r in verdict_rows(v)}
        for n in PROPERTIES:
            r = by_name.get(n)
            if r is None:
                cells.append("<td>–</td>")
                continue
            cls = "cv" if r.violated else "ch"
            mark = "" if r.matches is None else (' <span class="ok">✓</span>' if r.matches
                                                 else ' <span class="bad">✗</span>')
            word = "V" if r.violated else "H"
            cells.append(f'<td class="{cls}" title="{E(r.status)}; expected: {E(r.expected or "not stated")}">'
                         f'{word}{mark}</td>')
        verdict = ('<span class="ok">matches [expect]</span>' if v.get("matches")
                   else f'<span class="bad">{len(v.get("mismatches", []))} mismatch(es)</span>')
        body.append(f'<tr><th class="vn"><a href="#variant-{E(v["name"])}">{E(v["name"])}</a></th>{"".join(cells)}'
                    f'<td class="m">{verdict}</td></tr>')
    return (f'<table class="overview"><thead><tr><th>variant</th>{head}<th>expectations</th></tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table>'
            '<p class="legend"><span class="cv swatch">V</span> violated · <span class="ch swatch">H</span> holds · '
            '<span class="ok">✓</span> as the file\'s <code>[expect]</code> says · '
            '<span class="bad">✗</span> not as it says · no mark: the file states no expectation</p>')


def _verdict_table(rows: list[VerdictRow]) -> str:
    body = []
    for r in rows:
        witness = (f'<span class="at">at {E(r.witness_at)}</span> {E(r.witness_text)}' if r.witness_text else "")
        body.append(f'<tr class="{"rv" if r.violated else ""}"><td class="pid">{E(r.pid)}</td><td>{E(r.name)}</td>'
                    f'<td>{_status(r)}</td><td>{_mark(r)}</td><td class="num">{r.count}</td>'
                    f'<td class="w">{witness}</td></tr>')
    return ('<table class="verdicts"><thead><tr><th></th><th>property</th><th>verdict</th><th>expected</th>'
            f'<th>count</th><th>first witness</th></tr></thead><tbody>{"".join(body)}</tbody></table>')


def _story_html(story: str) -> str:
    paragraphs = [" ".join(p.split()) for p in story.split("\n\n") if p.strip()]
    return "".join(f"<p>{E(p)}</p>" for p in paragraphs)


def timeline_png(doc: dict, trace_path: Path, variant: str, title: Optional[str] = None,
                 window: tuple[Optional[float], Optional[float]] = (None, None)) -> bytes:
    """The timeline of one variant's run as PNG bytes, its violations marked from ``doc`` (the --json output)."""
    with tempfile.TemporaryDirectory(prefix="locksim-timeline-") as tmp:
        verdicts_path = Path(tmp) / "verdicts.json"
        verdicts_path.write_text(json.dumps(doc), encoding="utf-8")
        trace = load(trace_path)
        name, verdicts = load_verdicts(verdicts_path, variant)
        out = Path(tmp) / "timeline.png"
        timeline.render(trace, [out], verdicts=verdicts, variant=name, title=title, window=window)
        return out.read_bytes()


def verdict_frame(doc: dict):
    """The overview as a pandas DataFrame (for notebooks): one row per variant, P1..P5 as "V" or "H", a ✓ when
    the verdict matches the file's expectation and ✗ when it does not, and whether the variant matches."""
    import pandas as pd
    rows = []
    for v in doc.get("variants", []):
        row = {"variant": v["name"]}
        for r in verdict_rows(v):
            mark = "" if r.matches is None else (" ✓" if r.matches else " ✗")
            row[f"{r.pid} {r.name}"] = ("V" if r.violated else "H") + mark
        row["matches [expect]"] = bool(v.get("matches"))
        rows.append(row)
    return pd.DataFrame(rows).set_index("variant")


def witness_frame(doc: dict, variant: str):
    """One variant's verdicts with counts and first witnesses, as a pandas DataFrame (for notebooks)."""
    import pandas as pd
    chosen = next((v for v in doc.get("variants", []) if v["name"] == variant), None)
    if chosen is None:
        raise ReportError(f"no variant {variant!r} in this run")
    return pd.DataFrame([{"property": f"{r.pid} {r.name}", "verdict": r.status, "expected": r.expected or "",
                          "count": r.count, "first witness": f"at {r.witness_at}: {r.witness_text}"
                          if r.witness_text else ""} for r in verdict_rows(chosen)]).set_index("property")


@dataclass
class SweepOptions:
    csv: Path
    x: str
    y: Optional[str] = None
    prop: Optional[str] = None
    where: Sequence[str] = ()


def _replays(sweep, manifest: Optional[dict], props: Sequence[str]) -> list[tuple[str, str, str, str]]:
    """(cell, property, seed, command) for each cell's first violating run of each property, most violated first;
    with several variants the cell names its variant, and the command replays that variant."""
    several = len(sweep.variants) > 1
    out = []
    for _, row in sweep.frame.iterrows():
        for p in props:
            seed = str(row.get(f"{p}.first_seed", "") or "")
            if not seed or seed == "nan":
                continue
            command = provenance.replay_command(manifest, sweep.keys, row, seed)
            if command:
                out.append((provenance.cell_label(row, sweep.keys, several), p, seed, command,
                            float(row[f"{p}.rate"])))
    out.sort(key=lambda r: -r[4])
    return [r[:4] for r in out]


def _replay_timeline(locksim: Path, work: Path, manifest: dict, sweep, cell: str, prop: str, seed: str) -> str:
    """The timeline of one cell's first violating run, replayed with locksim run."""
    several = len(sweep.variants) > 1
    row = next(r for _, r in sweep.frame.iterrows() if provenance.cell_label(r, sweep.keys, several) == cell)
    overrides = list(manifest.get("set") or []) + [f"{k}={row[k]}" for k in sweep.keys]
    variant = str(row["variant"])
    replay_dir = work / "replay"
    replay_dir.mkdir(exist_ok=True)
    doc, traces, _ = run_scenario(locksim, Path(manifest["scenario_path"]), replay_dir, [variant], int(seed), overrides)
    png = timeline_png(doc, traces[variant], variant, f"{manifest.get('scenario_name', '')} · {cell} · seed {seed}")
    return _figure(png, f"timeline of the first run that violated {prop} at {cell}",
                   f"The sweep's first run (seed {seed}) that violated {prop} at {cell}, replayed: the same run the "
                   f"sweep counted, with its witnesses marked.")


def _gap_table(gaps: Sequence[provenance.StoryGap]) -> str:
    """Every cell the story warnings concern, in full (the figures mark them; here they are named)."""
    if not gaps:
        return ""
    rows = "".join(f"<tr><td>{E(g.label)}</td><td>{E(g.fault)}</td><td class=\"num\">{g.fired} of {g.runs} "
                   f"({E(provenance.share_text(g.fired, g.runs))})</td><td>{E(', '.join(g.held) or '–')}</td>"
                   f"<td>{E(', '.join(g.understated) or '–')}</td></tr>" for g in gaps)
    return (f'<details><summary>The cells these warnings concern ({len(gaps)})</summary><div class="scroll">'
            f'<table class="rows"><thead><tr><th>cell</th><th>fault</th><th>fired with an effect in</th>'
            f'<th>0 % that may only mean it did not happen</th><th>rate that may read low</th></tr></thead>'
            f'<tbody>{rows}</tbody></table></div></details>')


def _sweep_section(opts: SweepOptions, locksim: Optional[Path] = None, work: Optional[Path] = None) -> str:
    sweep = sweep_plots.load(opts.csv)
    manifest = provenance.load_manifest(opts.csv)
    sweep.column(opts.x)  # a missing key fails here, before anything is drawn
    if opts.y:
        sweep.column(opts.y)
    variants = sweep.variants
    keys = ", ".join(f"<code>{E(k)}</code>" for k in sweep.keys)
    parts = [f'<p>From <code>{E(opts.csv.name)}</code>: {len(sweep.frame)} row{"s" if len(sweep.frame) != 1 else ""}'
             f' ({", ".join(E(s) for s in sweep.scenarios)}; variant{"s" if len(variants) != 1 else ""} '
             f'{", ".join(E(v) for v in variants)}), swept keys {keys}.'
             f' Each point or cell is the share of its runs (seeds) that violated the property; the shaded band and '
             f'the bracketed numbers are the 95 % Wilson score interval, which stays honest at 0 of n and n of n.</p>']
    figures = []
    prop = [opts.prop] if opts.prop else []
    fixed_keys = {w.split("=", 1)[0].strip() for w in opts.where}
    heat_where = [w for w in opts.where if w.split("=", 1)[0].strip() not in (opts.x, opts.y)]

    def add(plan, draw, alt: str) -> None:
        sweep_plots.mark_gaps(plan, manifest)
        caption = f"{plan.gap_marks[0].upper()}{plan.gap_marks[1:]} (see the warnings below)." \
            if plan.marks_drawn() else ""
        figures.append(_figure(sweep_plots.figure_bytes(lambda: draw(plan)), alt, caption))

    for variant in variants:
        if opts.y and opts.y not in fixed_keys:  # the second key varies: one line per value of it
            plan = sweep_plots.curve_series(sweep, opts.x, prop, opts.y, [variant], heat_where)
        else:
            plan = sweep_plots.curve_series(sweep, opts.x, prop, "property", [variant], opts.where)
        add(plan, sweep_plots.draw_curve, f"violation rate against {opts.x}, variant {variant}")
    if len(variants) > 1 and not (opts.y and opts.y not in fixed_keys):
        plan = sweep_plots.curve_series(sweep, opts.x, prop, "variant", [], opts.where)
        add(plan, sweep_plots.draw_curve, f"violation rate against {opts.x}, one line per variant")
    if opts.y:
        for variant in variants:
            heat = sweep_plots.heat_grid(sweep, opts.x, opts.y, opts.prop, variant, heat_where)
            add(heat, sweep_plots.draw_heatmap,
                f"heat map of {heat.prop} over {opts.x} and {opts.y}, variant {variant}")
    parts += figures
    # What was run, and where a 0 % may only mean the story did not happen.
    shown = [opts.prop] if opts.prop else sweep.properties
    warnings = provenance.story_warnings(sweep.frame, sweep.keys, shown, manifest)
    parts.append('<div class="provenance"><p><b>What was run.</b> ' +
                 "<br>".join(E(line) for line in provenance.provenance_lines(manifest)) + "</p>" +
                 "".join(f'<p class="warn"><b>Warning:</b> {E(w)}</p>' for w in warnings) +
                 _gap_table(provenance.story_gaps(sweep.frame, sweep.keys, shown, manifest)) + "</div>")
    replays = _replays(sweep, manifest, shown)
    if replays:
        items = "".join(f"<tr><td>{E(cell)}</td><td>{E(PROPERTIES.get(p, p))}</td><td><code>{E(command)}</code></td>"
                        f"</tr>" for cell, p, _seed, command in replays[:20])
        parts.append(f'<p>Each cell\'s first violating run, and the command that replays it '
                     f'({len(replays)} in all{", the 20 most violated shown" if len(replays) > 20 else ""}):</p>'
                     f'<div class="scroll"><table class="rows"><thead><tr><th>cell</th><th>property</th>'
                     f'<th>replay</th></tr></thead><tbody>{items}</tbody></table></div>')
        if locksim is not None and work is not None and manifest and manifest.get("scenario_path"):
            cell, p, seed, _command = replays[0]
            parts.append(_replay_timeline(locksim, work, manifest, sweep, cell, p, seed))
    # The rows themselves, folded: key values and the rates in %.
    cols = ["variant", *sweep.keys, "runs"]
    head = "".join(f"<th>{E(c)}</th>" for c in cols) + "".join(
        f'<th title="{E(p)}">{E(PROPERTIES.get(p, p))} %</th>' for p in sweep.properties)
    body = []
    for _, r in sweep.frame.iterrows():
        cells = "".join(f"<td>{E(str(r[c]) if c != 'runs' else str(int(r[c])))}</td>" for c in cols)
        for p in sweep.properties:
            rate = r[f"{p}.rate"]
            if rate != rate:  # NaN: not applicable
                cells += "<td>–</td>"
            else:
                cells += (f'<td class="num" title="[{100 * r[f"{p}.ci_low"]:.1f}, {100 * r[f"{p}.ci_high"]:.1f}]">'
                          f'{100 * rate:.0f}</td>')
        body.append(f"<tr>{cells}</tr>")
    parts.append(f'<details><summary>The sweep\'s rows ({len(sweep.frame)})</summary><div class="scroll">'
                 f'<table class="rows"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'
                 f'</div></details>')
    return "".join(parts)


CSS = f"""
:root {{ --ink: #1d1d1f; --note: #555; --line: #d9d9de; --bg-soft: #f6f6f8; --v: {VIOLATION};
  --v-soft: #fbe6d9; --h: {OKABE_ITO['bluish_green']}; --h-soft: #e3f3ee; --link: {OKABE_ITO['blue']}; }}
* {{ box-sizing: border-box; }}
body {{ margin: 0; color: var(--ink); background: #fff;
  font: 15px/1.55 -apple-system, "Segoe UI", "DejaVu Sans", "Liberation Sans", Helvetica, Arial, sans-serif; }}
main {{ max-width: 1180px; margin: 0 auto; padding: 28px 32px 60px; }}
header {{ border-bottom: 3px solid var(--ink); padding-bottom: 14px; margin-bottom: 22px; }}
.kicker {{ font-size: 13px; letter-spacing: .06em; text-transform: uppercase; color: var(--note); }}
h1 {{ font-size: 27px; line-height: 1.25; margin: 4px 0 8px; }}
h2 {{ font-size: 21px; margin: 38px 0 10px; padding-top: 8px; border-top: 1px solid var(--line); }}
h2 code {{ font-size: 19px; background: none; padding: 0; }}
h3 {{ font-size: 17px; margin: 22px 0 6px; }}
.meta {{ color: var(--note); font-size: 13.5px; }}
.story {{ font-size: 16px; max-width: 820px; }}
code, pre {{ font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }}
code {{ background: var(--bg-soft); padding: 1px 4px; border-radius: 3px; }}
pre {{ background: var(--bg-soft); padding: 12px 14px; border-radius: 6px; overflow-x: auto; line-height: 1.45; }}
a {{ color: var(--link); }}
table {{ border-collapse: collapse; margin: 8px 0 6px; }}
th, td {{ padding: 6px 10px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }}
thead th {{ font-size: 13px; color: var(--note); font-weight: 600; border-bottom: 2px solid var(--line); }}
.pname {{ font-weight: 400; font-size: 11.5px; }}
.overview td {{ text-align: center; font-weight: 700; min-width: 74px; }}
.overview td.m {{ font-weight: 400; text-align: left; }}
.cv {{ background: var(--v-soft); color: var(--v); }}
.ch {{ background: var(--h-soft); color: #0b5d47; }}
.swatch {{ display: inline-block; padding: 0 6px; border-radius: 3px; font-weight: 700; }}
.legend {{ font-size: 13px; color: var(--note); }}
.ok {{ color: #0b6e52; font-weight: 600; }}
.bad {{ color: #fff; background: var(--v); padding: 0 5px; border-radius: 3px; font-weight: 700; }}
.noexp {{ color: #999; font-size: 13px; }}
.v {{ color: var(--v); font-weight: 800; letter-spacing: .02em; }}
.h {{ color: #0b5d47; }}
.u {{ color: #8a5a00; font-weight: 700; }}
tr.rv td {{ background: #fff7f1; }}
.verdicts td.w {{ font-size: 13.5px; max-width: 640px; }}
.at {{ font-weight: 700; white-space: nowrap; }}
.pid {{ font-weight: 700; color: var(--note); }}
.num {{ text-align: right; font-variant-numeric: tabular-nums; }}
.variant-desc {{ color: var(--note); margin: 0 0 6px; max-width: 900px; }}
.liveness {{ font-size: 13.5px; color: var(--note); }}
.badge {{ display: inline-block; padding: 2px 10px; border-radius: 12px; font-size: 13px; font-weight: 700; }}
.badge.okb {{ background: var(--h-soft); color: #0b5d47; }}
.badge.badb {{ background: var(--v); color: #fff; }}
figure {{ margin: 14px 0 22px; }}
figure img {{ display: block; max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px; }}
figcaption {{ font-size: 13px; color: var(--note); margin-top: 4px; }}
details {{ margin: 10px 0; }}
summary {{ cursor: pointer; color: var(--link); }}
.scroll {{ overflow-x: auto; }}
.provenance {{ font-size: 0.9em; color: var(--note); }}
.warn {{ color: var(--ink); background: var(--v-soft); padding: 0.4em 0.6em; border-left: 3px solid var(--v); }}
table.rows {{ font-size: 12.5px; }}
table.rows td, table.rows th {{ padding: 3px 8px; }}
footer {{ margin-top: 40px; font-size: 12.5px; color: var(--note); border-top: 1px solid var(--line);
  padding-top: 10px; }}
@media print {{ main {{ max-width: none; padding: 0; }} details {{ display: none; }} }}
"""


def _compare_section(csv_path: Path) -> str:
    """The side-by-side verdict matrix of a ``locksim compare --out`` CSV: the heat maps and a table."""
    matrix = compare_plot.load(csv_path)
    png = compare_plot.figure_bytes(matrix)
    head = "".join(f"<th>{E(v)}</th>" for v in matrix.services)
    body = []
    for story in matrix.stories:
        cells = []
        for service in matrix.services:
            rates = [(pid, matrix.rate(story, service, pid)) for pid, _ in compare_plot.PROPERTIES]
            if rates[0][1] is None:
                cells.append('<td class="quiet">—</td>')
                continue
            broken = [f"{pid} {compare_plot._cell_text(r)}" for pid, r in rates if r]
            cells.append(f'<td class="{"bad" if broken else "ok"}">{E(", ".join(broken) or "safe")}</td>')
        body.append(f"<tr><th>{E(story)}</th>{''.join(cells)}</tr>")
    return (f"<p>The same stories against every lock service (<code>locksim compare</code>, "
            f"<code>{E(display_path(csv_path))}</code>): the share of runs in which each property broke.</p>"
            f"<table class=\"verdicts\"><tr><th>story</th>{head}</tr>{''.join(body)}</table>"
            + _figure(png, "verdict matrix", "One panel per property; colour fixed from 0 (white) to 100 %."))


def _search_section(directory: Path, locksim: Path) -> str:
    """The search section: each finding's timeline drawn from its own files (found-N.toml, .trace.jsonl)."""

    def render(found: Path, trace: Path, title: str) -> bytes:
        with tempfile.TemporaryDirectory(prefix="locksim-found-") as tmp:
            doc, _, _ = run_scenario(locksim, found, Path(tmp))
            try:
                return timeline_png(doc, trace, "base", title)
            except (TraceError, ValueError, OSError) as e:
                raise ReportError(f"timeline of {found.name}: {e}") from None

    try:
        return search_report.section(directory, render, _figure)
    except search_report.SearchReportError as e:
        raise ReportError(str(e)) from None


def check_history(locksim: Path, history: Path, workdir: Path, index: int) -> tuple[dict, Path]:
    """``locksim check HISTORY --json --trace``: (its --json document, its trace). Exit 1 (a property violated)
    is a finding; a refused history (exit 2) or anything else is an error naming it."""
    trace = workdir / f"history-{index}.trace.jsonl"
    try:
        done = subprocess.run([str(locksim), "check", str(history), "--json", "--trace", str(trace)],
                              capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ReportError(f"{locksim}: could not run ({e})") from None
    if done.returncode not in (0, 1):
        first = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[0]
        raise ReportError(f"locksim check failed: {first}")
    try:
        return results.read_json(done.stdout), trace
    except results.ResultsError as e:
        raise ReportError(f"locksim check --json: {e}") from None


def _history_table(doc: dict) -> str:
    """check's verdicts: violated with the first witness, holds, or unknown with the reason the history gives."""
    body = []
    for name in PROPERTIES:
        v = doc.get("verdicts", {}).get(name)
        if v is None:
            continue
        status = str(v.get("status"))
        w = v.get("witness") or {}
        if status == "unknown":
            cell, word = E(v.get("unknown_because") or ""), '<span class="u">unknown</span>'
        else:
            cell = f'<span class="at">at {E(str(w.get("at", "")))}</span> {E(str(w.get("text", "")))}' if w else ""
            word = '<span class="v">VIOLATED</span>' if status == "violated" else f'<span class="h">{E(status)}</span>'
        body.append(f'<tr class="{"rv" if status == "violated" else ""}"><td class="pid">{E(PROPERTIES[name])}</td>'
                    f'<td>{E(name)}</td><td>{word}</td><td class="num">{int(v.get("count", 0) or 0)}</td>'
                    f'<td class="w">{cell}</td></tr>')
    return ('<table class="verdicts"><thead><tr><th></th><th>property</th><th>verdict</th><th>count</th>'
            f'<th>first witness, or why unknown</th></tr></thead><tbody>{"".join(body)}</tbody></table>')


def _history_section(histories: Sequence[Path], locksim: Path, work: Path, interactive: bool) -> tuple[str, int]:
    """One part per recorded history (docs/history.md), judged by locksim check: its verdicts — unknown where the
    history cannot decide — its liveness, and its timeline. Returns (the HTML, the most clients in one)."""
    parts, clients = [], 1
    for i, path in enumerate(histories):
        doc, trace_path = check_history(locksim, path, work, i)
        trace = load(trace_path)
        clients = max(clients, len(trace.clients))
        source = f' — recorded by {E(doc["source"])}' if doc.get("source") else ""
        clock = ("one common clock" if doc.get("time") == "common" else
                 f'each process\'s own clock, {doc.get("orderings", 0)} orders of events judged')
        out = work / f"history-{i}.png"
        try:
            timeline.render(trace, [out], title=Path(path).name)
        except (TraceError, ValueError, OSError) as e:
            raise ReportError(f"timeline of {path}: {e}") from None
        parts.append(f'<h3 id="history-{i}"><code>{E(display_path(Path(path)))}</code></h3>'
                     f'<p class="variant-desc">Judged by <code>locksim check</code> ({E(clock)}){source}.</p>'
                     + _history_table(doc) +
                     f'<p class="liveness"><b>Liveness</b> (measured, not judged): '
                     f'{E(liveness_text(doc.get("liveness", {})))}.</p>'
                     + _figure(out.read_bytes(), f"timeline of {path}",
                               "The history's timeline on its own clock; lanes the history does not record say so."))
        if interactive:
            parts.append('<details class="interactive"><summary>Explore this history</summary>' +
                         timeline_html.fragment(timeline_data(trace), f"timeline-history-{i}") + '</details>')
    intro = ('<p>What real systems recorded, judged by the same checkers as the runs above '
             '(<code>locksim check</code>): each verdict is violated, '
             'holds, or unknown — never a guess — where the history does not record what a property needs or its '
             'clocks cannot order the events.</p>')
    return intro + "".join(parts), clients


def _slug(name: str) -> str:
    """A variant's name as an element id."""
    return "".join(c if c.isalnum() else "-" for c in name)


def build(scenario_path: Path, out: Path, locksim: Optional[str] = None, variants: Sequence[str] = (),
          seed: Optional[int] = None, overrides: Sequence[str] = (), sweep: Optional[SweepOptions] = None,
          compare: Optional[Path] = None, search: Optional[Path] = None, interactive: bool = True,
          histories: Sequence[Path] = ()) -> Path:
    """Runs the scenario, draws what it needs, and writes the page to ``out``. ``interactive``: each variant also
    gets its interactive timeline (analysis/timeline_html.py), the page then carries its script inline.
    ``histories``: recorded histories (docs/history.md) to judge with locksim check and show after the runs."""
    scenario = read_scenario(scenario_path)
    binary = locksim_path(locksim)
    compare_html = ('<h2 id="compare">Side by side</h2>' + _compare_section(compare)) if compare else ""
    search_html = ('<h2 id="search">Search</h2>' + _search_section(search, binary)) if search else ""
    if sweep is not None:  # check the sweep before running anything
        checked = sweep_plots.load(sweep.csv)
        checked.column(sweep.x)
        if sweep.y:
            checked.column(sweep.y)
    with tempfile.TemporaryDirectory(prefix="locksim-report-") as tmp:
        work = Path(tmp)
        doc, traces, command = run_scenario(binary, scenario_path, work, variants, seed, overrides)
        sections = []
        clients = 1
        for v in doc.get("variants", []):
            name = v["name"]
            rows = verdict_rows(v)
            desc = v.get("description") or scenario.variant_descriptions.get(name, "")
            if not desc and name == "base":
                desc = "the story itself, as told above"
            violated = [r for r in rows if r.violated]
            badge = ('<span class="badge okb">matches [expect]</span>' if v.get("matches")
                     else '<span class="badge badb">differs from [expect]</span>')
            part = [f'<h2 id="variant-{E(name)}">Variant <code>{E(name)}</code> {badge}</h2>',
                    f'<p class="variant-desc">{E(desc)}</p>' if desc else "",
                    _verdict_table(rows),
                    f'<p class="liveness"><b>Liveness</b> (measured, not judged): '
                    f'{E(liveness_text(v.get("liveness", {})))}'
                    f"{'; ' + str(v['events']) + ' events' if 'events' in v else ''}.</p>"]
            try:
                png = timeline_png(doc, traces[name], name, f"{scenario.name} · {name}")
            except (TraceError, ValueError, OSError) as e:
                raise ReportError(f"timeline of {name}: {e}") from None
            if violated:
                ids = ", ".join(r.pid for r in violated)
                part.append(_figure(png, f"timeline of {scenario.name}, variant {name}",
                                    f"The run's timeline on true time: who believed it held the lock (solid) "
                                    f"against the window it was promised (hatched), what each node held, what the "
                                    f"resource accepted. Red lines: the first witness of {ids}."))
            else:
                part.append('<details class="quiet"><summary>Nothing violated in this run. Show its timeline'
                            '</summary>' + _figure(png, f"timeline of {scenario.name}, variant {name}") +
                            '</details>')
            if interactive:
                trace = load(traces[name])
                clients = max(clients, len(trace.clients))
                part.append('<details class="interactive" open><summary>Explore this run: zoom with the wheel, drag '
                            'to pan, hover anything for its fields, click a violation to select what its witness '
                            'names, hide lanes</summary>' +
                            timeline_html.fragment(timeline_data(trace), f"timeline-{_slug(name)}") + '</details>')
            sections.append("".join(part))

        sweep_html = ""
        if sweep is not None:
            sweep_html = '<h2 id="sweep">Sweep</h2>' + _sweep_section(sweep, binary, work)
        history_html = ""
        if histories:
            section, history_clients = _history_section(histories, binary, work, interactive)
            history_html = '<h2 id="histories">Recorded histories</h2>' + section
            clients = max(clients, history_clients)

    all_match = all(v.get("matches") for v in doc.get("variants", []))
    n = len(doc.get("variants", []))
    meta = [f"file <code>{E(display_path(scenario_path))}</code>", f"seed {E(str(doc.get('seed', '?')))}",
            f"{n} variant{'s' if n != 1 else ''}"]
    if overrides:
        meta.append("overrides " + ", ".join(f"<code>{E(o)}</code>" for o in overrides))
    nav = " · ".join(f'<a href="#variant-{E(v["name"])}">{E(v["name"])}</a>' for v in doc.get("variants", []))
    if sweep is not None:
        nav += ' · <a href="#sweep">sweep</a>'
    if compare:
        nav += ' · <a href="#compare">side by side</a>'
    if search:
        nav += ' · <a href="#search">search</a>'
    if histories:
        nav += ' · <a href="#histories">recorded histories</a>'
    repro = " ".join(shlex.quote(c) for c in command).replace(" --trace trace.jsonl", "")
    repro_trace = f"locksim run {shlex.quote(display_path(scenario_path))} --variant NAME --trace run.jsonl"
    for h in histories:
        repro_trace += f"\nlocksim check {shlex.quote(display_path(Path(h)))} --trace history.jsonl"
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{E(scenario.name)} — locksim report</title>
<style>{CSS}</style>
{timeline_html.page_head(clients) if interactive else ""}</head>
<body><main>
<header>
<div class="kicker">locksim review report · {E(scenario.name)}</div>
<h1>{E(scenario.title or scenario.name)}</h1>
<div class="meta">{" · ".join(meta)} · {'<span class="badge okb">every variant matches its expectations</span>'
    if all_match else '<span class="badge badb">some verdicts differ from the expectations</span>'}</div>
</header>
<section class="story"><h3>The story</h3>{_story_html(scenario.story) or '<p>(the file tells no story)</p>'}</section>
<h3>Verdicts at a glance</h3>
{_overview(doc)}
<p class="meta">Variants: {nav}</p>
{"".join(sections)}
{sweep_html}
{history_html}
{compare_html}
{search_html}
<h2 id="reproduce">Reproduce</h2>
<pre>{E(repro)}
{E(repro_trace)}</pre>
<details><summary>The scenario file, <code>{E(scenario_path.name)}</code></summary>
<pre>{E(scenario.text)}</pre></details>
<footer>Made by <code>analysis/report.py</code> from the run above. All five properties are judged over true time by
the simulator's checkers (P1 grant-exclusive, P2 belief-exclusive, P3 resource-exclusive, P4 resource-current,
P5 invariant){"; recorded histories by the same checkers, through locksim check, on their own clocks" if histories else ""};
this page only shows what they found. Self-contained: {"the interactive timelines' script "
"(vis-timeline) is inside the page" if interactive else "no scripts"}; nothing is fetched from elsewhere.</footer>
</main></body></html>
"""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page, encoding="utf-8")
    return out



def _parser() -> argparse.ArgumentParser:
    p = OneLineParser(prog="report", description="Run a scenario (all its variants) and write one self-contained HTML "
                                           "page: story, verdicts, timelines and optional sweep plots.")
    p.add_argument("scenario", help="the scenario file (TOML), or a catalogue scenario's name")
    p.add_argument("--out", required=True, metavar="FILE", help="the HTML file to write")
    p.add_argument("--variant", action="append", default=[], metavar="NAME", help="only these variants (repeat)")
    p.add_argument("--seed", type=int, help="replace the scenario's seed")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="overrides",
                   help="override a key of the scenario (as locksim run --set)")
    p.add_argument("--sweep", metavar="CSV", help="a sweep's results (locksim sweep) to plot")
    p.add_argument("--x", metavar="KEY", help="the swept key for the curves and the heat map's x axis")
    p.add_argument("--y", metavar="KEY", help="a second swept key: adds a heat map")
    p.add_argument("--property", choices=list(PROPERTIES), metavar="NAME",
                   help="property for the heat map and per-variant curve (default: the most violated)")
    p.add_argument("--where", action="append", default=[], metavar="KEY=VALUE",
                   help="fix a swept key the plots do not show")
    p.add_argument("--compare", metavar="CSV", help="a locksim compare --out CSV: adds the side-by-side verdict matrix")
    p.add_argument("--search", metavar="DIR", help="a locksim search --out DIR: adds the search section")
    p.add_argument("--history", action="append", default=[], metavar="FILE", dest="histories",
                   help="a recorded history (docs/history.md), judged by locksim check and shown with its timeline "
                        "(repeat)")
    p.add_argument("--locksim", metavar="PATH", help="the simulator (default: $LOCKSIM_BIN or build/locksim)")
    p.add_argument("--no-interactive", dest="interactive", action="store_false",
                   help="leave out the interactive timelines: a page with no script at all")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if Path(args.out).suffix.lower() not in (".html", ".htm"):
            raise ReportError(f"{args.out}: the report is HTML (use a .html name)")
        sweep = None
        if args.sweep:
            if not args.x:
                raise ReportError("--sweep needs --x KEY (the swept key to plot against)")
            sweep = SweepOptions(Path(args.sweep), args.x, args.y, args.property, args.where)
        elif args.x or args.y:
            raise ReportError("--x/--y need --sweep CSV")
        build(scenario_path(args.scenario, args.locksim), Path(args.out), args.locksim, args.variant, args.seed, args.overrides, sweep,
              Path(args.compare) if args.compare else None, Path(args.search) if args.search else None,
              args.interactive, [Path(h) for h in args.histories])
    except (ReportError, sweep_plots.SweepError, compare_plot.CompareError, OSError,
            timeline_html.MissingLibrary) as e:
        print(f"report: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
