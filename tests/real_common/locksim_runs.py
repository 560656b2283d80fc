"""`locksim run` over seeds, as both referees compare with it
(tests/real_etcd/referee/simulated.py, tests/real_redis/realredis/judged.py):
one seed's JSON and trace, and the seeds run two at a time. Each referee
reduces the trace to its own magnitudes."""
import concurrent.futures
import json
import os
import subprocess


def run_seed(locksim: str, path: str, variant: str, seed: int, trace: str, error=RuntimeError,
             timeout: int = 600) -> tuple[dict, list[str]]:
    """`locksim run PATH --variant V --seed S --json --trace TRACE`: (the variant's JSON result, argv).
    Exit 0 and 1 are runs (1: a verdict differs from [expect]); anything else raises error."""
    argv = [locksim, "run", path, "--variant", variant, "--seed", str(seed), "--json", "--trace", trace]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    if done.returncode not in (0, 1) or not done.stdout.strip():
        raise error(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.strip()[:500]}")
    return json.loads(done.stdout)["variants"][0], argv


def statuses(result: dict) -> dict:
    """property -> violated / holds / unknown."""
    return {name: v["status"] for name, v in result["verdicts"].items()}


def over_seeds(one_seed, seeds: int, jobs: int = 2) -> list:
    """one_seed(s) for s = 1..seeds, jobs at a time, in seed order."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(one_seed, range(1, seeds + 1)))


def trace_path(workdir: str, variant: str, seed: int) -> str:
    return os.path.join(workdir, f"{variant}.{seed}.trace.jsonl")
