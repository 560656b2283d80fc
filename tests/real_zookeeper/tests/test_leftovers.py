"""A SIGTERM of the driver midway (c1's JVM SIGSTOPped, the ensemble and
the observer running) stops every process it started, and it exits 2."""
import leftovers
from procs_check import MARKERS, RUN


def test_sigterm_midway_leaves_no_process():
    # Three servers, the observer and two clients, then past t0 (15 s after the clients start): c1 paused.
    leftovers.sigterm_midway(RUN, MARKERS, processes=6, wait_s=60, settle_s=18.0)
