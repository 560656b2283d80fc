"""tests/real_etcd/run: the referee's command line.

  run [--smoke | --all | --experiment NAME[:VARIANT]...] [--reps N] [--seeds S]
      --locksim PATH --out DIR [--harness PATH] [--shim PATH] [--keep-logs]
        real repetitions (one JSON-lines file each in DIR), then the
        comparison with locksim (printed, and DIR/summary.txt, summary.json)
  run compare --records DIR --locksim PATH [--seeds S]
        the comparison again, from the records already in DIR
  run judge FILE... [--locksim PATH]
        the five verdicts and the magnitudes of real record files; with
        --locksim, each file's history is (re)written beside it and judged
        by `locksim check` too

Every repetition's records (EXPERIMENT.VARIANT.repNN.jsonl) get a history
beside them (EXPERIMENT.VARIANT.repNN.history.jsonl, docs/history.md),
written again by `compare`, and judged by `locksim check` against judge.py.

--smoke is one repetition of partitioned-holder against 5 seeds. The harness
and the shim default to the build tree that holds --locksim
(BUILD/tests/real_etcd/locksim-etcd-harness, BUILD/tests/liblocksim_vdso_clock_shim.so).
"""
import argparse
import glob
import json
import os
import re
import sys
import time

from . import compare, experiments, history, judge, locksim_check, magnitudes, procs
from .facts import from_real, read_jsonl
from .runner import Run, Tools

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SCENARIOS = os.path.join(ROOT, "scenarios")


def _selection(args) -> list[tuple]:
    """[(experiment name, variant)] to run; prints the variants skipped and why."""
    if args.smoke:
        return [("partitioned-holder", "base")]
    wanted = args.experiment or (list(experiments.ALL) if args.all else [])
    if not wanted:
        sys.exit("run: say --smoke, --all or --experiment NAME[:VARIANT]")
    out = []
    for item in wanted:
        name, _, variant = item.partition(":")
        if name not in experiments.ALL:
            sys.exit(f"run: unknown experiment {name!r}; experiments: {', '.join(experiments.ALL)}")
        if variant:
            try:
                experiments.make(name).story(args.scenarios, variant)
            except (experiments.NotRealisable, KeyError) as e:
                sys.exit(f"run: {name}:{variant}: {e}")
            out.append((name, variant))
            continue
        run, skipped = experiments.make(name).variants(args.scenarios)
        for v, why in skipped.items():
            print(f"skip {name} {v}: {why}", flush=True)
        out += [(name, v) for v in run]
    return out


def _tools(args) -> Tools:
    build = os.path.dirname(os.path.abspath(args.locksim))
    harness = args.harness or os.path.join(build, "tests", "real_etcd", "locksim-etcd-harness")
    shim = args.shim or os.path.join(build, "tests", "liblocksim_vdso_clock_shim.so")
    for path in (harness, shim, args.locksim, "/usr/bin/etcd"):
        if not os.path.exists(path):
            sys.exit(f"run: {path} does not exist (build the tree: cmake --build BUILD; scripts/setup installs etcd)")
    return Tools(harness, os.path.abspath(shim))


def _record_name(experiment, variant, rep) -> str:
    return f"{experiment.name}.{variant}.rep{rep:02d}.jsonl"


def cmd_full(args) -> int:
    tools = _tools(args)
    os.makedirs(args.out, exist_ok=True)
    reps = 1 if args.smoke and args.reps is None else (args.reps or 10)
    seeds = 5 if args.smoke and args.seeds is None else (args.seeds or 100)
    groups = []
    started = time.monotonic()
    for name, variant in _selection(args):
        paths = []
        for rep in range(1, reps + 1):
            exp = experiments.make(name)
            story = exp.story(args.scenarios, variant)
            path = os.path.join(args.out, _record_name(exp, variant, rep))
            keep = path[:-len(".jsonl")] + ".logs" if args.keep_logs else None
            t = time.monotonic()
            records = Run(story, exp, tools, rep=rep, keep_dir=keep).execute()
            with open(path, "w") as f:
                for r in records:
                    f.write(json.dumps(r, sort_keys=True) + "\n")
            print(f"real {exp.name} {variant} rep {rep}: {len(records)} records in {time.monotonic() - t:.1f}s "
                  f"-> {path}", flush=True)
            try:
                print(f"   history -> {history.write_beside(path, args.scenarios, records)}", flush=True)
            except history.NotConvertible as e:
                print(f"   no history: {e}", flush=True)
            paths.append(path)
        groups.append((experiments.make(name), variant, paths))
    print(f"real repetitions took {time.monotonic() - started:.0f}s", flush=True)
    results, text, status = compare.compare_all(groups, args.locksim, args.scenarios, seeds)
    compare.write(results, text, args.out)
    print(text)
    return status


