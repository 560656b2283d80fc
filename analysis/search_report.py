"""The design-review report's "search" section: what ``locksim search`` looked for and what it found.

Reads a search's output directory (``locksim search FILE --out DIR``, or ``locksim search-merge``): ``search.json``
says what was searched (space, strategy, seed, budget, runs), the findings and the coverage; each finding's
``found-N.toml`` and ``found-N.trace.jsonl`` give its timeline. The section shows, in order:

1. what was searched: the scenario and variant, the properties hunted, strategy, seed, budget and the runs spent;
2. the outcome: each finding, or "not found" with the statement that it is no proof; each near miss (the
   closest run that held, its margin and what used the margin up); each run that crashed the model;
3. per finding: the one-sentence story, its timeline with the witness marked, the necessity table (the
   violation rate with each fault removed, halved, doubled), how likely the violation was once each fault had
   happened, the safety margins, and the shrinker's edits (folded);
4. coverage: per fault kind how often it was placed, fired and had an effect, and which targets and which
   tenths of each magnitude's range never fired; the triggers; runs by how many faults fired; per property the
   violating runs and the closest margin reached.

The timeline is drawn by the caller (``report.py`` passes ``render``), so this module needs neither the simulator
nor matplotlib: ``section`` takes the directory and a function from a finding's files to PNG bytes.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Callable, Optional

from analysis import results

E = html.escape

PROPERTY_IDS = {"grant-exclusive": "P1", "belief-exclusive": "P2", "resource-exclusive": "P3",
                "resource-current": "P4", "invariant": "P5"}


class SearchReportError(Exception):
    """A search directory the section cannot be made from."""


def load(directory: Path) -> dict:
    """``search.json`` of a search's output directory."""
    path = Path(directory) / "search.json"
    if not path.exists():
        raise SearchReportError(f"{path}: no such file (give the directory of locksim search --out)")
    try:
        doc = results.read_json(path)
    except results.ResultsError as e:
        raise SearchReportError(str(e)) from None
    if not isinstance(doc, dict) or "findings" not in doc or "coverage" not in doc:
        raise SearchReportError(f"{path}: not a search.json written by locksim search")
    return doc


def duration_text(ns: Optional[int]) -> str:
    """A signed duration in the simulator's style: 11s, -2.004s, 340ms, 0s; '–' when absent."""
    if ns is None:
        return "–"
    sign = "-" if ns < 0 else ""
    ns = abs(int(ns))
    for unit, size in (("s", 10**9), ("ms", 10**6), ("us", 10**3)):
        if ns >= size:
            return f"{sign}{ns / size:.4g}{unit}"
    return f"{sign}{ns}ns" if ns else "0s"


def rate_text(rate: dict) -> str:
    runs = rate.get("runs", 0)
    if not runs:
        return "n/a"
    return f"{rate.get('broke', 0)}/{runs} ({100 * rate.get('broke', 0) / runs:.0f}%)"


def finding_files(directory: Path, finding: dict) -> tuple[Path, Path]:
    """found-N.toml and found-N.trace.jsonl of a finding, looked up beside search.json."""
    name = Path(finding.get("file", "")).name
    toml = Path(directory) / name
    return toml, toml.parent / (toml.stem + ".trace.jsonl")


def _what_was_searched(doc: dict) -> str:
    shards = doc.get("shards")
    shard = (f"shards {', '.join(map(str, shards))} of {doc.get('shard_count')}" if shards else
             f"shard {doc['shard'][0]} of {doc['shard'][1]}" if doc.get("shard", [1, 1])[1] != 1 else "")
    hunt = ", ".join(f"{PROPERTY_IDS.get(p, '?')} {p}" for p in doc.get("hunt", []))
    parts = [f"scenario <code>{E(str(doc.get('scenario', '?')))}</code>",
             f"variant <code>{E(str(doc.get('variant', 'base')))}</code>",
             f"hunting {E(hunt)}", f"strategy {E(str(doc.get('strategy', '?')))}",
             f"seed {E(str(doc.get('seed', '?')))}", f"budget {doc.get('budget', '?')} runs",
             f"{doc.get('runs', 0)} runs made"]
    if shard:
        parts.append(E(shard))
    return "<p class=\"meta\">" + " · ".join(parts) + "</p>"


