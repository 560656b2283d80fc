"""The real-Redis referee: catalogue stories run for real against redis-server
and node-redlock, written as locksim-history/1 files (docs/history.md), judged
by `locksim check` and compared with `locksim run` (docs/real-redis.md)."""
