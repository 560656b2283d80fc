#include "sim/core/engine.h"

#include "sim/core/check.h"

#include <algorithm>

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
  s.tag = tag;
  // The generation travels with the event, so a stale event for a reused slot
  // is recognised when it pops.
  const TimerId id{slot, s.generation};
  schedule(at, target, kTimerKind, timer_bits(id));
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
    queue_.erase_if([this](const QueuedEvent& ev) { return dead(ev); });
    cancelled_queued_ = 0;
  }
}

bool Engine::count_ahead(TrueTime at, std::uint32_t target, std::uint32_t kind) {
  if (!may_count_ahead_) return false;
  if (at < true_now_) [[unlikely]]
    scheduled_in_the_past();
  // Pruned in batches: an entry whose time is past has had its turn.
  if (ahead_.size() >= 64) std::erase_if(ahead_, [this](const QueuedEvent& ev) { return ev.at < true_now_; });
  ahead_.push_back(QueuedEvent{at, queue_.next_seq(), target, kind, 0});
  ++dispatched_;
  return true;
}

void Engine::requeue_ahead() {
  for (const QueuedEvent& ev : ahead_) {
    const bool had_its_turn =
        dispatched_any_ && (ev.at != true_now_ ? ev.at < true_now_ : ev.seq < last_seq_);
    if (had_its_turn) continue;  // before the last event dispatched: counted rightly
    --dispatched_;
    queue_.push(ev);  // with its own seq: the turn it always had
  }
  ahead_.clear();
  may_count_ahead_ = false;
}

void Engine::reset() {
  ahead_.clear();
  may_count_ahead_ = true;
  dispatched_any_ = false;
  last_seq_ = 0;
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
  for (;;) {
    if (stopped_ || queue_.empty() || queue_.top().at > until) {
      // Events counted ahead take their turns before this point; more of
      // them than the budget allows, and the run would have stopped at one.
      if (!stopped_ && !ahead_.empty() && dispatched_ > budget_) {
        requeue_ahead();
        continue;
      }
      break;
    }
    if (dead(queue_.top())) {  // cancelled: dropped in O(1), not an event
      LOCKSIM_CHECK(cancelled_queued_ > 0, "every cancelled timer still queued is counted");
      queue_.drop_top();
      --cancelled_queued_;
      continue;
    }
    if (dispatched_ >= budget_) {
      if (!ahead_.empty()) {  // the count may include events whose turn is yet to come
        requeue_ahead();
        continue;
      }
      budget_exhausted_ = true;
      return;
    }
    const QueuedEvent& top = queue_.top();
    Event ev{top.at, top.seq, top.target, top.kind, top.arg, 0};
    queue_.drop_top();
    true_now_ = ev.at;
    last_seq_ = ev.seq;
    dispatched_any_ = true;
    if (ev.kind == kTimerKind) {  // the tag back from its slot, which a fired timer frees
      const TimerId id = timer_from_bits(ev.arg0);
      ev.arg1 = ev.arg0;
      ev.arg0 = timers_[id.slot].tag;
      release(id);
    }
    ++dispatched_;
    dispatcher_.dispatch(ev);
  }
  if (!stopped_ && until > true_now_) true_now_ = until;
}

}  // namespace locksim
