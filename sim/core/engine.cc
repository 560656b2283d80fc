#include "sim/core/engine.h"

#include "sim/core/check.h"

namespace locksim {

void Engine::scheduled_in_the_past() { LOCKSIM_CHECK(false, "event scheduled in the past"); }

TimerId Engine::schedule_timer(TrueTime at, std::uint32_t target, std::uint64_t tag) {
  std::uint32_t slot;
  if (!free_timer_slots_.empty()) {
    slot = free_timer_slots_.back();
    free_timer_slots_.pop_back();
  } else {
    slot = static_cast<std::uint32_t>(timers_.size());
    timers_.push_back({});
  }
  TimerSlot& s = timers_[slot];
  s.armed = true;
  // The generation travels with the event, so a stale event for a reused slot
  // is recognised when it pops.
  const TimerId id{slot, s.generation};
  schedule(at, target, kTimerKind, tag, timer_bits(id));
  return id;
}

void Engine::release(TimerId id) {
  TimerSlot& s = timers_[id.slot];
  s.armed = false;
  ++s.generation;
  free_timer_slots_.push_back(id.slot);
}

void Engine::cancel(TimerId id) {
  if (!pending(id)) return;  // fired, cancelled before, or never armed: nothing queued
  release(id);
  ++cancelled_queued_;
  if (cancelled_queued_ >= kSweepAtCancelled && 2 * cancelled_queued_ > queue_.size()) {
    queue_.erase_if([this](const Event& ev) { return dead(ev); });
    cancelled_queued_ = 0;
  }
}

void Engine::reset() {
  queue_.clear();
  true_now_ = TrueTime{};
  stopped_ = false;
  budget_exhausted_ = false;
  dispatched_ = 0;
  timers_.clear();
  free_timer_slots_.clear();
  cancelled_queued_ = 0;
}

bool Engine::pending(TimerId id) const {
  return id.valid() && id.slot < timers_.size() && timers_[id.slot].armed && timers_[id.slot].generation == id.generation;
}

void Engine::run_until(TrueTime until) {
  stopped_ = false;
  while (!stopped_ && !queue_.empty() && queue_.top().at <= until) {
    if (dead(queue_.top())) {  // cancelled: dropped in O(1), not an event
      LOCKSIM_CHECK(cancelled_queued_ > 0, "every cancelled timer still queued is counted");
      queue_.drop_top();
      --cancelled_queued_;
      continue;
    }
    if (dispatched_ >= budget_) {
      budget_exhausted_ = true;
      return;
    }
    const Event& top = queue_.top();
    const Event ev{top.at, top.seq, top.target, top.kind, top.arg0, top.arg1};
    queue_.drop_top();
    true_now_ = ev.at;
    if (ev.kind == kTimerKind) release(timer_from_bits(ev.arg1));  // fired timers free their slot
    ++dispatched_;
    dispatcher_.dispatch(ev);
  }
  if (!stopped_ && until > true_now_) true_now_ = until;
}

}  // namespace locksim
