"""A redis-server whose wall clock steps (an NTP step, `date -s`), and how its
times are put back on the common clock.

The server runs under the vDSO clock shim (tests/real_etcd/vdso_clock_shim.c,
built as liblocksim_vdso_clock_shim.so): LD_PRELOAD with
LOCKSIM_WALL_OFFSET_FILE, an 8-byte int64 nanosecond offset added to
CLOCK_REALTIME (gettimeofday, clock_gettime, time) on every call, read from a
MAP_SHARED mapping; the driver steps the clock by storing a new value. Redis
judges key expiry by that clock (db.c keyIsExpired), and MONITOR stamps each
command with it.

So the key tracker (keyevents.py) is fed the server's own shifted readings,
and its expiry arithmetic (set time + PX, compared with later commands' times)
is done on the server's clock, as Redis does it. Only when an event is put on
the common clock is the offset taken off — the offset in force when it
happened:

- a command's time: the common instant at which the shifted clock read that
  value. After a backward step a reading occurs twice; MONITOR's order
  decides (the first such instant not before the previous event's);
- an expiry: the first instant at which the shifted clock reads at least the
  key's expiry time. A forward step past it expires the key at the step.
"""
import os

from wall_offset import WallOffset

from .redis_node import RedisNode


class WallSteps:
    """A wall clock = the machine's + an offset that steps at known common instants.

    base_ns(): machine wall minus common t (t relative to t0), so that the
    shifted clock reads t + base + offset(t). steps: [(t_from, offset_ns)]."""

    def __init__(self, base_ns):
        self._base = base_ns
        self.steps: list[tuple[int, int]] = [(-(1 << 62), 0)]

    def step(self, t: int, offset_ns: int) -> None:
        self.steps.append((t, offset_ns))

    def offset_now(self) -> int:
        return self.steps[-1][1]

    def _segments(self):
        for i, (start, offset) in enumerate(self.steps):
            end = self.steps[i + 1][0] if i + 1 < len(self.steps) else 1 << 62
            yield start, end, offset

    def to_common(self, wall_ns: int, not_before: int) -> int:
        """The common t at which the shifted clock read wall_ns (the first such t >= not_before)."""
        candidates = []
        for start, end, offset in self._segments():
            t = wall_ns - self._base() - offset
            if start <= t < end:
                candidates.append(t)
        later = [t for t in candidates if t >= not_before]
        if later:
            return min(later)
        # None: a reading a forward step jumped over (a command racing the step): at the step.
        return max(candidates) if candidates else self.first_reach(wall_ns)

    def first_reach(self, wall_ns: int) -> int:
        """The first common t at which the shifted clock reads wall_ns or later."""
        for start, end, offset in self._segments():
            t = max(start, wall_ns - self._base() - offset)
            if t < end:
                return t
        raise AssertionError("the last segment never ends")


class ShiftedRedisNode(RedisNode):
    """A RedisNode under the clock shim: its events mapped back through its WallSteps."""

    def __init__(self, name: str, key: str, workdir: str, t0_ref, wall_minus_mono_ns: int, shim: str,
                 persistence: str = "none"):
        self.clock_file = WallOffset(os.path.join(workdir, f"{name}.wall-offset-ns"))
        self.wall = WallSteps(lambda: wall_minus_mono_ns + t0_ref())
        self._last_t = -(1 << 62)
        env = dict(os.environ, LD_PRELOAD=shim, LOCKSIM_WALL_OFFSET_FILE=self.clock_file.path)
        super().__init__(name, key, workdir, t0_ref, wall_minus_mono_ns, env=env, persistence=persistence)

    def step_clock(self, t: int, offset_ns: int) -> None:
        """Stores the new offset; t is the common instant it took effect (read just after the store)."""
        self.clock_file.store(offset_ns)
        self.wall.step(t, offset_ns)

    def _emit(self, kind: str, wall_ns: int, fields: dict) -> None:
        if fields.get("reason") == "expired":
            t = self.wall.first_reach(wall_ns)
        else:
            t = self.wall.to_common(wall_ns, self._last_t)
        self._last_t = max(self._last_t, t)
        self.records.append({"t": t, "p": self.name, "local": wall_ns, "type": kind,
                             "key": self.tracker.key, **fields})

    def _server_wall_now(self) -> int:
        return super()._server_wall_now() + self.wall.offset_now()

    def close(self, end_wall_ns: int) -> None:
        """end_wall_ns is the machine's: the server's own clock reads it plus the offset."""
        super().close(end_wall_ns + self.wall.offset_now())
        self.clock_file.close()
