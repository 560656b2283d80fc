"""The same story in locksim: verdicts and magnitudes over many seeds.

Runs `locksim run FILE --variant V --seed S --json --trace T` once per seed
(two at a time), takes the five verdicts from the JSON and reduces the trace
to facts (facts.from_sim), which magnitudes.py measures exactly as it
measures a real repetition. Traces go to a temporary directory that is
removed afterwards.
"""
import concurrent.futures
import json
import os
import shutil
import subprocess
import tempfile

from . import facts, magnitudes


class SimError(RuntimeError):
    pass


def run_seed(locksim: str, path: str, variant: str, seed: int, workdir: str, names, roles) -> dict:
    trace = os.path.join(workdir, f"{variant}.{seed}.jsonl")
    argv = [locksim, "run", path, "--variant", variant, "--seed", str(seed), "--json", "--trace", trace]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    if done.returncode not in (0, 1) or not done.stdout.strip():
        raise SimError(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.strip()[:500]}")
    result = json.loads(done.stdout)["variants"][0]
    verdicts = {name: v["status"] for name, v in result["verdicts"].items()}
    f = facts.from_sim(facts.read_jsonl(trace))
    os.remove(trace)
    return {"seed": seed, "verdicts": verdicts, "magnitudes": magnitudes.measure(f, names, roles),
            "command": " ".join(argv[:-2])}


def run_seeds(locksim: str, path: str, variant: str, seeds: int, names, roles, jobs: int = 2) -> list[dict]:
    workdir = tempfile.mkdtemp(prefix="locksim-real-etcd-sim-")
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(run_seed, locksim, path, variant, s, workdir, names, roles)
                       for s in range(1, seeds + 1)]
            return [f.result() for f in futures]
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
