// A simulated process: a client, a Redis node, the resource.
//
// The public methods below are the narrow doorway between a model and the
// world (LevelDB's Env idea): a model reads only its own clocks, sends
// messages, sets timers on its own monotonic clock or alarms on either of its
// clocks, draws from its own random stream, records facts and reports phases.
// It never sees true time.
//
// The world drives the lifecycle: on_start once; on_message / on_timer while
// running; while paused nothing runs (deliveries and timers wait, in order);
// on_crash when it crashes (volatile state must go), on_restart when it comes
// back; on_clock_adjusted after a jump or drift change so alarms can be re-armed;
// on_triggered when a trigger it waits for comes (waiting through a pause too).
//
// REQUIRES of models: record facts *before* reporting the phase they lead to.
// A phase can trigger a fault at once; once paused, the rest of the handler's
// sends wait for the resume, and once crashed they are lost.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "sim/history/history.h"
#include "sim/core/engine.h"
#include "sim/core/rng.h"
#include "sim/core/time.h"
#include "sim/wire/message.h"

namespace locksim {

class World;

class Process {
 public:
  explicit Process(std::string name) : name_(std::move(name)) {}
  virtual ~Process() = default;
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  const std::string& name() const { return name_; }
  ProcessId id() const { return id_; }

  // --- lifecycle, called by the world ---
  virtual void on_start() {}
  virtual void on_message(const Message& message) = 0;
  virtual void on_timer(std::uint64_t /*tag*/) {}
  virtual void on_crash() {}
  virtual void on_restart() {}
  virtual void on_clock_adjusted() {}
  // A trigger the plan gave this process came (a client that starts when a
  // phase is reached or a server event happens: World::start_on).
  virtual void on_triggered() {}
  // The run is over: record any final state (the resource's quiescent state).
  virtual void on_run_end() {}

  // --- a library between the model and the network (a Redis client's script
  // cache and reconnect wait: sim/lock/redis_library.h); the world knows no
  // protocol, it only asks. ---
  // Whether every send goes through library_sends (asked when the model is made).
  virtual bool rewrites_sends() const { return false; }
  // What leaves for |to| when the model sends |payload| (an EVAL as EVALSHA).
  virtual Payload library_sends(ProcessId /*to*/, const Payload& payload) { return payload; }
  // Asked as each message of this process leaves — a send made during a
  // pause leaves at the resume — once library_may_fail_sends was called:
  // true when the library failed it unsent (it called fail_unsent).
  virtual bool library_fails(const Message& /*m*/) { return false; }

  // --- the doorway ---
  LocalTime wall_now() const;
  LocalTime monotonic_now() const;
  LocalTime clock_now(ClockKind kind) const { return kind == ClockKind::wall ? wall_now() : monotonic_now(); }
  void send(ProcessId to, const Payload& payload);
  // Sends a T made where the message waits for its delivery: |fill| sets the
  // fields of a default-made T in the message's own slot. send() copies its
  // payload, and where the model built that payload just before (field by
  // field, narrower stores than the copy's loads), the copy waits for those
  // stores to reach the cache: store-to-load forwarding cannot serve a load
  // that spans several stores. Here nothing is copied. REQUIRES: |fill|
  // only writes the T; it sends nothing and sets no timer.
  template <class T, class Fill>
  void send_built(ProcessId to, Fill&& fill) {
    const Outgoing out = begin_send(to);
    fill(out.payload->template emplace<T>());
    end_send(to, out);
  }
  // Fires when this process's monotonic clock has advanced by |local_delay|.
  TimerId set_timer(Duration local_delay, std::uint64_t tag);
  // Fires when this process's |kind| clock first reads >= |deadline|. A clock
  // fault may move that instant: re-arm in on_clock_adjusted.
  TimerId set_alarm(ClockKind kind, LocalTime deadline, std::uint64_t tag);
  void cancel_timer(TimerId id);
  Rng& rng();
  // Records |fact| at the true instant now (nothing once crashed). Inline so
  // that a fact built in the call is written straight into the history: a
  // copy of a struct written field by field moments before is a load the
  // store buffer cannot forward, and facts are on every command's path.
  template <class F>
  void record(const F& fact) {
    if (FactBody* body = begin_fact()) {
      if constexpr (std::is_same_v<F, FactBody>) *body = fact;
      else body->template emplace<F>(fact);
      end_fact();
    }
  }
  void reach(Phase phase);
  // Whether this process's last crash was of the process alone, its host up
  // (fault::Crash::process_only): what it wrote to the page cache survived,
  // and its host refuses connections while it is down.
  bool last_crash_kept_host() const;
  const std::string& name_of(ProcessId other) const;
  // From now on library_fails is asked of every message this process sends.
  void library_may_fail_sends();
  // Fails |request| unsent: |reply| reaches this process at once, through the
  // queue, as if from |request|'s receiver (the trace says "unsent").
  void fail_unsent(const Message& request, const Payload& reply);
  // A fresh id for a lock session; ids count up across the whole run so that
  // witnesses can say "session 2".
  SessionId new_session_id();

 private:
  friend class World;
  // Where send_built writes: a message slot already addressed from this
  // process to |to| (slot set), or, when send() would take its unusual path
  // (not running, a library that rewrites sends, the slab full), the world's spare
  // payload, which end_send hands to that path.
  struct Outgoing {
    Payload* payload;
    std::uint32_t slot;
  };
  static constexpr std::uint32_t kNoSlot = UINT32_MAX;
  Outgoing begin_send(ProcessId to);
  void end_send(ProcessId to, Outgoing out);
  // The new last fact of the history, to fill in; nullptr when this process
  // has crashed (a dead process records nothing).
  FactBody* begin_fact();
  void end_fact();  // traces it and fires the triggers it makes due
  World* world_ = nullptr;
  ProcessId id_ = kNoProcess;
  std::string name_;
};

}  // namespace locksim
