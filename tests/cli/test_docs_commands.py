"""Every `locksim` command shown in README.md and docs/*.md runs as written (docs/tutorial.md, whose output is
checked too, is test_tutorial.py's).

What counts as a command, read from the fenced blocks of each page:

- in a ```console block, or a bare ``` block, a line `$ locksim …` or `$ ./build/locksim …` (a bare block
  without `$ ` lines is a synopsis, not a command);
- in a ```sh block, a line whose first word is `locksim`, `./build/locksim` or `build/locksim`; a `for … done`
  loop around one, whole; and `parallel [-j N] COMMAND ::: A B …` as GNU parallel runs it, COMMAND once per
  argument with `{}` replaced (parallel itself need not be installed);
- a line ending in a backslash goes on to the next; `# …` comments are bash's.

Each page's commands run in order — one may read what an earlier one wrote — in bash, in a fresh directory that
stands in for a checkout: `scenarios`, `analysis` and `docs/examples` link to the repository's, `build/locksim` and `locksim` on
PATH are the binary under test, and a Slurm array task's variables are set (task 1 of 16, 2 CPUs). A command
must exit 0 (`search` and `search-merge` also 1: a finding), unless its line ends with `# exits N`, and every
`--out PATH` it names must exist afterwards.

The cap: commands written for a real machine run their seeds and budgets in full there, but here each
`--seeds N` runs at most SEEDS_CAP seeds and each `--budget N` at most BUDGET_CAP runs, so the pages run in
well under a minute; the command line is otherwise as written, so every option still parses and every command
starts and finishes.
"""
from __future__ import annotations

import dataclasses
import os
import pathlib
import re
import subprocess

