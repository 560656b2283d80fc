"""The node-side faults on hand-made inputs: who a partition cuts off, a
retry delay drawn uniformly, a drifting clock's rate, and what a restarted
server's key means for the key events."""
import os
import socket
import threading

import pytest

from realredis.keyevents import KeyTracker
from realredis.redis_node import _read_replies
from realredis.story import _retry_delay, load
from realredis.story_faults import StoryFaults

SCENARIOS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scenarios")
MS = 1_000_000


class _Node:
    def __init__(self, name, port):
        self.name, self.port = name, port


def _faults(scenario, variant="base"):
    story = load(os.path.join(SCENARIOS, f"{scenario}.toml"), variant)
    faults = StoryFaults(story, "redlock4", True, "/nonexistent", lambda kind, fields: None)
    faults.nodes = {n: _Node(n, 7000 + i) for i, n in enumerate(story.nodes)}
    return story, faults


def test_a_partition_from_the_start_gives_the_client_a_dead_port_for_each_node_it_is_cut_from():
    story, faults = _faults("redlock-clock-jump")
    c1, c2 = (next(c for c in story.clients if c.name == n) for n in ("c1", "c2"))
    dead = faults._dead_port
    assert faults.client_config(c1, 0)["nodes"] == [7000, 7001, 7002, dead, dead]      # cut from D, E
    assert faults.client_config(c2, 0)["nodes"] == [dead, dead, 7002, 7003, 7004]      # cut from A, B
    assert faults.client_config(c1, 0)["cut_ports"] == [dead]


def test_a_partition_that_starts_later_or_heals_is_refused():
    story, faults = _faults("redlock-clock-jump")
    c1 = next(c for c in story.clients if c.name == "c1")
    story.faults["c1-cut-from-D-E"]["at"] = "2s"
    with pytest.raises(ValueError, match="from the start"):
        faults.client_config(c1, 0)
    story.faults["c1-cut-from-D-E"]["at"] = "0s"
    story.faults["c1-cut-from-D-E"]["heal_after"] = "1s"
    with pytest.raises(ValueError, match="never heals"):
        faults.client_config(c1, 0)


def test_a_uniform_retry_delay_is_node_redlocks_delay_with_jitter():
    assert _retry_delay("uniform(100ms, 300ms)") == (200 * MS, 100 * MS)
    assert _retry_delay("1s") == (1000 * MS, 0)
    assert _retry_delay(None) == (None, 0)
    story, _ = _faults("redlock-clock-jump")
    c2 = next(c for c in story.clients if c.name == "c2")
    assert (c2.retry_delay_ns, c2.retry_jitter_ns) == (200 * MS, 100 * MS)


def test_a_drifting_node_runs_under_the_shim_at_its_rate():
    _, faults = _faults("redlock-clock-drift")
    assert faults._drifts == {"C": 0.02} and "C" in faults._stepped_nodes
    _, faults = _faults("redlock-clock-drift", "fast-0.5pct")
    assert faults._drifts == {"C": 0.005}


def _tracker():
    events = []
    tracker = KeyTracker("lock", lambda kind, wall, fields: events.append((kind, wall, fields)))
    tracker.command(1000 * MS, ["set", "lock", "v1", "PX", "10000"])
    events.clear()
    return tracker, events


def test_a_key_that_came_back_is_still_held_with_its_remaining_ttl():
    tracker, events = _tracker()
    tracker.restarted(1500 * MS, 2000 * MS, "v1", 9000)
    assert events == [] and tracker.exact
    tracker.finish(11_001 * MS)
    assert events == [("key-dropped", 11_000 * MS, {"value": "v1", "reason": "expired"})]


def test_a_key_that_did_not_come_back_was_lost_at_the_kill():
    tracker, events = _tracker()
    tracker.restarted(1500 * MS, 2000 * MS, None, -2)
    assert events == [("key-dropped", 1500 * MS, {"value": "v1", "reason": "lost-in-crash"})] and tracker.exact


def test_a_key_whose_expiry_fell_while_the_server_was_down_is_inexact():
    tracker, events = _tracker()
    tracker.restarted(1500 * MS, 12_000 * MS, None, -2)
    assert not tracker.exact and "between the kill and the restart" in tracker.ambiguities[0]


def test_another_value_after_the_restart_is_inexact_not_guessed():
    tracker, _ = _tracker()
    tracker.restarted(1500 * MS, 2000 * MS, "v2", 9000)
    assert not tracker.exact


def test_the_restart_read_parses_nil_bulk_and_integer_replies_split_anywhere():
    a, b = socket.socketpair()
    payload = b"$-1\r\n:-2\r\n$20\r\nlocksim-restart-read\r\n"
    sender = threading.Thread(target=lambda: [b.sendall(payload[i:i + 3]) for i in range(0, len(payload), 3)])
    sender.start()
    assert _read_replies(a, 3) == [None, -2, "locksim-restart-read"]
    sender.join()
    a.close()
    b.close()


