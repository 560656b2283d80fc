#!/usr/bin/env bash
# Starts a redis-server of our own on a free port with the test's wall clock
# preloaded (wall_clock_shim.c), runs the differential test against it
# (locksim_redis_diff), and stops that server — only that one — however the
# test ends.
# Usage: tests/redis_diff/run.sh BINARY SHIM.so [--seed S] [--sequences N] [--commands M]
set -euo pipefail
binary=$1
shim=$(realpath "$2")
shift 2
if ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null; then
  echo "redis-diff: needs redis-server and redis-cli (scripts/setup installs them)" >&2
  exit 2
fi
work=$(mktemp -d /tmp/locksim-redis-diff.XXXXXX)
server_pid=
cleanup() {
  if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# The server's wall clock: nanoseconds since 1970 in 8 bytes, 2001-09-09 to
# start with (differential.cc, kEpochMs); the test moves it between commands. Its monotonic clock is the
# kernel's (timers, the expiry cycle's pace).
/usr/bin/python3 -c 'import struct, sys; open(sys.argv[1], "wb").write(struct.pack("<q", 1000000000 * 10**9))' \
  "$work/clock"
LD_PRELOAD="$shim" LOCKSIM_WALL_CLOCK_FILE="$work/clock" \
  redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" \
  --daemonize no --logfile "$work/redis.log" &
server_pid=$!
for _ in $(seq 100); do
  if redis-cli -p "$port" PING >/dev/null 2>&1; then break; fi
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "redis-diff: redis-server did not start:" >&2; cat "$work/redis.log" >&2; exit 2
  fi
  sleep 0.1
done
"$binary" --port "$port" --clock-file "$work/clock" "$@"
