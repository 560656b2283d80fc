"""The lock's owner changes, from the observer's records (java/locksim/ZkObserver.java), as the
history's numbered key events (docs/history.md, "Key events known only within a range").

Curator's InterProcessMutex owns the lock with the child of the lock path whose sequence
suffix is lowest (StandardLockInternalsDriver sorts on the text after "lock-"), so the lock
changes owner when that child is deleted (a release, or its session's expiry) or when a child
is created while there is none. The observer cannot see those changes as they commit; it
sees two kinds of facts, and this module only combines them:

  by zxid     two consecutive listings of the children: every child change between them has
              a zxid in (pzxid before, pzxid after]; a creation's is exactly the child's
              czxid; a lone deletion (nothing else at the new pzxid, nothing unseen) is
              exactly the new pzxid. cversion (which counts child changes) says how many
              children came and went unseen between the listings: a sequence number is the
              parent's cversion at creation, so those were all above every child listed before.
  by time     the zxid ladder: a change with zxid in [zlo, zhi] committed after the `sent`
              of every ladder write below zlo and before the reply of every ladder write above
              zhi; each step then reads the lock path's pzxid P on the same session (its state
              includes the write): a change above P is above the step's zxid, one at or below
              P committed before that read's reply. And the clients' own records: a node is
              made after its client invoked the acquire it was granted by (Curator's
              attemptLock makes it), owns the lock before that client's `grant` (Curator
              returns only once getChildren showed it lowest), and is gone before its client's
              release `complete`s ok (a guaranteed delete returns once it is gone, NoNode
              included) — and went after that release's `invoke` when the release returned
              on the session that owns the node (deleted_by_release).

Where the listings allow more than one sequence of owners (two nodes that could each have
owned the lock went between two listings, and no grant says the higher one did own it; or a
node came and went unseen while none was held), or a change's instant is not bounded on both
sides, the keys are left out and the reason is given: never a guessed instant. `change` is a
running index, not the zxid: a deletion's zxid is known only within a range, and the index
carries exactly the order.
"""


class NotBounded(ValueError):
    """The observer's records do not bound the owner changes consistently."""


def _seq(name: str) -> str:
    # Ten zero-padded digits after the last "lock-": compared as text, as Curator sorts them.
    return name[name.rfind("lock-") + len("lock-"):]


def _lowest(names) -> str | None:
    return min(names, key=_seq) if names else None


def _interval(a: dict, b: dict, czxid: dict, owned: set = frozenset()) -> list[tuple]:
    """The owner changes between listings a and b: (zlo, zhi, old owner, new owner), oldest first.
    owned: the nodes known to have owned the lock at some time (their client was granted)."""
    before = {c["name"] for c in a["children"]}
    after = {c["name"] for c in b["children"]}
    gone, new = before - after, after - before
    moves = b["cversion"] - a["cversion"]
    hidden = moves - len(gone) - len(new)
    if hidden < 0:
        raise NotBounded(f"listing at {b['t']}: cversion moved {moves}, fewer than the {len(gone) + len(new)} "
                         "changes seen")
    p1, p2 = a["pzxid"], b["pzxid"]
    o1, o2 = _lowest(before), _lowest(after)
    if o1 == o2:
        if o1 is None and hidden:
            raise NotBounded(f"listing at {b['t']}: a lock node came and went unseen while none was held")
        return []
    if o1 is None or o1 in after:
        if o1 is not None or hidden:
            raise NotBounded(f"listing at {b['t']}: the owner changed from {o1} to {o2} in no way a mutex allows")
        return [(*_created(o2, czxid, p1, p2), None, o2)]
    # The owner's node went. Another node that went and sorts below the next owner may have owned
    # the lock in between — more than one sequence of owners fits the listings — unless its client
    # was granted: then it did own, and owners follow the sequence order (each is lowest in turn).
    maybe = sorted((x for x in gone - {o1} if o2 is None or _seq(x) < _seq(o2)), key=_seq)
    if set(maybe) - owned:
        raise NotBounded(f"listing at {b['t']}: {sorted(set(maybe) - owned)} went with the owner {o1}; "
                         "either may have owned")
    created = {czxid[n] for n in new if czxid.get(n) is not None}
    # pzxid is the last child change: no creation (of a known czxid) there and none unseen: the one deletion.
    exact = not hidden and len(gone) == 1 and len(created) == len(new) and p2 not in created
    dlo, dhi = (p2, p2) if exact else (p1 + 1, p2 - 1 if p2 in created else p2)
    chain = [o1, *maybe]
    passed = [(dlo, dhi, x, y) for x, y in zip(chain, chain[1:])]
    last = chain[-1]
    if o2 is not None and o2 in before:
        return passed + [(dlo, dhi, last, o2)]
    if hidden:
        raise NotBounded(f"listing at {b['t']}: a node came and went unseen after the owner {o1} went")
    if o2 is None:
        return passed + [(dlo, dhi, last, None)]
    clo, chi = _created(o2, czxid, p1, p2)
    if dhi < clo:
        return passed + [(dlo, dhi, last, None), (clo, chi, None, o2)]
    if dlo > chi:
        return passed + [(dlo, dhi, last, o2)]
    raise NotBounded(f"listing at {b['t']}: {last}'s deletion and {o2}'s creation are not ordered by zxid")


