"""The Java client compiled with javac against Debian's jars, on first use:
into the directory given (CMake's build tree, with LOCKSIM_REAL_ZOOKEEPER),
again only when the source is newer than the class."""
import os
import subprocess

from . import ensemble

JAVA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "java")
SOURCE = os.path.join(JAVA_DIR, "locksim", "ZkClient.java")


def classes(out_dir: str) -> str:
    """out_dir holding locksim/ZkClient.class, compiled if missing or stale."""
    target = os.path.join(out_dir, "locksim", "ZkClient.class")
    if os.path.exists(target) and os.path.getmtime(target) >= os.path.getmtime(SOURCE):
        return out_dir
    os.makedirs(out_dir, exist_ok=True)
    done = subprocess.run(["javac", "-d", out_dir, "-cp", ensemble.classpath(ensemble.CLIENT_JARS), SOURCE],
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"javac ZkClient.java: {done.stderr.strip()[:1000]}")
    return out_dir
