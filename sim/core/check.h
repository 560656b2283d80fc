// Always-on assertions for programmer mistakes (TigerBeetle's habit): a broken
// invariant stops the run loudly in release builds too. Bad input and
// simulated faults are never asserted: they are errors or outcomes.
#pragma once

#include <cstdio>
#include <cstdlib>

#define LOCKSIM_CHECK(cond, msg)                                                                   \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::fprintf(stderr, "locksim: internal error at %s:%d: %s (%s)\n", __FILE__, __LINE__, msg, \
                   #cond);                                                                         \
      std::abort();                                                                                \
    }                                                                                              \
  } while (0)
