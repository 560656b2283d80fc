"""How close a story came to breaking: time gaps between what the store did and what clients believed.

Each magnitude is a function of facts.Facts and the experiment's roles
(holder, waiter), in nanoseconds, or None when the run has no such gap (the
waiter was never granted, the holder never wrote after the grant…). The same
functions measure real repetitions and simulated seeds (facts.py reduces
both to the same facts). One difference stays: a real key deletion is the
instant the observer's watch delivered it, a simulated one the instant the
leader applied it — the real one is later by a watch delivery (about a
millisecond on loopback).
"""
from .facts import Facts


def _pair(f: Facts, roles):
    return f.get(roles["holder"]), f.get(roles["waiter"])


def waiter_grant_after_holder_last_renewal(f, roles):
    h, w = _pair(f, roles)
    if not h or not w or w.grant_ns is None:
        return None
    last = h.last_renewal(w.grant_ns)
    return None if last is None else w.grant_ns - last


def waiter_grant_after_promise_end(f, roles):
    h, w = _pair(f, roles)
    if not h or not w or w.grant_ns is None:
        return None
    end = h.promise_end(w.grant_ns)
    return None if end is None else w.grant_ns - end


def holder_done_after_last_renewal(f, roles):
    h, _ = _pair(f, roles)
    if not h or h.done_ns is None or h.last_renewal(h.done_ns) is None:
        return None
    return h.done_ns - h.last_renewal(h.done_ns)


def holder_done_after_promise_end(f, roles):
    h, _ = _pair(f, roles)
    if not h or h.done_ns is None or h.promise_end(h.done_ns) is None:
        return None
    return h.done_ns - h.promise_end(h.done_ns)


def holder_belief_end_after_last_renewal(f, roles):
    h, _ = _pair(f, roles)
    if not h or h.belief_end_ns is None or h.last_renewal(h.belief_end_ns) is None:
        return None
    return h.belief_end_ns - h.last_renewal(h.belief_end_ns)


def holder_belief_end_after_promise_end(f, roles):
    h, _ = _pair(f, roles)
    if not h or h.belief_end_ns is None or h.promise_end(h.belief_end_ns) is None:
        return None
    return h.belief_end_ns - h.promise_end(h.belief_end_ns)


def holder_last_write_after_waiter_grant(f, roles):
    h, w = _pair(f, roles)
    if not h or not w or w.grant_ns is None or not h.writes:
        return None
    return max(h.writes) - w.grant_ns


def holder_key_deleted_after_promise_end(f, roles):
    h, _ = _pair(f, roles)
    if not h or h.key_deleted_ns is None:
        return None
    end = h.promise_end(h.key_deleted_ns)
    return None if end is None else h.key_deleted_ns - end


def waiter_grant_after_holder_release(f, roles):
    h, w = _pair(f, roles)
    if not h or not w or w.grant_ns is None or h.release_ns is None:
        return None
    return w.grant_ns - h.release_ns


def waiter_grant_after_holder_grant(f, roles):
    h, w = _pair(f, roles)
    if not h or not w or w.grant_ns is None or h.grant_ns is None:
        return None
    return w.grant_ns - h.grant_ns


def waiter_grant_after_own_key_deleted(f, roles):
    _, w = _pair(f, roles)
    if not w or w.grant_ns is None or w.key_deleted_ns is None:
        return None
    return w.grant_ns - w.key_deleted_ns


def belief_overlap(f, roles):
    h, w = _pair(f, roles)
    if not h or not w or h.grant_ns is None or w.grant_ns is None:
        return None
    return min(h.belief_end_ns, w.belief_end_ns) - max(h.grant_ns, w.grant_ns)


def holder_longest_renewal_gap(f, roles):
    h, _ = _pair(f, roles)
    if not h or h.grant_ns is None:
        return None
    until = h.release_ns if h.release_ns is not None else h.belief_end_ns
    times = [t for t in h.replies if t <= until]
    if len(times) < 2:
        return None
    return max(b - a for a, b in zip(times, times[1:]))


def election_after_leader_crash(f, roles):
    if f.leader_crash_ns is None or f.elected_ns is None:
        return None
    return f.elected_ns - f.leader_crash_ns


def sessions_granted(f, roles):
    """A count, not a time."""
    return sum(1 for s in f.sessions.values() if s.grant_ns is not None)


def longest_grant_wait(f, roles):
    waits = [s.grant_ns - s.want_ns for s in f.sessions.values() if s.grant_ns is not None and s.want_ns is not None]
    return max(waits) if waits else None


