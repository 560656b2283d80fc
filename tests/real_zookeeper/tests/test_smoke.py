"""One repetition of zookeeper-gc-pause:base against a real ensemble: the
history validates, `locksim check` judges it, locksim runs the same variant,
and every process the referee started is gone afterwards. A disagreement is a
finding, not a broken referee: the verdicts are not asserted."""
import json
import os
import subprocess
import sys
import tempfile

from procs_check import alive_ours, pids, smoke_run
from realredis import history


def test_smoke_run_is_judged_and_leaves_nothing_behind():
    with tempfile.TemporaryDirectory(prefix="locksim-real-zk-smoke-") as out:
        argv, env, pid_log = smoke_run(out)
        done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=110)
        sys.stderr.write(done.stderr)
        assert done.returncode in (0, 1), done.stdout + done.stderr
        files = [f for f in os.listdir(out) if f.endswith(".history.jsonl")]
        assert files == ["zookeeper-gc-pause.base.rep1.history.jsonl"]
        with open(os.path.join(out, files[0])) as f:
            lines = [json.loads(line) for line in f]
        assert history.validate(lines) == []
        assert any(line.get("type") == "fault-fired" and line["took_effect"] for line in lines)
        assert sum(1 for line in lines if line.get("type") == "grant") == 2
        with open(os.path.join(out, "results.json")) as f:
            [row] = json.load(f)
        assert row["reps"] == 1 and set(row["real"][0]["verdicts"]) == {
            "grant-exclusive", "belief-exclusive", "resource-exclusive", "resource-current", "invariant"}
        started = pids(pid_log)
        assert len(started) == 6                         # three servers, the observer, two clients
        assert not [p for p in started if alive_ours(p)]
