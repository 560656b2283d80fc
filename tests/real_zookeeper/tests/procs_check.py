"""Whether a pid the referee started is still one of its processes."""
import os


def alive_ours(pid: int) -> bool:
    """True if pid runs and is a ZooKeeper server or a Java client of ours (not a reused pid)."""
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
    return b"QuorumPeerMain" in text or b"locksim.ZkClient" in text


def pids(path: str) -> list[int]:
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [int(line) for line in f if line.strip()]


HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def smoke_run(out: str) -> tuple[list[str], dict, str]:
    """(argv, env, pid log) of the driver's smoke run into out; realredis.procs, which starts every
    process, writes each pid to LOCKSIM_REAL_REDIS_PID_LOG."""
    pid_log = os.path.join(out, "pids")
    env = dict(os.environ, LOCKSIM_REAL_REDIS_PID_LOG=pid_log)
    return [os.path.join(HERE, "run"), "--smoke", "--locksim", os.environ["LOCKSIM_BIN"], "--out", out], env, pid_log
