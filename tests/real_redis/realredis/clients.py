"""The node client's configuration for one client of a row (node/client.js).

Library settings: a row with a preset (client-presets) runs the library with
its own defaults, written out — node-redlock 4.2.0 and 5.0.0-beta.2 both
ship drift 0.01, 10 retries, 200 ms ± 100 ms; a row without one takes the
scenario's: its drift factor, the client's retry delay without jitter, and
tries until the run ends (retryCount -1), as locksim's clients do.
"""
import os

from .story import Client, Story, duration_ns

NODE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "node")
LIBRARY_DEFAULTS = {"drift_factor": 0.01, "retry_count": 10, "retry_delay_ms": 200, "retry_jitter_ms": 100}
DEFAULT_RETRY_DELAY_NS = 100_000_000    # scenarios/FORMAT.md: [lock] retry_delay


def pause_step(story: Story, client: str) -> tuple[str | None, dict | None]:
    """(the step after which the client waits for the driver, that fault) for a pause fault on client."""
    for name, fault in story.faults.items():
        if fault.get("kind") == "pause" and fault.get("target") == client:
            who, _, step = fault.get("at", "").partition(" ")
            if who != client or not step:
                raise ValueError(f"fault {name}: at {fault.get('at')!r}: the real run pauses at a client's own phase only")
            return step, {"name": name, **fault}
    return None, None


def config(story: Story, lib: str, client: Client, node_ports: list[int], resource_port: int,
           start_at_ns: int) -> dict:
    if story.preset:
        settings = dict(LIBRARY_DEFAULTS)
    else:
        delay = client.retry_delay_ns if client.retry_delay_ns is not None else DEFAULT_RETRY_DELAY_NS
        settings = {"drift_factor": story.drift_factor, "retry_count": -1,
                    "retry_delay_ms": delay // 1_000_000, "retry_jitter_ms": client.retry_jitter_ns // 1_000_000}
    step, fault = pause_step(story, client.name)
    return {"name": client.name, "lib": lib, "nodes": node_ports, "key": "lock",
            "fence_key": "lock:fencing-token", "fencing": story.fencing,
            "ttl_ms": story.ttl_ns // 1_000_000, "resource_port": resource_port,
            "start_at_ns": str(start_at_ns), "steps": client.steps, "release": client.release,
            "pause_after": step, "pause_occurrence": int((fault or {}).get("occurrence", 1)),
            **_cycles(story, client.name), **settings}


def _cycles(story: Story, name: str) -> dict:
    """How many lock cycles the client runs (`iterations`) and the pause between them (`think`)."""
    spec = story.spec.get("client", {}).get(name, {})
    return {"iterations": int(spec.get("iterations", 1)),
            "think_ms": duration_ns(str(spec.get("think", "0s"))) // 1_000_000}
