"""The vDSO shim moves a running Go program's wall clock by exactly the step written to its offset file, forwards and back, and leaves its monotonic clock alone; without the shim the same steps move nothing, and a shim that cannot do its job stops the program instead of pretending."""
import json
import os
import subprocess
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from referee.cluster import WallClock  # noqa: E402

PROBE = os.environ.get("LOCKSIM_REAL_ETCD_CLOCKPROBE")
SHIM = os.environ.get("LOCKSIM_REAL_ETCD_SHIM")
S = 1_000_000_000
SLACK = 50_000_000      # what two readings a few ms apart may disagree by, besides the step

pytestmark = pytest.mark.skipif(not (PROBE and SHIM), reason="run by ctest (LOCKSIM_REAL_ETCD_CLOCKPROBE, _SHIM)")


class Probe:
    def __init__(self, env):
        self.proc = subprocess.Popen([PROBE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env=env)

    def read(self):
        self.proc.stdin.write("\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=5)


def moved(a, b):
    """How far the wall clock moved between readings a and b beyond the time that passed (raw monotonic)."""
    elapsed = b["raw_mono_ns"] - a["raw_mono_ns"]
    return b["wall_ns"] - a["wall_ns"] - elapsed, b["libc_wall_ns"] - a["libc_wall_ns"] - elapsed, \
        b["go_mono_ns"] - a["go_mono_ns"] - elapsed


def run_steps(tmp_path, preload):
    clock = WallClock(str(tmp_path / "offset"))
    env = dict(os.environ, LOCKSIM_WALL_OFFSET_FILE=clock.path)
    env.pop("LD_PRELOAD", None)
    if preload:
        env["LD_PRELOAD"] = SHIM
    probe = Probe(env)
    try:
        a = probe.read()
        system_at_a = time.time_ns()
        clock.step(15 * S)
        time.sleep(0.05)
        b = probe.read()
        clock.step(-20 * S)          # back past the start: net −5 s
        c = probe.read()
        return a, b, c, system_at_a
    finally:
        probe.close()
        clock.close()


def test_a_go_programs_wall_clock_steps_forward_and_back_and_its_monotonic_clock_does_not(tmp_path):
    a, b, c, system_at_a = run_steps(tmp_path, preload=True)
    assert abs(a["wall_ns"] - system_at_a) < SLACK                        # offset 0: the real time
    go_wall, libc_wall, go_mono = moved(a, b)
    assert abs(go_wall - 15 * S) < SLACK and abs(libc_wall - 15 * S) < SLACK and abs(go_mono) < SLACK
    go_wall, libc_wall, go_mono = moved(b, c)
    assert abs(go_wall + 20 * S) < SLACK and abs(libc_wall + 20 * S) < SLACK and abs(go_mono) < SLACK
    assert abs(moved(a, c)[0] + 5 * S) < SLACK


def test_without_the_shim_the_same_steps_move_nothing(tmp_path):
    a, b, c, _ = run_steps(tmp_path, preload=False)
    assert all(abs(x) < SLACK for x in moved(a, b) + moved(b, c))


def test_a_shim_that_cannot_map_its_offset_file_stops_the_program(tmp_path):
    env = dict(os.environ, LD_PRELOAD=SHIM, LOCKSIM_WALL_OFFSET_FILE=str(tmp_path / "missing"))
    done = subprocess.run([PROBE], input="\n", capture_output=True, text=True, env=env, timeout=10)
    assert done.returncode == 97 and "cannot open LOCKSIM_WALL_OFFSET_FILE" in done.stderr
