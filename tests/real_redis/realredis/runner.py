"""One real repetition of a row: start everything, run the story, stop
everything, write the history.

Fresh redis-servers and a fresh resource for every repetition, so no
repetition inherits another's keys. The clients are started together and
each begins at t0 + its `start` on the common clock (CLOCK_MONOTONIC), so
node's start-up is not part of the story; every `t` in the history is
relative to t0. A pause fault (`at = "cN STEP"`) is made at that point of
the client's own run: the client says it reached it (after STEP's reply,
waiting on stdin; or, for `acquire-failed`, the moment its first try can no
longer reach a quorum) and the driver sends SIGSTOP to its process group,
checks in /proc that every thread stopped, lets it go on past the pause
point (the line it waits for can only be read once continued) and sends
SIGCONT `length` after the SIGSTOP. A pause whose stop is not seen makes the
fault `took_effect: false`. A stop or crash inside a lock request, a fault at
a time of the story and the client's acquire/release styles are
story_faults.py's (rows with `modes`).
"""
import json
import os
import random
import shutil
import subprocess
import tempfile
import threading
import time

import json_lines

from . import clients as clientcfg
from . import history, procs
from .pause import go_on, pause_group
from .redis_node import RedisNode
from .resource import Resource
from .rows import Row
from .services import Services
from .story import Story, draw_pause_length
from .story_faults import StoryFaults

START_MARGIN_NS = 2_000_000_000     # node's start-up and the first connections, before t0
END_GRACE_NS = 30_000_000_000       # past run_for, the clients still running are stopped


