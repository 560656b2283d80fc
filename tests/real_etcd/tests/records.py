"""Hand-written real-run records for the judge's tests, in seconds from t0."""

S = 1_000_000_000
T0 = 1_000 * S
PREFIX = "/locksim/lock"


class Story:
    """Builds one run's records the way the harness and the driver write them."""

    def __init__(self, clients=("c1", "c2"), app="counter", ttl_s=10):
        self.records = []
        self.ttl_s = ttl_s
        self.seq = 0
        self.counter = 0
        self.increments = 0
        self.store_events = []   # (commit instant, order, record): revisions are given in commit order
        self.add("driver", "run", -1, t0_ns=T0, experiment="partitioned-holder", variant="base", rep=1,
                 prefix=PREFIX, clients=list(clients), app=app, ttl_s=ttl_s)
        self.add("driver", "cluster", -2, members={m: {"client": f"127.0.0.1:{2379 + 10 * i}", "peer_port": 2380 + 10 * i}
                                                   for i, m in enumerate(("s1", "s2", "s3"))}, leader="s1")
        self.add("observer", "ready", -0.5, prefix=PREFIX + "/", revision=1)

    def add(self, proc, event, at_s, **fields):
        rec = {"t_ns": T0 + int(round(at_s * S)), "proc": proc, "event": event, **fields}
        self.records.append(rec)
        return rec

    def lease(self, client, at_s, lease=None):
        """The lease granted at at_s and its keepalive started (deadline: 6 s, DialTimeout + 1 s, until a reply)."""
        lease = lease or {"c1": "aa", "c2": "bb", "c3": "cc"}[client]
        self.add(client, "lease-invoke", at_s, ttl_s=self.ttl_s)
        self.add(client, "lease", at_s, lease=lease, ttl_s=self.ttl_s)
        self.add(client, "keepalive-start", at_s, lease=lease, deadline_ns=T0 + int(round((at_s + 6) * S)))
        self.add(client, "lock-invoke", at_s, lease=lease, key=f"{PREFIX}/{lease}")
        return lease

    def keepalive(self, client, at_s, ttl_s=None):
        self.add(client, "keepalive", at_s, lease=self._lease(client), ttl_s=self.ttl_s if ttl_s is None else ttl_s)

    def _lease(self, client):
        return next(r["lease"] for r in self.records if r["proc"] == client and r["event"] == "lease")

    def key(self, client):
        return f"{PREFIX}/{self._lease(client)}"

    def put(self, client, at_s, commit_s=None):
        """The observer sees the client's key created at at_s (committed at commit_s, default just before)."""
        self._store(commit_s if commit_s is not None else at_s - 0.0005,
                    self.add("observer", "put", at_s, key=self.key(client), lease=self._lease(client)))

    def delete(self, client, at_s, commit_s=None):
        self._store(commit_s if commit_s is not None else at_s - 0.0005,
                    self.add("observer", "delete", at_s, key=self.key(client), lease=self._lease(client)))

    def ladder(self, sent_s, replied_s):
        """A ladder put sent and answered at these instants (committed half way)."""
        self._store((sent_s + replied_s) / 2,
                    self.add("observer", "ladder", replied_s, sent_ns=T0 + int(round(sent_s * S))))

    def _store(self, commit_s, rec):
        self.store_events.append((commit_s, len(self.store_events), rec))

    def grant(self, client, at_s):
        self.add(client, "grant", at_s, lease=self._lease(client), key=self.key(client))

    def unlock(self, client, at_s, ok_at_s=None):
        self.add(client, "unlock-invoke", at_s, lease=self._lease(client), key=self.key(client))
        if ok_at_s is not None:
            self.add(client, "unlock", ok_at_s, lease=self._lease(client), ok=True)

    def check_failed(self, client, at_s):
        self.add(client, "check", at_s, ok=False)
        self.add(client, "belief-end", at_s, lease=self._lease(client), reason="done-closed")

    def op(self, client, op, at_s, accepted=True, value=None):
        self.seq += 1
        if accepted and op == "write":
            self.counter = self.counter + 1 if value is None else value
            self.increments += 1
        self.add("resource", "op", at_s, client=client, session=self._lease(client), token=0, op=op,
                 value=value or 0, accepted=accepted, reason="" if accepted else "stale-token",
                 counter=self.counter, increments=self.increments, seq=self.seq)

    def kill(self, client, at_s):
        self.add("driver", "signal", at_s, target=client, signal="SIGKILL", sent=True, why="test")

    def end(self, at_s):
        created = {}
        for revision, (_, _, rec) in enumerate(sorted(self.store_events, key=lambda e: e[:2]), start=2):
            rec["revision"] = revision
            if rec["event"] == "put":
                created[rec["key"]] = revision
        for _, _, rec in self.store_events:
            if rec["event"] in ("put", "delete"):
                rec["create_revision"] = created[rec["key"]]
        self.add("driver", "end", at_s)
        self.add("resource", "final", at_s, counter=self.counter, increments=self.increments)
        self.records.sort(key=lambda r: r["t_ns"])
        return self.records
