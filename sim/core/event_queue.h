// The event queue: a 4-ary min-heap ordered by (time, insertion sequence).
//
// Equal times pop in insertion order, so two events scheduled for the same
// instant run in the order the simulation created them, never in an order
// chosen by the heap's layout. That one rule is most of what makes a run
// reproducible.
//
// Why 4-ary, moving a hole instead of swapping: a run keeps tens of events
// pending (13 at most in redlock-clock-jump, 65 on average in
// redlock-clock-drift); there it is as fast as the swapping binary heap it
// replaced and faster from 64 pending up (bench/engine_bench.cc measures both).
// Any correct priority queue pops the same sequence, since (at, seq) is a
// total order: the shape of the heap cannot leak into a run.
//
// Beside the heap, one slot: an event pushed when it is due before every
// queued one waits there and pops without entering the heap. A sweep's run
// mostly schedules the very next event (a reply a millisecond away, its
// timers seconds away); events scheduled in no particular order
// (BM_ScheduleAndPop) pay a test for it (docs/benchmarks.md, "The event
// queue").
//
// Invariants:
//  1. heap_[0] is the smallest (at, seq) pair in heap_; no event is before
//     its parent.
//  2. When has_front_, front_ is before every event in heap_.
//  3. seq is unique and strictly increasing in push order.
// The vector keeps its capacity after pops, so a warmed-up queue allocates
// nothing per event.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/time.h"

namespace locksim {

// What an event carries: the engine does not interpret it beyond |kind|; the
// owner of the simulation (the world) gives the arguments their meaning.
struct Event {
  TrueTime at;
  std::uint64_t seq = 0;
  std::uint32_t target = 0;  // process index, or an owner-defined channel
  std::uint32_t kind = 0;    // owner-defined
  std::uint64_t arg0 = 0;
  std::uint64_t arg1 = 0;
};

// What the queue keeps of an event: one argument, 32 bytes. Only a timer
// needs two (its tag and its id), and the engine keeps a timer's tag in the
// timer's slot, so the queue moves 32 bytes a level instead of 40 and a
// node's four children span two cache lines instead of three.
struct QueuedEvent {
  TrueTime at;
  std::uint64_t seq = 0;
  std::uint32_t target = 0;
  std::uint32_t kind = 0;
  std::uint64_t arg = 0;
};

class EventQueue {
 public:
  void reserve(std::size_t n) { heap_.reserve(n); }
  bool empty() const { return !has_front_ && heap_.empty(); }
  std::size_t size() const { return heap_.size() + (has_front_ ? 1 : 0); }
  const QueuedEvent& top() const { return has_front_ ? front_ : heap_.front(); }

  // REQUIRES: ev.seq was taken from next_seq() (the engine does this).
  void push(const QueuedEvent& ev) { push(ev.at, ev.seq, ev.target, ev.kind, ev.arg); }
  // The same, from the event's fields: how the engine schedules. An event
  // handed over by reference must exist in memory, built on the stack with
  // narrow stores and copied on with wide loads the store buffer cannot
  // forward; fields in registers are written once, where the event goes
  // (docs/benchmarks.md, "Copies the store buffer cannot forward").
  void push(TrueTime at, std::uint64_t seq, std::uint32_t target, std::uint32_t kind, std::uint64_t arg) {
    // An event due before everything queued waits beside the heap: most of
    // a run's events are the next to happen when they are scheduled (a
    // message a millisecond away, with timers seconds away), and then they
    // never enter the heap at all.
    if (!has_front_) {
      if (heap_.empty() || before(at, seq, heap_.front())) {
        write(front_, at, seq, target, kind, arg);
        has_front_ = true;
        return;
      }
    } else if (before(at, seq, front_)) {
      push_heap(front_.at, front_.seq, front_.target, front_.kind, front_.arg);
      write(front_, at, seq, target, kind, arg);
      return;
    }
    push_heap(at, seq, target, kind, arg);
  }
  QueuedEvent pop();
  // Removes the top event without copying it out: the engine reads the
  // fields it needs first (a whole-event copy of an event pushed moments
  // ago is a load that store-to-load forwarding cannot serve).
  void drop_top() {
    if (has_front_)
      has_front_ = false;
    else
      drop_heap_top();
  }
  std::uint64_t next_seq() { return seq_++; }
  // Removes every event |dead| says is dead and rebuilds the heap from the
  // rest: what pops afterwards is the same sequence minus those events,
  // since (at, seq) orders every pair. O(size).
  template <class Dead>
  void erase_if(Dead dead) {
    if (has_front_ && dead(front_)) has_front_ = false;
    std::erase_if(heap_, dead);
    rebuild();
  }
  void clear() {
    heap_.clear();
    has_front_ = false;
    seq_ = 0;
  }

 private:
  static constexpr std::size_t kArity = 4;
  static bool before(const QueuedEvent& a, const QueuedEvent& b) { return before(a.at, a.seq, b); }
  static bool before(TrueTime at, std::uint64_t seq, const QueuedEvent& b) { return at != b.at ? at < b.at : seq < b.seq; }
  static void write(QueuedEvent& slot, TrueTime at, std::uint64_t seq, std::uint32_t target, std::uint32_t kind,
                    std::uint64_t arg) {
    slot.at = at;
    slot.seq = seq;
    slot.target = target;
    slot.kind = kind;
    slot.arg = arg;
  }
  // Puts the event with these fields where it belongs at or below the hole
  // at |hole|, moving smaller children up into the hole as it goes.
  void sift_down(std::size_t hole, TrueTime at, std::uint64_t seq, std::uint32_t target, std::uint32_t kind,
                 std::uint64_t arg);
  void drop_heap_top();
  void push_heap(TrueTime at, std::uint64_t seq, std::uint32_t target, std::uint32_t kind, std::uint64_t arg) {
    if (heap_.size() == heap_.capacity()) [[unlikely]]
      grow();
    std::size_t hole = heap_.size();
    heap_.emplace_back();
    while (hole > 0) {
      const std::size_t parent = (hole - 1) / kArity;
      if (!before(at, seq, heap_[parent])) break;
      heap_[hole] = heap_[parent];
      hole = parent;
    }
    write(heap_[hole], at, seq, target, kind, arg);
  }
  void rebuild();
  void grow();
  // When has_front_: an event before every one in heap_.
  QueuedEvent front_;
  bool has_front_ = false;
  std::vector<QueuedEvent> heap_;
  std::uint64_t seq_ = 0;
};

}  // namespace locksim
