"""Hand-written records for the last two catalogue rows: a client that locks
again under its one lease (no-faults-consensus), and the stock of the
oversell incident, at the resource and kept in etcd (txn-guarded). Times
are seconds from t0, as in records.py."""
from records import S, T0, Story


class Cycles(Story):
    """records.Story with cycles: each grant its own session, records tagged with their iteration."""

    def cycle(self, client, iteration, lock_s, grant_s, unlock_s, revisions, ops=()):
        """One cycle; revisions: (its put's, its delete's), in the order the store committed them."""
        revision, deleted = revisions
        lease = self._lease(client)
        session = lease if iteration == 0 else f"{lease}.{iteration + 1}"
        key = self.key(client)
        self.add(client, "lock-invoke", lock_s, lease=lease, key=key, iteration=iteration)
        self.add("observer", "put", lock_s + 0.001, key=key, lease=lease, revision=revision, create_revision=revision)
        self.add(client, "grant", grant_s, lease=lease, key=key, iteration=iteration, session=session)
        self.add(client, "token", grant_s + 0.001, lease=lease, key_present=True, create_revision=revision,
                 iteration=iteration, session=session)
        for op, at_s in ops:
            self.session_op(client, session, op, at_s)
        self.add(client, "unlock-invoke", unlock_s, lease=lease, key=key, iteration=iteration, session=session)
        self.add("observer", "delete", unlock_s + 0.001, key=key, lease=lease, revision=deleted,
                 create_revision=revision)
        self.add(client, "unlock", unlock_s + 0.002, lease=lease, ok=True, iteration=iteration, session=session)
        # The lease outlived the deletion: an Unlock's, after its call (judge.StoreHistory's lower bound).
        self.add("observer", "lease-status", unlock_s + 0.003, lease=lease, delete_revision=deleted, alive=True)
        return session

    def session_op(self, client, session, op, at_s):
        self.seq += 1
        if op == "write":
            self.counter += 1
            self.increments += 1
        self.add("resource", "op", at_s, client=client, session=session, token=0, op=op, value=0, accepted=True,
                 reason="", counter=self.counter, increments=self.increments, seq=self.seq)

    def finish(self, at_s):
        self.add("driver", "end", at_s)
        self.add("resource", "final", at_s, counter=self.counter, increments=self.increments)
        self.records.sort(key=lambda r: r["t_ns"])
        return self.records


def two_cycles_of_c1_around_c2():
    """c1 locks, c2 locks, c1 locks again under its first lease: three sessions, each read then write."""
    st = Cycles()
    st.lease("c1", 0.0)
    st.lease("c2", 0.0)
    st.cycle("c1", 0, 0.001, 0.003, 0.050, (2, 4), ops=(("read", 0.010), ("write", 0.040)))
    st.cycle("c2", 0, 0.004, 0.060, 0.100, (3, 5), ops=(("read", 0.065), ("write", 0.090)))
    st.cycle("c1", 1, 0.150, 0.155, 0.200, (6, 7), ops=(("read", 0.160), ("write", 0.190)))
    return st


def c1_resumes_its_first_session_after_c2():
    """The same, but c1's first session writes after c2's: a resumption (P3) across sessions of one lease."""
    st = two_cycles_of_c1_around_c2()
    st.session_op("c1", st._lease("c1"), "write", 0.095)
    return st


def _buyers(app="stock"):
    st = Story(clients=("c1", "c2", "c3"), app=app)
    st.records[0]["initial_stock"] = 1
    st.records[0]["experiment"] = "oversell-incident-etcd"
    for i, c in enumerate(("c1", "c2", "c3")):
        st.lease(c, 0.1 * i)
    st.grant("c1", 0.01)
    st.add("c1", "token", 0.011, lease="aa", key_present=True, create_revision=2)
    st.grant("c2", 10.2)
    st.add("c2", "token", 10.201, lease="bb", key_present=True, create_revision=3)
    st.grant("c3", 20.6)
    st.add("c3", "token", 20.601, lease="cc", key_present=True, create_revision=4)
    return st


def stock_oversold(initial=1):
    """The base story at the resource: all three read the one unit at 30 s, then each sells it."""
    st = _buyers()
    stock, seq = initial, 0
    plan = [("c1", "read"), ("c2", "read"), ("c3", "read"), ("c1", "decrement"), ("c2", "decrement"),
            ("c3", "decrement")]
    for i, (c, op) in enumerate(plan):
        seq += 1
        if op == "decrement":
            stock -= 1
        st.add("resource", "op", 30.01 + 0.002 * i, client=c, session=st._lease(c), token=0, op=op, value=0,
               accepted=True, reason="", counter=stock, increments=initial - stock, stock=stock, seq=seq)
    for i, c in enumerate(("c1", "c2", "c3")):
        st.unlock(c, 30.03 + 0.001 * i, ok_at_s=30.035 + 0.001 * i)
    st.add("driver", "end", 31)
    st.add("resource", "final", 31, counter=stock, increments=initial - stock, stock=stock)
    st.records.sort(key=lambda r: r["t_ns"])
    return st.records


def stock_in_etcd(final=True, read_order=("c1", "c2", "c3"), call_s=0.001):
    """txn-guarded: the buyers' Gets and Txns, decided by the leader; c1's and c2's keys are gone by 30 s.
    read_order: the order of the reads' replies, each call_s before its reply (calls that overlap: the
    leader's order of the reads is not known)."""
    st = _buyers()
    st.add("observer", "put", 0.005, key=st.key("c1"), lease="aa", revision=2, create_revision=2)
    st.add("observer", "put", 0.105, key=st.key("c2"), lease="bb", revision=3, create_revision=3)
    st.add("observer", "put", 0.205, key=st.key("c3"), lease="cc", revision=4, create_revision=4)
    st.add("observer", "delete", 10.15, key=st.key("c1"), lease="aa", revision=5, create_revision=2)
    st.add("observer", "delete", 20.55, key=st.key("c2"), lease="bb", revision=6, create_revision=3)
    ops = [(c, "read", True, 1, 6) for c in read_order]
    ops += [("c1", "decrement", False, 1, 6), ("c2", "decrement", False, 1, 6), ("c3", "decrement", True, 0, 7)]
    for i, (c, op, ok, value, revision) in enumerate(ops):
        at = 30.01 + 0.002 * i
        called = at - (call_s if op == "read" else 0.001)
        st.add(c, "store-op", at, client=c, op=op, invoke_ns=T0 + int(called * S), token={"c1": 2, "c2": 3, "c3": 4}[c],
               store=True, accepted=ok, reason="" if ok else "stale-token", value=value, revision=revision,
               session=st._lease(c), iteration=0)
    st.add("driver", "end", 31)
    if final:
        st.add("observer", "stock-final", 31, key="/locksim/stock", stock=0, revision=7)
    st.records.sort(key=lambda r: r["t_ns"])
    return st.records
