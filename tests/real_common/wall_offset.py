"""The vDSO clock shim's offset file, as both referees write it
(tests/real_etcd/vdso_clock_shim.c reads it): 8 bytes, a signed int64 count
of nanoseconds in native byte order, which the shim maps MAP_SHARED and reads
with one atomic load per clock call. A step is one aligned 8-byte store into
the same mapping, so a running process sees it at its next clock read and
never a half-written value."""
import ctypes
import mmap


class WallOffset:
    def __init__(self, path: str):
        self.path = path
        with open(path, "wb") as f:
            f.write(b"\0" * 8)
        self._file = open(path, "r+b")
        self._map = mmap.mmap(self._file.fileno(), 8)
        self._value = ctypes.c_int64.from_buffer(self._map)

    @property
    def offset_ns(self) -> int:
        return self._value.value

    def store(self, offset_ns: int) -> None:
        self._value.value = offset_ns

    def step(self, delta_ns: int) -> int:
        """Moves the clock by delta_ns; returns the new offset."""
        self._value.value = self._value.value + delta_ns
        return self._value.value

    def close(self) -> None:
        del self._value      # the mapping cannot close while a ctypes view holds it
        self._map.close()
        self._file.close()
