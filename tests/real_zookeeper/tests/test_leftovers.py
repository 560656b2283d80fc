"""A SIGTERM of the driver midway (c1's JVM SIGSTOPped, the ensemble
running) stops every process it started, and it exits 2."""
import signal
import subprocess
import tempfile
import time

from procs_check import alive_ours, pids, smoke_run


def test_sigterm_midway_leaves_no_process():
    with tempfile.TemporaryDirectory(prefix="locksim-real-zk-term-") as out:
        argv, env, pid_log = smoke_run(out)
        driver = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 60
            # Three servers and two clients, then past t0 (15 s after the clients start): c1 paused.
            while time.monotonic() < deadline and len(pids(pid_log)) < 5:
                time.sleep(0.1)
            time.sleep(18.0)
            started = pids(pid_log)
            assert len(started) == 5 and any(alive_ours(p) for p in started)
            driver.send_signal(signal.SIGTERM)
            rc = driver.wait(timeout=30)
        finally:
            if driver.poll() is None:
                driver.kill()
                driver.wait()
        assert rc == 2, driver.stderr.read()
        time.sleep(0.2)
        assert not [p for p in pids(pid_log) if alive_ours(p)]
