"""The locksim command line as a user meets it: run, validate, list, exit codes, JSON, traces."""
import json
import pathlib
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CATALOGUE = [
    "single-node-gc-pause",
    "fencing-newer-holder-not-yet-written",
    "fencing-multistep-collection",
    "setnx-then-expire-crash",
    "del-without-owner-check",
    "no-faults-single-node",
    "redlock-clock-jump",
    "redlock-clock-drift",
    "redlock-delayed-replies",
    "redlock-pause-after-acquire",
    "redlock-crash-restart",
    "watchdog-renewal-gc",
    "no-faults-redlock",
    "no-faults-watchdog",
    "client-presets",
    "master-replica-failover",
    "sentinel-split-brain",
    "oversell-incident",
    "no-faults-replicated",
]
PROPERTIES = ["grant-exclusive", "belief-exclusive", "resource-exclusive", "resource-current", "invariant"]


@pytest.mark.parametrize("name", CATALOGUE)
def test_catalogue_scenario_matches_expectations(locksim, name):
    """Each headline scenario runs as `locksim run FILE` and matches its [expect] (exit 0)."""
    result = locksim("run", f"scenarios/{name}.toml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("seed "), "every run prints its seed first"
    assert "DOES NOT MATCH" not in result.stdout


def test_json_output_has_the_documented_shape(locksim):
    """--json prints one object with scenario, seed and per-variant verdicts, expectations and liveness."""
    result = locksim("run", "scenarios/single-node-gc-pause.toml", "--json")
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["scenario"] == "single-node-gc-pause"
    assert doc["seed"] == "1" and doc["schema"] == "locksim-results/2"
    names = [v["name"] for v in doc["variants"]]
    assert names == ["base", "fenced"]
    base = doc["variants"][0]
    assert set(base["verdicts"]) == set(PROPERTIES)
    p2 = base["verdicts"]["belief-exclusive"]
    assert p2["status"] == "violated" and p2["count"] >= 1
    assert "c1" in p2["witness"]["text"] and p2["witness"]["at_ns"] > 0
    assert base["verdicts"]["grant-exclusive"] == {"id": "P1", "status": "holds", "count": 0, "witness": None}
    assert base["expected"]["invariant"] == "violated"
    assert base["matches"] is True
    assert base["liveness"]["sessions"] == 2
    fenced = doc["variants"][1]
    assert fenced["verdicts"]["resource-current"]["status"] == "holds"


def test_expired_grants_show_only_when_there_are_some(locksim):
    """A grant already over at acquire is counted in the JSON liveness and named in the text line only when > 0."""
    clean = locksim("run", "scenarios/single-node-gc-pause.toml", "--variant", "base")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "expired at grant" not in clean.stdout
    doc = json.loads(locksim("run", "scenarios/single-node-gc-pause.toml", "--variant", "base", "--json").stdout)
    assert doc["variants"][0]["liveness"]["expired_grants"] == 0

    variant = "node-redlock-v5"
    buggy = locksim("run", "scenarios/client-presets.toml", "--variant", variant)
    assert buggy.returncode == 0, buggy.stdout + buggy.stderr
    liveness = [line for line in buggy.stdout.splitlines() if line.strip().startswith("liveness:")]
    assert len(liveness) == 1 and "sessions (1 expired at grant) from" in liveness[0]
    doc = json.loads(locksim("run", "scenarios/client-presets.toml", "--variant", variant, "--json").stdout)
    assert doc["variants"][0]["liveness"]["expired_grants"] == 1


def test_variant_and_seed_select_what_runs(locksim):
    """--variant runs only the named variant and --seed replaces the scenario's seed."""
    result = locksim("run", "scenarios/single-node-gc-pause.toml", "--variant", "fenced", "--seed", "42", "--json")
    doc = json.loads(result.stdout)
    assert [v["name"] for v in doc["variants"]] == ["fenced"]
    assert doc["seed"] == "42" and doc["variants"][0]["seed"] == "42"


def test_mismatch_exits_1_and_prints_the_reproducing_command(locksim):
    """A verdict that disagrees with [expect] gives exit 1, a marked row and the exact command to reproduce it."""
    result = locksim("run", "scenarios/single-node-gc-pause.toml", "--variant", "base", "--seed", "9",
                     "--set", "resource.policy=fencing", "--set", "lock.fencing=incr")
    assert result.returncode == 1
    assert "<-- expected violated" in result.stdout
    assert "DOES NOT MATCH [expect]" in result.stdout
    repro = [line for line in result.stdout.splitlines() if line.startswith("reproduce: ")]
    assert len(repro) == 1
    assert "--variant base --seed 9 --set resource.policy=fencing --set lock.fencing=incr" in repro[0]


def test_set_override_changes_the_story(locksim):
    """--set reaches any key: a pause shorter than the TTL removes every violation of the GC story."""
    result = locksim("run", "scenarios/single-node-gc-pause.toml", "--variant", "base", "--json",
                     "--set", "fault.c1-gc-pause.length=2s")
    doc = json.loads(result.stdout)
    verdicts = doc["variants"][0]["verdicts"]
    assert all(v["status"] == "holds" for v in verdicts.values())
    assert result.returncode == 1  # the base expects violations


def test_trace_is_byte_identical_across_runs(locksim, tmp_path):
    """Two runs with the same scenario and seed write byte-identical traces."""
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (a, b):
        result = locksim("run", "scenarios/no-faults-single-node.toml", "--seed", "11", "--trace", path)
        assert result.returncode == 0
    assert a.read_bytes() == b.read_bytes()
    lines = a.read_text().splitlines()
    assert json.loads(lines[0])["type"] == "run"
    assert any(json.loads(line)["type"] == "grant" for line in lines)


def test_trace_per_variant_gets_the_variant_name(locksim, tmp_path):
    """With several variants one --trace becomes one file per variant."""
    result = locksim("run", "scenarios/single-node-gc-pause.toml", "--trace", tmp_path / "t.jsonl")
    assert result.returncode == 0
    assert (tmp_path / "t.base.jsonl").exists() and (tmp_path / "t.fenced.jsonl").exists()


# (fixture, line, key or "" where the file does not parse, what the message says)
BAD_INPUTS = [
    ("bad-syntax.toml", 6, "", "invalid TOML"),
    ("bad-unknown-key.toml", 6, "lock.tll", 'unknown key (did you mean "lock.ttl"?)'),
    ("bad-unit.toml", 6, "lock.ttl", 'bad duration "10 seconds"'),
    ("bad-unknown-process.toml", 14, "fault.gc.target", 'unknown process "c3" (did you mean "c1"?)'),
    ("bad-type.toml", 6, "lock.ttl", "expected a duration string"),
]


@pytest.mark.parametrize("fixture,line,key,fragment", BAD_INPUTS)
def test_bad_scenario_files_exit_2_with_file_and_line(locksim, root, fixture, line, key, fragment):
    """Broken scenario files give exit 2 and one message naming file, line and key, for run and validate."""
    path = root / "tests" / "data" / fixture
    assert path.exists(), f"missing fixture {path}"
    for command in ("run", "validate"):
        result = locksim(command, path)
        assert result.returncode == 2, (command, result.stdout, result.stderr)
        assert "internal error" not in result.stderr
        message = result.stderr.strip().splitlines()[0]
        where = f"{fixture}:{line}: " + (f"{key}: " if key else "")
        assert where in message and fragment in message.split(where, 1)[1], (command, message)


@pytest.mark.parametrize("args,fragment", [
    (["run", "scenarios/single-node-gc-pause.toml", "--variant", "nope"], "nope"),
    (["run", "scenarios/single-node-gc-pause.toml", "--set", "lock.tll=5s"], "lock.tll"),
    (["run", "scenarios/single-node-gc-pause.toml", "--set", "lock.ttl=5 parsecs"], "lock.ttl"),
    (["run", "scenarios/single-node-gc-pause.toml", "--set", "novalue"], "--set"),
    (["run", "scenarios/does-not-exist.toml"], "does-not-exist.toml"),
    (["run", "scenarios/single-node-gc-pause.toml", "--bogus"], "bogus"),
    (["run"], "scenario file"),
    (["frobnicate"], "unknown command"),
])
def test_bad_command_lines_exit_2(locksim, args, fragment):
    """Unknown variants, bad overrides, missing files and unknown options are input errors (exit 2)."""
    result = locksim(*args)
    assert result.returncode == 2, result.stdout + result.stderr
    assert fragment in result.stderr


def test_a_misspelt_command_gets_one_suggestion_and_a_stranger_the_usage(locksim):
    close = locksim("runn")
    assert close.returncode == 2
    assert close.stderr == "locksim: unknown command 'runn' (did you mean \"run\"?)\n'locksim --help' lists the commands\n"
    far = locksim("frobnicate")
    assert far.returncode == 2 and "did you mean" not in far.stderr and "commands:" in far.stderr


def test_an_unquoted_set_value_is_named_whatever_the_command(locksim):
    """The shell splits `--set lock.ttl=5 seconds`: the leftover word is named, with the quoting that keeps it,
    alone (no help text) — also where it would otherwise be read as one more file (search, compare)."""
    for args in (["run", "scenarios/single-node-gc-pause.toml", "--set", "lock.ttl=5", "seconds"],
                 ["search", "scenarios/search/gc-pause.toml", "--set", "lock.ttl=5", "seconds", "--budget", "1"]):
        result = locksim(*args)
        assert result.returncode == 2, result.stderr
        assert "'seconds' follows --set lock.ttl=5" in result.stderr and "--set 'lock.ttl=5 seconds'" in result.stderr
        assert "usage" not in result.stderr.lower() and len(result.stderr.splitlines()) == 1, result.stderr


def test_a_catalogue_name_after_a_set_is_not_taken_for_a_split_value(locksim):
    result = locksim("run", "--set", "lock.ttl=5s", "single-node-gc-pause")
    assert "follows --set" not in result.stderr and result.returncode in (0, 1), result.stderr


def test_every_command_makes_the_directories_it_writes_in_or_says_why_not(locksim, tmp_path):
    """One rule for outputs: a missing directory is made (run --trace, sweep --out and --per-run, compare --out,
    shrink --out, search --out); a path through a file is refused, naming the directory and the reason."""
    story = "scenarios/single-node-gc-pause.toml"
    runs = {
        "run": ["run", story, "--variant", "base", "--trace", str(tmp_path / "r" / "deep" / "t.jsonl")],
        "sweep": ["sweep", story, "--vary", "lock.ttl=1s,2s", "--seeds", "1", "--out", str(tmp_path / "s" / "x.csv"),
                  "--per-run", str(tmp_path / "p" / "y.csv")],
        "compare": ["compare", story, "--seeds", "1", "--out", str(tmp_path / "c" / "c.csv")],
        "shrink": ["shrink", story, "--variant", "base", "--out", str(tmp_path / "k" / "small.toml")],
        "search": ["search", "scenarios/search/gc-pause.toml", "--budget", "4", "--out", str(tmp_path / "f" / "g")],
    }
    for name, args in runs.items():
        result = locksim(*args)
        assert result.returncode in (0, 1), (name, result.stderr)
    for made in ["r/deep/t.jsonl", "s/x.csv", "p/y.csv", "c/c.csv", "k/small.toml", "f/g/search.json"]:
        assert (tmp_path / made).is_file(), made
    (tmp_path / "plain").write_text("")
    blocked = str(tmp_path / "plain" / "sub")
    for name, args in [("run", ["run", story, "--trace", blocked + "/t.jsonl"]),
                       ("sweep", ["sweep", story, "--vary", "lock.ttl=1s", "--seeds", "1", "--out", blocked + "/x.csv"]),
                       ("compare", ["compare", story, "--seeds", "1", "--out", blocked + "/c.csv"]),
                       ("search", ["search", "scenarios/search/gc-pause.toml", "--budget", "1", "--out", blocked])]:
        result = locksim(*args)
        assert result.returncode == 2, (name, result.stderr)
        assert f"locksim {name}: cannot create {tmp_path / 'plain'}" in result.stderr, result.stderr
        assert "Not a directory" in result.stderr, result.stderr


def test_validate_reports_every_variant(locksim):
    """validate names each good file with its variants and exits 0."""
    files = [f"scenarios/{name}.toml" for name in CATALOGUE]
    result = locksim("validate", *files)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == len(CATALOGUE)
    for name, line in zip(CATALOGUE, lines):
        scenario = tomllib.loads((ROOT / "scenarios" / f"{name}.toml").read_text())
        variants = ", ".join(["base", *scenario.get("variant", {})])
        assert line == f"ok  scenarios/{name}.toml  ({name}: {variants})"


def test_list_shows_the_catalogue(locksim):
    """list prints every catalogue scenario with its one-line story and variants."""
    result = locksim("list")
    assert result.returncode == 0, result.stderr
    for name in CATALOGUE:
        assert f"{name}  scenarios/{name}.toml" in result.stdout
    # Each entry: its name and path, its title, its variants (base first).
    for name in CATALOGUE:
        scenario = tomllib.loads((ROOT / "scenarios" / f"{name}.toml").read_text())
        entry = result.stdout.split(f"{name}  scenarios/{name}.toml\n", 1)[1].splitlines()
        assert entry[0].strip() == scenario["scenario"]["title"], name
        assert entry[1].strip() == "variants: " + ", ".join(["base", *scenario.get("variant", {})]), name


@pytest.mark.parametrize("command", ["run", "validate", "list"])
def test_help_for_each_command(locksim, command):
    """--help on each command explains it and exits 0."""
    result = locksim(command, "--help")
    assert result.returncode == 0
    assert f"locksim {command}" in result.stdout


def test_top_level_help(locksim):
    """locksim --help lists the commands and the exit codes."""
    result = locksim("--help")
    assert result.returncode == 0
    assert "run FILE" in result.stdout and "exit codes" in result.stdout


def test_oversell_incident_names_the_units_oversold(locksim):
    """The incident's P5 witness says how many units were sold that did not exist; the atomic variant sells one."""
    doc = json.loads(locksim("run", "scenarios/oversell-incident.toml", "--json").stdout)
    by_name = {v["name"]: v for v in doc["variants"]}
    p5 = by_name["base"]["verdicts"]["invariant"]
    assert p5["status"] == "violated"
    assert "oversold by 2 in all" in p5["witness"]["text"]
    assert by_name["atomic-decrement"]["verdicts"]["invariant"]["status"] == "holds"


def test_trace_schema_prints_what_the_analysis_reads(locksim, tmp_path):
    """`locksim trace-schema` prints the trace format as JSON — the analysis's own copy, byte for byte — and one of
    docs/trace.md's tables with --markdown; an unknown table, or a file whose marks name none, is refused (exit 2)."""
    printed = locksim("trace-schema")
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout == (ROOT / "analysis" / "trace_schema.json").read_text()
    schema = json.loads(printed.stdout)
    assert schema["format"] == 2 and "span" in {line["name"] for line in schema["lines"]}
    table = locksim("trace-schema", "--markdown", "fact")
    assert table.returncode == 0 and "| `span` |" in table.stdout and "`down_for_ns`" in table.stdout
    wrong = locksim("trace-schema", "--markdown", "facts")
    assert wrong.returncode == 2 and 'no table "facts"' in wrong.stderr and "after-end" in wrong.stderr
    page = tmp_path / "trace.md"
    page.write_text("x\n<!-- trace: fact -->\nOLD ROW\n<!-- /trace -->\n<!-- trace: nothing -->\n<!-- /trace -->\n")
    refused = locksim("trace-schema", "--update", page)
    assert refused.returncode == 2 and '"nothing" names no trace table' in refused.stderr
    page.write_text("x\n<!-- trace: fact -->\nOLD ROW\n<!-- /trace -->\n")
    assert locksim("trace-schema", "--update", page).returncode == 0
    assert "| `span` |" in page.read_text() and "OLD ROW" not in page.read_text()
