"""The real-etcd referee: catalogue stories run against a real etcd cluster, judged, compared with locksim.

docs/real-etcd.md explains the whole; each module opens with its own job.
"""
