// The engine and its event queue: events run in (time, insertion) order,
// cancelled timers never run, and run_until honours its bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "sim/core/engine.h"
#include "sim/core/event_queue.h"
#include "sim/core/rng.h"

namespace locksim {
namespace {

using std::chrono::milliseconds;

TrueTime at_ms(std::int64_t ms) { return kTrueStart + milliseconds(ms); }

// Records every dispatched event with the engine's time at dispatch.
class Recorder final : public Dispatcher {
 public:
  struct Seen {
    TrueTime true_now;
    Event event;
  };
  void dispatch(const Event& ev) override {
    seen.push_back({engine->true_now(), ev});
    if (on_dispatch) on_dispatch(ev);
  }
  std::vector<std::uint64_t> arg0s() const {
    std::vector<std::uint64_t> out;
    for (const auto& s : seen) out.push_back(s.event.arg0);
    return out;
  }
  Engine* engine = nullptr;
  std::vector<Seen> seen;
  std::function<void(const Event&)> on_dispatch;
};

struct Rig {
  Recorder recorder;
  Engine engine{recorder};
  Rig() { recorder.engine = &engine; }
};

TEST(EngineTest, DispatchesInTimeOrder) {
  // Events scheduled out of order run in true-time order, and true_now follows them.
  Rig rig;
  rig.engine.schedule(at_ms(30), 0, 1, 30);
  rig.engine.schedule(at_ms(10), 0, 1, 10);
  rig.engine.schedule(at_ms(20), 0, 1, 20);
  rig.engine.schedule(at_ms(5), 0, 1, 5);
  rig.engine.run_until(at_ms(100));
  EXPECT_EQ(rig.recorder.arg0s(), (std::vector<std::uint64_t>{5, 10, 20, 30}));
  for (const auto& s : rig.recorder.seen) EXPECT_EQ(s.true_now, s.event.at);
  EXPECT_EQ(rig.engine.events_dispatched(), 4u);
  EXPECT_EQ(rig.engine.true_now(), at_ms(100));
}

TEST(EngineTest, TiesPopInInsertionOrder) {
  // Events at the same instant run in the order they were scheduled, whatever the heap layout.
  Rig rig;
  std::vector<std::uint64_t> expected;
  for (std::uint64_t i = 0; i < 200; ++i) {
    rig.engine.schedule(at_ms(static_cast<std::int64_t>(i % 3)), 0, 1, i);
  }
  for (std::int64_t t = 0; t < 3; ++t)
    for (std::uint64_t i = 0; i < 200; ++i)
      if (static_cast<std::int64_t>(i % 3) == t) expected.push_back(i);
  rig.engine.run_until(at_ms(10));
  EXPECT_EQ(rig.recorder.arg0s(), expected);
}

TEST(EngineTest, EventsScheduledDuringDispatchAtTheSameInstantRunAfterEarlierOnes) {
  // An event scheduled "now" from inside a handler runs after everything already queued for now.
  Rig rig;
  rig.recorder.on_dispatch = [&](const Event& ev) {
    if (ev.arg0 == 1) rig.engine.schedule(rig.engine.true_now(), 0, 1, 3);
  };
  rig.engine.schedule(at_ms(1), 0, 1, 1);
  rig.engine.schedule(at_ms(1), 0, 1, 2);
  rig.engine.run_until(at_ms(1));
  EXPECT_EQ(rig.recorder.arg0s(), (std::vector<std::uint64_t>{1, 2, 3}));
}

TEST(EngineTest, EventQueueMatchesSortedOrderOnRandomInput) {
  // The heap pops exactly the (time, seq) sort of what was pushed, across interleaved pushes and pops.
  EventQueue queue;
  Rng rng(42);
  std::vector<std::pair<std::int64_t, std::uint64_t>> model;  // (time, seq)
  std::vector<std::pair<std::int64_t, std::uint64_t>> popped;
  std::vector<std::pair<std::int64_t, std::uint64_t>> expected_popped;
  for (int round = 0; round < 5000; ++round) {
    if (rng.below(3) != 0 || queue.empty()) {
      const auto t = static_cast<std::int64_t>(rng.below(50));
      QueuedEvent ev{kTrueStart + Duration{t}, queue.next_seq(), 0, 1, 0};
      queue.push(ev);
      model.emplace_back(t, ev.seq);
    } else {
      auto smallest = std::min_element(model.begin(), model.end());
      expected_popped.push_back(*smallest);
      model.erase(smallest);
      const QueuedEvent ev = queue.pop();
      popped.emplace_back(ev.at.time_since_epoch().count(), ev.seq);
    }
    ASSERT_EQ(queue.size(), model.size());
  }
  EXPECT_EQ(popped, expected_popped);
}

TEST(EngineTest, EventQueueEraseIfReachesTheEventBesideTheHeap) {
  // The earliest event waits beside the heap (EventQueue::push); erasing
  // must see it too, and what is left pops in (time, seq) order.
  EventQueue queue;
  const auto push = [&](std::int64_t t) {
    queue.push(QueuedEvent{kTrueStart + Duration{t}, queue.next_seq(), 0, 1, static_cast<std::uint64_t>(t)});
  };
  for (const std::int64_t t : {30, 20, 10, 40, 5}) push(t);  // 5 ends beside the heap
  ASSERT_EQ(queue.top().arg, 5u);
  queue.erase_if([](const QueuedEvent& ev) { return ev.arg == 5 || ev.arg == 30; });
  ASSERT_EQ(queue.size(), 3u);
  std::vector<std::uint64_t> order;
  while (!queue.empty()) order.push_back(queue.pop().arg);
  EXPECT_EQ(order, (std::vector<std::uint64_t>{10, 20, 40}));
}

TEST(EngineTest, CancelledTimerNeverDispatches) {
  // A cancelled timer is skipped when its event pops: no dispatch, not counted.
  Rig rig;
  const TimerId a = rig.engine.schedule_timer(at_ms(10), 0, 100);
  const TimerId b = rig.engine.schedule_timer(at_ms(20), 0, 200);
  EXPECT_TRUE(rig.engine.pending(a));
  rig.engine.cancel(a);
  EXPECT_FALSE(rig.engine.pending(a));
  EXPECT_TRUE(rig.engine.pending(b));
  rig.engine.run_until(at_ms(100));
  ASSERT_EQ(rig.recorder.seen.size(), 1u);
  EXPECT_EQ(rig.recorder.seen[0].event.kind, Engine::kTimerKind);
  EXPECT_EQ(rig.recorder.seen[0].event.arg0, 200u);
  EXPECT_EQ(timer_from_bits(rig.recorder.seen[0].event.arg1), b);  // the dispatcher can tell timers apart
  EXPECT_EQ(rig.recorder.seen[0].true_now, at_ms(20));
  EXPECT_EQ(rig.engine.events_dispatched(), 1u);
}

TEST(EngineTest, ReusedSlotDoesNotResurrectCancelledTimer) {
  // A reused slot gets a new generation: the cancelled event stays dead and a stale-id cancel misses the new timer.
  Rig rig;
  const TimerId old_id = rig.engine.schedule_timer(at_ms(10), 0, 1);
  rig.engine.cancel(old_id);
  const TimerId new_id = rig.engine.schedule_timer(at_ms(30), 0, 2);
  ASSERT_EQ(new_id.slot, old_id.slot) << "the test needs the slot to be reused";
  EXPECT_NE(new_id.generation, old_id.generation);
  rig.engine.cancel(old_id);  // stale: must be a no-op
  EXPECT_TRUE(rig.engine.pending(new_id));
  EXPECT_FALSE(rig.engine.pending(old_id));
  rig.engine.run_until(at_ms(100));
  ASSERT_EQ(rig.recorder.seen.size(), 1u);
  EXPECT_EQ(rig.recorder.seen[0].event.arg0, 2u);
  EXPECT_EQ(rig.recorder.seen[0].true_now, at_ms(30));
}

TEST(EngineTest, ReusedSlotScheduledBeforeStaleEventDoesNotFireTwice) {
  // A reused slot whose new timer is due *before* the stale event: each fires at most once.
  Rig rig;
  const TimerId old_id = rig.engine.schedule_timer(at_ms(50), 0, 1);
  rig.engine.cancel(old_id);
  const TimerId new_id = rig.engine.schedule_timer(at_ms(10), 0, 2);
  ASSERT_EQ(new_id.slot, old_id.slot);
  rig.engine.run_until(at_ms(100));
  ASSERT_EQ(rig.recorder.seen.size(), 1u);
  EXPECT_EQ(rig.recorder.seen[0].event.arg0, 2u);
}

TEST(EngineTest, FiredTimerIsNoLongerPendingAndCancelAfterFireIsHarmless) {
  // A timer that fired frees its slot; cancelling it afterwards cannot cancel the slot's next timer.
  Rig rig;
  TimerId first{};
  TimerId second{};
  rig.recorder.on_dispatch = [&](const Event& ev) {
    if (ev.arg0 == 1) {
      EXPECT_FALSE(rig.engine.pending(first));
      second = rig.engine.schedule_timer(at_ms(20), 0, 2);
      rig.engine.cancel(first);  // late cancel of the timer being handled
    }
  };
  first = rig.engine.schedule_timer(at_ms(10), 0, 1);
  rig.engine.run_until(at_ms(100));
  EXPECT_EQ(second.slot, first.slot);
  EXPECT_EQ(rig.recorder.arg0s(), (std::vector<std::uint64_t>{1, 2}));
}

TEST(EngineTest, ManyTimersCancelHalf) {
  // Cancelling every other timer among many dispatches exactly the others, in time order.
  Rig rig;
  std::vector<TimerId> ids;
  for (std::uint64_t i = 0; i < 1000; ++i)
    ids.push_back(rig.engine.schedule_timer(at_ms(static_cast<std::int64_t>(1000 - i)), 0, i));
  for (std::uint64_t i = 0; i < 1000; i += 2) rig.engine.cancel(ids[i]);
  rig.engine.run_until(at_ms(2000));
  std::vector<std::uint64_t> expected;
  for (std::int64_t i = 999; i >= 1; i -= 2) expected.push_back(static_cast<std::uint64_t>(i));
  EXPECT_EQ(rig.recorder.arg0s(), expected);
}

TEST(EngineTest, CancelledTimersAreSweptFromTheQueueWithoutChangingWhatRuns) {
  // A far timer re-armed again and again (a Redis node's expiry alarm on every
  // SET) leaves dead events; once they outnumber the live ones they are swept,
  // and the dispatch is the same as without the sweep: live events in (time,
  // insertion) order, ties included.
  Rig rig;
  std::vector<std::pair<std::int64_t, std::uint64_t>> live;  // (time, arg0) in insertion order
  TimerId alarm;
  std::size_t most_queued = 0;
  for (std::uint64_t i = 0; i < 400; ++i) {
    if (i % 20 == 0) {  // now and then a live event, many at the same instant
      const auto t = static_cast<std::int64_t>(i % 3);
      rig.engine.schedule(at_ms(t), 0, 1, 1000 + i);
      live.emplace_back(t, 1000 + i);
    }
    rig.engine.cancel(alarm);
    alarm = rig.engine.schedule_timer(at_ms(10'000 + static_cast<std::int64_t>(i)), 0, i);
    most_queued = std::max(most_queued, rig.engine.queued());
  }
  // 20 live events and the alarm, plus at most as many dead ones: not 400.
  EXPECT_LE(most_queued, 2u * 21u + 1u);
  std::stable_sort(live.begin(), live.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::uint64_t> expected;
  for (const auto& [t, arg0] : live) expected.push_back(arg0);
  expected.push_back(399);  // the one alarm never cancelled
  rig.engine.run_until(at_ms(20'000));
  EXPECT_EQ(rig.recorder.arg0s(), expected);
  EXPECT_EQ(rig.engine.events_dispatched(), 21u);
  EXPECT_EQ(rig.engine.queued(), 0u);
}

TEST(EngineTest, CancelledTimersNeitherCountAgainstTheBudgetNorMoveTime) {
  // A budget of 2: two live events run, the cancelled timers between them
  // are dropped unseen, and the run stops at the third live event, with true
  // time at the last event dispatched.
  Rig rig;
  rig.engine.set_event_budget(2);
  rig.engine.schedule(at_ms(1), 0, 1, 1);
  rig.engine.cancel(rig.engine.schedule_timer(at_ms(2), 0, 7));
  rig.engine.schedule(at_ms(3), 0, 1, 3);
  rig.engine.cancel(rig.engine.schedule_timer(at_ms(4), 0, 7));
  rig.engine.schedule(at_ms(5), 0, 1, 5);
  rig.engine.run_until(at_ms(10));
  EXPECT_EQ(rig.recorder.arg0s(), (std::vector<std::uint64_t>{1, 3}));
  EXPECT_TRUE(rig.engine.budget_exhausted());
  EXPECT_EQ(rig.engine.true_now(), at_ms(3));

  // Only dead timers left when the budget is spent: nothing more was due.
  Rig quiet;
  quiet.engine.set_event_budget(1);
  quiet.engine.schedule(at_ms(1), 0, 1, 1);
  quiet.engine.cancel(quiet.engine.schedule_timer(at_ms(2), 0, 7));
  quiet.engine.run_until(at_ms(10));
  EXPECT_FALSE(quiet.engine.budget_exhausted());
  EXPECT_EQ(quiet.engine.true_now(), at_ms(10));
}

// A run of random chains of events, some of which change nothing (kind 2)
// and are either queued or, with |ahead|, counted ahead. What the recorder
// sees of the others, the count, the budget's verdict and the final time
// must not depend on which.
struct AheadRun {
  std::vector<std::pair<TrueTime, std::uint64_t>> seen;  // kind-1 events: (true_now, arg0)
  std::uint64_t dispatched = 0;
  bool exhausted = false;
  TrueTime end;
};

AheadRun run_with_nothing_events(bool ahead, std::uint64_t budget, std::uint64_t seed) {
  Rig rig;
  Rng rng(seed);
  const TrueTime until = at_ms(400);
  rig.engine.set_event_budget(budget);
  std::uint64_t next_id = 0;
  AheadRun out;
  const auto spawn = [&](TrueTime now) {
    // Each event makes up to two more, 0-9 ms later (ties on purpose); one in
    // three changes nothing when it comes.
    // Past 300 events, only events that change nothing: the last events of
    // the run are then often ones counted ahead after the last dispatch.
    for (int i = 0; i < 2; ++i) {
      const TrueTime at = now + milliseconds(rng.below(10));
      const std::uint64_t id = next_id++;
      if (at > until) continue;
      if (next_id > 300 || rng.below(3) == 0) {
        if (!ahead || !rig.engine.count_ahead(at, 0, 2)) rig.engine.schedule(at, 0, 2, id);
      } else {
        rig.engine.schedule(at, 0, 1, id);
      }
    }
  };
  rig.recorder.on_dispatch = [&](const Event& ev) {
    if (ev.kind != 1) return;
    out.seen.emplace_back(rig.engine.true_now(), ev.arg0);
    spawn(rig.engine.true_now());
  };
  for (int i = 0; i < 3; ++i) rig.engine.schedule(at_ms(i), 0, 1, next_id++);
  rig.engine.run_until(until);
  out.dispatched = rig.engine.events_dispatched();
  out.exhausted = rig.engine.budget_exhausted();
  out.end = rig.engine.true_now();
  return out;
}

TEST(EngineTest, EventsCountedAheadKeepTheCountAndTheBudgetExact) {
  // Whatever the budget — spent before, at, between or after the events
  // counted ahead — the run is the one that queued them.
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const AheadRun unlimited = run_with_nothing_events(false, UINT64_MAX, seed);
    ASSERT_GT(unlimited.dispatched, 20u);
    for (std::uint64_t budget = 0; budget <= unlimited.dispatched + 1; ++budget) {
      const AheadRun queued = run_with_nothing_events(false, budget, seed);
      const AheadRun counted = run_with_nothing_events(true, budget, seed);
      ASSERT_EQ(counted.dispatched, queued.dispatched) << "seed " << seed << ", budget " << budget;
      ASSERT_EQ(counted.exhausted, queued.exhausted) << "seed " << seed << ", budget " << budget;
      ASSERT_EQ(counted.end, queued.end) << "seed " << seed << ", budget " << budget;
      ASSERT_EQ(counted.seen.size(), queued.seen.size()) << "seed " << seed << ", budget " << budget;
      ASSERT_EQ(counted.seen, queued.seen) << "seed " << seed << ", budget " << budget;
    }
  }
}

TEST(EngineTest, RunUntilStopsAtTheBoundAndLeavesLaterEvents) {
  // run_until runs events at or before the bound, ends at the bound, and keeps later ones for the next call.
  Rig rig;
  rig.engine.schedule(at_ms(5), 0, 1, 5);
  rig.engine.schedule(at_ms(10), 0, 1, 10);
  rig.engine.schedule(at_ms(15), 0, 1, 15);
  rig.engine.run_until(at_ms(10));
  EXPECT_EQ(rig.recorder.arg0s(), (std::vector<std::uint64_t>{5, 10}));
  EXPECT_EQ(rig.engine.true_now(), at_ms(10));
  rig.engine.run_until(at_ms(12));
  EXPECT_EQ(rig.recorder.seen.size(), 2u);
  EXPECT_EQ(rig.engine.true_now(), at_ms(12));
  rig.engine.run_until(at_ms(20));
  EXPECT_EQ(rig.recorder.arg0s(), (std::vector<std::uint64_t>{5, 10, 15}));
  EXPECT_EQ(rig.engine.true_now(), at_ms(20));
}

TEST(EngineTest, ResetIsAnEngineAsConstructedWithItsBudget) {
  // After a run that left events, live and cancelled timers, a spent budget
  // and time at 7 ms, reset() gives what a new engine with the same budget
  // would: time zero, nothing queued, timer slots and sequence from the start.
  Rig used;
  Rig fresh;
  used.engine.set_event_budget(3);
  fresh.engine.set_event_budget(3);
  used.engine.schedule(at_ms(5), 0, 1, 5);
  const TimerId cancelled = used.engine.schedule_timer(at_ms(6), 0, 6);
  used.engine.schedule_timer(at_ms(7), 0, 7);
  used.engine.schedule(at_ms(8), 0, 1, 8);
  used.engine.schedule(at_ms(9), 0, 1, 9);
  used.engine.cancel(cancelled);
  used.engine.run_until(at_ms(20));
  ASSERT_TRUE(used.engine.budget_exhausted());
  used.engine.reset();
  used.recorder.seen.clear();
  EXPECT_EQ(used.engine.true_now(), kTrueStart);
  EXPECT_EQ(used.engine.queued(), 0u);
  EXPECT_EQ(used.engine.events_dispatched(), 0u);
  EXPECT_FALSE(used.engine.budget_exhausted());
  for (Rig* rig : {&used, &fresh}) {
    rig->engine.schedule(at_ms(4), 0, 1, 4);
    EXPECT_EQ(timer_bits(rig->engine.schedule_timer(at_ms(4), 0, 40)), timer_bits(TimerId{0, 0}));
    rig->engine.schedule(at_ms(2), 0, 1, 2);
    rig->engine.schedule(at_ms(4), 0, 1, 41);
    rig->engine.run_until(at_ms(10));
  }
  EXPECT_EQ(used.recorder.arg0s(), fresh.recorder.arg0s());
  EXPECT_EQ(used.engine.events_dispatched(), 3u);  // the budget is kept: the fourth event waits
  EXPECT_TRUE(used.engine.budget_exhausted());
}

TEST(EngineTest, StopEndsTheRunAtTheCurrentEvent) {
  // stop() from a handler ends run_until after that event; true time stays at it.
  Rig rig;
  rig.recorder.on_dispatch = [&](const Event& ev) {
    if (ev.arg0 == 2) rig.engine.stop();
  };
  for (std::uint64_t i = 1; i <= 4; ++i) rig.engine.schedule(at_ms(static_cast<std::int64_t>(i)), 0, 1, i);
  rig.engine.run_until(at_ms(100));
  EXPECT_EQ(rig.recorder.arg0s(), (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(rig.engine.true_now(), at_ms(2));
  rig.engine.run_until(at_ms(100));
  EXPECT_EQ(rig.recorder.arg0s(), (std::vector<std::uint64_t>{1, 2, 3, 4}));
}

TEST(EngineDeathTest, ScheduleInThePastAborts) {
  // Scheduling before true_now is a programmer mistake and stops the run loudly.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        Rig rig;
        rig.engine.run_until(at_ms(10));
        rig.engine.schedule(at_ms(9), 0, 1);
      },
      "event scheduled in the past");
  EXPECT_DEATH(
      {
        Rig rig;
        rig.engine.run_until(at_ms(10));
        rig.engine.schedule_timer(at_ms(5), 0, 1);
      },
      "event scheduled in the past");
}

}  // namespace
}  // namespace locksim
