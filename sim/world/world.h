// The world: processes, their clocks, the network and the fault schedule on
// top of the engine. It is the only place where true time meets the models:
// it turns a model's local deadlines into true instants, stamps every recorded
// fact with true time and writes the trace.
//
// Lifecycle of one run: a WorldPlan (plan.h) -> World -> run() -> history().
// A World runs once; a world built from a plan whose processes have makers
// may then be reset for another seed and run again (reset): what a sweep
// does seed after seed instead of building a new world each time. A test
// that needs a world of a few hand-made processes writes a plan as well
// (WorldPlan::add gives each its id), then may schedule faults, then run().
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/container/deque.hpp>

#include "sim/history/history.h"
#include "sim/core/engine.h"
#include "sim/core/limits.h"
#include "sim/core/rng.h"
#include "sim/core/trace.h"
#include "sim/world/clock.h"
#include "sim/world/fault.h"
#include "sim/wire/message.h"
#include "sim/world/message_slab.h"
#include "sim/world/network.h"
#include "sim/world/open_spans.h"
#include "sim/world/plan.h"
#include "sim/world/process.h"
#include "sim/world/trigger.h"

namespace locksim {

enum class ProcessState : std::uint8_t { running, paused, crashed };

class World final : private Dispatcher {
 public:
  // A world ready to run: everything |plan| says, in one step. The only way
  // to make one — a scenario's planner and every test write a plan — so that
  // what a world is made of (its processes at their ids, links, keys,
  // budgets, faults) has one path in.
  World(std::uint64_t seed, WorldPlan plan, TraceSink& trace);
  ~World() override;

  // --- before run() ---
  ProcessId find(const std::string& name) const;  // kNoProcess when absent
  // The id of the key called |key|, added to the history's names when new
  // (a differential test meets keys as the commands name them).
  redis::KeyId intern_key(const std::string& key);
  // The verbs below schedule what a plan's faults and starts do; tests call
  // them directly for faults no scenario could name.
  void schedule_fault(TrueTime at, FaultAction action, std::uint32_t fault = kUnnamedFault);
  // Fires |action| when |trigger| comes: at a client's phase with no delay,
  // inside the handler that reached it (a pause freezes the client between
  // two steps, as a GC pause would); otherwise as a control event at the
  // trigger's instant plus its delay. A server event never fires inside the
  // handler that recorded it, even with no delay: the fault comes at the same
  // true instant, once the server has finished what it was doing (a crash
  // cannot cut a node's own expiry or promotion in half).
  void on_trigger(const Trigger& trigger, FaultAction action, std::uint32_t fault = kUnnamedFault);
  // Fires |action| |delay| after the |occurrence|-th time |process| reaches |phase|.
  void on_phase(ProcessId process, Phase phase, Duration delay, FaultAction action, int occurrence = 1,
                std::uint32_t fault = kUnnamedFault);
  // Tells |client| (Process::on_triggered) that its start has come when
  // |trigger| does: a control event at the trigger's instant plus its delay,
  // which waits through a pause like a delivery and is lost on a crash.
  void start_on(const Trigger& trigger, ProcessId client);
  static constexpr std::uint32_t kUnnamedFault = UINT32_MAX;
  // From |at| on, every random draw (each process's model stream, each
  // link's latency and loss) comes from streams derived from |seed| instead
  // of the run's: the run up to |at| is the one the run's seed gives, what
  // follows is a fresh sample. How a search asks "once this fault has
  // happened, how likely is the violation?".
  void fresh_randomness_from(TrueTime at, std::uint64_t seed);

  // Makes this world what World(seed, plan, trace) would be for the plan it
  // was built from with this seed's |faults| (Planner::faults; a search's
  // candidate brings other faults, and the history then names them): every model
  // made anew by its maker, every clock, queue, table and the history as
  // they were before the first run. Whatever state the last run left, even
  // one that stopped with a RunError. REQUIRES: built from a plan whose
  // processes all have makers.
  void reset(std::uint64_t seed, const std::vector<PlannedFault>& faults);

  // --- running ---
  void run(TrueTime until);
  TrueTime true_now() const { return engine_.true_now(); }
  std::uint64_t seed() const { return seed_; }
  const History& history() const { return history_; }
  History take_history() { return std::move(history_); }
  // Hands the history out in |other| and keeps |other|'s old one, whose
  // buffers the next reset fills again (RepeatedRuns: no history allocated
  // per run).
  void swap_history(History& other) { std::swap(history_, other); }
  std::uint64_t events_dispatched() const { return engine_.events_dispatched(); }

