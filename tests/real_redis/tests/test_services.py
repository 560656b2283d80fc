"""The called services' pure parts (realredis/services.py, story.py's drawn
pause length) on hand-made stories: which latencies and stalls the real run
makes, which it refuses, and how a pause length is drawn."""
import json
import os
import random
import shutil
import subprocess

import pytest

from realredis.services import service_latencies, service_stalls
from realredis.story import Story, draw_pause_length, pause_length_ns


def story(services: dict, faults: dict) -> Story:
    return Story(path="x.toml", name="x", variant="base", protocol="single", ttl_ns=10**10, nodes=["r1"],
                 policy="none", app="stock", fencing=False, preset=None, drift_factor=0.01, run_for_ns=4 * 10**10,
                 clients=[], faults=faults, spec={"service": services})


def test_a_fixed_latency_and_a_stall_at_a_time():
    s = story({"identity": {"latency": "5ms"}},
              {"stall": {"kind": "pause", "target": "identity", "at": "0s", "length": "30s"},
               "gc": {"kind": "pause", "target": "c1", "at": "c1 read", "length": "15s"}})
    assert service_latencies(s) == {"identity": 5_000_000}
    assert service_stalls(s) == {"stall": {"at_ns": 0, "length_ns": 30 * 10**9, "target": "identity"}}


def test_a_drawn_latency_is_refused():
    with pytest.raises(ValueError, match="fixed latency"):
        service_latencies(story({"backend": {"latency": "uniform(10ms, 30ms)"}}, {}))


@pytest.mark.parametrize("fault", [
    {"kind": "pause", "target": "identity", "at": "c1 called", "length": "1s"},
    {"kind": "pause", "target": "identity", "at": "1s", "occurrence": 2, "length": "1s"},
])
def test_a_stall_at_a_phase_is_refused(fault):
    with pytest.raises(ValueError, match="time of the story"):
        service_stalls(story({"identity": {"latency": "5ms"}}, {"stall": fault}))


def test_pause_length_plain_or_uniform_drawn_per_repetition():
    assert pause_length_ns("15s", random.Random(1)) == 15 * 10**9
    draws = [pause_length_ns("uniform(0s, 15s)", random.Random(f"row rep {n}")) for n in range(200)]
    assert all(0 <= d <= 15 * 10**9 for d in draws)
    assert len(set(draws)) == 200 and min(draws) < 10**9 and max(draws) > 14 * 10**9
    again = pause_length_ns("uniform(0s, 15s)", random.Random("row rep 3"))
    assert again == draws[3]                    # the same repetition draws the same length


def test_a_drawn_length_is_said_for_the_history():
    fault = {"name": "c1-gc", "length": "uniform(0s, 15s)"}
    [note] = draw_pause_length(fault, random.Random("transactional-contention:pauses rep 1"))
    assert note == f"c1-gc length uniform(0s, 15s) drew {fault['length_ns'] / 1e9:.3f}s"
    assert draw_pause_length({"name": "gc", "length": "15s"}, random.Random(1)) == []


@pytest.mark.parametrize("text", ["lognormal(1s, 0.5)", "uniform(5s, 1s)", "exponential(2s)"])
def test_other_pause_lengths_are_refused(text):
    with pytest.raises(ValueError):
        pause_length_ns(text, random.Random(1))


NODE_STEPS = r"""
const steps = require(process.argv[1]);
const config = JSON.parse(process.argv[2]);
const paused = [];
const sent = [];
const pause = steps.pauseOnce(config, async (step) => { paused.push([step, sent.length]); });
const resource = { request: async (r) => { sent.push(r.op); return { accepted: true, value: config.stock }; } };
(async () => {
  for (let cycle = 0; cycle < 3; cycle++) {
    await steps.runSteps({ config, resource, lock: { value: 'v' }, session: 's', token: -1,
      emit: () => {}, sleep: async () => {}, pause });
  }
  process.stdout.write(JSON.stringify({ paused, sent }));
})();
"""


def _node_steps(**config) -> dict:
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "node", "resource_steps.js")
    done = subprocess.run(["node", "-e", NODE_STEPS, path, json.dumps(config)], capture_output=True, text=True,
                          timeout=30, check=True)
    return json.loads(done.stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_a_pause_at_the_third_reach_of_a_phase():
    """`occurrence = 3`: the pause comes after the third cycle's add, once; `read`, whose phase and step
    share a name, counts one reach per step (it once counted two)."""
    got = _node_steps(steps=["add", "call 0ms", "read"], pause_after="added", pause_occurrence=3, stock=1)
    assert got["paused"] == [["add", 5]]          # after the 3rd add: 2 cycles of (add, read) sent, then add
    got = _node_steps(steps=["add", "read"], pause_after="read", pause_occurrence=2, stock=1)
    assert got["paused"] == [["read", 4]]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_decrement_compares_on_what_it_read():
    """GET-compare-DECR: nothing is sent when the read found no stock, as locksim's client."""
    assert _node_steps(steps=["read", "decrement"], stock=1)["sent"] == ["read", "decrement"] * 3
    assert _node_steps(steps=["read", "decrement"], stock=0)["sent"] == ["read"] * 3
