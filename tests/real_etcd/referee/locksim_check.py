"""`locksim check HISTORY --json` on a real repetition's history, held against judge.py's verdicts.

Two definitions of the same five properties read the same run: judge.py
from the records, locksim's checkers from the history (history.py). Per
property the two come out as:

  agree       the same status
  DISAGREE    one says holds where the other says violated: a finding,
              printed with both witnesses, never smoothed over
  undecided   one of them says unknown and the other decides: not a
              contradiction, but not an agreement either; the unknown
              side's reason is printed. P4 is the expected case: the
              history records no key events (history.py says why), so
              check cannot know who held the lock when an op was
              accepted, where judge.py bounds the commits by its ladder.

A locksim built before `check` existed says "unknown command 'check'";
then nothing is compared and every repetition says so, once.
"""
import json
import subprocess

NO_CHECK = "this locksim has no check command (it predates docs/history.md's locksim check)"


class CheckError(RuntimeError):
    pass


def has_check(locksim: str) -> bool:
    try:
        done = subprocess.run([locksim, "check", "--help"], capture_output=True, text=True, timeout=60)
    except OSError:
        return False
    return done.returncode == 0 and "check" in done.stdout


def check(locksim: str, history_path: str) -> dict:
    """{property name: {"status", "count", "witness", "unknown_because"}} of `locksim check --json`."""
    argv = [locksim, "check", history_path, "--json"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    # 0: nothing violated; 1: something is; 2: the history was refused (named by file and line).
    if done.returncode not in (0, 1) or not done.stdout.strip():
        raise CheckError(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.strip()[:500]}")
    out = {}
    for name, v in json.loads(done.stdout)["verdicts"].items():
        witness = v.get("witness")
        out[name] = {"status": v["status"], "count": v.get("count", 0),
                     "witness": witness.get("text") if isinstance(witness, dict) else None,
                     "unknown_because": v.get("unknown_because")}
    return out


def agreement(judged: str, checked: str) -> str:
    """agree | disagree | undecided (one side unknown, the other decided)."""
    if judged == checked:
        return "agree"
    if "unknown" in (judged, checked):
        return "undecided"
    return "disagree"


def compare(judge_verdicts: dict, check_verdicts: dict) -> dict:
    """Per property name: both statuses, the agreement and what explains a difference."""
    out = {}
    for name, j in judge_verdicts.items():
        c = check_verdicts.get(name)
        if c is None:
            out[name] = {"judge": j["status"], "check": "missing", "agreement": "disagree",
                         "note": "locksim check gave no verdict for it"}
            continue
        a = agreement(j["status"], c["status"])
        note = None
        if a == "disagree":
            note = f"judge.py: {j.get('witness') or 'no witness'}; locksim check: {c.get('witness') or 'no witness'}"
        elif a == "undecided":
            note = c.get("unknown_because") if c["status"] == "unknown" else "judge.py cannot decide it from the records"
        out[name] = {"judge": j["status"], "check": c["status"], "agreement": a, "note": note}
    return out