def longest_handover(f, roles):
    """The longest time from an Unlock call to the next grant, where that session was already waiting
    (its want before the Unlock call: a lock hand-over, not a lock left idle while everyone thinks)."""
    granted = sorted((s for s in f.sessions.values() if s.grant_ns is not None), key=lambda s: s.grant_ns)
    gaps = [b.grant_ns - a.release_ns for a, b in zip(granted, granted[1:])
            if a.release_ns is not None and a.release_ns <= b.grant_ns
            and b.want_ns is not None and b.want_ns <= a.release_ns]
    return max(gaps) if gaps else None


def final_stock(f, roles):
    """A count: the stock at rest."""
    return f.final_stock


def stale_rejections(f, roles):
    """A count: ops refused as stale-token."""
    return f.stale_rejections


def waiter_grant_after_holder_key_deleted(f, roles):
    h, w = _pair(f, roles)
    if not h or not w or w.grant_ns is None or h.key_deleted_ns is None:
        return None
    return w.grant_ns - h.key_deleted_ns


def third_grant_after_waiter_key_deleted(f, roles):
    """The next hand-over of a story with a third client (roles["third"]): its grant after the waiter's key went."""
    w, t = f.get(roles["waiter"]), f.get(roles.get("third", ""))
    if not w or not t or t.grant_ns is None or w.key_deleted_ns is None:
        return None
    return t.grant_ns - w.key_deleted_ns


COUNTS = {"sessions_granted", "final_stock", "stale_rejections"}   # shown as numbers, not seconds

# name -> (function, the table's label with {holder}/{waiter})
ALL = {
    "waiter_grant_after_holder_last_renewal": (waiter_grant_after_holder_last_renewal,
                                               "{waiter} grant − {holder} last keepalive reply"),
    "waiter_grant_after_promise_end": (waiter_grant_after_promise_end,
                                       "{waiter} grant − {holder} deadline (promise end)"),
    "holder_done_after_last_renewal": (holder_done_after_last_renewal,
                                       "{holder} Done() closed − its last keepalive reply"),
    "holder_done_after_promise_end": (holder_done_after_promise_end,
                                      "{holder} Done() closed − its deadline"),
    "holder_belief_end_after_last_renewal": (holder_belief_end_after_last_renewal,
                                             "{holder} belief end − its last keepalive reply"),
    "holder_belief_end_after_promise_end": (holder_belief_end_after_promise_end,
                                            "{holder} belief end − its deadline"),
    "holder_last_write_after_waiter_grant": (holder_last_write_after_waiter_grant,
                                             "{holder} last accepted write − {waiter} grant"),
    "holder_key_deleted_after_promise_end": (holder_key_deleted_after_promise_end,
                                             "{holder} key deleted − {holder} deadline"),
    "waiter_grant_after_holder_release": (waiter_grant_after_holder_release,
                                          "{waiter} grant − {holder} Unlock call"),
    "waiter_grant_after_holder_grant": (waiter_grant_after_holder_grant, "{waiter} grant − {holder} grant"),
    "waiter_grant_after_own_key_deleted": (waiter_grant_after_own_key_deleted,
                                           "{waiter} grant − its own key's deletion"),
    "belief_overlap": (belief_overlap, "{holder} and {waiter} believing together (overlap; < 0: gap)"),
    "holder_longest_renewal_gap": (holder_longest_renewal_gap, "{holder} longest gap between keepalive replies"),
    "election_after_leader_crash": (election_after_leader_crash,
                                    "new leader known − leader crash (real: polled)"),
    "sessions_granted": (sessions_granted, "sessions granted (count)"),
    "longest_grant_wait": (longest_grant_wait, "longest wait for a grant (want − grant)"),
    "longest_handover": (longest_handover, "longest Unlock call − waiting client's grant"),
    "final_stock": (final_stock, "stock at rest (count)"),
    "stale_rejections": (stale_rejections, "ops refused stale-token (count)"),
    "waiter_grant_after_holder_key_deleted": (waiter_grant_after_holder_key_deleted,
                                              "{waiter} grant − {holder} key deleted (lease expiry)"),
    "third_grant_after_waiter_key_deleted": (third_grant_after_waiter_key_deleted,
                                             "{third} grant − {waiter} key deleted (lease expiry)"),
}


def measure(f: Facts, names, roles) -> dict:
    return {name: ALL[name][0](f, roles) for name in names}


def label(name: str, roles) -> str:
    return ALL[name][1].format(**roles)