def _created(name: str, czxid: dict, p1: int, p2: int) -> tuple[int, int]:
    c = czxid.get(name)
    return (c, c) if c is not None else (p1 + 1, p2)


def owner_changes(listings: list[dict], owned: set = frozenset()) -> list[tuple]:
    """Every owner change the listings show, (zlo, zhi, old, new), in zxid order; owned as _interval's."""
    if not listings:
        raise NotBounded("the observer listed the lock's children no time")
    # The final listing (the observer's shutdown hook) may print before the lister's last one;
    # one session's reads are in the server's order, and cversion only grows.
    listings = sorted(listings, key=lambda r: (r["cversion"], r["pzxid"]))
    first = listings[0]
    if first["cversion"] != 0 or first["children"]:
        raise NotBounded("the observer's first listing came after a lock node was made")
    czxid = {c["name"]: c["czxid"] for r in listings for c in r["children"] if c.get("czxid") is not None}
    changes = []
    for a, b in zip(listings, listings[1:]):
        changes += _interval(a, b, czxid, owned)
    return changes


def _broken(obs: list[dict]) -> str | None:
    """Why the observer's records cannot be trusted to hold every change, or None."""
    if not any(r["type"] == "ready" for r in obs):
        return "the observer never became ready"
    for r in obs:
        if r["type"] == "watch-broken":
            return f"the observer's watch broke at {r['t']} ns ({r['error'][:120]})"
        if r["type"] == "session" and r["state"] != "SyncConnected":
            return f"the observer's session was {r['state']} at {r['t']} ns"
    if not any(r["type"] == "final" for r in obs):
        return "the observer did not make its final listing (a late change may have gone unseen)"
    return None


class Node:
    """What the clients' records say of one lock node (the value of the grant it gave)."""

    def __init__(self):
        self.acquire_invoked = self.granted = self.release_invoked = self.released = None
        self.handle_after_release = None   # the client's ZooKeeper session id once its release returned ok


def client_facts(clients: list[dict]) -> dict[str, Node]:
    """{lock node path: Node} from the clients' records, each client's in its own order."""
    nodes, acquiring, holding = {}, {}, {}
    for r in sorted(clients, key=lambda r: r["t"]):
        kind, p = r.get("type"), r["p"]
        if kind == "invoke" and r.get("kind") == "acquire":
            acquiring[p] = r["t"]
        elif kind == "grant":
            node = nodes.setdefault(r["value"], Node())
            node.granted, node.acquire_invoked = r["t"], acquiring.get(p)
            holding[p] = node
        elif kind == "invoke" and r.get("kind") == "release" and p in holding:
            holding[p].release_invoked = r["t"]
        elif kind == "complete" and r.get("kind") == "release" and r.get("outcome") == "ok" and p in holding:
            holding[p].released = r["t"]
        elif kind == "zk-session" and r.get("after") == "release" and p in holding:
            holding[p].handle_after_release = r["id"]
    return nodes


