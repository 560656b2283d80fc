"""Every variant's timeline of some ``locksim run``s, drawn in one command: PNG, SVG and interactive HTML.

The demo draws about eighty timelines. As two commands per variant (``timeline`` and
``timeline_html``) most of its time went into starting Python and importing matplotlib, 160 times
over; here that is paid once per worker, and the workers (one per core) draw side by side.

Each RUN is the ``--json`` of a ``locksim run FILE --trace DIR/NAME.jsonl`` whose traces sit in
the same directory as the JSON, named as ``run`` names them: ``NAME.jsonl`` for a file with one
variant, ``NAME.VARIANT.jsonl`` for each of several. For each variant it writes
``DIR/NAME.VARIANT.png``, ``.svg`` and ``.html`` beside them, titled "NAME · VARIANT", exactly as
the two single commands would.

CLI::

    /usr/bin/python3 analysis/timelines_of_runs.py out/single-node-gc-pause.json [out/other.json ...]
        [--jobs N]

Exit status: 0 all drawn; 2 a run file or trace is missing or malformed (each named on stderr; the
others are still drawn).
"""

from __future__ import annotations

import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Optional, Sequence

if __package__ in (None, ""):  # run as a script: make `analysis` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
if __name__ == "__main__":  # a command: say what to install rather than fail inside the imports below
    from analysis.dependencies import exit_if_missing
    exit_if_missing("timelines_of_runs")

from analysis import results, timeline, timeline_html  # noqa: E402
from analysis.command_line import OneLineParser  # noqa: E402


def drawings(run_json: Path) -> list[tuple[Path, str, Path]]:
    """(trace, variant, verdicts file) for each variant of one ``run --json`` file, in its order."""
    variants = [v["name"] for v in results.read_json(run_json)["variants"]]
    stem = run_json.with_suffix("")
    # `run --trace NAME.jsonl` adds the variant's name only when it writes several traces.
    if len(variants) == 1:
        return [(stem.with_suffix(".jsonl"), variants[0], run_json)]
    return [(Path(f"{stem}.{v}.jsonl"), v, run_json) for v in variants]


def draw(trace: Path, variant: str, verdicts: Path) -> int:
    """Both timelines of one variant; the exit status of the worse of the two commands."""
    out = verdicts.with_suffix("")
    title = f"{out.name} · {variant}"
    static = timeline.main([str(trace), "--verdicts", str(verdicts), "--variant", variant, "--title", title,
                            "--out", f"{out}.{variant}.png", "--out", f"{out}.{variant}.svg"])
    interactive = timeline_html.main([str(trace), "--title", title, "--out", f"{out}.{variant}.html"])
    return max(static, interactive)


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = OneLineParser(prog="timelines_of_runs",
                      description="Draw every variant's timeline (PNG, SVG, HTML) of locksim run --json files.")
    p.add_argument("runs", nargs="+", metavar="RUN.json", help="locksim run FILE --json, beside its --trace files")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                   help="timelines drawn side by side (default: one per core)")
    args = p.parse_args(argv)
    if args.jobs < 1:
        p.error("--jobs must be at least 1")
    work, status = [], 0
    for run in map(Path, args.runs):
        try:
            work += drawings(run)
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"timelines_of_runs: {run}: not a locksim run --json file ({e})", file=sys.stderr)
            status = 2
    drawn = 0
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for code in pool.map(draw, *zip(*work)) if work else ():
            drawn += code == 0
            status = max(status, code)
    print(f"timelines_of_runs: {drawn} of {len(work)} variants drawn (PNG, SVG, HTML)")
    return status


if __name__ == "__main__":
    sys.exit(main())
