// Engine throughput: the raw event queue, the engine loop with timers, and a
// whole World running Redis request/reply ping-pong. The ping-pong figure is
// the one that bounds sweep speed: every simulated message is one event.
//
//   build-core/bench/engine_bench --benchmark_counters_tabular=true
//
// Target: >= 55 million events/s for BM_PingPong/1 on one core (Release);
// measured 57.9 million (the middle of five calls, 52.8-61.1), from 17-18
// million before the speed work (29-33 million before the store-forwarding
// fixes, 46-47 before the event beside the heap, 49-50 before the models
// built their messages in place, 55.7 before the queue kept 32-byte events,
// about 53 before the network's lanes; see docs/benchmarks.md).
// BM_PingPongCopied, with send() copying: 50.6.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "sim/core/engine.h"
#include "sim/core/event_queue.h"
#include "sim/core/rng.h"
#include "sim/core/trace.h"
#include "sim/world/world.h"

namespace locksim {
namespace {

using namespace std::chrono_literals;

// Random gaps in [1, 2N] ns, precomputed so the loop measures the heap only.
std::vector<std::int64_t> gaps(std::size_t n) {
  Rng rng(1);
  std::vector<std::int64_t> out(4096);
  for (auto& g : out) g = 1 + static_cast<std::int64_t>(rng.below(2 * n));
  return out;
}

// The binary heap EventQueue was before issue 15 (swapping, two children per
// node), kept here only to measure the 4-ary hole-moving heap against.
class SwappingBinaryHeap {
 public:
  void reserve(std::size_t n) { heap_.reserve(n); }
  std::uint64_t next_seq() { return seq_++; }
  void push(const QueuedEvent& ev) {
    heap_.push_back(ev);
    std::size_t i = heap_.size() - 1;
    while (i > 0) {
      const std::size_t parent = (i - 1) / 2;
      if (!before(heap_[i], heap_[parent])) break;
      std::swap(heap_[i], heap_[parent]);
      i = parent;
    }
  }
  QueuedEvent pop() {
    QueuedEvent result = heap_.front();
    heap_.front() = heap_.back();
    heap_.pop_back();
    const std::size_t n = heap_.size();
    std::size_t i = 0;
    for (;;) {
      const std::size_t left = 2 * i + 1;
      if (left >= n) break;
      std::size_t smallest = left;
      if (left + 1 < n && before(heap_[left + 1], heap_[left])) smallest = left + 1;
      if (!before(heap_[smallest], heap_[i])) break;
      std::swap(heap_[i], heap_[smallest]);
      i = smallest;
    }
    return result;
  }

 private:
  static bool before(const QueuedEvent& a, const QueuedEvent& b) { return a.at != b.at ? a.at < b.at : a.seq < b.seq; }
  std::vector<QueuedEvent> heap_;
  std::uint64_t seq_ = 0;
};

// A calendar queue (Brown 1988; a timer wheel is the same ring of buckets
// with one fixed width): bucket i holds the events whose time falls in
// [i * width, (i + 1) * width) modulo the year (buckets * width), each bucket
// sorted by (at, seq) so ties still pop in insertion order. Fixed size here:
// it is tuned to the hold model below (the year covers every gap), which is
// the best case for it; kept to measure against the heap, not used by the
// engine (docs/benchmarks.md, "The event queue", says why).
class CalendarQueue {
 public:
  explicit CalendarQueue(std::size_t buckets, std::int64_t width) : buckets_(buckets), width_(width) {}
  void reserve(std::size_t) {}
  std::uint64_t next_seq() { return seq_++; }
  void push(const QueuedEvent& ev) {
    const std::int64_t t = ev.at.time_since_epoch().count();
    std::vector<QueuedEvent>& b = buckets_[static_cast<std::size_t>(t / width_) % buckets_.size()];
    // Sorted descending, so the earliest is at the back and pops without a shift.
    auto it = b.begin();
    while (it != b.end() && before(ev, *it)) ++it;
    b.insert(it, ev);
    ++size_;
  }
  QueuedEvent pop() {
    // Walk the year from the last bucket popped; an event due in this lap of
    // the bucket's window is the earliest of all.
    for (std::size_t step = 0; step < buckets_.size(); ++step) {
      std::vector<QueuedEvent>& b = buckets_[cursor_];
      if (!b.empty() && b.back().at.time_since_epoch().count() < (lap_start_ + 1) * width_) return take(b);
      cursor_ = (cursor_ + 1) % buckets_.size();
      ++lap_start_;
    }
    // Nothing within a year: find the earliest directly and move there.
    std::vector<QueuedEvent>* best = nullptr;
    for (auto& b : buckets_)
      if (!b.empty() && (best == nullptr || before(b.back(), best->back()))) best = &b;
    const std::int64_t t = best->back().at.time_since_epoch().count();
    cursor_ = static_cast<std::size_t>(t / width_) % buckets_.size();
    lap_start_ = t / width_;
    return take(*best);
  }

