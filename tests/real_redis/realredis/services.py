"""The story's called services (`[service.NAME]`), made for real, and their
stalls — the driver's side of service_process.py.

One OS process per service, in a process group of its own (procs.start),
fresh for every repetition, on a free loopback port it binds itself. Every
client opens one connection to each service before t0 (node/service_calls.js),
so no connect is part of the story.

A `pause` fault whose target is a service (`at` a time of the story) is
made as a client's pause is (pause.py): SIGSTOP to its process group at
t0 + at, the stop seen in /proc (`took_effect`), SIGCONT `length` after the
SIGSTOP. The calls made meanwhile wait in the kernel and are answered
together once it is continued — what locksim's paused service does with the
messages it receives while paused. The history names each service in its
header (kind `service`, clock `monotonic`), as locksim's does, and gets the
stall's `fault pause`, `fault-fired` and `fault resume` lines; the service
itself records nothing, nor does locksim's.

Only a fixed latency is made (`latency = "5ms"`); a drawn one is refused
rather than guessed. The network's latency between the processes is
loopback's (tens of microseconds), whatever `[network] latency` says: a gap
docs/real-redis.md states, not made up for.
"""
import json
import os
import subprocess
import sys
import threading

from . import procs
from .pause import pause_group
from .story import Story, duration_ns

SERVICE_PROCESS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "service_process.py")
PORT_TIMEOUT_S = 10.0


def service_latencies(story: Story) -> dict[str, int]:
    """service name -> its latency in ns; ValueError for a latency the real service does not make."""
    latencies = {}
    for name, spec in story.spec.get("service", {}).items():
        text = str(spec.get("latency", "0s"))
        try:
            latencies[name] = duration_ns(text)
        except ValueError:
            raise ValueError(f"service.{name}.latency {text!r}: the real service answers after a fixed "
                             "latency only") from None
    return latencies


def service_stalls(story: Story) -> dict[str, dict]:
    """fault name -> fault, for the pauses of a service; ValueError for one not made for real."""
    stalls = {}
    for name, fault in story.faults.items():
        if fault.get("kind") != "pause" or fault.get("target") not in story.spec.get("service", {}):
            continue
        if " " in str(fault.get("at", "")) or "occurrence" in fault:
            raise ValueError(f"fault {name}: a service stalls at a time of the story only ({fault.get('at')!r})")
        stalls[name] = {"at_ns": duration_ns(str(fault["at"])), "length_ns": duration_ns(str(fault["length"])),
                        "target": fault["target"]}
    return stalls


class Services:
    def __init__(self, story: Story, workdir: str, observe, problems: list[str]):
        self._observe, self._problems = observe, problems
        self.latencies = service_latencies(story)
        self.stalls = service_stalls(story)
        self.procs: dict[str, subprocess.Popen] = {}
        self.ports: dict[str, int] = {}
        self._threads: list[threading.Thread] = []
        for name, latency_ns in self.latencies.items():
            log = open(os.path.join(workdir, f"service-{name}.stderr"), "w")
            proc = procs.start([sys.executable, SERVICE_PROCESS, str(latency_ns)], stdout=subprocess.PIPE,
                               stderr=log)
            self.procs[name] = proc
            self.ports[name] = _read_port(proc, name)

    def client_config(self) -> dict:
        """Keys for node/service_calls.js: each service's port."""
        return {"services": dict(self.ports)} if self.ports else {}

    def processes(self) -> list[dict]:
        """The header's entries for the services, as locksim's history names them."""
        return [{"name": name, "kind": "service", "clock": "monotonic"} for name in self.procs]

    def start(self, t0_ns: int) -> None:
        """Starts a thread per stall, which stops its service at t0 + at."""
        for name, stall in self.stalls.items():
            thread = threading.Thread(target=self._stall, args=(name, stall, t0_ns), name=f"stall-{name}",
                                      daemon=True)
            thread.start()
            self._threads.append(thread)

    def _stall(self, fault_name: str, stall: dict, t0_ns: int) -> None:
        wait_ns = t0_ns + stall["at_ns"] - procs.now_ns()
        if wait_ns > 0:
            threading.Event().wait(wait_ns / 1e9)
        target = stall["target"]
        late_ns = procs.now_ns() - (t0_ns + stall["at_ns"])
        if late_ns > self.latencies[target]:
            # A call made at `at` may have been answered before the stop: not the story's stall.
            self._problems.append(f"service {target}: stopped {late_ns / 1e6:.1f} ms after its time, "
                                  "later than one latency")
        if not pause_group(self.procs[target], target, fault_name, stall["length_ns"], self._observe,
                           lambda: None):
            self._problems.append(f"service {target}: SIGSTOP not seen in /proc")

    def stop(self) -> None:
        """Stops every service process (continued first if stopped: procs.stop)."""
        for proc in self.procs.values():
            procs.stop(proc)


def _read_port(proc: subprocess.Popen, name: str) -> int:
    """The port the service printed once it listens."""
    box: list[str] = []
    reader = threading.Thread(target=lambda: box.append(proc.stdout.readline()), daemon=True)
    reader.start()
    reader.join(PORT_TIMEOUT_S)
    if not box or not box[0].strip():
        procs.stop(proc)
        raise RuntimeError(f"service {name}: no port within {PORT_TIMEOUT_S} s")
    return int(json.loads(box[0])["port"])
