#!/usr/bin/python3
"""How many runs each search strategy needs to find each story's counterexample.

For every search space in scenarios/search/ and every strategy, runs
`locksim search --seed S --budget B --no-shrink --json` for S = 1..SEEDS and
reads the run at which the first finding was made (search.json's "run",
1-based; a search that found nothing counts as more than the budget). Prints
a Markdown table of the medians, and the speed-up over uniform random (the
baseline) of the best strategy and of the default portfolio. The last
column is the exhaustive strategy over the first BUDGET cases of its
discretisation (fewer faults first): a case number, the same for every seed.

Usage: bench/search_effectiveness.py [--locksim build/locksim] [--seeds 10] [--budget 100000]
                                     [--threads 2] [FILE ...]
"""
import argparse
import json
import pathlib
import statistics
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
STRATEGIES = ["uniform", "swarm", "phase", "margin", "portfolio"]


def runs_to_first_finding(locksim, path, strategy, seed, budget, threads):
    # An exhaustive search runs its first |budget| cases, however many the discretisation has.
    r = subprocess.run([locksim, "search", str(path), "--strategy", strategy, "--seed", str(seed),
                        "--budget", str(budget), "--threads", str(threads), "--no-shrink", "--explain-seeds", "1",
                        "--json"], capture_output=True, text=True, check=False)
    if r.returncode not in (0, 1):
        sys.exit(f"{path}: locksim search failed ({r.returncode}): {r.stderr}")
    findings = json.loads(r.stdout)["findings"]
    return findings[0]["run"] if findings else None


def median_text(values, budget):
    # Not found counts as past the budget: a median over it is "> budget".
    m = statistics.median([v if v is not None else budget + 1 for v in values])
    return f"> {budget}" if m > budget else f"{m:g}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locksim", default=str(ROOT / "build" / "locksim"))
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--budget", type=int, default=100_000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("files", nargs="*", type=pathlib.Path)
    args = parser.parse_args()
    files = args.files or sorted((ROOT / "scenarios" / "search").glob("*.toml"))
    print("| space | " + " | ".join(STRATEGIES) + " | best vs uniform | portfolio vs uniform | exhaustive |")
    print("|---|" + "---|" * (len(STRATEGIES) + 3))
    for path in files:
        medians = {}
        cells = []
        for strategy in STRATEGIES:
            found = [runs_to_first_finding(args.locksim, path, strategy, s, args.budget, args.threads)
                     for s in range(1, args.seeds + 1)]
            medians[strategy] = statistics.median([v if v is not None else args.budget + 1 for v in found])
            misses = sum(v is None for v in found)
            cells.append(median_text(found, args.budget) + (f" ({misses} missed)" if misses else ""))
        at_least = "≥ " if medians["uniform"] > args.budget else ""
        best = min(medians[s] for s in STRATEGIES if s != "uniform")
        speedups = [f"{at_least}{medians['uniform'] / m:.1f}×" for m in (best, medians["portfolio"])]
        exhaustive = runs_to_first_finding(args.locksim, path, "exhaustive", 1, args.budget, args.threads)
        print(f"| {path.stem} | " + " | ".join(cells) + " | " + " | ".join(speedups) + " | "
              + (f"> {args.budget}" if exhaustive is None else str(exhaustive)) + " |")
    print(f"\nmedian runs to the first finding over seeds 1..{args.seeds}, budget {args.budget} runs")


if __name__ == "__main__":
    main()