 private:
  static bool before(const QueuedEvent& a, const QueuedEvent& b) { return a.at != b.at ? a.at < b.at : a.seq < b.seq; }
  QueuedEvent take(std::vector<QueuedEvent>& b) {
    const QueuedEvent ev = b.back();
    b.pop_back();
    --size_;
    return ev;
  }
  std::vector<std::vector<QueuedEvent>> buckets_;
  std::int64_t width_;
  std::size_t cursor_ = 0;
  std::int64_t lap_start_ = 0;  // the current bucket's window, in widths since time 0
  std::size_t size_ = 0;
  std::uint64_t seq_ = 0;
};

// A calendar sized for N pending with gaps in [1, 2N]: N buckets of 2 ns.
struct HoldCalendar : CalendarQueue {
  static std::size_t buckets_for(std::size_t n) { return n; }
  explicit HoldCalendar(std::size_t n) : CalendarQueue(buckets_for(n), 2) {}
};

// The "hold" model: a heap of N pending events in steady state; each step pops
// the earliest and pushes one later event.
template <class Queue>
Queue make_queue(std::size_t n) {
  if constexpr (std::is_constructible_v<Queue, std::size_t>) return Queue(n);
  else return Queue();
}

// Before timing: the queue pops the hold model's first 100,000 events in
// exactly EventQueue's order, or the benchmark stops (a faster queue that
// reorders ties would change every run).
template <class Queue>
bool pops_like_the_engine(std::size_t n) {
  const auto g = gaps(n);
  Queue q = make_queue<Queue>(n);
  EventQueue reference;
  for (std::size_t i = 0; i < n; ++i) {
    const QueuedEvent ev{kTrueStart + Duration{g[i % g.size()] / 4}, 0, 0, 1, i};  // ties, on purpose
    q.push(QueuedEvent{ev.at, q.next_seq(), 0, 1, i});
    reference.push(QueuedEvent{ev.at, reference.next_seq(), 0, 1, i});
  }
  for (std::size_t k = 0; k < 100000; ++k) {
    const QueuedEvent a = q.pop(), b = reference.pop();
    if (a.at != b.at || a.arg != b.arg) return false;
    const Duration later{g[k & 4095]};
    q.push(QueuedEvent{a.at + later, q.next_seq(), 0, 1, a.arg});
    reference.push(QueuedEvent{b.at + later, reference.next_seq(), 0, 1, b.arg});
  }
  return true;
}

template <class Queue>
void schedule_and_pop(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  if (!pops_like_the_engine<Queue>(n)) {
    state.SkipWithError("pops in a different order from EventQueue");
    return;
  }
  const auto g = gaps(n);
  Queue queue = make_queue<Queue>(n);
  queue.reserve(n + 1);
  for (std::size_t i = 0; i < n; ++i)
    queue.push(QueuedEvent{kTrueStart + Duration{g[i % g.size()]}, queue.next_seq(), 0, 1, i});
  std::size_t k = 0;
  for (auto _ : state) {
    const QueuedEvent ev = queue.pop();
    queue.push(QueuedEvent{ev.at + Duration{g[k++ & 4095]}, queue.next_seq(), ev.target, ev.kind, ev.arg});
    benchmark::DoNotOptimize(ev.arg);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

// 16 and 64 pending are what whole runs of the catalogue keep (13 at most in
// redlock-clock-jump; about 14 at a pop in redlock-clock-drift, 65 before the
// engine swept cancelled timers). With 32-byte events the swapping binary
// heap wins at 16 pending, but a binary heap ran the drift sweep 0.95x as
// fast: a real run's pending events are not this model's.
void BM_ScheduleAndPop(benchmark::State& state) { schedule_and_pop<EventQueue>(state); }
void BM_ScheduleAndPopSwappingBinary(benchmark::State& state) { schedule_and_pop<SwappingBinaryHeap>(state); }
BENCHMARK(BM_ScheduleAndPop)->Arg(16)->Arg(64)->Arg(1 << 10)->Arg(1 << 16);
BENCHMARK(BM_ScheduleAndPopSwappingBinary)->Arg(16)->Arg(64)->Arg(1 << 10)->Arg(1 << 16);
void BM_ScheduleAndPopCalendar(benchmark::State& state) { schedule_and_pop<HoldCalendar>(state); }
BENCHMARK(BM_ScheduleAndPopCalendar)->Arg(16)->Arg(64)->Arg(1 << 10)->Arg(1 << 16);

// The same hold model through the Engine: dispatch + schedule per event.
class Holder final : public Dispatcher {
 public:
  explicit Holder(std::vector<std::int64_t> g) : gaps_(std::move(g)) {}
  void dispatch(const Event& ev) override {
    if (timers) {
      engine->schedule_timer(ev.at + Duration{gaps_[k_++ & 4095]}, ev.target, ev.arg0);
    } else {
      engine->schedule(ev.at + Duration{gaps_[k_++ & 4095]}, ev.target, ev.kind, ev.arg0);
    }
    if (--budget == 0) engine->stop();
  }
  Engine* engine = nullptr;
  bool timers = false;
  std::int64_t budget = 0;

 private:
  std::vector<std::int64_t> gaps_;
  std::size_t k_ = 0;
};

void engine_hold(benchmark::State& state, bool timers) {
  const auto n = static_cast<std::size_t>(state.range(0));
  Holder holder(gaps(n));
  Engine engine(holder);
  holder.engine = &engine;
  holder.timers = timers;
  const auto g = gaps(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (timers) {
      engine.schedule_timer(kTrueStart + Duration{g[i % g.size()]}, 0, i);
    } else {
      engine.schedule(kTrueStart + Duration{g[i % g.size()]}, 0, 1, i);
    }
  }
  constexpr std::int64_t kBatch = 4096;
  for (auto _ : state) {
    holder.budget = kBatch;
    engine.run_until(kTrueNever - Duration{1});
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * kBatch);
}

void BM_EngineHold(benchmark::State& state) { engine_hold(state, false); }
void BM_EngineHoldTimers(benchmark::State& state) { engine_hold(state, true); }
BENCHMARK(BM_EngineHold)->Arg(1 << 10)->Arg(1 << 16);
BENCHMARK(BM_EngineHoldTimers)->Arg(1 << 10)->Arg(1 << 16);

// Ping-pong: a client sends GET, the server answers, the client sends the next
// GET on the reply, forever. The models build each message in its slot
// (Process::send_built), as the Redlock client's and the Redis node's hottest
// sends do; BM_PingPongCopied builds it on the stack and copies it (send()).
enum class Sending { built, copied };

template <Sending how>
class Pinger final : public Process {
 public:
  Pinger(std::string name, ProcessId peer) : Process(std::move(name)), peer_(peer) {}
  void on_start() override { next(); }
  void on_message(const Message&) override { next(); }

 private:
  void next() {
    const std::uint64_t id = ++n_;
    if constexpr (how == Sending::built) {
      send_built<redis::Request>(peer_, [id](redis::Request& r) {
        r.request_id = id;
        r.command = redis::Command::get;
      });
    } else {
      redis::Request r;
      r.request_id = id;
      r.command = redis::Command::get;
      send(peer_, r);
    }
  }
  ProcessId peer_;
  std::uint64_t n_ = 0;
};

template <Sending how>
class Ponger final : public Process {
 public:
  using Process::Process;
  void on_message(const Message& m) override {
    const std::uint64_t id = std::get<redis::Request>(m.payload).request_id;
    if constexpr (how == Sending::built) {
      send_built<redis::Reply>(m.from, [id](redis::Reply& r) { r.request_id = id; });  // a nil reply
    } else {
      send(m.from, redis::Reply::nil_reply(id));
    }
  }
};

// |pairs| independent client/server pairs in one world, so the heap holds
// 2 x pairs messages in flight.
template <Sending how = Sending::built>
void ping_pong(benchmark::State& state, const Latency& latency, bool hashing) {
  const auto pairs = static_cast<std::uint32_t>(state.range(0));
  // Enough simulated time for ~2M events per run, whatever the pair count.
  const auto sim_span = std::chrono::duration_cast<Duration>(2000s) / pairs;
  std::uint64_t events = 0;
  std::uint64_t hash = 0;
  for (auto _ : state) {
    state.PauseTiming();
    NullTrace null_trace;
    HashingTrace hash_trace;
    TraceSink& trace = hashing ? static_cast<TraceSink&>(hash_trace) : null_trace;
    WorldPlan plan;
    plan.default_link = LinkSpec{latency, 0};
    for (std::uint32_t i = 0; i < pairs; ++i) {
      const ProcessId client = 2 * i;
      plan.add(std::make_unique<Pinger<how>>("c" + std::to_string(i), client + 1), ProcessKind::client);
      plan.add(std::make_unique<Ponger<how>>("r" + std::to_string(i)), ProcessKind::redis_node);
    }
    auto world = std::make_unique<World>(7, std::move(plan), trace);
    state.ResumeTiming();
    world->run(kTrueStart + sim_span);
    state.PauseTiming();
    events += world->events_dispatched();
    hash ^= hash_trace.hash();
    world.reset();
    state.ResumeTiming();
  }
  benchmark::DoNotOptimize(hash);
  state.SetItemsProcessed(static_cast<std::int64_t>(events));
  state.counters["events_per_run"] =
      benchmark::Counter(static_cast<double>(events) / static_cast<double>(state.iterations()));
}

void BM_PingPong(benchmark::State& state) { ping_pong(state, Latency::constant(1ms), false); }
BENCHMARK(BM_PingPong)->Arg(1)->Arg(64)->Unit(benchmark::kMillisecond);

void BM_PingPongCopied(benchmark::State& state) { ping_pong<Sending::copied>(state, Latency::constant(1ms), false); }
BENCHMARK(BM_PingPongCopied)->Arg(1)->Unit(benchmark::kMillisecond);

// The same with a random latency per message (one RNG draw + exp/log each).
void BM_PingPongLognormal(benchmark::State& state) {
  Latency l;
  l.kind = Latency::Kind::lognormal;
  l.a = 1ms;
  l.shape = 0.5;
  ping_pong(state, l, false);
}
BENCHMARK(BM_PingPongLognormal)->Arg(1)->Unit(benchmark::kMillisecond);

// The same with tracing on (every send and delivery formatted and hashed):
// what a determinism check costs compared with a sweep run.
void BM_PingPongHashingTrace(benchmark::State& state) { ping_pong(state, Latency::constant(1ms), true); }
BENCHMARK(BM_PingPongHashingTrace)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace locksim

BENCHMARK_MAIN();
