#include "sim/core/event_queue.h"

#include <utility>

namespace locksim {

void EventQueue::push(const Event& ev) {
  heap_.push_back(ev);
  std::size_t i = heap_.size() - 1;
  while (i > 0) {
    std::size_t parent = (i - 1) / 2;
    if (!before(heap_[i], heap_[parent])) break;
    std::swap(heap_[i], heap_[parent]);
    i = parent;
  }
}

Event EventQueue::pop() {
  Event result = heap_.front();
  heap_.front() = heap_.back();
  heap_.pop_back();
  const std::size_t n = heap_.size();
  std::size_t i = 0;
  for (;;) {
    std::size_t left = 2 * i + 1;
    if (left >= n) break;
    std::size_t smallest = left;
    std::size_t right = left + 1;
    if (right < n && before(heap_[right], heap_[left])) smallest = right;
    if (!before(heap_[smallest], heap_[i])) break;
    std::swap(heap_[i], heap_[smallest]);
    i = smallest;
  }
  return result;
}

}  // namespace locksim
