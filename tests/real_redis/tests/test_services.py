"""The called services' pure parts (realredis/services.py, story.py's drawn
pause length) on hand-made stories: which latencies and stalls the real run
makes, which it refuses, and how a pause length is drawn."""
import random

import pytest

from realredis.services import service_latencies, service_stalls
from realredis.story import Story, pause_length_ns


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


@pytest.mark.parametrize("text", ["lognormal(1s, 0.5)", "uniform(5s, 1s)", "exponential(2s)"])
def test_other_pause_lengths_are_refused(text):
    with pytest.raises(ValueError):
        pause_length_ns(text, random.Random(1))
