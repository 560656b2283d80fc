"""A 3-member etcd cluster on loopback, started for one run and gone after it.

Members s1, s2, s3 (locksim's names for a store's members) run Debian's
/usr/bin/etcd 3.4.23 with fresh data directories in a temporary directory,
on ports chosen free by binding port 0, with etcd's default timing
(heartbeat 100 ms, election timeout 1000 ms; written out so the record says
so). Each is started with the vDSO clock shim preloaded and its own offset
file, so the wall clock of any one member can be stepped while it runs
(step_wall_clock); monotonic time is never touched.

Which member leads is asked of each member's Status through etcd's JSON
gateway (POST /v3/maintenance/status): the member whose own id equals the
leader id it reports. The members are stopped through procs.py, by their
process groups only.
"""
import json
import os
import socket
import subprocess
import time
import urllib.request

from wall_offset import WallOffset

from . import procs

HEARTBEAT_MS = 100
ELECTION_TIMEOUT_MS = 1000


def free_ports(n: int) -> list[int]:
    """n distinct ports that were free a moment ago (bound to port 0, then released)."""
    socks = []
    try:
        for _ in range(n):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


# A member's wall-clock offset (the shim's file; shared with the Redis referee).
WallClock = WallOffset


class Member:
    def __init__(self, name, client_port, peer_port, data_dir, log_path, clock):
        self.name = name
        self.client_port = client_port
        self.peer_port = peer_port
        self.data_dir = data_dir
        self.log_path = log_path
        self.clock = clock
        self.proc = None

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.client_port}"

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.client_port}"


class EtcdCluster:
    def __init__(self, workdir: str, shim: str, etcd: str = "/usr/bin/etcd", names=("s1", "s2", "s3")):
        self.workdir = workdir
        self.shim = shim
        self.etcd = etcd
        self.names = list(names)
        self.members: dict[str, Member] = {}

    def start(self, timeout_s: float = 20.0) -> "EtcdCluster":
        """Starts every member and returns once one leads and all answer."""
        ports = free_ports(2 * len(self.names))
        for i, name in enumerate(self.names):
            clock = WallClock(os.path.join(self.workdir, f"{name}.wall-offset"))
            self.members[name] = Member(name, ports[2 * i], ports[2 * i + 1], os.path.join(self.workdir, f"{name}.etcd"),
                                        os.path.join(self.workdir, f"{name}.log"), clock)
        initial = ",".join(f"{m.name}=http://127.0.0.1:{m.peer_port}" for m in self.members.values())
        for m in self.members.values():
            env = dict(os.environ, LD_PRELOAD=self.shim, LOCKSIM_WALL_OFFSET_FILE=m.clock.path)
            argv = [self.etcd, "--name", m.name, "--data-dir", m.data_dir,
                    "--listen-client-urls", m.endpoint, "--advertise-client-urls", m.endpoint,
                    "--listen-peer-urls", f"http://127.0.0.1:{m.peer_port}",
                    "--initial-advertise-peer-urls", f"http://127.0.0.1:{m.peer_port}",
                    "--initial-cluster", initial, "--initial-cluster-state", "new",
                    "--initial-cluster-token", os.path.basename(self.workdir),
                    "--heartbeat-interval", str(HEARTBEAT_MS), "--election-timeout", str(ELECTION_TIMEOUT_MS),
                    "--logger", "zap", "--log-outputs", m.log_path]
            m.proc = procs.start(argv, env=env, stdout=subprocess.DEVNULL, stderr=open(m.log_path + ".stderr", "w"))
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            for m in self.members.values():
                if m.proc.poll() is not None:
                    raise RuntimeError(f"etcd member {m.name} exited with {m.proc.returncode} at start: "
                                       + self._tail(m))
            statuses = {name: self.status(name) for name in self.members}
            if all(statuses.values()) and self._leader_from(statuses):
                return self
            time.sleep(0.1)
        raise RuntimeError("no etcd leader within %.0f s" % timeout_s)

    def _tail(self, m: Member) -> str:
        for path in (m.log_path + ".stderr", m.log_path):
            try:
                with open(path) as f:
                    text = f.read()[-2000:]
                if text.strip():
                    return text
            except OSError:
                pass
        return "(no log)"

    def status(self, name: str, timeout_s: float = 0.5):
        """The member's Status (etcd's JSON gateway), or None if it does not answer."""
        m = self.members[name]
        if m.proc is None or m.proc.poll() is not None:
            return None
        req = urllib.request.Request(m.endpoint + "/v3/maintenance/status", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout_s) as r:
                return json.load(r)
        except (OSError, ValueError):
            return None

    def _leader_from(self, statuses) -> str | None:
        for name, st in statuses.items():
            if st and st.get("leader") and st["header"].get("member_id") == st.get("leader"):
                return name
        return None

    def leader(self, exclude=()) -> str | None:
        """The name of the member that says it leads (None during an election); members in
        exclude are not asked (a stopped member would only time out)."""
        return self._leader_from({name: self.status(name) for name in self.members if name not in exclude})

    def wait_leader(self, timeout_s: float = 10.0) -> str | None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            name = self.leader()
            if name:
                return name
            time.sleep(0.05)
        return None

    def kill(self, name: str, sig: int) -> bool:
        return procs.signal_group(self.members[name].proc, sig)

    def wait_stopped(self, name: str, timeout_s: float = 1.0) -> bool:
        """True once every thread of the member is stopped (a SIGSTOP took effect)."""
        return procs.wait_stopped(self.members[name].proc.pid, timeout_s)

    def step_wall_clock(self, name: str, delta_ns: int) -> int:
        """Steps the member's wall clock by delta_ns (either sign); returns its new offset."""
        return self.members[name].clock.step(delta_ns)

    def stop(self) -> None:
        for m in self.members.values():
            if m.proc is not None:
                procs.stop(m.proc)
            m.clock.close()