def _necessity(finding: dict) -> str:
    rows = "".join(f"<tr><td>{E(n.get('description', n.get('fault', '')))}</td><td>{rate_text(n['removed'])}</td>"
                   f"<td>{rate_text(n['halved'])}</td><td>{rate_text(n['doubled'])}</td></tr>"
                   for n in finding.get("necessity", []))
    return ("<table class=\"verdicts\"><tr><th>fault</th><th>removed</th><th>halved</th><th>doubled</th></tr>"
            f"{rows}</table>")


def _likelihood(finding: dict) -> str:
    rows = "".join(f"<tr><td>{E(a['fault'] or 'the start')}</td><td>{duration_text(a.get('at_ns'))}</td>"
                   f"<td>{rate_text(a['rate'])}</td></tr>" for a in finding.get("after", []))
    return ("<table class=\"verdicts\"><tr><th>from</th><th>at</th><th>violation rate after (fresh randomness)</th>"
            f"</tr>{rows}</table>")


def _margins(finding: dict) -> str:
    cells = "".join(f"<tr><td>{PROPERTY_IDS.get(p, '?')} {E(p)}</td><td>{duration_text(ns)}</td></tr>"
                    for p, ns in finding.get("margins_ns", {}).items())
    return f"<table class=\"verdicts\"><tr><th>property</th><th>margin</th></tr>{cells}</table>"


def _finding(directory: Path, n: int, finding: dict, render: Optional[Callable[[Path, Path, str], bytes]],
             figure: Callable[[bytes, str, str], str]) -> str:
    prop = finding.get("property", "?")
    toml, trace = finding_files(directory, finding)
    head = (f"<h3>Finding {n}: {PROPERTY_IDS.get(prop, '?')} {E(prop)} <span class=\"badge badb\">violated</span>"
            f"</h3><p>{E(finding.get('story', ''))}</p>")
    how = (f"<p class=\"meta\">found at run {finding.get('run', '?')} of shard {finding.get('shard', 1)} by the "
           f"{E(str(finding.get('strategy', '?')))} strategy (run seed {finding.get('seed', '?')}); shrunk from "
           f"{finding.get('faults_found', '?')} to {finding.get('faults_shrunk', '?')} fault(s) in "
           f"{finding.get('shrink_runs', 0)} runs; with other seeds it breaks "
           f"{rate_text(finding.get('rate_other_seeds', {}))}. Replay: <code>locksim run {E(toml.name)}</code></p>")
    parts = [head, how]
    if render is not None and toml.is_file() and trace.is_file():
        parts.append(figure(render(toml, trace, f"finding {n}: {prop}"), f"timeline of finding {n}",
                            "The shrunk finding's run on true time; the red line is the witness."))
    parts += ["<h4>Which faults it needs</h4>", _necessity(finding),
              "<h4>How likely the violation is once each fault has happened</h4>", _likelihood(finding),
              "<h4>Safety margins of this run</h4>", _margins(finding)]
    steps = finding.get("shrink_steps", [])
    if steps:
        parts.append("<details><summary>What shrinking changed</summary><ol>" +
                     "".join(f"<li><code>{E(s)}</code></li>" for s in steps) + "</ol></details>")
    if toml.is_file():
        parts.append(f"<details><summary>The finding as a scenario, <code>{E(toml.name)}</code></summary>"
                     f"<pre>{E(toml.read_text(encoding='utf-8'))}</pre></details>")
    return "".join(parts)


def _tenth_edges(m: dict, b: int) -> tuple[int, int]:
    span = m["high"] - m["low"] + 1
    low = m["low"] + span * b // len(m["fired_per_tenth"])
    high = m["high"] if b + 1 == len(m["fired_per_tenth"]) else m["low"] + span * (b + 1) // len(m["fired_per_tenth"]) - 1
    return low, high


def _magnitude_text(m: dict, value: int) -> str:
    return duration_text(value) if m["unit"] == "ns" else f"{value:+d}ppm"


def never_fired(m: dict) -> list[str]:
    """The tenths of a magnitude's range in which no fault fired, runs of them joined: ["27s..30s"]."""
    out, tenths, b = [], m["fired_per_tenth"], 0
    while b < len(tenths):
        if tenths[b]:
            b += 1
            continue
        e = b
        while e + 1 < len(tenths) and not tenths[e + 1]:
            e += 1
        out.append(f"{_magnitude_text(m, _tenth_edges(m, b)[0])}..{_magnitude_text(m, _tenth_edges(m, e)[1])}")
        b = e + 1
    return out


