"""The client-side rows' settings are read from the scenario files as locksim reads them."""
import os

import pytest

from realredis.story import load
from realredis.story_faults import StoryFaults
from realredis.story import Client

SCENARIOS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scenarios")
S = 1_000_000_000


def _faults(scenario, variant, lib="plain", workdir="/nonexistent"):
    story = load(os.path.join(SCENARIOS, f"{scenario}.toml"), variant)
    return story, StoryFaults(story, lib, True, workdir, lambda kind, fields: None)


def _client(story, name) -> Client:
    return next(c for c in story.clients if c.name == name)


def test_setnx_crash_point_and_styles():
    story, f = _faults("setnx-then-expire-crash", "base")
    assert f.points["c1"][0] == "setnx-ok" and f.points["c1"][1]["kind"] == "crash"
    cfg = f.client_config(_client(story, "c2"), 100 * S)
    assert cfg["acquire_style"] == "setnx-then-expire" and cfg["sync_point"] is None
    assert cfg["run_until_ns"] == str(160 * S)
    story, f = _faults("setnx-then-expire-crash", "atomic-set")
    assert f.points["c1"][0] == "acquire-sent"
    assert f.client_config(_client(story, "c1"), 0)["acquire_style"] == "set-nx-px"


def test_release_and_fencing_styles():
    story, f = _faults("del-without-owner-check", "base")
    assert f.client_config(_client(story, "c1"), 0)["release_style"] == "del"
    story, f = _faults("del-without-owner-check", "compare-and-delete")
    assert f.client_config(_client(story, "c1"), 0)["release_style"] == "compare-and-delete"
    story, f = _faults("fencing-token-taken-late", "incr-in-script")
    assert f.client_config(_client(story, "c1"), 0)["fencing_style"] == "incr-in-script"
    assert f.points["c1"][0] == "acquire-sent" and f.points["c1"][1]["kind"] == "pause"


def test_attempts_become_retry_counts():
    story, f = _faults("redlock-delayed-replies", "base", "redlock4")
    assert f.client_config(_client(story, "c1"), 0)["retry_count"] == 0     # attempts = 1: one try
    assert f.client_config(_client(story, "c2"), 0)["retry_count"] == -1    # attempts = 0: until the run ends


def test_a_crash_elsewhere_than_a_point_is_refused():
    story = load(os.path.join(SCENARIOS, "setnx-then-expire-crash.toml"), "base")
    story.faults["c1-crash"]["at"] = "5s"
    with pytest.raises(ValueError, match="not made for real"):
        StoryFaults(story, "plain", True, "/nonexistent", lambda kind, fields: None)