def deleted_by_release(node: Node | None, owner: str | None) -> bool:
    """Whether the node's own client's release deleted it. Its release returned ok on the session
    that owns the node (its ephemeralOwner): that session was alive when the delete was applied,
    so the node had not gone with it, and nothing but its client deletes a live session's lock
    node: the delete went after the release's invoke."""
    return (node is not None and node.released is not None and owner is not None
            and node.handle_after_release == owner)


def bounds(changes: list[tuple], ladder: list[dict], nodes: dict, owners: dict, path: str) -> list[list]:
    """[lo, hi] in ns for each change: the ladder's, the clients' where sound, then made monotone
    (changes commit in zxid order: a lower bound holds for every later change, an upper one for
    every earlier one)."""
    out = []
    for zlo, zhi, old, new in changes:
        # A step's read of the lock path's pzxid P (ZkObserver.step): a child change above P is
        # above the step's own zxid; one at or below P had committed by the read's reply.
        lo = max((r["sent"] for r in ladder if r["zxid"] < zlo or r.get("pzxid", zlo) < zlo), default=None)
        hi = min([r["t"] for r in ladder if r["zxid"] > zhi]
                 + [r["read"] for r in ladder if r.get("pzxid", -1) >= zhi], default=None)
        gone, came = nodes.get(f"{path}/{old}") if old else None, nodes.get(f"{path}/{new}") if new else None
        # The new owner's node: made by its client's acquire, owning before its grant.
        his = [came.granted] if came else []
        los = [came.acquire_invoked] if came and came.acquire_invoked is not None else []
        # The old owner's node: gone before its release returned ok; after its invoke if it deleted it.
        if gone and gone.released is not None:
            his.append(gone.released)
            if deleted_by_release(gone, owners.get(old)):
                los.append(gone.release_invoked)
        lo = max([x for x in [lo, *los] if x is not None], default=None)
        hi = min([x for x in [hi, *his] if x is not None], default=None)
        out.append([lo, hi])
    for i in range(1, len(out)):
        if out[i - 1][0] is not None and (out[i][0] is None or out[i][0] < out[i - 1][0]):
            out[i][0] = out[i - 1][0]
    for i in range(len(out) - 2, -1, -1):
        if out[i + 1][1] is not None and (out[i][1] is None or out[i][1] > out[i + 1][1]):
            out[i][1] = out[i + 1][1]
    return out


def _reason(node: Node | None, owner: str | None, hi: int) -> str:
    """`deleted` if its client's release deleted it (deleted_by_release), or at least asked to by the
    change's latest instant; else `expired`: nothing but a release or its session's expiry deletes
    an ephemeral lock node."""
    if deleted_by_release(node, owner):
        return "deleted"
    asked = node is not None and node.release_invoked is not None and node.release_invoked <= hi
    return "deleted" if asked else "expired"


def key_events(obs: list[dict], clients: list[dict], path: str, key: str, member: str) -> tuple[list, str | None]:
    """(the key events, None), or ([], why the history leaves the keys out). obs and clients on
    the history's time (t0-relative ns); member records the events (the leader at the start)."""
    try:
        why = _broken(obs)
        if why:
            raise NotBounded(why)
        listings = [r for r in obs if r["type"] == "children"]
        nodes = client_facts(clients)
        owned = {v[len(path) + 1:] for v in nodes if v.startswith(path + "/")}
        changes = owner_changes(listings, owned)
        ladder = [r for r in obs if r["type"] == "ladder"]
        owners = {c["name"]: c["owner"] for r in listings for c in r["children"] if c.get("owner")}
        spans = bounds(changes, ladder, nodes, owners, path)
    except NotBounded as e:
        return [], str(e)
    events = []
    for n, ((zlo, zhi, old, new), (lo, hi)) in enumerate(zip(changes, spans), start=1):
        if lo is None or hi is None or lo > hi:
            return [], f"owner change {n} (zxid {zlo:#x}..{zhi:#x}) is not bounded consistently: [{lo}, {hi}]"
        ranged = {"t": lo, "p": member, "local": lo, "key": key, "t_latest": hi, "change": n}
        if old is not None:
            events.append({**ranged, "type": "key-dropped", "value": f"{path}/{old}",
                           "reason": _reason(nodes.get(f"{path}/{old}"), owners.get(old), hi)})
        if new is not None:
            events.append({**ranged, "type": "key-held", "value": f"{path}/{new}"})
    return events, None
