#include "sim/core/event_queue.h"

#include <utility>

namespace locksim {

// Both directions move a hole instead of swapping: the moving event is
// written once, where it lands, and each level costs one copy, not three.

void EventQueue::push(const Event& ev) {
  heap_.push_back(ev);
  std::size_t hole = heap_.size() - 1;
  while (hole > 0) {
    const std::size_t parent = (hole - 1) / kArity;
    if (!before(ev, heap_[parent])) break;
    heap_[hole] = heap_[parent];
    hole = parent;
  }
  heap_[hole] = ev;
}

Event EventQueue::pop() {
  const Event result = heap_.front();
  const Event last = heap_.back();
  heap_.pop_back();
  const std::size_t n = heap_.size();
  if (n == 0) return result;
  std::size_t hole = 0;
  for (;;) {
    const std::size_t first = kArity * hole + 1;
    if (first >= n) break;
    const std::size_t end = first + kArity < n ? first + kArity : n;
    std::size_t smallest = first;
    for (std::size_t c = first + 1; c < end; ++c)
      if (before(heap_[c], heap_[smallest])) smallest = c;
    if (!before(heap_[smallest], last)) break;
    heap_[hole] = heap_[smallest];
    hole = smallest;
  }
  heap_[hole] = last;
  return result;
}

}  // namespace locksim
