// Redlock's own knobs, apart from the client so the scenario spec can hold
// them without the client's headers.
#pragma once

#include "sim/core/time.h"
#include "sim/lock/styles.h"

namespace locksim {

// Redlock's own knobs, the keys of [redlock]: its key table reads them into
// this struct and takes its defaults from here, so they are written once.
struct RedlockKnobs {
  bool parallel = false;  // requests: one node after another (the page), or all at once (most clients)
  Duration node_timeout = std::chrono::milliseconds(50);
  bool check_validity = true;  // false: Kleppmann's naive client, no TTL - elapsed - drift > 0 check
  // node-redlock's known bug (issues #169, #296): with retries, the lease end
  // is computed from the FIRST attempt's start, so acquire can return a lock
  // that has already expired.
  bool first_attempt_expiry = false;
  // node-redlock v5: with parallel requests, end the round as soon as a quorum
  // has said OK or can no longer (too many refusals and timeouts), instead of
  // waiting for every node's reply or timeout (v4, redlock-rb, redlock-py).
  bool return_early = false;
  // What a failed attempt costs: releases sent, awaited, or kept for the end.
  FailedAttemptCleanup cleanup = FailedAttemptCleanup::send;
};

}  // namespace locksim
