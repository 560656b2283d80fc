// The binary's allocator: mimalloc (Debian's libmimalloc-dev) behind every
// C++ new and delete, when the build links it (LOCKSIM_MIMALLOC, on by
// default; off with the sanitizers, whose own allocator must see every
// allocation).
//
// Why: a run builds and tears down a world of a few hundred small objects —
// processes, their tables, the history — on the sweep's worker threads.
// glibc's malloc spent about a tenth of a sweep's instructions on them;
// mimalloc's per-thread free lists take a fraction of that, and no worker
// waits on another's allocation, which --threads scaling needs. Removing the
// allocations (a world reset in place between seeds) would be better still;
// this is the part a well-kept library does for us today. Results cannot
// change: nothing in a run depends on where an object lives (the golden
// files and byte-compared sweep CSVs check it).
#include "sim/cli/allocator.h"

#include <string>

#ifdef LOCKSIM_MIMALLOC
#include <mimalloc-new-delete.h>
#include <mimalloc.h>
#endif

namespace locksim {

std::string allocator_description() {
#ifdef LOCKSIM_MIMALLOC
  // The version built against: MI_MALLOC_VERSION packs one digit each of
  // major, minor and patch (Debian 12's 2.0.9 is 209).
  constexpr int v = MI_MALLOC_VERSION;
  return "mimalloc " + std::to_string(v / 100) + "." + std::to_string(v / 10 % 10) + "." + std::to_string(v % 10);
#else
  return "the C library's malloc";
#endif
}

}  // namespace locksim
