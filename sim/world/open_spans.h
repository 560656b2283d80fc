// The fault spans of a run still open — a process paused or down, a
// partition, a clock slewing — until the instant that ends each, when the
// world records it whole (FaultSpan). A run has a handful at most, so a
// short list searched end to end is all it needs.
#pragma once

#include <optional>
#include <vector>

#include "sim/history/history.h"

namespace locksim {

class OpenSpans {
 public:
  // Opens |span| unless one of its kind is open for its target (a pause
  // inside a pause is the same stretch, only longer).
  void open(const FaultSpan& span) {
    if (!find(span.what, span.target, span.partition)) spans_.push_back(span);
  }
  // The open span of |what| on |target| (or of |partition|), now ended for
  // |why|; nothing when none was open.
  std::optional<FaultSpan> close(SpanKind what, ProcessId target, std::uint32_t partition, SpanEnd why) {
    FaultSpan* span = find(what, target, partition);
    if (!span) return std::nullopt;
    FaultSpan closed = *span;
    closed.ended = why;
    spans_.erase(spans_.begin() + (span - spans_.data()));
    return closed;
  }
  // Every span still open when the run ends, in the order they opened.
  std::vector<FaultSpan> close_all() {
    std::vector<FaultSpan> closed;
    closed.swap(spans_);
    return closed;
  }
  void clear() { spans_.clear(); }

 private:
  FaultSpan* find(SpanKind what, ProcessId target, std::uint32_t partition) {
    for (FaultSpan& s : spans_)
      if (s.what == what && s.target == target && s.partition == partition) return &s;
    return nullptr;
  }
  std::vector<FaultSpan> spans_;
};

}  // namespace locksim
