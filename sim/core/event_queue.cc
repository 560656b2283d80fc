#include "sim/core/event_queue.h"

#include <utility>

namespace locksim {

// Both directions move a hole instead of swapping: the moving event is
// written once, where it lands, and each level costs one copy, not three.

void EventQueue::grow() { heap_.reserve(2 * heap_.capacity() + 8); }

QueuedEvent EventQueue::pop() {
  const QueuedEvent result = top();
  drop_top();
  return result;
}

void EventQueue::drop_heap_top() {
  if (heap_.size() == 1) {
    heap_.pop_back();
    return;
  }
  const QueuedEvent last = heap_.back();
  heap_.pop_back();
  sift_down(0, last);
}

void EventQueue::sift_down(std::size_t hole, QueuedEvent moving) {
  const std::size_t n = heap_.size();
  for (;;) {
    const std::size_t first = kArity * hole + 1;
    if (first >= n) break;
    const std::size_t end = first + kArity < n ? first + kArity : n;
    std::size_t smallest = first;
    for (std::size_t c = first + 1; c < end; ++c)
      if (before(heap_[c], heap_[smallest])) smallest = c;
    if (!before(heap_[smallest], moving)) break;
    heap_[hole] = heap_[smallest];
    hole = smallest;
  }
  heap_[hole] = moving;
}

// Floyd's bottom-up heap construction: sift every parent down, last first.
void EventQueue::rebuild() {
  if (heap_.size() < 2) return;
  for (std::size_t parent = (heap_.size() - 2) / kArity + 1; parent-- > 0;) sift_down(parent, heap_[parent]);
}

}  // namespace locksim