  // --- fault verbs (also usable directly by tests) ---
  // Returns whether the action changed anything (see FaultFired).
  bool apply(const FaultAction& action);
  ProcessState state(ProcessId p) const { return slots_[p].state; }
  const Clock& clock(ProcessId p) const { return slots_[p].clock; }
  Process& process(ProcessId p) { return *slots_[p].model; }
  std::size_t process_count() const { return slots_.size(); }

 private:
  friend class Process;
  ProcessId add(std::unique_ptr<Process> process, ProcessKind kind, Clock clock);
  void set_link(ProcessId from, ProcessId to, const LinkSpec& spec);
  // A run dispatches at most |max_events| events and records at most
  // |max_facts| facts; more stops it with a RunError (core/run_error.h).
  void set_budgets(std::uint64_t max_events, std::uint64_t max_facts);
  // kLocal: a message that never crosses the network (a connection the
  // sender's own library knows is down), handed over as it is.
  enum EventKind : std::uint32_t {
    kDeliver = 1,
    kControl,
    kDeferredTimer,
    kOutgoing,
    kStart,
    kClockAdjusted,
    kTriggered,
    kLocal,
    kDropped,  // a partition-dropped delivery counted ahead, queued again (Engine::count_ahead)
  };
  struct Slot {
    std::unique_ptr<Process> model;
    Clock clock;
    ProcessKind kind;
    ProcessState state = ProcessState::running;
    std::uint32_t incarnation = 0;
    TrueTime paused_until{};
    // What waits for the end of a pause, in order. Boost's deque allocates
    // nothing until the first push (std::deque allocates on construction, for
    // every process of every run, though few ever pause).
    boost::container::deque<Event> pending;
    // The model's stream, derived from model_stream_seed_ and |rng_name|
    // when the model first draws: most models never do (a Redis node, the
    // resource), and a run should not pay for streams nobody reads.
    std::optional<Rng> rng;
    Rng::StreamName rng_name{};
    bool process_crash = false;  // its last crash left the host up (fault::Crash::process_only)
    // Its model has a library that rewrites every send (Process::rewrites_sends).
    bool rewrites_sends = false;
    // ... that may fail a send unsent (Process::library_may_fail_sends).
    bool library_may_fail = false;
  };
  struct Resume {
    ProcessId target;
  };
  struct Heal {
    std::uint32_t partition;
  };
  struct Reseed {
    std::uint64_t seed;
  };
  // A scenario fault: the action and the index of its name.
  struct NamedFault {
    FaultAction action;
    std::uint32_t fault;
  };
  // A client whose start waited for a trigger.
  struct Begin {
    ProcessId client;
  };
  using Control = std::variant<FaultAction, NamedFault, Resume, Heal, Reseed, Begin>;

