"""Every mirrored row can be set up: its scenario variant reads, its resource's
app and policy are served, its faults are ones the referee makes, and each
client's configuration builds — without starting a server. (A merge once left
twelve rows with a resource app the real resource no longer served; only a
full run showed it.)"""
import os

import pytest

from realredis import clients, rows, services
from realredis.resource_apps import Rules
from realredis.story import load
from realredis.story_faults import StoryFaults

SCENARIOS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scenarios")


class _Node:
    def __init__(self, name, port):
        self.name, self.port = name, port


@pytest.mark.parametrize("row", rows.ROWS, ids=[r.label for r in rows.ROWS])
def test_every_mirrored_row_sets_up(row, tmp_path):
    story = load(os.path.join(SCENARIOS, f"{row.scenario}.toml"), row.variant)
    Rules(story.policy, story.app)
    services.service_latencies(story)     # a called service's latency is one the real service makes
    services.service_stalls(story)        # and its stalls, ones the driver makes
    faults = StoryFaults(story, row.client, row.modes, str(tmp_path), lambda kind, fields: None)
    faults.nodes = {n: _Node(n, 7000 + i) for i, n in enumerate(story.nodes)}
    ports = [7000 + i for i in range(len(story.nodes))]
    for client in story.clients:
        cfg = clients.config(story, row.client, client, ports, 6999, 0)
        cfg.update(faults.client_config(client, 0))
        assert cfg["lib"] == row.client and len(cfg["nodes"]) == len(story.nodes)


def test_the_smoke_row_is_single_node_gc_pause():
    assert rows.SMOKE.label == "single-node-gc-pause:base"


def test_rows_are_named_once():
    labels = [r.label for r in rows.ROWS]
    assert len(labels) == len(set(labels))
