"""One real repetition of a ZooKeeper row: a fresh ensemble, fresh links and
a fresh resource; the clients' JVMs started before t0 (a JVM and Curator's
first connection take seconds); the story; everything stopped; the history.

Every client reaches each server through its own Link (tests/real_redis's
TCP proxy), so a partition cuts exactly the client-server pairs the story
separates while the resource stays reachable. A pause is made at the
client's pause point with realredis.pause.pause_group (SIGSTOP of the JVM's
process group, checked in /proc, SIGCONT `length` later). The clients' own
Curator connection states are kept beside the history (not a history event)
to measure when SUSPENDED and LOST came.
"""
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time

import json_lines
from realredis import history, procs
from realredis.link_proxy import Link
from realredis.pause import go_on, pause_group
from realredis.resource import Resource

from . import ensemble as ens
from . import keys
from .story import Story, partitions, pause_of

START_MARGIN_NS = 15_000_000_000    # the JVMs' start-up and Curator's first connection, before t0
LOCK_PATH = "/locksim/lock"         # ZkClient's InterProcessMutex path
LADDER_TICK_MS = 50
END_GRACE_NS = 20_000_000_000


class Repetition:
    def __init__(self, story: Story, rep: int, classes: str, keep_logs_dir: str | None = None):
        self.story, self.rep, self.classes, self.keep_logs_dir = story, rep, classes, keep_logs_dir
        self.t0 = None
        self.records: list[dict] = []
        self.states: list[dict] = []      # {t, client, state}: Curator's connection states
        self.observed: list[dict] = []    # the observer's lines (ZkObserver.java), t0-relative
        self.handles: list[dict] = []     # the clients' `zk-session` lines: their session after a release
        self.leader: str | None = None    # the member that led when the ensemble was ready
        self.problems: list[str] = []
        self.ready: set[str] = set()
        self.lock = threading.Lock()

    def _observe(self, kind: str, fields: dict) -> None:
        t = procs.now_ns() - self.t0
        with self.lock:
            self.records.append({"t": t, "p": "observer", "local": t, "type": kind, **fields})

    def _pause(self, proc, client: str, fault: dict) -> None:
        if not pause_group(proc, client, fault["name"], fault["length_ns"], self._observe, lambda: go_on(proc)):
            self.problems.append(f"{client}: SIGSTOP not seen in /proc")

    def _read_client(self, proc, client: str, fault: dict | None) -> None:
        for record in json_lines.records(proc.stdout, client, self.problems):
            control = record.get("control")
            if control == "ready":
                self.ready.add(client)
            elif control == "pause-point":
                if fault:
                    threading.Thread(target=self._pause, args=(proc, client, fault), daemon=True).start()
                    fault = None
                else:
                    go_on(proc)
            elif control:
                continue
            elif record["type"] == "store-state":
                with self.lock:
                    self.states.append({"t": record["t"] - self.t0, "client": client, "state": record["state"]})
            elif record["type"] == "zk-session":   # for keys.py only: no such history event
                with self.lock:
                    self.handles.append({**record, "t": record["t"] - self.t0})
            else:
                record["t"] -= self.t0
                record["local"] -= self.t0
                for key in ("promised_end", "promised_end_latest", "lease_end_local"):
                    if isinstance(record.get(key), int):
                        record[key] -= self.t0
                with self.lock:
                    self.records.append(record)

    def _read_observer(self, proc) -> None:
        for record in json_lines.records(proc.stdout, "observer", self.problems):
            for k in ("t", "sent", "read"):
                if isinstance(record.get(k), int):
                    record[k] -= self.t0
            with self.lock:
                self.observed.append(record)

    def _start_observer(self, ensemble, workdir: str) -> tuple:
        """The observer, connected straight to every server (no link: no fault of a story touches
        it, and the stories' partitions cut clients only, so every server stays on the majority side)."""
        connect = ",".join(f"127.0.0.1:{p}" for p in ensemble.client_ports)
        argv = ["java", *ens.JVM_FLAGS, "-cp", self.classes + ":" + ens.classpath(ens.CLIENT_JARS),
                "locksim.ZkObserver", f"connect={connect}", f"path={LOCK_PATH}", "ladder=/locksim-ladder",
                f"tick_ms={LADDER_TICK_MS}", "session_ms=20000"]
        log = open(os.path.join(workdir, "observer.stderr"), "w")
        proc = procs.start(argv, stdout=subprocess.PIPE, stderr=log)
        reader = threading.Thread(target=self._read_observer, args=(proc,), daemon=True)
        reader.start()
        return proc, reader

    @staticmethod
    def _stop_observer(proc, reader) -> None:
        """Last of all: its final listing (at SIGTERM) sees every change made before it."""
        procs.stop(proc, grace_s=5.0)
        reader.join(timeout=5.0)

    def _partitions(self, links: dict, stop: threading.Event) -> None:
        """Cuts (and heals, with a `length`) the links of each partition fault at its time."""
        events = []
        for p in partitions(self.story):
            events.append((p["at_ns"], "cut", p))
            if p["length_ns"] is not None:
                events.append((p["at_ns"] + p["length_ns"], "heal", p))
        for at, what, p in sorted(events, key=lambda e: e[0]):
            while not stop.is_set() and procs.now_ns() < self.t0 + at:
                time.sleep(0.0005)
            if stop.is_set():
                return
            for pair in p["cut"]:
                getattr(links[pair], what)()
            self._observe("fault", {"fault": "partition" if what == "cut" else "heal"})
            if what == "cut":
                self._observe("fault-fired", {"fault": p["name"], "took_effect": True})

    def _client_argv(self, c, ports: dict, resource_port: int) -> list[str]:
        pause = pause_of(self.story, c.name)
        args = {"name": c.name, "connect": ",".join(f"127.0.0.1:{ports[m]}" for m in self.story.members),
                "ttl_ms": self.story.ttl_ns // 1_000_000, "resource_port": resource_port,
                "start_at_ns": self.t0 + c.start_ns, "steps": "|".join(c.steps),
                "pause_after": pause["phase"] if pause else "", "policy": self.story.policy,
                "iterations": c.iterations, "think_ms": c.think_ns // 1_000_000}
        cp = self.classes + ":" + ens.classpath(ens.CLIENT_JARS)
        return ["java", *ens.JVM_FLAGS, "-cp", cp, "locksim.ZkClient", *(f"{k}={v}" for k, v in args.items())]

    def run(self, out_path: str) -> dict:
        story = self.story
        workdir = tempfile.mkdtemp(prefix="locksim-real-zk-")
        ensemble, resource, running, links, observer = None, None, [], {}, None
        stop = threading.Event()
        try:
            ensemble = ens.Ensemble(story.members, workdir, story.tick_ns // 1_000_000, story.ttl_ns // 1_000_000)
            self.leader = ensemble.wait_ready()
            self.t0 = procs.now_ns() + START_MARGIN_NS
            observer = self._start_observer(ensemble, workdir)
            resource = Resource(story.resource_policy, story.app, lambda: self.t0)
            for c in story.clients:
                ports = {}
                for m, port in zip(story.members, ensemble.client_ports):
                    links[(c.name, m)] = Link(f"{c.name}-{m}", port)
                    ports[m] = links[(c.name, m)].port
                log = open(os.path.join(workdir, f"{c.name}.stderr"), "w")
                proc = procs.start(self._client_argv(c, ports, resource.port), stdout=subprocess.PIPE,
                                   stderr=log, stdin=subprocess.PIPE)
                running.append(proc)
                threading.Thread(target=self._read_client, args=(proc, c.name, pause_of(story, c.name)),
                                 daemon=True).start()
            threading.Thread(target=self._partitions, args=(links, stop), daemon=True).start()
            while procs.now_ns() < self.t0 and len(self.ready) < len(story.clients):
                time.sleep(0.05)
            if len(self.ready) < len(story.clients):
                late = sorted({c.name for c in story.clients} - self.ready)
                self.problems.append(f"clients not connected by t0: {late}")
            deadline = self.t0 + story.run_for_ns + END_GRACE_NS
            for proc, c in zip(running, story.clients):
                while proc.poll() is None and procs.now_ns() < deadline:
                    time.sleep(0.05)
                if proc.poll() is None:
                    self.problems.append(f"{c.name} still running at run_for + {END_GRACE_NS // 10**9} s: stopped")
                elif proc.returncode != 0:
                    self.problems.append(f"{c.name} exited {proc.returncode}")
                procs.stop(proc)
            stop.set()
            time.sleep(0.2)
            resource.close()
            self._stop_observer(*observer)
            return self._write(out_path, resource, workdir)
        finally:
            stop.set()
            for proc in running:
                procs.stop(proc)
            if observer:
                procs.stop(observer[0])
            if ensemble:
                ensemble.close()
            for link in links.values():
                link.close()
            if resource:
                resource._server.close()
            if self.keep_logs_dir and os.path.isdir(workdir):
                shutil.copytree(workdir, os.path.join(self.keep_logs_dir, os.path.basename(out_path) + ".logs"),
                                dirs_exist_ok=True, ignore=shutil.ignore_patterns("version-2"))
            shutil.rmtree(workdir, ignore_errors=True)

    def _write(self, out_path: str, resource: Resource, workdir: str) -> dict:
        story = self.story
        end_t = procs.now_ns() - self.t0
        # The lock's owner changes as numbered key events within their bounds (keys.py); the
        # sessions are not recorded (no store-session). Any doubt: recorded false, P4 unknown.
        leader = self.leader if self.leader in story.members else story.members[0]
        client_records = [r for r in self.records if r["p"] != "observer"] + self.handles
        key_events, why = keys.key_events(self.observed, client_records, LOCK_PATH, "lock", leader)
        processes = ([{"name": c.name, "kind": "client", "clock": "monotonic"} for c in story.clients]
                     + [{"name": m, "kind": "store", "clock": "monotonic"} for m in story.members]
                     + [{"name": "storage", "kind": "resource", "clock": "monotonic"}])
        source = (f"tests/real_zookeeper: {story.name}:{story.variant} rep {self.rep}, "
                  "ZooKeeper 3.8.0 ensemble, Curator 5.4.0 InterProcessMutex")
        if why:
            source += f" (the lock's owner changes are not recorded: {why})"
        masters = [None if m == leader else leader for m in story.members]
        head = history.header(source=source, processes=processes, nodes=list(story.members), key="lock",
                              recorded=why is None, app=story.app, faults=list(story.faults), masters=masters)
        # One replicated state: whichever member leads speaks for it (docs/history.md).
        head["service"]["replicated_state"] = True
        lines = history.merge(head, self.records + resource.records + key_events, end_t, end_t)
        errors = history.validate(lines)
        with open(out_path, "w") as f:
            f.write(history.dumps(lines))
        with open(out_path + ".states.json", "w") as f:
            json.dump(self.states, f)
        with open(out_path + ".observer.jsonl", "w") as f:   # keys.py's input, beside what it made
            f.write("".join(json.dumps(r) + "\n" for r in self.observed + self.handles))
        return {"path": out_path, "errors": errors, "problems": self.problems, "states": self.states,
                "keys_left_out": why,
                "widths": list({e["change"]: e["t_latest"] - e["t"] for e in key_events}.values())}