  void dispatch(const Event& ev) override;
  TimerId arm(ProcessId p, TrueTime at, std::uint64_t tag);
  // The functions on every message's path (send, transmit, deliver,
  // hand_over, receive) handle the common case and leave the rest to a
  // separate function (*_unusual, deliver_partitioned, hand_over_stopped):
  // a cold branch that calls out would make the compiler save
  // registers on every message, the common one included.
  void deliver(const Event& ev);
  // A delivery's argument: the message's slot, and its sender above it, so
  // that a partition's verdict for the pair is looked up from the event
  // alone, without waiting for the message to be loaded.
  static std::uint64_t delivery_arg(std::uint32_t slot, ProcessId from) {
    return (static_cast<std::uint64_t>(from) << 32) | slot;
  }
  static ProcessId delivery_sender(std::uint64_t arg) { return static_cast<ProcessId>(arg >> 32); }
  // deliver while a partition is active: it may drop or hold the message.
  void deliver_partitioned(const Event& ev, std::uint32_t slot);
  // Gives a message that reached its host to the process (or its pause queue).
  void hand_over(const Event& ev, std::uint32_t slot, const Message& m);
  // ... to a process that is paused (it waits) or crashed (dropped, or refused
  // by the host when only the process died).
  void hand_over_stopped(const Event& ev, std::uint32_t slot, const Message& m, Slot& s);
  // The process handles the message now.
  void receive(Slot& s, std::uint32_t slot, const Message& m);
  // Process::send for a process that is not running, whose library rewrites
  // its sends, or when no slot is free (the slab grows).
  void send_unusual(ProcessId from, ProcessId to, const Payload& payload);
  // Whether a send from |from| takes the common path (send, send_built): the
  // process running, no library that rewrites its sends, a slot free.
  bool sends_plainly(ProcessId from) const {
    const Slot& me = slots_[from];
    return me.state == ProcessState::running && !me.rewrites_sends && messages_.has_free();
  }
  // A slot taken for a message from |from| to |to|, its payload still to
  // write: both ways of sending start so.
  std::uint32_t open_message(ProcessId from, ProcessId to) {
    const std::uint32_t slot = messages_.take();
    messages_[slot].from = from;
    messages_[slot].to = to;
    return slot;
  }
  // The plan's faults and client starts, armed or scheduled in plan order.
  void arm_plan(const std::vector<PlannedFault>& faults);
  void run_waiting(ProcessId p, const Event& ev);
  void transmit(std::uint32_t message_slot);
  void transmit(std::uint32_t message_slot, ProcessId from, ProcessId to);
  // transmit when traced, when some process's library may fail a send, or
  // when the link is new, random or lossy.
  void transmit_unusual(std::uint32_t message_slot);
  // transmit of a message the partitions in force will drop on arrival:
  // counted, not queued, when no partition heals before then.
  void transmit_dropped(std::uint32_t message_slot, ProcessId from, ProcessId to, TrueTime arrival);
  // The earliest queued Heal: kTrueNever when none.
  TrueTime next_heal() const;
  void run_control(const Control& control);
  // apply(), one fault kind each (world_faults.cc).
  bool apply_fault(const fault::Pause& f);
  bool apply_fault(const fault::Crash& f);
  bool apply_fault(const fault::Restart& f);
  bool apply_fault(const fault::ClockJump& f);
  bool apply_fault(const fault::ClockDrift& f);
  bool apply_fault(const fault::ClockSlew& f);
  bool apply_fault(const fault::Partition& f);
  [[noreturn]] bool apply_fault(const fault::PlantedCrash& f);  // test-only: aborts
  void schedule_control(TrueTime at, Control control);
  void fire(const NamedFault& named);
  void begin(ProcessId client);
  void resume(ProcessId p);
  bool restart(ProcessId p);
  void clock_changed(ProcessId p);
  // Records the open span of |what| on |target| (or |partition|) as ended
  // for |why|; nothing when none was open.
  void end_span(SpanKind what, ProcessId target, std::uint32_t partition, SpanEnd why);
  void phase_reached(ProcessId p, Phase phase);
  void record_fact(const FactBody& fact);
  // record_fact in two steps, for Process::record to fill the fact in place:
  // the new last fact (after the budget check), then its trace and triggers.
  FactBody& append_fact();
  void fact_appended();
  // Throws RunError when |p|'s clock could read past kMaxClockReading before
  // the run ends (a clock fault drove it there).
  void check_clock_range(ProcessId p) const;
  std::uint32_t store(const Message& m);
  void trace_message(const char* what, const Message& m);
  void finish();

  std::uint64_t seed_;
  // What every model's stream derives from: the run's seed, or a fresh one
  // from a Reseed on (fresh_randomness_from), when each stream is emptied.
  std::uint64_t model_stream_seed_;
  TraceSink& trace_;
  const bool tracing_;  // trace_.enabled(), asked once: it is on every message's path
  Engine engine_;
  std::vector<Slot> slots_;
  std::unique_ptr<Network> network_;
  LinkSpec default_link_;
  std::vector<std::tuple<ProcessId, ProcessId, LinkSpec>> link_overrides_;
  // Some process's library may fail a send (Slot::library_may_fail): then
  // every send takes transmit_unusual, which asks.
  bool libraries_may_fail_ = false;
  MessageSlab messages_;
  Payload spare_payload_;  // Process::send_built's payload when it takes send_unusual's path
  std::vector<Control> controls_;
  std::vector<TrueTime> heals_;  // when each queued Heal runs
  TriggerTable triggers_;
  std::vector<Control> trigger_actions_;  // what each armed trigger does, by the action id it was armed with
  std::vector<std::vector<std::uint32_t>> held_;  // per partition: held message slots, in order
  OpenSpans spans_;
  std::vector<std::uint32_t> timer_incarnation_;  // per engine timer slot
  History history_;
  SessionId next_session_ = 1;
  bool ran_ = false;  // run() was called (since the last reset)
  bool finished_ = false;
  // The end of the run; before run() is called (tests applying faults by
  // hand), the longest run there can be.
  TrueTime until_ = kTrueStart + kMaxDuration;
  std::uint64_t max_facts_ = kDefaultMaxFacts;
  // The plan's client starts (armed again on a reset) and what else reset()
  // starts from: the makers, the clocks and the history as built (no facts
  // yet), kept only when the plan was resettable.
  std::vector<PlannedProcess::Maker> makers_;
  std::vector<Clock> initial_clocks_;
  // The |until| for which the clocks a run starts with passed the range
  // check: a reset restores the plan's clocks whatever the seed, so a
  // sweep's cell checks them in its first run only.
  std::optional<TrueTime> start_clocks_fine_until_;
  std::vector<PlannedStart> starts_;
  History blank_history_;
};

}  // namespace locksim