@pytest.mark.parametrize("persistence, survives", [("none", False), ("aof-always", True), ("aof-everysec", True)])
def test_a_real_server_killed_and_restarted_keeps_its_key_only_with_an_aof(tmp_path, persistence, survives):
    """SIGKILL of the process: with appendfsync everysec the write reached the page cache before
    the reply, so a process kill keeps it too (only a machine crash could lose it)."""
    import time

    from realredis import procs
    from realredis.redis_node import RedisNode

    node = RedisNode("C", "lock", str(tmp_path), lambda: 0, 0, persistence=persistence)
    try:
        with socket.create_connection(("127.0.0.1", node.port)) as s:
            s.sendall(b"SET lock v1 PX 60000\r\n")
            assert s.recv(64) == b"+OK\r\n"
        time.sleep(0.1)                      # MONITOR has fed the tracker
        node.kill()
        node.restart()
        node.close(time.time_ns())
    finally:
        if node.proc.poll() is None:
            procs.stop(node.proc)
    kinds = [(r["type"], r.get("reason")) for r in node.records]
    assert kinds == ([("key-held", None)] if survives else [("key-held", None), ("key-dropped", "lost-in-crash")])
    assert node.tracker.exact


def test_a_machine_crash_of_an_everysec_node_runs_it_under_the_volatile_writes_shim():
    from realredis import volatile_aof
    for variant, wanted in [("aof-everysec-soon", True), ("aof-everysec-late", True),
                            ("aof-everysec-process-crash", False), ("aof-always", False), ("base", False)]:
        story = load(os.path.join(SCENARIOS, "redlock-crash-restart.toml"), variant)
        assert [n for n in story.nodes if volatile_aof.wanted(story, n)] == (["C"] if wanted else []), variant


def test_the_volatile_log_says_when_the_last_write_came_and_whether_it_was_fsynced():
    from realredis.volatile_aof import describe
    s = 1_000_000_000
    write = 41 * s + 250 * MS
    kept = describe("C", [("held", 30, write), ("synced", 30, write + MS // 2)], write + 500 * MS)
    assert "250.0 ms into its wall-clock second (750.0 ms before the next)" in kept
    assert kept.endswith("fsynced 0.5 ms after it: kept")
    lost = describe("C", [("synced", 10, write - 100 * MS), ("held", 30, write), ("synced", 30, write + 600 * MS)],
                    write + 500 * MS)
    assert "previous fsync 100.0 ms before it" in lost and lost.endswith("not fsynced: lost")


def test_t0_comes_a_few_ms_after_a_whole_second_of_the_servers_wall_clock_the_throwaway_write_before_it():
    from realredis import aof_phase
    s = aof_phase.SECOND_NS
    offset = 1_700_000_000 * s + 250 * MS          # the server's wall clock minus the monotonic clock
    # earliest t0 at monotonic 10 s: the server's wall clock reads .250 s then; the next whole second
    # is 750 ms later, and t0 is 5 ms after it.
    second, write, t0 = aof_phase.choose(10 * s, offset)
    assert ((second + offset) % s, second) == (0, 10 * s + 750 * MS)
    assert (write - second, t0 - second) == (aof_phase.WRITE_AFTER_NS, aof_phase.T0_AFTER_NS)
    # earliest already a few ms past a whole second: that second serves, t0 is not moved earlier.
    assert aof_phase.choose(10 * s + 755 * MS, offset)[2] == 10 * s + 755 * MS
    assert aof_phase.choose(10 * s + 756 * MS, offset)[2] == 11 * s + 755 * MS
    # a server wall clock before its epoch (a stepped clock) still lands on a whole second
    second, _, t0 = aof_phase.choose(3 * s, -7 * s - 300 * MS)
    assert ((second - 7 * s - 300 * MS) % s, t0 >= 3 * s) == (0, True)


def test_the_throwaway_write_counts_only_in_t0s_wall_second_before_t0():
    from realredis.aof_phase import check
    assert check(0, 1 * MS, 2 * MS, 5 * MS) is None
    assert "sent -0.5 ms" in check(0, -MS // 2, 2 * MS, 5 * MS)        # before the second: aof_last_fsync too early
    assert "done 6.0 ms" in check(0, 1 * MS, 6 * MS, 5 * MS)           # after t0
    assert check(0, None, None, 5 * MS) == "not written"


@pytest.mark.parametrize("variant,started", [("aof-everysec-soon", ["C"]), ("aof-everysec-late", ["C"]),
                                             ("aof-everysec-process-crash", ["C"]), ("aof-always", []),
                                             ("base", []), ("delayed-restart", [])])
def test_only_a_crashed_everysec_node_has_its_fsync_clock_started_at_t0(variant, started):
    from realredis import aof_phase
    story = load(os.path.join(SCENARIOS, "redlock-crash-restart.toml"), variant)
    assert aof_phase.nodes(story, True) == started
    assert aof_phase.nodes(story, False) == []
