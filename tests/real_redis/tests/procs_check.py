"""Whether a pid the referee started is still one of its processes."""
import os


def alive_ours(pid: int) -> bool:
    """True if pid runs and is a redis-server or a node client of ours (not a reused pid)."""
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
    return b"redis-server" in text or b"client.js" in text


def pids(path: str) -> list[int]:
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [int(line) for line in f if line.strip()]
