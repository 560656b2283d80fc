"""One repetition of the smoke row against real redis-servers: the history
validates, `locksim check` judges it, locksim runs the same variant, and every
process the referee started is gone afterwards. Exit 0 or 1 both pass: a
disagreement is a finding, not a broken referee."""
import json
import os
import subprocess
import sys
import tempfile

from procs_check import alive_ours, pids, smoke_run
from realredis import history


def test_smoke_run_is_judged_and_leaves_nothing_behind():
    with tempfile.TemporaryDirectory(prefix="locksim-real-redis-smoke-") as out:
        argv, env, pid_log = smoke_run(out)
        done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)
        sys.stderr.write(done.stderr)
        assert done.returncode in (0, 1), done.stdout + done.stderr
        files = [f for f in os.listdir(out) if f.endswith(".history.jsonl")]
        assert files == ["single-node-gc-pause.base.rep01.history.jsonl"]
        with open(os.path.join(out, files[0])) as f:
            lines = [json.loads(line) for line in f]
        assert history.validate(lines) == []
        assert any(line.get("type") == "fault-fired" and line["took_effect"] for line in lines)
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
        row = summary["rows"][0]
        assert row["reps"] == 1 and "comparison" in row
        verdicts = row["repetitions"][0]["verdicts"]
        assert set(verdicts) == {"grant-exclusive", "belief-exclusive", "resource-exclusive", "resource-current",
                                 "invariant"}
        started = pids(pid_log)
        assert len(started) == 3                         # one redis-server, two clients
        assert not [p for p in started if alive_ours(p)]
