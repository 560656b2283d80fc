"""tests/real_redis/run: the referee's command line (docs/real-redis.md).

  run --smoke --locksim BIN --out DIR         one repetition of the smoke row, locksim on 5 seeds
  run --all --reps 5 --locksim BIN --out DIR  every mirrored row
  run --row SCENARIO:VARIANT ...              chosen rows (repeatable)
  run --list                                  the rows, and those not mirrored with why

Exit status: 0 every compared verdict agrees, 1 a real and a simulated
verdict disagree, 2 a row could not be compared (no valid judged
repetition, or locksim refused it).
"""
import argparse
import json
import os
import sys

from . import compare, judged, procs, rows
from .runner import Repetition
from .story import load

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def parse(argv):
    ap = argparse.ArgumentParser(prog="tests/real_redis/run", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    pick = ap.add_mutually_exclusive_group(required=True)
    pick.add_argument("--smoke", action="store_true", help=f"one repetition of {rows.SMOKE.label}")
    pick.add_argument("--all", action="store_true", help="every mirrored row")
    pick.add_argument("--row", action="append", help="SCENARIO:VARIANT (repeatable)")
    pick.add_argument("--list", action="store_true", help="print the rows and exit")
    ap.add_argument("--reps", type=int, default=None, help="real repetitions per row (smoke 1, else 5)")
    ap.add_argument("--seeds", type=int, default=None, help="locksim seeds per row (smoke 5, else 20)")
    ap.add_argument("--locksim", default=os.environ.get("LOCKSIM_BIN"), help="the locksim binary")
    ap.add_argument("--out", help="output directory")
    ap.add_argument("--shim", default=os.environ.get("LOCKSIM_REAL_REDIS_SHIM"),
                    help="liblocksim_vdso_clock_shim.so, for rows that step a redis-server's clock "
                         "(default: beside --locksim, BUILD/tests/)")
    ap.add_argument("--volatile-shim", default=os.environ.get("LOCKSIM_REAL_REDIS_VOLATILE_SHIM"),
                    help="liblocksim_volatile_writes_shim.so, for a machine crash of an aof-everysec node "
                         "(default: beside --locksim, BUILD/tests/)")
    ap.add_argument("--scenarios", default=os.path.join(REPO, "scenarios"))
    ap.add_argument("--keep-logs", action="store_true", help="keep each run's process logs next to its history")
    return ap.parse_args(argv)


def list_rows() -> str:
    out = ["mirrored rows:"]
    out += [f"  {r.label:<40} {r.client:<9} {r.note}" for r in rows.ROWS]
    out.append("not mirrored:")
    out += [f"  {label}: {why}" for label, why in rows.NOT_MIRRORED.items()]
    return "\n".join(out) + "\n"


def run_row(row, args, reps: int, seeds: int) -> dict:
    path = os.path.join(args.scenarios, f"{row.scenario}.toml")
    entry = {"label": row.label, "client": row.client, "reps": 0, "seeds": seeds, "notes": [], "repetitions": []}
    story = load(path, row.variant)
    real = []
    for rep in range(1, reps + 1):
        out = os.path.join(args.out, f"{row.scenario}.{row.variant}.rep{rep:02d}.history.jsonl")
        print(f"[real-redis] {row.label} rep {rep}/{reps} ...", file=sys.stderr, flush=True)
        result = Repetition(row, story, rep, args.out if args.keep_logs else None).run(out)
        rec = {"history": out, "errors": result["errors"], "problems": result["problems"],
               "recorded": result["recorded"], "ambiguities": result["ambiguities"]}
        if result["errors"]:
            entry["notes"].append(f"rep {rep}: history invalid: {result['errors'][:3]}")
        elif result["problems"]:
            entry["notes"].append(f"rep {rep}: not counted: {'; '.join(result['problems'])}")
        else:
            try:
                rec.update(judged.check(args.locksim, out))
                real.append(rec)
            except judged.JudgeError as e:
                entry["notes"].append(f"rep {rep}: refused by locksim check, not counted: {e}")
        if not result["recorded"]:
            entry["notes"].append(f"rep {rep}: service.recorded=false: {'; '.join(result['ambiguities'][:2])}")
        entry["repetitions"].append(rec)
    entry["reps"] = len(real)
    if not real:
        entry["error"] = "no valid judged repetition"
        return entry
    try:
        sim = judged.simulate(args.locksim, path, row.variant, seeds)
    except judged.JudgeError as e:
        entry["error"] = f"locksim run failed: {e}"
        return entry
    entry["simulated"] = sim
    entry["comparison"] = compare.compare_row(real, sim)
    for rec in real:
        for prop, why in rec.get("unknown_because", {}).items():
            entry["notes"].append(f"{os.path.basename(rec['history'])}: {prop} unknown: {why}")
    return entry


def main(argv=None) -> int:
    args = parse(argv if argv is not None else sys.argv[1:])
    if args.list:
        sys.stdout.write(list_rows())
        return 0
    if not args.locksim or not args.out:
        print("--locksim (or LOCKSIM_BIN) and --out are needed", file=sys.stderr)
        return 2
    # The scenario reader (tests/real_common/story_file.py) asks this locksim what a variant means.
    os.environ["LOCKSIM_BIN"] = os.path.abspath(args.locksim)
    # The shim that steps a redis-server's clock (wall_steps.py reads the variable).
    os.environ["LOCKSIM_REAL_REDIS_SHIM"] = os.path.abspath(args.shim or os.path.join(
        os.path.dirname(os.path.abspath(args.locksim)), "tests", "liblocksim_vdso_clock_shim.so"))
    # The shim that loses a crashed machine's un-fsynced AOF writes (volatile_aof.py reads the variable).
    os.environ["LOCKSIM_REAL_REDIS_VOLATILE_SHIM"] = os.path.abspath(args.volatile_shim or os.path.join(
        os.path.dirname(os.path.abspath(args.locksim)), "tests", "liblocksim_volatile_writes_shim.so"))
    procs.install_signal_handlers()
    os.makedirs(args.out, exist_ok=True)
    chosen = [rows.SMOKE] if args.smoke else rows.ROWS if args.all else [rows.find(r) for r in args.row]
    reps = args.reps or (1 if args.smoke else 5)
    seeds = args.seeds or (5 if args.smoke else 20)
    results = []
    try:
        for row in chosen:
            try:
                results.append(run_row(row, args, reps, seeds))
            except (ValueError, KeyError, judged.JudgeError) as e:
                results.append({"label": row.label, "client": row.client, "reps": 0, "seeds": seeds,
                                "error": str(e), "notes": []})
    except procs.Interrupted as e:
        print(f"[real-redis] interrupted by {e}: processes stopped", file=sys.stderr)
        return 2
    text = compare.table(results)
    sys.stdout.write(text)
    with open(os.path.join(args.out, "summary.txt"), "w") as f:
        f.write(text)
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump({"rows": results}, f, indent=1)
    if any(r.get("error") for r in results):
        return 2
    return 1 if any(not r["comparison"]["agree"] for r in results) else 0