_NAME = re.compile(r"^(?P<exp>[a-z-]+)\.(?P<variant>[a-z0-9-]+)\.rep\d+\.jsonl$")


def cmd_compare(args) -> int:
    groups = {}
    for path in sorted(glob.glob(os.path.join(args.records, "*.jsonl"))):
        m = _NAME.match(os.path.basename(path))
        if m and m["exp"] in experiments.ALL:
            groups.setdefault((m["exp"], m["variant"]), []).append(path)
    if not groups:
        sys.exit(f"run compare: no record files (EXPERIMENT.VARIANT.repNN.jsonl) in {args.records}")
    order = list(experiments.ALL)
    todo = [(experiments.make(e), v, p) for (e, v), p in sorted(groups.items(), key=lambda kv: order.index(kv[0][0]))]
    results, text, status = compare.compare_all(todo, args.locksim, args.scenarios, args.seeds)
    compare.write(results, text, args.records)
    print(text)
    return status


def cmd_judge(args) -> int:
    can_check = args.locksim is not None and locksim_check.has_check(args.locksim)
    if args.locksim is not None and not can_check:
        print(f"note: {locksim_check.NO_CHECK}: {args.locksim}")
    for path in args.files:
        records = read_jsonl(path)
        run = next(r for r in records if r.get("event") == "run" and r.get("proc") == "driver")
        exp = experiments.make(run["experiment"])
        print(f"== {path} ({run['experiment']} {run['variant']} rep {run['rep']})")
        verdicts = {name: v.as_dict() for name, v in judge.judge(records).items()}
        checked = {}
        if args.locksim is not None:
            h = compare.check_history(path, records, verdicts, args.scenarios, args.locksim, can_check)
            print(f"   history {h['file'] or '-'}" + (f" ({h['error']})" if h["error"] else ""))
            checked = h["against_judge"] or {}
        for name, v in verdicts.items():
            c = checked.get(name)
            also = f"check {c['check']:<9} {c['agreement'].upper() if c['agreement'] == 'disagree' else c['agreement']:<9} " \
                if c else ""
            print(f"   {name:<20} {v['status']:<9} {also}count {v['count']:<3} unknown {v['unknown']:<3} "
                  f"{v['witness'] or ''}")
            if c and c["note"]:
                print(f"   {'':<20} {c['agreement']}: {c['note']}")
        for name, value in magnitudes.measure(from_real(records), exp.magnitudes, exp.roles).items():
            shown = "n/a" if value is None else (f"{value}" if name in magnitudes.COUNTS else f"{value / 1e9:.3f}s")
            print(f"   {magnitudes.label(name, exp.roles):<60} {shown}")
    return 0


def main(argv=None) -> int:
    procs.install_signal_handlers()
    try:
        return _main(list(sys.argv[1:] if argv is None else argv))
    except procs.Interrupted as e:
        procs.stop_all()
        print(f"run: stopped by {e}", file=sys.stderr)
        return 128 + e.signum


def _with_locksim(args):
    """The scenario reader (story_file.py) asks this locksim what a variant means."""
    if args.locksim:
        os.environ["LOCKSIM_BIN"] = os.path.abspath(args.locksim)
    return args


def _main(argv) -> int:
    if argv[:1] == ["judge"]:
        p = argparse.ArgumentParser(prog="run judge")
        p.add_argument("files", nargs="+")
        p.add_argument("--locksim", help="also write each file's history and judge it with `locksim check`")
        p.add_argument("--scenarios", default=SCENARIOS)
        return cmd_judge(_with_locksim(p.parse_args(argv[1:])))
    if argv[:1] == ["compare"]:
        p = argparse.ArgumentParser(prog="run compare")
        p.add_argument("--records", required=True)
        p.add_argument("--locksim", required=True)
        p.add_argument("--seeds", type=int, default=100)
        p.add_argument("--scenarios", default=SCENARIOS)
        return cmd_compare(_with_locksim(p.parse_args(argv[1:])))
    p = argparse.ArgumentParser(prog="run", description="real etcd against locksim (docs/real-etcd.md)")
    p.add_argument("--smoke", action="store_true", help="one repetition of partitioned-holder, 5 seeds")
    p.add_argument("--all", action="store_true", help="every experiment and variant")
    p.add_argument("--experiment", action="append", help="NAME or NAME:VARIANT (repeatable)")
    p.add_argument("--reps", type=int, help="real repetitions per variant (default 10; smoke 1)")
    p.add_argument("--seeds", type=int, help="locksim seeds per variant (default 100; smoke 5)")
    p.add_argument("--locksim", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--harness")
    p.add_argument("--shim")
    p.add_argument("--scenarios", default=SCENARIOS)
    p.add_argument("--keep-logs", action="store_true", help="keep each run's process logs beside its records")
    return cmd_full(_with_locksim(p.parse_args(argv)))
