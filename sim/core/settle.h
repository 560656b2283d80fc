// settle(x): x is stored to memory at this point, rather than kept in
// registers until the moment it is copied.
//
// Why: a struct written field by field and copied whole moments later makes
// the copy's 16-byte loads span stores still in the store buffer, which
// cannot be forwarded from it: each load waits until they reach the cache
// (docs/benchmarks.md, "Copies the store buffer cannot forward"). GCC likes
// to keep a message's fields in registers across the calls a model makes
// before it sends, and to store them just before the copy. Where there is
// such work to do, settling the message before it lets the stores drain
// meanwhile.
// (A message built and sent at once is better built in its slot:
// Process::send_built, which copies nothing.)
//
// It emits no instruction: an empty asm statement that reads |object| only
// stops the compiler from sinking the stores past it.
#pragma once

namespace locksim {

template <class T>
inline void settle(const T& object) {
  asm volatile("" : : "m"(object));
}

}  // namespace locksim
