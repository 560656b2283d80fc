"""The called service's process for real (realredis/service_process.py):
calls made while it is stopped are answered together once it is continued,
each its latency after. Starts one small process (about a second); not in
the ctest suite, run by hand: pytest tests/test_service_process.py."""
import json
import signal
import socket
import subprocess
import sys
import time

from realredis import procs
from realredis.services import SERVICE_PROCESS, _read_port

LATENCY_S = 0.05


def test_calls_made_during_a_stall_are_answered_together_after_it():
    proc = procs.start([sys.executable, SERVICE_PROCESS, str(int(LATENCY_S * 1e9))], stdout=subprocess.PIPE)
    try:
        port = _read_port(proc, "identity")
        conns = [socket.create_connection(("127.0.0.1", port)) for _ in range(3)]
        start = time.monotonic()
        conns[0].sendall(b'{"id": 1}\n')
        assert json.loads(conns[0].makefile().readline()) == {"id": 1}
        assert time.monotonic() - start >= LATENCY_S * 0.9          # answered after its latency

        procs.signal_group(proc, signal.SIGSTOP)
        assert procs.wait_stopped(proc.pid, 2.0)
        for n, c in enumerate(conns):
            c.sendall(json.dumps({"id": 10 + n}).encode() + b"\n")
        time.sleep(0.3)                                             # six latencies: nothing while stopped
        for c in conns:
            c.setblocking(False)
            try:
                assert c.recv(100) == b""
                raise AssertionError("closed")
            except BlockingIOError:
                pass
            c.setblocking(True)
        resumed = time.monotonic()
        procs.signal_group(proc, signal.SIGCONT)
        answered = []
        for n, c in enumerate(conns):
            assert json.loads(c.makefile().readline()) == {"id": 10 + n}
            answered.append(time.monotonic() - resumed)
        assert all(LATENCY_S * 0.9 <= a < LATENCY_S + 0.2 for a in answered)
        assert max(answered) - min(answered) < 0.02                 # together
    finally:
        procs.stop(proc)