def _untried(kind: dict) -> str:
    gaps = [f"on {E(t['target'])}" for t in kind.get("targets", []) if not t["fired"]]
    for m in kind.get("magnitudes", []):
        gaps += [f"{E(m['key'])} {E(r)}" for r in never_fired(m)]
    return "; ".join(gaps) or "–"


def _coverage(doc: dict) -> str:
    cov = doc["coverage"]
    kinds = "".join(f"<tr><td>{E(k['kind'])}</td><td>{k['placed']}</td><td>{k['fired']}</td>"
                    f"<td>{k['effective']}</td><td>{_untried(k)}</td></tr>" for k in cov.get("kinds", []))
    props = "".join(f"<tr><td>{p['id']} {E(p['property'])}</td><td>{p['violated']}</td>"
                    f"<td>{duration_text(p.get('closest_margin_ns'))}</td></tr>" for p in cov.get("properties", []))
    strategies = ", ".join(f"{E(k)} {v}" for k, v in cov.get("runs_by_strategy", {}).items() if v)
    triggers = cov.get("triggers", {})
    sites = [f"{E(s['client'])} {E(s['phase'])} {s['fired']}" for s in triggers.get("phases", [])]
    fired = ", ".join(f"{n}: {runs}" for n, runs in enumerate(cov.get("runs_by_faults_fired", [])))
    return ("<h3>Coverage: what was tried, and nothing else was</h3><table class=\"verdicts\"><tr><th>fault kind</th>"
            "<th>placed</th><th>fired</th><th>with an effect</th><th>never fired</th></tr>"
            f"{kinds}</table>"
            "<table class=\"verdicts\"><tr><th>property</th><th>violating runs</th><th>closest margin</th></tr>"
            f"{props}</table><p class=\"meta\">triggers fired: at a time {triggers.get('at_time', {}).get('fired', 0)}"
            f"{', ' + ', '.join(sites) if sites else ''}; runs by how many searched faults fired: {fired or '–'}; "
            f"runs by strategy: {strategies or '–'}; runs that did not finish: {cov.get('failures', 0)}</p>")


def _near_misses(doc: dict) -> str:
    parts = []
    for n in doc.get("near_misses", []):
        uses = "".join(f"<li>{E(u['description'])}: {duration_text(u.get('margin_without_ns'))} to spare without it"
                       "</li>" for u in n.get("faults", []))
        parts.append(f"<p><b>Near miss</b>: {PROPERTY_IDS.get(n['property'], '?')} {E(n['property'])} held with "
                     f"{duration_text(n['margin_ns'])} to spare at run {n['run']} ({E(n.get('strategy', ''))}); "
                     f"<code>{E(Path(n.get('file', '')).name)}</code> replays it.</p><ul>{uses}</ul>")
    return "".join(parts)


def _crashes(doc: dict) -> str:
    crashes = doc.get("crashes", [])
    if not crashes:
        return ""
    items = "".join(f"<li>run {c['run']}: {E(c['what'])} (<code>{E(Path(c.get('file', '')).name)}</code>)</li>"
                    for c in crashes)
    return (f"<p><b>{doc['coverage'].get('failures', len(crashes))} runs did not finish</b>: the model crashed. "
            f"Each file below reproduces its crash alone; a search with crashes is not a result.</p><ul>{items}</ul>")


def section(directory: Path, render: Optional[Callable[[Path, Path, str], bytes]],
            figure: Callable[[bytes, str, str], str]) -> str:
    """The section's HTML for the search in ``directory``; ``render(found_toml, trace, title)`` draws a timeline."""
    doc = load(directory)
    findings = doc.get("findings", [])
    outcome = (f"<p><b>{len(findings)} finding{'s' if len(findings) != 1 else ''}</b> in {doc.get('runs', 0)} runs."
               "</p>" if findings else f"<p><b>{E(doc.get('statement', ''))}</b></p>")
    body = [_what_was_searched(doc), outcome, _crashes(doc), _near_misses(doc)]
    for n, f in enumerate(findings, 1):
        body.append(_finding(Path(directory), n, f, render, figure))
    body.append(_coverage(doc))
    return "".join(body)
