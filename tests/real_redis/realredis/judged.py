"""Both sides' verdicts: `locksim check` on a real history, `locksim run` on
the same scenario variant over seeds; each with its trace reduced to
magnitudes (magnitudes.py)."""
import json
import os
import subprocess
import tempfile

import locksim_runs

from . import magnitudes


class JudgeError(RuntimeError):
    pass


def check(locksim: str, history_path: str) -> dict:
    """`locksim check FILE --json --trace T`: verdicts, unknown reasons, magnitudes."""
    trace = history_path + ".trace.jsonl"
    argv = [locksim, "check", history_path, "--json", "--trace", trace]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    if done.returncode not in (0, 1) or not done.stdout.strip():
        raise JudgeError(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.strip()[:500]}")
    result = json.loads(done.stdout)
    result = result["variants"][0] if "variants" in result else result
    unknown = {name: v.get("unknown_because") for name, v in result["verdicts"].items() if v["status"] == "unknown"}
    m = magnitudes.measure(magnitudes.read_trace(trace))
    m["expired_grants"] = _expired_grants(result)
    m["longest_stuck_ns"] = _longest_stuck(result)
    m.update(_transactions(result))
    return {"verdicts": locksim_runs.statuses(result), "unknown_because": unknown, "magnitudes": m,
            "command": " ".join(argv[:3])}


def _expired_grants(result: dict):
    """Grants whose lease had already ended when acquire returned (liveness figure), None if not given."""
    value = result.get("liveness", {}).get("expired_grants")
    return value if isinstance(value, int) else None


def _longest_stuck(result: dict):
    """The longest time someone wanted the lock and nobody held it (liveness figure), None if not given."""
    value = result.get("liveness", {}).get("longest_stuck_ns")
    return value if isinstance(value, int) else None


def _transactions(result: dict) -> dict:
    """A transactional resource's commits and rollbacks (liveness figures; transactional-contention's
    expectations are counts of them), None if not given."""
    liveness = result.get("liveness", {})
    return {key: liveness.get(key) if isinstance(liveness.get(key), int) else None
            for key in ("commits", "rollbacks")}


def _run_seed(locksim: str, scenario_path: str, variant: str, seed: int, workdir: str) -> dict:
    trace = locksim_runs.trace_path(workdir, variant, seed)
    result, _ = locksim_runs.run_seed(locksim, scenario_path, variant, seed, trace, JudgeError, timeout=300)
    m = magnitudes.measure(magnitudes.read_trace(trace))
    m["expired_grants"] = _expired_grants(result)
    m["longest_stuck_ns"] = _longest_stuck(result)
    m.update(_transactions(result))
    os.remove(trace)
    return {"seed": seed, "verdicts": locksim_runs.statuses(result), "magnitudes": m}


def simulate(locksim: str, scenario_path: str, variant: str, seeds: int) -> list[dict]:
    """`locksim run FILE --variant V --seed S --json --trace T` for S = 1..seeds, two at a time."""
    with tempfile.TemporaryDirectory(prefix="locksim-real-redis-sim-") as workdir:
        return locksim_runs.over_seeds(lambda s: _run_seed(locksim, scenario_path, variant, s, workdir), seeds)
