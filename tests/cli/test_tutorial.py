"""docs/tutorial.md runs as written: every file it has the reader save, every command it has the reader type, in
order, with the exit status and the output it shows.

The tutorial's conventions, which this file reads:

- A file the reader saves is a fenced block whose info string names it: ```toml title="my-lock.toml"``` writes
  the file, ```toml title="my-lock.toml" append``` adds the block to its end.
- A command is a line starting with `$ ` in a ```console block (a line ending in a backslash goes on to the next).
  The lines after it, up to the next `$ ` line or the end of the block, are output the tutorial quotes: each
  non-empty one, whitespace collapsed, must equal a line of the command's standard output or error (stdout's lines
  first), in the order shown, not necessarily adjacent. `...` inside a line stands for any text; a line that is only
  `...` marks lines left out and matches nothing.
- A command must exit 0, unless its line ends with a comment `# exits N` (bash ignores it, so it can be copied).
- Every `--out PATH` a command names must exist once it has run.
- ```sh blocks are the reader's setup (building, putting locksim on PATH); the test provides the same itself:
  each command runs in bash in a fresh directory that stands in for the root of a checkout — `analysis` there is
  a link to the repository's — with `locksim` on PATH being the binary under test (LOCKSIM_BIN, as for the other
  CLI tests), LOCKSIM_BIN set for the report, and matplotlib's Agg backend.
"""
from __future__ import annotations

import dataclasses
import os
import pathlib
import re
import shlex
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "tutorial.md"

FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.M | re.S)
TITLE = re.compile(r'\btitle="([^"]+)"')
EXITS = re.compile(r"\s+#\s*exits\s+(\d+)\b[^#]*$")


@dataclasses.dataclass
class SavedFile:
    name: str
    text: str
    append: bool
    line: int  # where the block starts in the Markdown


@dataclasses.dataclass
class Command:
    text: str  # as bash gets it, the exit comment taken off
    exit_status: int
    expected: list[str]
    line: int


def parse(markdown: str) -> list[SavedFile | Command]:
    """The files and commands of a tutorial, in document order."""
    steps: list[SavedFile | Command] = []
    for block in FENCE.finditer(markdown):
        info, body = block.group(1).strip(), block.group(2)
        start = markdown.count("\n", 0, block.start()) + 1
        title = TITLE.search(info)
        if title:
            steps.append(SavedFile(title.group(1), body, "append" in info.split(), start))
        elif info.split()[:1] == ["console"]:
            steps.extend(console_commands(body, start))
    return steps


def console_commands(body: str, start: int) -> list[Command]:
    """The commands of one ```console block with the output each one quotes."""
    commands: list[Command] = []
    lines = body.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            if not commands and lines[i].strip():
                raise ValueError(f"line {start + 1 + i}: a console block must start with a `$ ` command")
            if commands:
                commands[-1].expected.append(lines[i])
            i += 1
            continue
        line_number = start + 1 + i
        text = lines[i][2:]
        while text.endswith("\\") and i + 1 < len(lines):
            i += 1
            text = text[:-1].rstrip() + " " + lines[i].strip()
        exits = EXITS.search(text)
        status = int(exits.group(1)) if exits else 0
        if exits:
            text = text[: exits.start()]
        commands.append(Command(text.strip(), status, [], line_number))
        i += 1
    return commands


def normalise(line: str) -> str:
    return " ".join(line.split())


def line_matches(expected: str, actual: str) -> bool:
    if "..." not in expected:
        return expected == actual
    pattern = ".*".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual) is not None


def unmatched(expected: list[str], output: str) -> list[str]:
    """The quoted lines that do not appear in |output| in the order quoted (empty: all do)."""
    actual = [normalise(line) for line in output.splitlines()]
    position, missing = 0, []
    for raw in expected:
        want = normalise(raw)
        if not want or want == "...":
            continue
        found = next((k for k in range(position, len(actual)) if line_matches(want, actual[k])), None)
        if found is None:
            missing.append(want)
        else:
            position = found + 1
    return missing


