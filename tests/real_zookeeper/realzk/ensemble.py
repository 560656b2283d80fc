"""A three-server ZooKeeper ensemble on loopback, fresh for each repetition.

Each server is Debian's ZooKeeper 3.8.0 (QuorumPeerMain on the jars under
/usr/share/java, not the zkServer.sh wrapper, whose daemon would leave our
process group), with its own data directory, myid and three free ports
(client, quorum, election), started through process_groups so that nothing
outlives the referee. tickTime is the store's lessor tick (2 s for
ZooKeeper, scenarios/FORMAT.md): the leader's session expiry buckets lie on
that grid, and the negotiated session timeout must lie in [2, 20] ticks, so
the story's session timeout T is checked against it rather than clamped.
"""
import os
import socket
import subprocess
import time

from realredis import procs

JARS = "/usr/share/java"
SERVER_JARS = ["zookeeper.jar", "zookeeper-jute.jar", "slf4j-api.jar", "slf4j-simple.jar", "commons-io.jar",
               "netty-handler.jar", "netty-transport.jar", "netty-common.jar", "netty-buffer.jar",
               "netty-codec.jar", "netty-resolver.jar", "netty-transport-native-epoll.jar",
               "netty-transport-native-unix-common.jar", "metrics-core.jar", "snappy-java.jar"]
CLIENT_JARS = ["curator-recipes.jar", "curator-framework.jar", "curator-client.jar", "zookeeper.jar",
               "zookeeper-jute.jar", "guava.jar", "slf4j-api.jar", "slf4j-nop.jar", "netty-handler.jar",
               "netty-transport.jar", "netty-common.jar", "netty-buffer.jar", "netty-codec.jar",
               "netty-resolver.jar", "netty-transport-native-epoll.jar", "netty-transport-native-unix-common.jar"]
# Small heaps and one compiler thread: six JVMs share two cores with other experiments.
JVM_FLAGS = ["-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1"]


def classpath(names: list[str]) -> str:
    return ":".join(os.path.join(JARS, n) for n in names)


def free_ports(n: int) -> list[int]:
    """n loopback ports free a moment ago, all bound at once so that none repeats."""
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


class Ensemble:
    def __init__(self, members: list[str], workdir: str, tick_ms: int, session_timeout_ms: int):
        if not 2 * tick_ms <= session_timeout_ms <= 20 * tick_ms:
            raise ValueError(f"session timeout {session_timeout_ms} ms is outside [2, 20] x tickTime {tick_ms} ms")
        self.members = members
        ports = free_ports(3 * len(members))
        self.client_ports = ports[:len(members)]
        quorum = ports[len(members):]
        servers = [f"server.{i + 1}=127.0.0.1:{quorum[2 * i]}:{quorum[2 * i + 1]}" for i in range(len(members))]
        self.procs: list[subprocess.Popen] = []
        for i, name in enumerate(members):
            data = os.path.join(workdir, name)
            os.makedirs(data)
            with open(os.path.join(data, "myid"), "w") as f:
                f.write(f"{i + 1}\n")
            cfg = os.path.join(workdir, f"{name}.cfg")
            with open(cfg, "w") as f:
                f.write("\n".join([f"tickTime={tick_ms}", "initLimit=10", "syncLimit=5", f"dataDir={data}",
                                   f"clientPort={self.client_ports[i]}", "clientPortAddress=127.0.0.1",
                                   "admin.enableServer=false", "4lw.commands.whitelist=srvr,ruok",
                                   "preAllocSize=1024", *servers]) + "\n")
            log = open(os.path.join(workdir, f"{name}.log"), "w")
            self.procs.append(procs.start(
                ["java", *JVM_FLAGS, "-Dzookeeper.jmx.log4j.disable=true", "-cp", classpath(SERVER_JARS),
                 "org.apache.zookeeper.server.quorum.QuorumPeerMain", cfg], stdout=log, stderr=subprocess.STDOUT))

    def mode(self, port: int) -> str | None:
        """The server's `srvr` Mode line (leader/follower), None while it does not serve."""
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                s.sendall(b"srvr")
                data = b""
                while chunk := s.recv(4096):
                    data += chunk
        except OSError:
            return None
        for line in data.decode(errors="replace").splitlines():
            if line.startswith("Mode:"):
                return line.split(":", 1)[1].strip()
        return None

    def wait_ready(self, timeout_s: float = 60.0) -> str:
        """Waits until every server serves and one leads; returns the leader's member name."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            modes = [self.mode(p) for p in self.client_ports]
            if all(m in ("leader", "follower") for m in modes) and modes.count("leader") == 1:
                return self.members[modes.index("leader")]
            for p in self.procs:
                if p.poll() is not None:
                    raise RuntimeError(f"a ZooKeeper server exited {p.returncode} before the ensemble was ready")
            time.sleep(0.2)
        raise RuntimeError(f"the ensemble was not ready after {timeout_s} s: {modes}")

    def close(self) -> None:
        for p in self.procs:
            procs.stop(p, grace_s=3.0)
