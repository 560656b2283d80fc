"""docs/results.md is the schema of every result output: each field and column every command writes is documented
there (and nothing is written that is not), seeds are strings in JSON and survive analysis/results.py exactly, and the
reader refuses a file of another schema version."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from analysis import results

ROOT = Path(__file__).resolve().parents[2]
PROPERTIES = ("grant-exclusive", "belief-exclusive", "resource-exclusive", "resource-current", "invariant")
REJECT_REASONS = ("stale-token", "mark-mismatch", "out-of-stock", "missing-token", "rolled-back")
TYPES = {"string": str, "integer": int, "number": (int, float), "boolean": bool, "object": dict, "list": list}


def documented(section: str) -> dict[str, str]:
    """The first table under ``## <section>`` of docs/results.md: {field or column: type}."""
    text = (ROOT / "docs" / "results.md").read_text(encoding="utf-8")
    body = text.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([^`]+)`(?:, `([^`]+)`)? \| ([^|]+) \|", body, re.M)
    assert rows, f"docs/results.md: no table under '## {section}'"
    out = {}
    for first, second, kind in rows:
        for name in filter(None, (first, second)):
            out[name] = kind.strip()
    return out


def flatten(value, path: str = "", out: dict | None = None) -> dict:
    """{path: [values]} with list items as ``[]`` and property, reason and strategy keys as placeholders."""
    out = {} if out is None else out
    if isinstance(value, dict):
        for key, item in value.items():
            name = ("<property>" if key in PROPERTIES else "<reason>" if key in REJECT_REASONS
                    else "<strategy>" if path.endswith("runs_by_strategy") else key)
            flatten(item, f"{path}.{name}" if path else name, out)
    elif isinstance(value, list):
        out.setdefault(f"{path}[]", []).append(value)
        for item in value:
            flatten(item, f"{path}[]", out)
    else:
        out.setdefault(path, []).append(value)
    return out


def check_json(doc: dict, section: str) -> None:
    fields = documented(section)
    # A documented object with no documented fields of its own stands for its whole subtree.
    opaque = [f for f, kind in fields.items() if kind.startswith("object")
              and not any(g.startswith(f + ".") for g in fields)]
    for path, values in flatten(doc).items():
        if any(path.startswith(o + ".") or path.startswith(o + "[]") for o in opaque):
            continue
        assert path in fields, f"{section}: {path} is written but not documented in docs/results.md"
        kinds = fields[path]
        allowed = tuple(t for word, t in TYPES.items() if word in kinds.replace("list of", "list"))
        for v in values:
            if v is None:
                assert "null" in kinds, f"{section}: {path} is null, documented as {kinds}"
            elif not isinstance(v, list):
                assert isinstance(v, allowed) and not (isinstance(v, bool) and bool not in allowed), \
                    f"{section}: {path} = {v!r}, documented as {kinds}"


def column_pattern(name: str) -> str:
    pattern = re.escape(name)
    for placeholder in ("<property>", "<key>", "<fault>", "<client>"):
        pattern = pattern.replace(re.escape(placeholder), {"<property>": "(?:" + "|".join(PROPERTIES) + ")"}.get(placeholder, ".+"))
    return f"^(?:{pattern})$"


def check_columns(header: list[str], section: str) -> None:
    patterns = [column_pattern(c) for c in documented(section)]
    for column in header:
        assert any(re.match(p, column) for p in patterns), f"{section}: column {column} is not documented"


def run(locksim_bin: Path, *args, cwd=ROOT) -> subprocess.CompletedProcess:
    done = subprocess.run([str(locksim_bin), *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 1), done.stderr
    return done


def test_run_json_of_every_catalogue_scenario_is_documented(locksim_bin):
    for path in sorted((ROOT / "scenarios").glob("*.toml")):
        doc = results.read_json(run(locksim_bin, "run", path, "--json").stdout)
        check_json(doc, "`run --json`")
        assert isinstance(doc["seed"], str) and all(isinstance(v["seed"], str) for v in doc["variants"])
    # A mismatch, too: expectations a run does not meet.
    wrong = run(locksim_bin, "run", ROOT / "scenarios" / "single-node-gc-pause.toml", "--variant", "fenced",
                "--set", "expect.resource-exclusive=violated", "--json")
    doc = results.read_json(wrong.stdout)
    assert doc["variants"][0]["mismatches"]
    check_json(doc, "`run --json`")


def test_check_json_is_documented(locksim_bin, tmp_path):
    """A history's judgement, with a violation, an unknown and a local clock among them."""
    history = tmp_path / "gc.jsonl"
    run(locksim_bin, "run", "single-node-gc-pause", "--variant", "base", "--history", history)
    docs = [results.read_json(run(locksim_bin, "check", history, "--json").stdout)]
    lines = [json.loads(line) for line in (ROOT / "docs" / "examples" / "gc-pause.history.jsonl").read_text().splitlines()]
    lines[0]["time"] = "local"
    for line in lines[1:]:
        line.pop("t", None)
        line.pop("promised_end", None)
    local = tmp_path / "local.jsonl"
    local.write_text("".join(json.dumps(line) + "\n" for line in lines))
    docs.append(results.read_json(run(locksim_bin, "check", local, "--json", "--clock-uncertainty", "10ms").stdout))
    statuses = {v["status"] for doc in docs for v in doc["verdicts"].values()}
    assert statuses == {"holds", "violated", "unknown"}, statuses
    for doc in docs:
        check_json(doc, "`check --json`")


def test_compare_json_and_csv_are_documented_and_agree(locksim_bin, tmp_path):
    story = ROOT / "scenarios" / "compare" / "gc-pause.toml"
    doc = results.read_json(run(locksim_bin, "compare", story, "--seeds", "30", "--json").stdout)
    check_json(doc, "`compare --json`")
    run(locksim_bin, "compare", story, "--seeds", "30", "--out", tmp_path / "c.csv")
    frame = results.read_csv(tmp_path / "c.csv")
    check_columns(list(frame.columns), "`compare --out` (CSV)")
    for cell, row in zip(doc["cells"], frame.to_dict("records")):
        assert (cell["scenario"], cell["variant"], cell["runs"]) == (row["scenario"], row["variant"], row["runs"])
        for p in PROPERTIES:
            v = cell["verdicts"][p]
            assert v["violated"] == row[f"{p}.violated"] and v["rate"] == pytest.approx(row[f"{p}.rate"])
            assert (v["first_seed"] or "") == row[f"{p}.first_seed"]
        for f in cell["faults"]:
            assert f["fired"] == pytest.approx(row[f"fault.{f['name']}.fired"])


def test_sweep_csvs_are_documented_and_keep_their_seeds_exact(locksim_bin, tmp_path):
    cells, runs = tmp_path / "s.csv", tmp_path / "r.csv"
    run(locksim_bin, "sweep", ROOT / "scenarios" / "single-node-gc-pause.toml", "--vary", "lock.ttl=5s,10s",
        "--seeds", "20", "--out", cells, "--per-run", runs)
    summary, per_run = results.read_csv(cells), results.read_csv(runs)
    check_columns(list(summary.columns), "A sweep's CSV (`sweep --out`)")
    check_columns(list(per_run.columns), "A sweep's runs (`sweep --per-run`)")
    raw = [line.split(",") for line in runs.read_text().splitlines()]
    seed_at = raw[0].index("seed")
    assert list(per_run["seed"]) == [r[seed_at] for r in raw[1:]], "seeds read back digit for digit"
    assert any(int(s) > 2**53 for s in per_run["seed"]), "the sample has seeds a float64 would round"
    first = summary["belief-exclusive.first_seed"]
    assert all(s == "" or s in set(per_run["seed"]) for s in first)
    assert summary["runs"].dtype.kind == "i" and summary["belief-exclusive.rate"].dtype.kind == "f"


def test_search_json_is_documented(locksim_bin, tmp_path):
    space = ROOT / "scenarios" / "search" / "gc-pause.toml"
    run(locksim_bin, "search", space, "--budget", "300", "--all", "--out", tmp_path / "found")
    run(locksim_bin, "search", space, "--variant", "fenced", "--budget", "300", "--out", tmp_path / "safe")
    for d in ("found", "safe"):
        doc = results.read_json(tmp_path / d / "search.json")
        check_json(doc, "`search.json`")
        assert isinstance(doc["seed"], str)
        assert all(isinstance(f["seed"], str) for f in doc["findings"] + doc["near_misses"])
    assert results.read_json(tmp_path / "found" / "search.json")["findings"]
    assert results.read_json(tmp_path / "safe" / "search.json")["near_misses"]


def test_the_reader_refuses_another_schema(tmp_path):
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"scenario": "x", "seed": 1, "variants": []}))
    with pytest.raises(results.ResultsError, match="no \"schema\""):
        results.read_json(old)
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"schema": "locksim-results/1"}))
    with pytest.raises(results.ResultsError, match="locksim-results/2"):
        results.read_json(other)
