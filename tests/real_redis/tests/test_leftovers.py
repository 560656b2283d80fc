"""A SIGTERM of the driver midway (a client SIGSTOPped, redis-server
running) stops every process it started, and it exits 2."""
import leftovers
from procs_check import MARKERS, RUN


def test_sigterm_midway_leaves_no_process():
    # One redis-server and two clients; c1 is paused about 2 s after the start.
    leftovers.sigterm_midway(RUN, MARKERS, processes=3, wait_s=20, settle_s=3.0)