from test_tutorial import EXITS, FENCE, console_commands, outputs_named

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").glob("*.md") if p.name != "tutorial.md")]
SEEDS_CAP, BUDGET_CAP = 20, 2000
LOCKSIM = re.compile(r"^(?:\./)?(?:build/)?locksim(?:\s|$)")
PARALLEL = re.compile(r"^parallel(?:\s+-j\s*\d+)?\s+(.*?)\s+:::\s+(.*)$")
SLURM = {"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "16", "SLURM_CPUS_PER_TASK": "2"}


@dataclasses.dataclass
class DocCommand:
    page: str
    line: int
    text: str  # as bash gets it, capped, the exit comment taken off
    exit_statuses: tuple[int, ...]


def joined_lines(body: str, start: int):
    """(line number, text) of each logical line of a block, backslash continuations joined."""
    lines = body.splitlines()
    i = 0
    while i < len(lines):
        number, text = start + 1 + i, lines[i]
        while text.rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
            text = text.rstrip()[:-1].rstrip() + " " + lines[i].strip()
        yield number, text
        i += 1


def sh_commands(body: str, start: int) -> list[tuple[int, str]]:
    """The locksim commands of one ```sh block, loops whole, parallel's jobs one by one."""
    out, loop = [], None
    for number, text in joined_lines(body, start):
        stripped = text.strip()
        if loop is not None:
            loop[1].append(stripped)
            if stripped == "done" or stripped.startswith("done "):
                if any(LOCKSIM.match(part) for part in loop[1]):
                    out.append((loop[0], "\n".join(loop[1])))
                loop = None
            continue
        if stripped.startswith("for ") and stripped.endswith("do"):
            loop = (number, [stripped])
        elif PARALLEL.match(stripped) and LOCKSIM.match(PARALLEL.match(stripped).group(1)):
            template, arguments = PARALLEL.match(stripped).groups()
            out += [(number, template.replace("{}", a)) for a in arguments.split("#")[0].split()]
        elif LOCKSIM.match(stripped):
            out.append((number, stripped))
    return out


def capped(text: str) -> str:
    text = re.sub(r"--seeds(\s+|=)(\d+)", lambda m: f"--seeds{m.group(1)}{min(int(m.group(2)), SEEDS_CAP)}", text)
    return re.sub(r"--budget(\s+|=)(\d+)", lambda m: f"--budget{m.group(1)}{min(int(m.group(2)), BUDGET_CAP)}", text)


def page_commands(path: pathlib.Path) -> list[DocCommand]:
    markdown = path.read_text(encoding="utf-8")
    found: list[DocCommand] = []
    for block in FENCE.finditer(markdown):
        info, body = block.group(1).strip(), block.group(2)
        start = markdown.count("\n", 0, block.start()) + 1
        kind = info.split()[:1]
        if kind == ["sh"]:
            pairs = sh_commands(body, start)
        elif kind in ([], ["console"]) and any(line.startswith("$ ") for line in body.splitlines()):
            pairs = [(c.line, c.text + (f"   # exits {c.exit_status}" if c.exit_status else ""))
                     for c in console_commands(body, start)]
        else:
            continue
        for number, text in pairs:
            if not LOCKSIM.match(text.lstrip()) and not text.startswith("for "):
                continue
            exits = EXITS.search(text)
            if exits:
                statuses, text = (int(exits.group(1)),), text[: exits.start()]
            else:
                finds = re.match(r"^\S*locksim\s+(search|search-merge)\b", text.lstrip())
                statuses = (0, 1) if finds else (0,)
            name = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name
            found.append(DocCommand(name, number, capped(text.strip()), statuses))
    return found


def checkout(scratch: pathlib.Path, binary: str) -> tuple[pathlib.Path, dict]:
    """A directory that stands in for a checkout with a build, and the environment the commands run in."""
    root = scratch / "checkout"
    (root / "build").mkdir(parents=True)
    for name in ("scenarios", "analysis", "docs/examples"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).symlink_to(ROOT / name, target_is_directory=True)
    (root / "build" / "locksim").symlink_to(pathlib.Path(binary).resolve())
    env = dict(os.environ, PATH=f"{root / 'build'}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}",
               MPLBACKEND="Agg", **SLURM)
    return root, env


def written(command: str) -> list[str]:
    """The --out paths of a command, Slurm's variables expanded; a loop's (still naming $v) are left out."""
    paths = []
    for path in outputs_named(command):
        for name, value in SLURM.items():
            path = path.replace("$" + name, value)
        if "$" not in path:
            paths.append(path)
    return paths


def run_page(commands: list[DocCommand], scratch: pathlib.Path, binary: str) -> list[str]:
    """Runs one page's commands in order; what went wrong at each that failed (empty: nothing)."""
    root, env = checkout(scratch, binary)
    problems = []
    for c in commands:
        r = subprocess.run(["bash", "-o", "pipefail", "-c", c.text], cwd=root, env=env, capture_output=True,
                           text=True, timeout=120)
        wrong = [f"exit status {r.returncode}, expected {' or '.join(map(str, c.exit_statuses))}"
                 ] if r.returncode not in c.exit_statuses else []
        wrong += [f"--out {p} was not written" for p in written(c.text) if not (root / p).exists()]
        if wrong:
            problems += [f"{c.page}:{c.line}: {c.text}", *wrong, "--- stderr ---", r.stderr[-2000:]]
    return problems


def test_every_docs_command_runs(locksim, tmp_path):
    """Each page's locksim commands, in order, from a scratch checkout, with seeds and budgets capped."""
    problems = []
    for page in PAGES:
        commands = page_commands(page)
        if commands:
            problems += run_page(commands, tmp_path / page.stem, locksim.binary)
    assert not problems, "\n".join(problems)


def test_the_pages_show_commands_of_every_kind():
    """The extraction finds what the pages show: a console example, sh lines, a loop, parallel jobs, a Slurm task."""
    commands = [c for page in PAGES for c in page_commands(page)]
    texts = [c.text for c in commands]
    assert any(c.page == "README.md" and c.text == "./build/locksim run scenarios/single-node-gc-pause.toml"
               for c in commands)
    assert any(t.startswith("for v in ") and "--variant $v" in t for t in texts)
    assert sum("--shard 3/8 --out out/shard3" in t for t in texts) == 1, "parallel's third job"
    assert any("$SLURM_ARRAY_TASK_ID" in t for t in texts)
    assert any(t.startswith("./build/locksim search-merge out/shard*") for t in texts)
    assert len(commands) >= 20, len(commands)


PLANTED = """\
```
locksim run FILE [--seed N]
```

```sh
./build/locksim sweep scenarios/x.toml \\
    --vary lock.ttl=1s,2s --seeds 5000 --out out/a.csv
/usr/bin/python3 analysis/sweep_plots.py curve out/a.csv
for v in a b; do
  locksim run scenarios/x.toml --variant $v
done
parallel -j4 locksim search x.toml --budget 800000 --shard {}/2 ::: 1 2
```

```console
$ locksim validate nowhere.toml   # exits 2
```
"""


def test_extraction_reads_the_conventions(tmp_path):
    """Synopses and other programs are skipped; continuations joined; caps, loops, parallel and exit comments."""
    page = tmp_path / "page.md"
    page.write_text(PLANTED)
    commands = page_commands(page)
    assert [c.text for c in commands] == [
        "./build/locksim sweep scenarios/x.toml --vary lock.ttl=1s,2s --seeds 20 --out out/a.csv",
        "for v in a b; do\nlocksim run scenarios/x.toml --variant $v\ndone",
        "locksim search x.toml --budget 2000 --shard 1/2",
        "locksim search x.toml --budget 2000 --shard 2/2",
        "locksim validate nowhere.toml",
    ]
    assert [c.exit_statuses for c in commands] == [(0,), (0,), (0, 1), (0, 1), (2,)]


def test_a_failing_docs_command_is_reported(locksim, tmp_path):
    """The runner can fail: a wrong exit status and an --out that was not written are each named."""
    wrong = [DocCommand("p.md", 3, "locksim validate scenarios/nowhere.toml", (0,)),
             DocCommand("p.md", 4, "locksim validate scenarios/single-node-gc-pause.toml --out x.csv", (2,)),
             DocCommand("p.md", 5, "true --out never.csv", (0,))]
    problems = run_page(wrong, tmp_path, locksim.binary)
    assert "p.md:3: locksim validate scenarios/nowhere.toml" in problems
    assert "exit status 2, expected 0" in problems
    assert "--out never.csv was not written" in problems
