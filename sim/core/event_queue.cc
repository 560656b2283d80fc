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
  // Read field by field, as push_heap wrote them: the last event is often
  // the one pushed moments ago, and a whole-event copy (two 16-byte loads
  // over five narrower stores still in the store buffer) cannot be
  // forwarded from them. With link-time optimisation and the training
  // profile, that copy held a fifth of World::run's samples in the drift
  // sweep.
  const QueuedEvent& last = heap_.back();
  const TrueTime at = last.at;
  const std::uint64_t seq = last.seq;
  const std::uint32_t target = last.target;
  const std::uint32_t kind = last.kind;
  const std::uint64_t arg = last.arg;
  heap_.pop_back();
  sift_down(0, at, seq, target, kind, arg);
}

void EventQueue::sift_down(std::size_t hole, TrueTime at, std::uint64_t seq, std::uint32_t target,
                           std::uint32_t kind, std::uint64_t arg) {
  const std::size_t n = heap_.size();
  for (;;) {
    const std::size_t first = kArity * hole + 1;
    if (first >= n) break;
    const std::size_t end = first + kArity < n ? first + kArity : n;
    std::size_t smallest = first;
    for (std::size_t c = first + 1; c < end; ++c)
      if (before(heap_[c], heap_[smallest])) smallest = c;
    if (before(at, seq, heap_[smallest])) break;  // no two events share a seq: "not after" is "before"
    heap_[hole] = heap_[smallest];
    hole = smallest;
  }
  write(heap_[hole], at, seq, target, kind, arg);
}

// Floyd's bottom-up heap construction: sift every parent down, last first.
void EventQueue::rebuild() {
  if (heap_.size() < 2) return;
  for (std::size_t parent = (heap_.size() - 2) / kArity + 1; parent-- > 0;) {
    const QueuedEvent& e = heap_[parent];  // its fields are read before sift_down writes the hole
    sift_down(parent, e.at, e.seq, e.target, e.kind, e.arg);
  }
}

}  // namespace locksim
