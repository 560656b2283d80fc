// The engine: owns true time and the event queue, and hands each due event to
// a dispatcher. It knows nothing of processes, clocks or messages: the world
// gives events their meaning. Timers are cancelled in O(1) by generation: a
// cancelled timer's event stays in the heap and is dropped when it pops,
// neither dispatched nor counted, and true time does not move for it.
//
// Why the heap is swept of cancelled timers now and then: a model that
// re-arms a far timer on every request (a Redis node's expiry alarm, a
// TTL ahead, re-armed on each SET and DEL) leaves one dead event per request
// that would wait a whole TTL to pop. In redlock-clock-drift nine in ten
// pending events were such corpses, and every push and pop paid for them.
// So once the cancelled outnumber the live (and are at least
// kSweepAtCancelled), they are removed in one pass. Which events pop, and in
// what order, is unchanged: (at, seq) orders any two events, whatever shape
// the heap has.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/event_queue.h"
#include "sim/core/time.h"

namespace locksim {

struct TimerId {
  std::uint32_t slot = UINT32_MAX;
  std::uint32_t generation = 0;
  bool valid() const { return slot != UINT32_MAX; }
  bool operator==(const TimerId&) const = default;
};

inline std::uint64_t timer_bits(TimerId id) { return (static_cast<std::uint64_t>(id.generation) << 32) | id.slot; }
inline TimerId timer_from_bits(std::uint64_t bits) {
  return TimerId{static_cast<std::uint32_t>(bits & 0xffffffffu), static_cast<std::uint32_t>(bits >> 32)};
}

class Dispatcher {
 public:
  virtual ~Dispatcher() = default;
  virtual void dispatch(const Event& ev) = 0;
};

class Engine {
 public:
  // Event kind reserved for timers; the world's kinds start above it.
  static constexpr std::uint32_t kTimerKind = 0;

  explicit Engine(Dispatcher& dispatcher) : dispatcher_(dispatcher) { queue_.reserve(64); }

  TrueTime true_now() const { return true_now_; }
  // Events waiting, cancelled timers included (until they pop or are swept).
  std::size_t queued() const { return queue_.size(); }

  // Schedules an event; REQUIRES at >= true_now().
  // Dispatched as an Event with arg0 = |arg| and arg1 = 0.
  void schedule(TrueTime at, std::uint32_t target, std::uint32_t kind, std::uint64_t arg = 0) {
    if (at < true_now_) [[unlikely]]
      scheduled_in_the_past();
    queue_.push(at, queue_.next_seq(), target, kind, arg);
  }
  // Counts now, instead of queueing, an event whose handling is known to
  // change nothing (a message a partition will drop on arrival): a run that
  // goes on to its |until| would dispatch it in its turn anyway, so the count
  // comes out the same and the queue stays shorter. Only the budget could
  // tell the difference — a run that spends it before the event's turn would
  // not have counted it — so the engine keeps each such event's (time, seq),
  // and when the count reaches the budget it queues again, as an ordinary
  // event of kind |kind|, every one whose turn has not come, takes them off
  // the count and counts nothing ahead for the rest of the run. Returns false
  // (nothing done: schedule it) once that has happened.
  // REQUIRES: at >= true_now(), at <= the |until| of the run, and the run not
  // stopped early (stop()).
  bool count_ahead(TrueTime at, std::uint32_t target, std::uint32_t kind);
  // A cancellable timer: dispatched as kind kTimerKind with arg0 = tag and
  // arg1 = timer_bits(id), so the dispatcher can tell timers apart. Queued
  // with the id alone; the tag waits in the timer's slot.
  TimerId schedule_timer(TrueTime at, std::uint32_t target, std::uint64_t tag);
  void cancel(TimerId id);
  bool pending(TimerId id) const;

  // Runs events with time <= until (or until stop(), or until the event
  // budget is spent); true time ends at |until| unless stopped early.
  void run_until(TrueTime until);
  void stop() { stopped_ = true; }
  std::uint64_t events_dispatched() const { return dispatched_; }
  // At most this many events are dispatched in all: run_until stops early
  // (true time stays at the last event dispatched) when one more is due
  // (a cancelled timer is not one).
  void set_event_budget(std::uint64_t events) { budget_ = events; }
  bool budget_exhausted() const { return budget_exhausted_; }
  // Back to the engine as constructed (the budget kept): no events, time
  // zero, sequence and timer slots from the start again, so that a world
  // reset for another run numbers everything as a new one would.
  void reset();

 private:
  static constexpr std::size_t kSweepAtCancelled = 8;
  [[noreturn]] static void scheduled_in_the_past();
  // Frees a timer's slot for reuse; its event, if still queued, is dead.
  void release(TimerId id);
  bool dead(const QueuedEvent& ev) const { return ev.kind == kTimerKind && !pending(timer_from_bits(ev.arg)); }
  struct TimerSlot {
    std::uint64_t tag = 0;  // the model's, handed back when the timer fires
    std::uint32_t generation = 0;
    bool armed = false;
  };
  Dispatcher& dispatcher_;
  EventQueue queue_;
  TrueTime true_now_{};
  bool stopped_ = false;
  bool budget_exhausted_ = false;
  std::uint64_t dispatched_ = 0;
  std::uint64_t budget_ = UINT64_MAX;
  std::vector<TimerSlot> timers_;
  std::vector<std::uint32_t> free_timer_slots_;
  std::size_t cancelled_queued_ = 0;  // cancelled timers whose events are still in queue_
  // Events counted ahead, in the order they were counted; those whose turn
  // has passed are pruned now and then.
  std::vector<QueuedEvent> ahead_;
  bool may_count_ahead_ = true;
  // The budget is reached with events counted ahead: queue those whose turn
  // is after the last event dispatched, and stop counting ahead.
  void requeue_ahead();
  std::uint64_t last_seq_ = 0;  // of the last event dispatched, if dispatched_any_
  bool dispatched_any_ = false;
};

}  // namespace locksim
