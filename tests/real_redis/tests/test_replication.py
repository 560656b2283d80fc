"""The replicated deployment's parts that need no redis-server: the link
proxy (delay, cut and hold, heal, a crash's loss), the zones a partition makes
and which port each process is given, and the MONITOR source a replica's
master link is told apart by."""
import os
import socket
import threading
import time

import pytest

from realredis import procs
from realredis.keyevents import monitor_source_port
from realredis.link_proxy import Link
from realredis.replication import Replicated
from realredis.story import load

SCENARIOS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scenarios")


class _Echo:
    """A loopback server that sends back what it reads."""

    def __init__(self):
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(8)
        self.port = self.server.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._echo, args=(conn,), daemon=True).start()

    @staticmethod
    def _echo(conn):
        while True:
            try:
                data = conn.recv(4096)
            except OSError:
                return
            if not data:
                return
            conn.sendall(data)


def _round_trip(sock, data=b"x", timeout=2.0):
    sock.settimeout(timeout)
    start = procs.now_ns()
    sock.sendall(data)
    got = sock.recv(4096)
    return got, (procs.now_ns() - start) / 1e6


def test_a_link_delays_what_the_target_sends():
    echo = _Echo()
    link = Link("echo", echo.port, delay_ns=30_000_000)
    with socket.create_connection(("127.0.0.1", link.port)) as s:
        got, ms = _round_trip(s)
    link.close()
    assert got == b"x" and 30 <= ms < 200


def test_a_cut_link_holds_both_ways_and_delivers_on_heal():
    echo = _Echo()
    link = Link("echo", echo.port)
    with socket.create_connection(("127.0.0.1", link.port)) as s:
        assert _round_trip(s)[0] == b"x"
        link.cut()
        s.settimeout(0.3)
        s.sendall(b"held")
        with pytest.raises(socket.timeout):
            s.recv(4096)          # silence, not a refusal
        link.heal()
        s.settimeout(2)
        assert s.recv(4096) == b"held"
    link.close()


def test_a_new_connection_to_a_cut_link_is_silent():
    echo = _Echo()
    link = Link("echo", echo.port)
    link.cut()
    with socket.create_connection(("127.0.0.1", link.port)) as s:
        s.settimeout(0.3)
        s.sendall(b"x")
        with pytest.raises(socket.timeout):
            s.recv(4096)
    link.close()


def test_a_crash_loses_what_the_link_still_holds_from_the_target():
    echo = _Echo()
    link = Link("echo", echo.port, delay_ns=300_000_000)
    with socket.create_connection(("127.0.0.1", link.port)) as s:
        s.sendall(b"in flight")
        time.sleep(0.1)                 # echoed, and held by the link's delay
        link.lose_from_target()
        s.settimeout(2)
        assert s.recv(4096) == b""      # closed, and the held bytes never arrive
    link.close()


def test_a_replicas_master_link_is_told_apart_by_its_source_port():
    assert monitor_source_port('+1795919701.036457 [0 127.0.0.1:17001] "SET" "lock" "v1" "PXAT" "1"') == 17001
    assert monitor_source_port('+1795919701.036457 [0 lua] "set" "lock" "v1"') is None


class _Node:
    def __init__(self, name, port):
        self.name, self.port = name, port


def _deployment(tmp_path, scenario, variant="base"):
    story = load(os.path.join(SCENARIOS, f"{scenario}.toml"), variant)
    rep = Replicated(story, str(tmp_path), lambda kind, fields: None, lambda: 0, 0)
    rep.nodes = {"M": _Node("M", 7000), "R": _Node("R", 7001)}
    rep._sentinels = {s: (7100 + i, None) for i, s in enumerate(rep.sentinel_names)}
    return rep


def _close_links(rep):
    for link in rep.links:
        link.close()


def test_zones_give_each_process_its_own_zones_ports(tmp_path):
    rep = _deployment(tmp_path, "sentinel-split-brain")
    try:
        c1, c2 = rep.client_config("c1")["follow"], rep.client_config("c2")["follow"]
        assert c1["master"] == 7000                    # M is in c1's zone: direct
        assert c2["master"] not in (7000, 7001)        # c2 reaches M through a link
        assert all(p not in (7100, 7101, 7102) for p in c1["sentinels"])   # c1 reaches the sentinels by links
        assert c2["sentinels"] == [7100, 7101, 7102]
        assert c2["port_views"]["7001"] == 7001 and c1["port_views"]["7001"] != 7001
        assert c1["command_timeout_ms"] == 200
        rep.cut(0)
        assert all(link._cut for link in rep.links)    # every link here crosses the zones
    finally:
        _close_links(rep)


def test_without_a_partition_everyone_is_reached_directly(tmp_path):
    rep = _deployment(tmp_path, "no-faults-replicated")
    try:
        follow = rep.client_config("c1")["follow"]
        assert follow["master"] == 7000 and follow["sentinels"] == [7100, 7101, 7102] and not rep.links
    finally:
        _close_links(rep)


def test_the_replication_options_go_to_every_node(tmp_path):
    rep = _deployment(tmp_path, "sentinel-split-brain", "min-replicas-to-write")
    assert rep.node_args == ["--min-replicas-to-write", "1", "--min-replicas-max-lag", "1"]
    assert rep.masters(["M", "R"]) == [None, "M"]
