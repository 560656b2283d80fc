"""The Java client and observer compiled with javac against Debian's jars, on
first use: into the directory given (CMake's build tree, with
LOCKSIM_REAL_ZOOKEEPER), again only when a source is newer than its class."""
import os
import subprocess

from . import ensemble

JAVA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "java")
NAMES = ["ZkClient", "ZkObserver"]
SOURCES = [os.path.join(JAVA_DIR, "locksim", n + ".java") for n in NAMES]


def _fresh(out_dir: str) -> bool:
    for name, source in zip(NAMES, SOURCES):
        target = os.path.join(out_dir, "locksim", name + ".class")
        if not os.path.exists(target) or os.path.getmtime(target) < os.path.getmtime(source):
            return False
    return True


def classes(out_dir: str) -> str:
    """out_dir holding locksim/ZkClient.class and ZkObserver.class, compiled if missing or stale."""
    if _fresh(out_dir):
        return out_dir
    os.makedirs(out_dir, exist_ok=True)
    done = subprocess.run(["javac", "-d", out_dir, "-cp", ensemble.classpath(ensemble.CLIENT_JARS), *SOURCES],
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"javac {' '.join(NAMES)}: {done.stderr.strip()[:1000]}")
    return out_dir
