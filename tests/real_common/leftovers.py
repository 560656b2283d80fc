"""Whether a referee leaves a process behind: the pids its driver started
(each referee's process module writes them to a log the test names) and a
SIGTERM of the driver midway. Shared by the referees' smoke and
no-leftovers tests, each of which says what its own processes look like."""
import os
import signal
import subprocess
import tempfile
import time


def alive_ours(pid: int, markers: tuple[bytes, ...]) -> bool:
    """True if pid runs and its command line has one of markers (not a reused pid, not a zombie)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = f.read().split(b"\0")
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    if state == "Z":
        return False
    text = b" ".join(argv)
    return any(m in text for m in markers)


def pids(path: str) -> list[int]:
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [int(line) for line in f if line.strip()]


def smoke_run(run: str, out: str) -> tuple[list[str], dict, str]:
    """(argv, env, pid log) of a referee's smoke run (its `run` script) into out, recording every
    pid it starts (LOCKSIM_REAL_REDIS_PID_LOG: the process module both drivers share reads it)."""
    pid_log = os.path.join(out, "pids")
    env = dict(os.environ, LOCKSIM_REAL_REDIS_PID_LOG=pid_log)
    return [run, "--smoke", "--locksim", os.environ["LOCKSIM_BIN"], "--out", out], env, pid_log


def sigterm_midway(run: str, markers: tuple[bytes, ...], processes: int, wait_s: float, settle_s: float) -> None:
    """Starts the smoke run, waits until it has started `processes` processes (at most wait_s) and
    settle_s more (into the story), SIGTERMs the driver: it must exit 2 and leave none of them."""
    with tempfile.TemporaryDirectory(prefix="locksim-real-term-") as out:
        argv, env, pid_log = smoke_run(run, out)
        driver = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + wait_s
            while time.monotonic() < deadline and len(pids(pid_log)) < processes:
                time.sleep(0.1)
            time.sleep(settle_s)
            started = pids(pid_log)
            assert len(started) == processes and any(alive_ours(p, markers) for p in started)
            driver.send_signal(signal.SIGTERM)
            rc = driver.wait(timeout=30)
        finally:
            if driver.poll() is None:
                driver.kill()
                driver.wait()
        assert rc == 2, driver.stderr.read()
        time.sleep(0.2)
        assert not [p for p in pids(pid_log) if alive_ours(p, markers)]