class Repetition:
    def __init__(self, row: Row, story: Story, rep: int, keep_logs_dir: str | None = None):
        self.row, self.story, self.rep = row, story, rep
        self.t0 = None
        self.observer: list[dict] = []
        self.client_records: list[dict] = []
        self.lock = threading.Lock()
        self.keep_logs_dir = keep_logs_dir
        self.problems: list[str] = []
        self.extras: StoryFaults | None = None    # points inside a request, timed faults, client modes
        self.services: Services | None = None     # the story's called services and their stalls
        # A pause length written uniform(a, b) is drawn per repetition; seeded by the repetition, so a
        # rerun draws the same, and the draw is written in the history's source (no field holds it).
        self.rng = random.Random(f"{row.label} rep {rep}")
        self.drawn: list[str] = []

    def _t0(self) -> int:
        return self.t0

    def _observe(self, kind: str, fields: dict) -> None:
        t = procs.now_ns() - self.t0
        with self.lock:
            self.observer.append({"t": t, "p": "observer", "local": t, "type": kind, **fields})

    def _pause(self, proc: subprocess.Popen, client: str, fault: dict, release_stdin: bool) -> None:
        def release() -> None:
            if release_stdin:
                go_on(proc)
        if not pause_group(proc, client, fault["name"], fault["length_ns"], self._observe, release):
            self.problems.append(f"{client}: SIGSTOP not seen in /proc")

    def _read_client(self, proc: subprocess.Popen, client: str, fault: dict | None, done: threading.Event) -> None:
        for record in json_lines.records(proc.stdout, client, self.problems):
            control = record.get("control")
            if control and self.extras.on_control(record, proc, client):
                continue
            if control in ("pause-point", "try-failed") and fault:
                threading.Thread(target=self._pause, args=(proc, client, fault, control == "pause-point"),
                                 daemon=True).start()
                fault = None      # once per run
            elif control == "pause-point":
                go_on(proc)
            elif control:
                continue
            else:
                record["t"] -= self.t0
                for end in ("promised_end", "promised_end_latest"):
                    if isinstance(record.get(end), int):
                        record[end] -= self.t0
                with self.lock:
                    self.client_records.append(record)
        done.set()

    def run(self, out_path: str) -> dict:
        """Runs the repetition, writes its history to out_path; returns {path, errors, recorded}."""
        story, row = self.story, self.row
        workdir = tempfile.mkdtemp(prefix="locksim-real-redis-")
        nodes: list[RedisNode] = []
        resource = None
        running: list[subprocess.Popen] = []
        try:
            wall_minus_mono = time.time_ns() - procs.now_ns()
            self.t0 = procs.now_ns() + 10 * START_MARGIN_NS   # provisional: no lock command comes before the real t0
            self.extras = StoryFaults(story, row.client, row.modes, workdir, self._observe)
            nodes = [self.extras.node(n, "lock", workdir, self._t0, wall_minus_mono) for n in story.nodes]
            nodes += self.extras.more_nodes()      # a replicated story's replicas (replication.py)
            resource = Resource(story.policy, story.app, self._t0,
                                int(story.spec.get("resource", {}).get("initial_stock", 1)))
            self.services = Services(story, workdir, self._observe, self.problems)
            # An everysec AOF's fsync clock starts at t0's wall second, as in locksim (aof_phase.py).
            self.t0 = self.extras.choose_t0(procs.now_ns() + START_MARGIN_NS)
            dones = []
            for c in story.clients:
                step, fault = clientcfg.pause_step(story, c.name)
                if fault:
                    self.drawn += draw_pause_length(fault, self.rng)
                cfg = clientcfg.config(story, row.client, c, [n.port for n in nodes], resource.port,
                                       self.t0 + c.start_ns)
                cfg.update(self.extras.client_config(c, self.t0))
                cfg.update(self.services.client_config())
                offset_file = os.path.join(workdir, f"{c.name}.clock-offset-ms")
                with open(offset_file, "w") as f:
                    f.write("0\n")
                env = dict(os.environ, LOCKSIM_CLOCK_OFFSET_FILE=offset_file)
                log = open(os.path.join(workdir, f"{c.name}.stderr"), "w")
                proc = procs.start(["node", "--require", os.path.join(clientcfg.NODE_DIR, "clock_shim.js"),
                                    os.path.join(clientcfg.NODE_DIR, "client.js"), json.dumps(cfg)],
                                   env=env, stdout=subprocess.PIPE, stderr=log, stdin=subprocess.PIPE)
                running.append(proc)
                done = threading.Event()
                dones.append(done)
                threading.Thread(target=self._read_client, args=(proc, c.name, fault, done), daemon=True).start()
            self.extras.start(self.t0)
            self.services.start(self.t0)
            deadline = self.t0 + story.run_for_ns + END_GRACE_NS
            for proc, done in zip(running, dones):
                while proc.poll() is None and procs.now_ns() < deadline:
                    time.sleep(0.05)
                done.wait(timeout=2)
            for proc, c in zip(running, story.clients):
                if proc.poll() is None:
                    self.problems.append(f"{c.name} still running at run_for + 30 s: stopped")
                elif proc.returncode != 0 and c.name not in self.extras.crashed:
                    self.problems.append(f"{c.name} exited {proc.returncode}")
                procs.stop(proc)
            self.extras.run_out(self.t0)     # a replicated story runs to its end: heals, demotions
            self.extras.stop()     # no fault or drift step once the nodes begin to close
            time.sleep(0.2)
            end_wall = time.time_ns()
            for n in nodes:
                n.close(end_wall)
            self.services.stop()
            resource.close()
            end_t = procs.now_ns() - self.t0
            records = self.client_records + self.observer + resource.records + [r for n in nodes for r in n.records]
            self.extras.fix(records)
            recorded = all(n.tracker.exact for n in nodes)
            processes = ([{"name": c.name, "kind": "client", "clock": "wall"} for c in story.clients]
                         + [{"name": n.name, "kind": "redis", "clock": "wall"} for n in nodes]
                         + [{"name": "storage", "kind": "resource", "clock": "monotonic"}]
                         + self.services.processes()
                         + (self.extras.replicated.processes() if self.extras.replicated else []))
            head = history.header(
                source=f"tests/real_redis: {row.label} rep {self.rep}, redis-server, client {row.client}"
                       + "".join(f"; {d}" for d in self.drawn + self.extras.source_notes()),
                processes=processes, nodes=[n.name for n in nodes], key="lock", recorded=recorded,
                app=story.app, faults=list(story.faults),
                masters=self.extras.replicated.masters([n.name for n in nodes]) if self.extras.replicated else None)
            lines = history.merge(head, records, end_t, end_t)
            errors = history.validate(lines)
            with open(out_path, "w") as f:
                f.write(history.dumps(lines))
            if self.keep_logs_dir:
                shutil.copytree(workdir, os.path.join(self.keep_logs_dir, os.path.basename(out_path) + ".logs"),
                                dirs_exist_ok=True)
            return {"path": out_path, "errors": errors, "recorded": recorded, "problems": self.problems + self.extras.problems,
                    "ambiguities": [a for n in nodes for a in n.tracker.ambiguities]}
        finally:
            if self.extras:
                self.extras.stop()
            if self.services:
                self.services.stop()
            for proc in running:
                procs.stop(proc)
            for n in nodes:
                if n.proc.poll() is None:
                    procs.stop(n.proc)
            if resource:
                resource._server.close()
            shutil.rmtree(workdir, ignore_errors=True)


def _duration(text: str) -> int:
    from .story import duration_ns
    return duration_ns(text)
