"""The interactive timeline of one run: one self-contained HTML file a reviewer opens offline and explores.

    /usr/bin/python3 analysis/timeline_html.py TRACE.jsonl --out timeline.html [--title TEXT]

Lanes for the violations, each client (belief, promised window, acquire attempts, pauses, crashes, clock faults),
the service holder, each lock service node or member (whose value, why it went, roles: master or replica, leader
or follower), sentinels, called services, the resource (accepted and rejected ops with tokens) and the network
(partitions with their groups, dropped and held messages). Zoom with the wheel and pan by dragging, on true time;
hovering anything shows its fields, times in true time and as the process's own clock read them; each violation is
a red line at its first witness and a button that selects every item the witness names; lanes can be hidden.

Drawing, zoom, pan and tooltips are vis-timeline's (from the npm registry, MIT or Apache-2.0): a timeline of
grouped ranges and points is exactly what it draws, and it is maintained and small enough to inline. It is read
from analysis/web/node_modules (``npm ci`` there: scripts/setup does it) and written into the page with the
page's own script (analysis/web/timeline.js) and style, so the file needs no server and fetches nothing.

What is drawn comes from ``timeline_html_data`` (plain data, tested without a browser); this module only makes
the page. ``fragment`` and ``page_head`` let the review report embed several timelines in one page.

Exit status: 0 written; 2 bad input (missing or malformed trace, a trace without judged lines, no vendored
library).
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
from pathlib import Path
from typing import Optional, Sequence

if __package__ in (None, ""):  # run as a script: make `analysis` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
if __name__ == "__main__":  # a command: say what to install rather than fail inside the imports below
    from analysis.dependencies import exit_if_missing
    exit_if_missing("timeline_html")

from analysis.command_line import OneLineParser  # noqa: E402
from analysis import style  # noqa: E402
from analysis.timeline_html_data import TimelineData, timeline_data  # noqa: E402
from analysis.trace import TraceError, load  # noqa: E402

WEB = Path(__file__).resolve().parent / "web"
LIBRARY = WEB / "node_modules" / "vis-timeline" / "standalone" / "umd" / "vis-timeline-graph2d.min.js"


class MissingLibrary(Exception):
    pass


def library_text() -> str:
    """vis-timeline's standalone build (its CSS included), as the page inlines it."""
    try:
        text = LIBRARY.read_text(encoding="utf-8")
    except OSError:
        raise MissingLibrary(f"{LIBRARY} is missing: install the page's JavaScript with "
                             f"`npm ci --prefix {WEB}` (bash scripts/setup does it)") from None
    # Its last line names a source map next to the file; the page has no such neighbour, so it names nothing.
    return re.sub(r"^//# sourceMappingURL=.*$", "", text, flags=re.MULTILINE)


def _script(text: str) -> str:
    # An inline script ends at the first "</script", whatever the JavaScript means there; "<\/script" means the
    # same in a JavaScript string or regular expression. Only that: "</" alone is valid (a regex /</g, say).
    return "<script>" + re.sub(r"</(script)", r"<\\/\1", text, flags=re.IGNORECASE) + "</script>"


def client_colour_css(clients: int) -> str:
    """The clients' colours (style.CLIENT_COLOURS, as in the static plots), as the classes lt-c0, lt-c1..."""
    rules = []
    for i in range(max(clients, 1)):
        c, ink = style.client_colour(i), style.text_on(style.client_colour(i))
        rules.append(f".lt-canvas .vis-item.lt-c{i}.vis-range {{ background-color: {c}; color: {ink}; }}")
        rules.append(f".lt-canvas .vis-item.lt-c{i}.lt-copy {{ background-color: {style.tint(c)}; color: #222; }}")
        rules.append(f".lt-canvas .vis-item.lt-op.lt-c{i} .vis-dot {{ border-color: {c}; }}")
        rules.append(f".lt-canvas .vis-item.lt-op-ok.lt-c{i} .vis-dot {{ background-color: {c}; }}")
    return "\n".join(rules)


def page_head(clients: int = 6) -> str:
    """What a page needs once, however many timelines it holds: the library, the page script, the style."""
    css = (WEB / "timeline.css").read_text(encoding="utf-8") + "\n" + client_colour_css(clients)
    return (f"<style>{css}</style>\n" + _script(library_text()) + "\n" +
            _script((WEB / "timeline.js").read_text(encoding="utf-8")))


def fragment(data: TimelineData, element_id: str) -> str:
    """One timeline: its element, its data (JSON, inert until mounted) and the call that mounts it."""
    payload = json.dumps(data.to_json(), separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")
    return (f'<div class="lt-root" id="{html.escape(element_id)}"></div>\n'
            f'<script type="application/json" id="{html.escape(element_id)}-data">{payload}</script>\n'
            + _script(f"window.locksimTimelines = window.locksimTimelines || {{}};"
                      f"window.locksimTimelines[{json.dumps(element_id)}] = LocksimTimeline.mount("
                      f"document.getElementById({json.dumps(element_id)}), JSON.parse(document.getElementById("
                      f"{json.dumps(element_id + '-data')}).textContent));"))


def page(data: TimelineData, title: str, clients: int) -> str:
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{html.escape(title)}</title>
{page_head(clients)}
<style>body {{ margin: 12px 16px; }} h1 {{ font: 600 17px system-ui, sans-serif; margin: 0 0 6px; }}</style>
</head>
<body>
<h1>{html.escape(title)}</h1>
{fragment(data, "timeline")}
</body>
</html>
"""


def write(trace_path: str, out: str, title: Optional[str] = None) -> None:
    trace = load(trace_path)
    data = timeline_data(trace)
    name = title or f"{Path(trace_path).stem} · seed {trace.run.seed}"
    Path(out).write_text(page(data, name, len(trace.clients)), encoding="utf-8")


# --- command line ----------------------------------------------------------------



def _parser() -> argparse.ArgumentParser:
    p = OneLineParser(prog="timeline_html", description="Write the interactive timeline of one locksim run (one HTML "
                                                  "file that opens offline) from its trace (JSON Lines).")
    p.add_argument("trace", help="the run's trace (JSON Lines with judged lines: locksim run --trace)")
    p.add_argument("--out", required=True, metavar="FILE", help="the HTML file to write")
    p.add_argument("--title", help="title (default: the trace's name and seed)")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if Path(args.out).suffix.lower() not in (".html", ".htm"):
            raise ValueError(f"{args.out}: the interactive timeline is an .html file")
        write(args.trace, args.out, args.title)
    except (TraceError, ValueError, OSError, MissingLibrary) as e:
        print(f"timeline_html: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
