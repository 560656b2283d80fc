"""The same story in locksim: verdicts and magnitudes over many seeds.

Runs `locksim run FILE --variant V --seed S --json --trace T` once per seed
(two at a time), takes the five verdicts from the JSON and reduces the trace
to facts (facts.from_sim), which magnitudes.py measures exactly as it
measures a real repetition. Traces go to a temporary directory that is
removed afterwards.
"""
import os
import shutil
import tempfile

import locksim_runs

from . import facts, magnitudes


class SimError(RuntimeError):
    pass


def run_seed(locksim: str, path: str, variant: str, seed: int, workdir: str, names, roles) -> dict:
    trace = locksim_runs.trace_path(workdir, variant, seed)
    result, argv = locksim_runs.run_seed(locksim, path, variant, seed, trace, SimError)
    f = facts.from_sim(facts.read_jsonl(trace))
    os.remove(trace)
    return {"seed": seed, "verdicts": locksim_runs.statuses(result), "magnitudes": magnitudes.measure(f, names, roles),
            "command": " ".join(argv[:-2])}


def run_seeds(locksim: str, path: str, variant: str, seeds: int, names, roles, jobs: int = 2) -> list[dict]:
    workdir = tempfile.mkdtemp(prefix="locksim-real-etcd-sim-")
    try:
        return locksim_runs.over_seeds(lambda s: run_seed(locksim, path, variant, s, workdir, names, roles),
                                       seeds, jobs)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
