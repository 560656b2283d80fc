"""tests/real_all/run: the three referees' whole sets in one command, the worst status of them."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

RUN_ALL = Path(__file__).resolve().parent / "run"


def tree_with_referees(tmp_path, statuses):
    """A copy of the command in a tree whose three referees are stubs: each records its arguments and exits."""
    tests = tmp_path / "tests"
    (tests / "real_all").mkdir(parents=True)
    shutil.copy(RUN_ALL, tests / "real_all" / "run")
    for name, status in statuses.items():
        stub = tests / f"real_{name}" / "run"
        stub.parent.mkdir()
        stub.write_text(f'#!/bin/sh\necho "{name} ran: $*"\nexit {status}\n')
        stub.chmod(0o755)
    return tests / "real_all" / "run"


def run(command, *args):
    return subprocess.run([str(command), *map(str, args)], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("statuses, want", [
    ({"redis": 0, "etcd": 0, "zookeeper": 0}, 0),
    ({"redis": 0, "etcd": 1, "zookeeper": 0}, 1),
    ({"redis": 2, "etcd": 0, "zookeeper": 0}, 2),
    ({"redis": 2, "etcd": 1, "zookeeper": 2}, 1),   # a disagreement outranks a row not compared
])
def test_every_referee_runs_and_the_status_says_the_worst(tmp_path, statuses, want):
    command = tree_with_referees(tmp_path, statuses)
    out = tmp_path / "out"
    done = run(command, "--locksim", "build/locksim", "--out", out, "--reps", 2, "--seeds", 7)
    assert done.returncode == want, done.stdout + done.stderr
    for name in statuses:
        log = (out / f"{name}.log").read_text()
        assert f"{name} ran: --all --reps 2 --seeds 7 --locksim build/locksim --out {out}/{name}" in log
        assert f"== real {name}: exit {statuses[name]}" in done.stdout
    assert done.stdout.rstrip().endswith(f"== every referee: exit {want}")


def test_dry_run_prints_the_three_commands_and_runs_none(tmp_path):
    done = run(RUN_ALL, "--locksim", "build/locksim", "--out", tmp_path / "o", "--dry-run")
    assert done.returncode == 0 and not (tmp_path / "o").exists()
    lines = done.stdout.splitlines()
    assert [line.split()[0].rsplit("/", 2)[-2] for line in lines] == ["real_redis", "real_etcd", "real_zookeeper"]
    assert all("--all --reps 5 --seeds 20 --locksim build/locksim" in line for line in lines)


@pytest.mark.parametrize("args", [[], ["--out", "o"], ["--locksim", "x", "--out", "o", "--reps"], ["--typo"]])
def test_bad_arguments_are_refused_with_the_usage(args):
    done = run(RUN_ALL, *args)
    assert done.returncode == 2 and "usage: tests/real_all/run" in done.stderr and not os.path.exists("o")
