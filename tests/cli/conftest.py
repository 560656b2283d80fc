"""Fixtures for the locksim command-line tests: where the binary and the repo are."""
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def locksim():
    """Runs the locksim binary (LOCKSIM_BIN, else build/locksim) and returns the CompletedProcess."""
    binary = os.environ.get("LOCKSIM_BIN", str(ROOT / "build" / "locksim"))
    if not os.path.exists(binary):
        pytest.fail(f"no locksim binary at {binary}: build first (scripts/setup)")

    def run(*args, cwd=ROOT):
        return subprocess.run([binary, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=120)

    run.binary = binary
    return run


@pytest.fixture(scope="session")
def root():
    return ROOT
