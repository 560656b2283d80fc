"""Every relative link in the documents reaches something inside the repository, and nothing points outside it.

The documents are README.md, docs/*.md and scenarios/FORMAT.md. A link's path must name a file or directory
inside the repository, and a #anchor into a Markdown file must name one of its headings (as GitHub spells them:
lower case, punctuation dropped, spaces as hyphens, -1, -2 for repeats). Separately, no file of the project may
send a reader to notes that live outside it — the shared design notes and source articles the project was
started from: what they said is in docs/ now.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "scenarios" / "FORMAT.md"]

# [text](target) and ![alt](target), text possibly holding one level of brackets ([`[lock]`](#lock)).
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.M | re.S)
CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.S)
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"", re.I)

# Names of the notes outside the repository. Built from pieces so that this file does not match itself.
OUTSIDE = re.compile("|".join([
    r"\.\./shared", r"/work/" + "shared", r"shared/" + "seeds", r"\bseeds/0\d\d_",
    r"\b(?:" + "SCENARIOS|ARCHITECTURE|REFERENCES|STYLE" + r")\.md\b",
]))
# Where project files live that a reader (or a comment) could point from; build output, caches and the
# golden outputs (recorded runs, not prose) are left out.
SEARCHED = ["README.md", "CMakeLists.txt", "docs", "scenarios", "sim", "analysis", "tests", "bench", "notebooks",
            "scripts", ".ci"]
SKIPPED_DIRS = {"__pycache__", "golden", ".ipynb_checkpoints", "build", "node_modules"}  # node_modules: npm's, not ours


def prose(text: str) -> str:
    """The text without fenced code blocks and with each code span replaced by a word (links stay links)."""
    text = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    return CODE_SPAN.sub("code", text)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors a Markdown file offers: one per heading (repeats numbered) and any <a name|id>."""
    text = path.read_text(encoding="utf-8")
    found, seen = set(), {}
    for line in FENCE.sub("", text).splitlines():
        heading = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading:
            base = slug(heading.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    found.update(HTML_ANCHOR.findall(text))
    return found


def link_problems(document: Path, root: Path = ROOT) -> list[str]:
    """What is wrong with the relative links of |document|, one line each (empty: nothing)."""
    problems = []
    text = document.read_text(encoding="utf-8")
    for number, line in enumerate(prose(text).splitlines(), 1):
        for target in LINK.findall(line):
            if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto: ... not ours to check
                continue
            where = f"{document.relative_to(root)}:{number}: {target}"
            path_part, _, anchor = target.partition("#")
            path = (document.parent / path_part).resolve() if path_part else document
            if not path.is_relative_to(root.resolve()):
                problems.append(f"{where}: points outside the repository")
                continue
            if not path.exists():
                problems.append(f"{where}: no such file")
                continue
            if anchor and path.suffix == ".md" and anchor not in anchors(path):
                problems.append(f"{where}: {path.relative_to(root.resolve())} has no heading #{anchor}")
    return problems


def outside_mentions(root: Path = ROOT) -> list[str]:
    """Lines of project files that name the notes outside the repository."""
    found = []
    for top in SEARCHED:
        start = root / top
        files = [start] if start.is_file() else sorted(start.rglob("*")) if start.is_dir() else []
        for path in files:
            if not path.is_file() or path == Path(__file__).resolve() or SKIPPED_DIRS & set(path.parts):
                continue
            try:
                text = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue  # images and other binary files
            for number, line in enumerate(text.splitlines(), 1):
                if OUTSIDE.search(line):
                    found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    return found


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves_inside_the_repository(document):
    assert link_problems(document) == []


def test_no_file_points_at_notes_outside_the_repository():
    assert outside_mentions() == []


def test_the_checks_can_fail(tmp_path):
    # A planted document with one link of each bad kind, and one file naming the outside notes.
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "other.md").write_text("# Other page\n\n## A section\n", encoding="utf-8")
    planted = tmp_path / "docs" / "planted.md"
    planted.write_text("\n".join([
        "# Planted",
        "[fine](other.md#a-section) and [fine too](#planted) and [web](https://example.com/x.md)",
        "[missing file](nowhere.md)",
        "[missing heading](other.md#no-such-section)",
        "![missing image](img/none.png)",
        "[outside](../../etc/passwd)",
        "`[in code](nowhere-either.md)`",
        "```",
        "[in a fence](nor-here.md)",
        "```",
        "See " + "SCENARIOS" + ".md for the rows.",
    ]) + "\n", encoding="utf-8")
    problems = link_problems(planted, tmp_path)
    assert [p.split(": ", 2)[1] for p in problems] == [
        "nowhere.md", "other.md#no-such-section", "img/none.png", "../../etc/passwd"]
    assert "no such file" in problems[0] and "has no heading" in problems[1] and "outside" in problems[3]
    saved = list(SEARCHED)
    try:
        SEARCHED[:] = ["docs"]
        assert [m.split(":")[1] for m in outside_mentions(tmp_path)] == ["11"]
    finally:
        SEARCHED[:] = saved


def test_headings_become_githubs_anchors():
    assert slug("`[expect.CLIENT]`: what the story claims about one client") == \
        "expectclient-what-the-story-claims-about-one-client"
    assert slug("Sweeps: violation rates over a parameter grid") == "sweeps-violation-rates-over-a-parameter-grid"
    assert slug("Side by side: `locksim compare`") == "side-by-side-locksim-compare"
    assert slug("P1 grant-exclusive") == "p1-grant-exclusive"
