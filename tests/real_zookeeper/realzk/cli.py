"""The real-ZooKeeper referee's command line: run rows for real, judge each
history with `locksim check`, run locksim over seeds, print both side by side.

  tests/real_zookeeper/run --list
  tests/real_zookeeper/run --smoke --locksim build/locksim --out DIR
  tests/real_zookeeper/run --row zookeeper-gc-pause:base --reps 5 --seeds 20 --locksim build/locksim --out DIR
  tests/real_zookeeper/run --all --reps 5 --seeds 20 --locksim build/locksim --out DIR
"""
import argparse
import json
import os
import sys

import locksim_runs
from realredis import compare, judged, magnitudes, procs

from . import build, story as zkstory, zkmagnitudes
from .runner import Repetition

SCENARIOS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scenarios")
ROWS = ["zookeeper-gc-pause:base", "zookeeper-gc-pause:obey-lost", "zookeeper-gc-pause:ignore",
        "zookeeper-gc-pause:czxid-fenced", "zookeeper-partition:base", "zookeeper-partition:obey-lost",
        "no-faults-consensus:zookeeper"]


def parse(argv):
    p = argparse.ArgumentParser(prog="tests/real_zookeeper/run", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--list", action="store_true")
    p.add_argument("--row", action="append", default=[])
    p.add_argument("--all", action="store_true")
    p.add_argument("--smoke", action="store_true", help="one repetition of zookeeper-gc-pause:base, 3 seeds")
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--seeds", type=int, default=20)
    p.add_argument("--locksim", default=os.environ.get("LOCKSIM_BIN"))
    p.add_argument("--out", required=False)
    p.add_argument("--classes", default=os.environ.get("LOCKSIM_REAL_ZOOKEEPER_CLASSES"),
                   help="where the Java client is compiled (CMake's, else OUT/classes)")
    p.add_argument("--keep-logs", action="store_true")
    return p.parse_args(argv)


def _sim_one(locksim: str, path: str, variant: str, seed: int, workdir: str) -> dict:
    trace = locksim_runs.trace_path(workdir, variant, seed)
    result, _ = locksim_runs.run_seed(locksim, path, variant, seed, trace, judged.JudgeError, timeout=300)
    lines = magnitudes.read_trace(trace)
    os.remove(trace)
    return {"seed": seed, "verdicts": locksim_runs.statuses(result), "magnitudes": zkmagnitudes.measure(lines)}


def run_row(label: str, args, reps: int, seeds: int) -> dict:
    name, variant = label.split(":")
    path = os.path.normpath(os.path.join(SCENARIOS, name + ".toml"))
    story = zkstory.load(path, variant, args.locksim)
    zkstory.check_supported(story)
    classes = build.classes(args.classes or os.path.join(args.out, "classes"))
    real, notes = [], []
    for rep in range(1, reps + 1):
        out = os.path.join(args.out, f"{name}.{variant}.rep{rep}.history.jsonl")
        result = Repetition(story, rep, classes, os.path.join(args.out, "logs") if args.keep_logs else None).run(out)
        if result["errors"]:
            notes.append(f"rep {rep}: history invalid: {result['errors'][:3]}")
            continue
        notes += [f"rep {rep}: {p}" for p in result["problems"]]
        checked = judged.check(args.locksim, out)
        checked["magnitudes"] = zkmagnitudes.measure(magnitudes.read_trace(out + ".trace.jsonl"))
        checked["states"] = result["states"]
        checked["keys_left_out"], checked["change_widths_ns"] = result["keys_left_out"], result["widths"]
        if result["keys_left_out"]:
            notes.append(f"rep {rep}: keys not recorded: {result['keys_left_out']}")
        real.append(checked)
        print(f"  {label} rep {rep}: {checked['verdicts']}", file=sys.stderr, flush=True)
    workdir = os.path.join(args.out, "sim")
    os.makedirs(workdir, exist_ok=True)
    sim = locksim_runs.over_seeds(lambda s: _sim_one(args.locksim, path, variant, s, workdir), seeds)
    unknown = {k: v for r in real for k, v in r["unknown_because"].items()}
    if unknown:
        notes.append("real unknown: " + "; ".join(f"{k}: {v}" for k, v in unknown.items()))
    return {"label": label, "client": "curator-5.4.0", "reps": len(real), "seeds": seeds, "notes": notes,
            "comparison": compare.compare_row(real, sim), "real": real, "sim": sim}


def _widths(real: list[dict]) -> str:
    """How tight the owner changes' ranges were over the row's repetitions (keys.py)."""
    widths = sorted(w for r in real for w in r.get("change_widths_ns") or [])
    left_out = sum(1 for r in real if r.get("keys_left_out"))
    if not widths:
        return f"none (keys left out in {left_out} of {len(real)})"
    return (f"median {widths[len(widths) // 2] / 1e6:.1f} ms, max {widths[-1] / 1e6:.1f} ms over {len(widths)} "
            f"changes; keys left out in {left_out} of {len(real)}")


def table(rows: list[dict]) -> str:
    out = []
    for row in rows:
        out.append(f"{row['label']}  ({row['client']}; {row['reps']} real, {row['seeds']} simulated)")
        out.append(f"  {'property':<22} {'real v/h/u':<12} {'locksim v/h/u':<14} verdict")
        for p in compare.PROPERTIES:
            d = row["comparison"]["properties"][p]
            r, s = d["real"], d["sim"]
            out.append(f"  {compare.SHORT[p] + ' ' + p:<22} {r['violated']}/{r['holds']}/{r['unknown']:<8} "
                       f"{s['violated']}/{s['holds']}/{s['unknown']:<10} {d['status']}")
        for key, what in zkmagnitudes.KEYS:
            real = zkmagnitudes.summary([r["magnitudes"] for r in row["real"]], key)
            sim = zkmagnitudes.summary([s["magnitudes"] for s in row["sim"]], key)
            out.append(f"  {what:<30} real {real:<24} locksim {sim}")
        out.append(f"  {'owner change ranges':<30} real {_widths(row['real'])}")
        states = {}
        for r in row["real"]:
            for s in r["states"]:
                if s["t"] > 0:
                    states.setdefault(f"{s['client']} {s['state']}", []).append(s["t"])
        for k, ts in sorted(states.items()):
            out.append(f"  real Curator state {k:<20} at {sorted(ts)[len(ts) // 2] / 1e6:.0f} ms "
                       f"[{min(ts) / 1e6:.0f}, {max(ts) / 1e6:.0f}] (n={len(ts)})")
        out += [f"  note: {n}" for n in row["notes"]]
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    if args.list:
        print("\n".join(ROWS))
        return 0
    if not args.locksim or not args.out:
        print("--locksim and --out are needed", file=sys.stderr)
        return 2
    procs.install_signal_handlers()
    os.makedirs(args.out, exist_ok=True)
    labels = ROWS if args.all else (["zookeeper-gc-pause:base"] if args.smoke else args.row)
    reps, seeds = (1, 3) if args.smoke else (args.reps, args.seeds)
    rows = []
    try:
        for label in labels:
            rows.append(run_row(label, args, reps, seeds))
            with open(os.path.join(args.out, "results.json"), "w") as f:
                json.dump(rows, f, indent=1)
    except procs.Interrupted as e:
        # Every `finally` on the way out stopped what it started (process_groups.py).
        print(f"interrupted by {e}", file=sys.stderr)
        return 2
    text = table(rows)
    with open(os.path.join(args.out, "comparison.txt"), "w") as f:
        f.write(text)
    print(text, end="")
    invalid = any("history invalid" in n for r in rows for n in r["notes"])
    return 1 if invalid or any(r["reps"] == 0 for r in rows) else 0