def outputs_named(command: str) -> list[str]:
    """Every PATH given as --out PATH (or --out=PATH) in a command line."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        return []
    named = [words[k + 1] for k, w in enumerate(words[:-1]) if w == "--out"]
    return named + [w.split("=", 1)[1] for w in words if w.startswith("--out=")]


def environment(scratch: pathlib.Path, binary: str) -> tuple[pathlib.Path, dict]:
    """A fresh 'checkout' directory and the environment the commands run in."""
    checkout, bin_dir = scratch / "checkout", scratch / "bin"
    checkout.mkdir(parents=True)
    bin_dir.mkdir()
    (checkout / "analysis").symlink_to(ROOT / "analysis", target_is_directory=True)
    (bin_dir / "locksim").symlink_to(pathlib.Path(binary).resolve())
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}",
               LOCKSIM_BIN=str(pathlib.Path(binary).resolve()), MPLBACKEND="Agg", PYTHONDONTWRITEBYTECODE="1")
    return checkout, env


def run_tutorial(steps: list[SavedFile | Command], scratch: pathlib.Path, binary: str) -> list[str]:
    """Plays the steps; returns what went wrong at the first command that failed (empty: nothing)."""
    checkout, env = environment(scratch, binary)
    for step in steps:
        if isinstance(step, SavedFile):
            with open(checkout / step.name, "a" if step.append else "w", encoding="utf-8") as f:
                f.write(step.text)
            continue
        r = subprocess.run(["bash", "-o", "pipefail", "-c", step.text], cwd=checkout, env=env,
                           capture_output=True, text=True, timeout=900)
        problems = []
        if r.returncode != step.exit_status:
            problems.append(f"exit status {r.returncode}, the tutorial says {step.exit_status}")
        problems += [f"not in the output (in this order): {line}" for line in unmatched(step.expected,
                                                                                          r.stdout + "\n" + r.stderr)]
        problems += [f"--out {path} was not written" for path in outputs_named(step.text)
                     if not (checkout / path).exists()]
        if problems:
            return [f"docs/tutorial.md:{step.line}: $ {step.text}", *problems,
                    "--- stdout ---", r.stdout[-6000:], "--- stderr ---", r.stderr[-3000:]]
    return []


def test_the_tutorial_runs_as_written(locksim, tmp_path):
    """Every command of docs/tutorial.md, in order, against the files it has the reader save."""
    steps = parse(TUTORIAL.read_text(encoding="utf-8"))
    problems = run_tutorial(steps, tmp_path, locksim.binary)
    assert not problems, "\n".join(problems)


def test_the_tutorial_walks_the_whole_workflow():
    """The tutorial keeps its promise: a file, then run, sweep, plot, search, shrink, compare and the report."""
    steps = parse(TUTORIAL.read_text(encoding="utf-8"))
    commands = [s.text for s in steps if isinstance(s, Command)]
    files = [s for s in steps if isinstance(s, SavedFile)]
    for start in ["locksim validate", "locksim run", "locksim sweep", "locksim search", "locksim shrink",
                  "locksim compare", "/usr/bin/python3 analysis/sweep_plots.py", "/usr/bin/python3 analysis/report.py"]:
        assert any(c.startswith(start) for c in commands), f"no command starts with {start!r}"
    assert not any("build/locksim" in c for c in commands), "a command would bypass the binary under test"
    assert files and not files[0].append, "the first file block must create the file"
    assert any(s.exit_status == 1 for s in steps if isinstance(s, Command)), "search's exit 1 is marked"
    # What the reader decides on is printed by these: each quotes what it prints.
    deciding = [["locksim", word] for word in ("validate", "run", "search", "shrink", "compare")]
    for step in steps:
        if isinstance(step, Command) and step.text.split()[:2] in deciding:
            assert any(line.strip() for line in step.expected), f"line {step.line}: {step.text} quotes no output"


# The checks can fail: a planted tutorial with a wrong line, lines out of order, a wrong exit status and a missing
# output file must each be reported, and a right one must pass.
PLANTED = """\
Save it:

```toml title="a.toml"
x = 1
```

```toml title="a.toml" append
y = 2
```

```console
$ cat a.toml
x = 1
...
y = 2
$ echo "seed 1 and more"; echo second line
seed ... more
second line
$ false   # exits 1
```
"""


def test_parse_reads_the_conventions():
    """Files, appends, commands, continuation lines, quoted output and exit comments are read as documented."""
    steps = parse(PLANTED)
    assert [type(s).__name__ for s in steps] == ["SavedFile", "SavedFile", "Command", "Command", "Command"]
    assert (steps[0].name, steps[0].append, steps[1].append) == ("a.toml", False, True)
    assert steps[2].text == "cat a.toml" and steps[2].expected == ["x = 1", "...", "y = 2"]
    assert steps[4].text == "false" and steps[4].exit_status == 1 and steps[3].exit_status == 0
    continued = parse("```console\n$ echo a \\\n    b\na b\n```\n")
    assert continued[0].text == "echo a b" and continued[0].expected == ["a b"]
    with pytest.raises(ValueError):
        parse("```console\noutput before any command\n```\n")


def test_the_matcher_can_fail():
    """A quoted line that is wrong, out of order or only a prefix is reported; whitespace and `...` are not."""
    output = "seed 1\n  P1 grant-exclusive      holds     -         0\n  P2 belief-exclusive  VIOLATED\n"
    assert unmatched(["P1 grant-exclusive holds - 0", "...", "P2   belief-exclusive VIOLATED"], output) == []
    assert unmatched(["P1 grant-exclusive VIOLATED - 0"], output) == ["P1 grant-exclusive VIOLATED - 0"]
    assert unmatched(["P2 belief-exclusive VIOLATED", "seed 1"], output) == ["seed 1"]  # out of order
    assert unmatched(["P1 ... 0"], output) == [] and unmatched(["P1 ... 7"], output) == ["P1 ... 7"]
    assert unmatched(["P1 grant"], output) == ["P1 grant"]  # a line matches whole, not a prefix
    assert outputs_named("locksim search f.toml --out found   # exits 1") == ["found"]


def test_a_planted_tutorial_passes_and_each_planted_fault_fails(locksim, tmp_path):
    """The whole harness, not just the matcher, reports a wrong line, order, exit status or missing output."""
    assert run_tutorial(parse(PLANTED), tmp_path / "right", locksim.binary) == []
    for wrong, expect in [(PLANTED.replace("y = 2\n$ echo", "y = 3\n$ echo"), "not in the output"),
                          (PLANTED.replace("second line\n$ false", "second line\nseed 1\n$ false"),
                           "not in the output"),
                          (PLANTED.replace("# exits 1", "# exits 2"), "exit status 1, the tutorial says 2"),
                          (PLANTED.replace("$ false   # exits 1", "$ true --out nowhere.csv"),
                           "--out nowhere.csv was not written"),
                          (PLANTED + "\n```console\n$ locksim --version\nlocksim 0.0.0-planted\n```\n",
                           "not in the output")]:
        scratch = tmp_path / f"wrong{len(list(tmp_path.iterdir()))}"
        scratch.mkdir()
        problems = run_tutorial(parse(wrong), scratch, locksim.binary)
        assert any(expect in p for p in problems), "\n".join(problems)
