#include "sim/world/world.h"

#include <algorithm>
#include <cstdlib>

#include "sim/core/check.h"
#include "sim/core/run_error.h"
#include "sim/wire/refusal.h"
#include "sim/world/trace_format.h"

namespace locksim {

// ---------------------------------------------------------------- Process

LocalTime Process::wall_now() const { return world_->slots_[id_].clock.wall(world_->true_now()); }
LocalTime Process::monotonic_now() const { return world_->slots_[id_].clock.monotonic(world_->true_now()); }

void Process::send(ProcessId to, const Payload& payload) {
  World& w = *world_;
  // Every message of a run comes this way: the common case is kept free of
  // calls that would make it save registers.
  if (!w.sends_plainly(id_)) [[unlikely]]
    return w.send_unusual(id_, to, payload);
  // Written straight into its slot: a message is copied once on the way out.
  const std::uint32_t slot = w.open_message(id_, to);
  w.messages_[slot].payload = payload;
  w.transmit(slot, id_, to);
}

Process::Outgoing Process::begin_send(ProcessId to) {
  World& w = *world_;
  if (!w.sends_plainly(id_)) [[unlikely]]
    return Outgoing{&w.spare_payload_, kNoSlot};
  const std::uint32_t slot = w.open_message(id_, to);
  return Outgoing{&w.messages_[slot].payload, slot};
}

void Process::end_send(ProcessId to, Outgoing out) {
  if (out.slot == kNoSlot) [[unlikely]]
    return world_->send_unusual(id_, to, *out.payload);
  world_->transmit(out.slot, id_, to);
}

void World::send_unusual(ProcessId from, ProcessId to, const Payload& payload) {
  Slot& me = slots_[from];
  const ProcessState st = me.state;
  if (st == ProcessState::crashed) return;
  const std::uint32_t slot = open_message(from, to);
  messages_[slot].payload = me.rewrites_sends ? me.model->library_sends(to, payload) : payload;
  if (st == ProcessState::paused) {
    // Frozen mid-handler: the send happens when the process thaws.
    me.pending.push_back(Event{true_now(), 0, from, kOutgoing, slot, 0});
    return;
  }
  transmit(slot);
}

TimerId Process::set_timer(Duration local_delay, std::uint64_t tag) {
  const World& w = *world_;
  if (w.slots_[id_].state == ProcessState::crashed) return TimerId{};  // a dead handler's timers never exist
  return world_->arm(id_, saturating_add(w.true_now(), w.slots_[id_].clock.true_span(local_delay, w.true_now())), tag);
}

TimerId Process::set_alarm(ClockKind kind, LocalTime deadline, std::uint64_t tag) {
  if (world_->slots_[id_].state == ProcessState::crashed) return TimerId{};
  const TrueTime at = world_->slots_[id_].clock.when_reads(kind, deadline, world_->true_now());
  return world_->arm(id_, at == kTrueNever ? kTrueNever - Duration{1} : at, tag);  // never: not within a run
}

void Process::cancel_timer(TimerId id) {
  if (!id.valid()) return;
  world_->engine_.cancel(id);
  // A timer that fell due during a pause waits in the pending list; cancelling
  // it there is as good as cancelling it in the queue.
  auto& pending = world_->slots_[id_].pending;
  if (pending.empty()) return;  // the common case: the process is not paused
  pending.erase(std::remove_if(pending.begin(), pending.end(),
                               [&](const Event& e) { return e.kind == World::kDeferredTimer && e.arg1 == timer_bits(id); }),
                pending.end());
}
Rng& Process::rng() {
  World::Slot& s = world_->slots_[id_];
  if (!s.rng) s.rng = Rng::derive(world_->model_stream_seed_, s.rng_name);
  return *s.rng;
}

FactBody* Process::begin_fact() {
  if (world_->slots_[id_].state == ProcessState::crashed) return nullptr;
  return &world_->append_fact();
}

void Process::end_fact() { world_->fact_appended(); }

void Process::reach(Phase phase) {
  if (world_->slots_[id_].state == ProcessState::crashed) return;
  world_->phase_reached(id_, phase);
}

const std::string& Process::name_of(ProcessId other) const { return world_->history_.name_of(other); }
SessionId Process::new_session_id() { return world_->next_session_++; }
bool Process::last_crash_kept_host() const { return world_->slots_[id_].process_crash; }

void Process::library_may_fail_sends() {
  world_->slots_[id_].library_may_fail = true;
  world_->libraries_may_fail_ = true;
}

void Process::fail_unsent(const Message& request, const Payload& reply) {
  World& w = *world_;
  const Message refusal{request.to, request.from, reply};
  if (w.tracing_) w.trace_message("unsent", request);
  // |request| may live in the slab store() grows: nothing reads it from here on.
  w.engine_.schedule(w.true_now(), refusal.to, World::kLocal, w.store(refusal));
}

// ---------------------------------------------------------------- World

TimerId World::arm(ProcessId p, TrueTime at, std::uint64_t tag) {
  const TimerId id = engine_.schedule_timer(at, p, tag);
  // A timer belongs to one life of its process: after a crash it is stale.
  if (timer_incarnation_.size() <= id.slot) timer_incarnation_.resize(id.slot + 1);
  timer_incarnation_[id.slot] = slots_[p].incarnation;
  return id;
}


void World::schedule_fault(TrueTime at, FaultAction action, std::uint32_t fault) {
  schedule_control(at, Control{NamedFault{std::move(action), fault}});
}


void World::on_trigger(const Trigger& trigger, FaultAction action, std::uint32_t fault) {
  trigger_actions_.push_back(Control{NamedFault{std::move(action), fault}});
  triggers_.arm(trigger, static_cast<std::uint32_t>(trigger_actions_.size() - 1));
}

void World::on_phase(ProcessId process, Phase phase, Duration delay, FaultAction action, int occurrence,
                     std::uint32_t fault) {
  on_trigger(Trigger{process, phase, delay, occurrence}, std::move(action), fault);
}

void World::start_on(const Trigger& trigger, ProcessId client) {
  LOCKSIM_CHECK(slots_[client].kind == ProcessKind::client, "only a client starts on a trigger");
  trigger_actions_.push_back(Control{Begin{client}});
  triggers_.arm(trigger, static_cast<std::uint32_t>(trigger_actions_.size() - 1));
}

void World::fire(const NamedFault& named) {
  const std::uint32_t fault = named.fault;  // |named| may live in controls_, which apply() can grow
  const bool took_effect = apply(named.action);
  if (fault != kUnnamedFault) record_fact(FaultFired{fault, took_effect});
}

void World::fresh_randomness_from(TrueTime at, std::uint64_t seed) { schedule_control(at, Reseed{seed}); }

void World::schedule_control(TrueTime at, Control control) {
  if (std::holds_alternative<Heal>(control)) heals_.push_back(at);
  controls_.push_back(std::move(control));
  engine_.schedule(at, 0, kControl, controls_.size() - 1);
}

TrueTime World::next_heal() const {
  TrueTime next = kTrueNever;
  for (const TrueTime at : heals_) next = std::min(next, at);
  return next;
}

void World::run(TrueTime until) {
  LOCKSIM_CHECK(!ran_, "a World runs once (then reset() may make it ready for another run)");
  ran_ = true;
  if (network_) {
    network_->reset(seed_);
  } else {
    std::vector<std::string> names;
    for (const auto& p : history_.processes) names.push_back(p.name);
    network_ = std::make_unique<Network>(names, default_link_, seed_);
  }
  for (const auto& [from, to, spec] : link_overrides_) network_->set_link(from, to, spec);
  until_ = until;
  if (start_clocks_fine_until_ != until) {
    for (ProcessId p = 0; p < slots_.size(); ++p) check_clock_range(p);
    start_clocks_fine_until_ = until;
  }
  for (ProcessId p = 0; p < slots_.size(); ++p) engine_.schedule(kTrueStart, p, kStart);
  if (tracing_) trace_.line(run_header_json(seed_, history_));
  engine_.run_until(until);
  if (engine_.budget_exhausted())
    throw RunError("the run stopped after " + std::to_string(engine_.events_dispatched()) + " events at " +
                   human_duration(true_now().time_since_epoch()) + " of " + human_duration(until.time_since_epoch()) +
                   ", its event budget ([scenario] max_events); a retry with no delay over links with no latency, "
                   "or a very long run_for, can need that many: raise max_events or look for the loop");
  finish();
}

void World::check_clock_range(ProcessId p) const {
  const Slot& s = slots_[p];
  const TrueTime now = std::min(true_now(), until_);
  if (s.clock.farthest_reading(now, until_) <= kMaxClockReading.count()) return;
  throw RunError(s.model->name() + "'s clock would read more than " + human_duration(kMaxClockReading) +
                 " from zero before the run ends (at " + human_duration(now.time_since_epoch()) +
                 ", after its offset, drift and jumps so far); a clock reads at most ±" +
                 human_duration(kMaxClockReading));
}

std::uint32_t World::store(const Message& m) {
  const Message copy = m;  // |m| may live in the slab that taking a slot grows
  const std::uint32_t slot = messages_.take();
  messages_[slot] = copy;
  return slot;
}

void World::transmit(std::uint32_t message_slot) {
  const Message& m = messages_[message_slot];
  transmit(message_slot, m.from, m.to);
}

void World::transmit(std::uint32_t message_slot, ProcessId from, ProcessId to) {
  TrueTime arrival;
  // The common case, kept free of calls but the last: no trace, no library
  // that may fail a send, a link already used with a fixed latency and no
  // loss. The ends come in registers: read back from the message just
  // written, they would lengthen the chain of loads every message waits on.
  if (tracing_ || libraries_may_fail_ || !network_->fixed_arrival(from, to, true_now(), arrival)) [[unlikely]]
    return transmit_unusual(message_slot);
  if (network_->judge(from, to) == Network::Verdict::drop) [[unlikely]]
    return transmit_dropped(message_slot, from, to, arrival);
  engine_.schedule(arrival, to, kDeliver, delivery_arg(message_slot, from));
}

void World::transmit_dropped(std::uint32_t message_slot, ProcessId from, ProcessId to, TrueTime arrival) {
  // When no partition heals before the message arrives, the drop is certain:
  // only a heal can save it (a partition that starts meanwhile cannot, since
  // drop wins over hold), and every heal is queued when its partition starts.
  // Its delivery is then only counted (Engine::count_ahead), as
  // deliver_partitioned would count it and free it. In redlock-clock-drift
  // one delivery in five is such a drop (c2 is cut from two of the five
  // nodes); queueing and handing each over cost the sweep 3 % of its time.
  // Untraced only (transmit): a trace writes the drop at arrival.
  // One arriving after the run is never delivered nor counted.
  if (arrival < next_heal() && (arrival > until_ || engine_.count_ahead(arrival, to, kDropped))) {
    messages_.release(message_slot);
    return;
  }
  engine_.schedule(arrival, to, kDeliver, delivery_arg(message_slot, from));
}

void World::transmit_unusual(std::uint32_t message_slot) {
  // Read in place, not copied: nothing below stores a message while |m| is
  // still read (Process::fail_unsent copies what it needs before it stores).
  const Message& m = messages_[message_slot];
  if (Slot& from = slots_[m.from]; from.library_may_fail && from.model->library_fails(m)) {
    messages_.release(message_slot);
    return;
  }
  const TrueTime arrival = network_->schedule(m.from, m.to, true_now());
  if (arrival == Network::kLost) {
    if (tracing_) trace_message("lost", m);
    messages_.release(message_slot);
    return;
  }
  if (tracing_) trace_message("send", m);
  engine_.schedule(arrival, m.to, kDeliver, delivery_arg(message_slot, m.from));
}

void World::dispatch(const Event& ev) {
  switch (ev.kind) {
    case Engine::kTimerKind: {
      Slot& s = slots_[ev.target];
      const std::uint32_t slot = timer_from_bits(ev.arg1).slot;
      if (slot >= timer_incarnation_.size() || timer_incarnation_[slot] != s.incarnation) return;
      if (s.state == ProcessState::crashed) return;
      if (s.state == ProcessState::paused) {
        s.pending.push_back(Event{ev.at, 0, ev.target, kDeferredTimer, ev.arg0, ev.arg1});
        return;
      }
      s.model->on_timer(ev.arg0);
      return;
    }
    case kDeliver: deliver(ev); return;
    case kDropped: return;  // counted ahead, then queued again for the budget: already freed
    case kLocal: {
      const auto slot = static_cast<std::uint32_t>(ev.arg0);
      return hand_over(ev, slot, messages_[slot]);
    }
    case kControl: {
      // Moved out (each control runs once): applying it may schedule more
      // controls and move controls_.
      const Control control = std::move(controls_[ev.arg0]);
      if (std::holds_alternative<Heal>(control)) {  // no longer to come: it is happening
        const auto it = std::find(heals_.begin(), heals_.end(), ev.at);
        LOCKSIM_CHECK(it != heals_.end(), "every heal to come is listed");
        heals_.erase(it);
      }
      run_control(control);
      return;
    }
    case kStart: {
      Slot& s = slots_[ev.target];
      if (s.state == ProcessState::paused) s.pending.push_back(ev);  // starts when it thaws
      if (s.state == ProcessState::running) s.model->on_start();
      return;
    }
    default: LOCKSIM_CHECK(false, "unknown event kind");
  }
}

void World::run_waiting(ProcessId p, const Event& ev) {
  Slot& s = slots_[p];
  switch (ev.kind) {
    case kDeliver:
    case kLocal: {
      // It reached the host before or during the pause: the network has had
      // its say, so no partition judges it again.
      const auto slot = static_cast<std::uint32_t>(ev.arg0);
      return receive(s, slot, messages_[slot]);
    }
    case kDeferredTimer: s.model->on_timer(ev.arg0); return;
    case kOutgoing: transmit(static_cast<std::uint32_t>(ev.arg0)); return;
    case kStart: s.model->on_start(); return;
    case kClockAdjusted: s.model->on_clock_adjusted(); return;
    case kTriggered: s.model->on_triggered(); return;
    default: LOCKSIM_CHECK(false, "unknown waiting event kind");
  }
}

void World::deliver(const Event& ev) {
  const auto slot = static_cast<std::uint32_t>(ev.arg0);
  if (network_->partitioned()) [[unlikely]]
    return deliver_partitioned(ev, slot);
  hand_over(ev, slot, messages_[slot]);
}

void World::deliver_partitioned(const Event& ev, std::uint32_t slot) {
  // In place: hand_over reads it before anything can store a message.
  const Message& m = messages_[slot];
  std::uint32_t holder = 0;
  switch (network_->judge(delivery_sender(ev.arg0), ev.target, &holder)) {
    case Network::Verdict::drop:
      if (tracing_) trace_message("partition-drop", m);
      messages_.release(slot);
      return;
    case Network::Verdict::hold:
      if (tracing_) trace_message("partition-hold", m);
      if (held_.size() <= holder) held_.resize(holder + 1);
      held_[holder].push_back(slot);
      return;
    case Network::Verdict::deliver: break;
  }
  hand_over(ev, slot, m);
}

void World::hand_over(const Event& ev, std::uint32_t slot, const Message& m) {
  // In place: receive copies it before the handler runs (the handler may
  // grow the slab).
  Slot& s = slots_[m.to];
  if (s.state != ProcessState::running) [[unlikely]]
    return hand_over_stopped(ev, slot, m, s);
  receive(s, slot, m);
}

void World::hand_over_stopped(const Event& ev, std::uint32_t slot, const Message& m, Slot& s) {
  if (s.state == ProcessState::paused) {
    s.pending.push_back(ev);
    return;
  }
  if (std::optional<Payload> refusal = s.process_crash ? refusal_for(m.payload) : std::nullopt) {
    // The host is up and its kernel answers for the dead server process.
    if (tracing_) trace_message("refused", m);
    transmit(store(Message{m.to, m.from, std::move(*refusal)}));
  } else if (tracing_) {
    trace_message("drop-crashed", m);
  }
  messages_.release(slot);
}

void World::receive(Slot& s, std::uint32_t slot, const Message& message) {
  const Message m = message;  // copied: the slot is freed before the handler runs
  messages_.release(slot);
  if (tracing_) [[unlikely]]
    trace_message("deliver", m);
  s.model->on_message(m);
}

void World::begin(ProcessId client) {
  Slot& s = slots_[client];
  switch (s.state) {
    case ProcessState::running: s.model->on_triggered(); return;
    case ProcessState::paused: s.pending.push_back(Event{true_now(), 0, client, kTriggered, 0, 0}); return;
    case ProcessState::crashed: return;  // a crashed client stays down
  }
}

void World::phase_reached(ProcessId p, Phase phase) {
  record_fact(PhaseReached{p, phase});
  for (const TriggerTable::Due& due : triggers_.phase_reached(p, phase)) {
    const Control& action = trigger_actions_[due.action];  // armed before the run: it does not move
    const auto* named = std::get_if<NamedFault>(&action);
    if (named != nullptr && due.delay <= Duration{0}) {
      fire(*named);
    } else {
      schedule_control(saturating_add(true_now(), due.delay), action);
    }
  }
}

void World::record_fact(const FactBody& fact) {
  append_fact() = fact;
  fact_appended();
}

FactBody& World::append_fact() {
  if (history_.facts.size() >= max_facts_)
    throw RunError("the run recorded " + std::to_string(history_.facts.size()) + " facts by " +
                   human_duration(true_now().time_since_epoch()) + " of " + human_duration(until_.time_since_epoch()) +
                   ", its history budget ([scenario] max_facts); raise max_facts, shorten run_for or slow the "
                   "retries down");
  // Made in place and then stamped: a whole Fact built aside and copied in
  // would be the store-forwarding stall this split avoids.
  Fact& fact = history_.facts.emplace_back();
  fact.at = true_now();
  return fact.body;
}

void World::fact_appended() {
  const Fact& fact = history_.facts.back();
  if (tracing_) trace_.line(fact_json(fact, history_));
  // Server events: never inside the recording handler (see on_trigger).
  for (const TriggerTable::Due& due : triggers_.fact_recorded(fact.body, history_.processes))
    schedule_control(saturating_add(true_now(), due.delay), trigger_actions_[due.action]);
}

void World::trace_message(const char* what, const Message& m) {
  trace_.line(message_json(true_now(), what, m, history_));
}

void World::finish() {
  if (finished_) return;
  finished_ = true;
  for (ProcessId p = 0; p < slots_.size(); ++p)
    if (slots_[p].state != ProcessState::crashed) slots_[p].model->on_run_end();
  for (const FaultSpan& open : spans_.close_all()) record_fact(open);
  record_fact(RunEnded{});
  // The promised window of each grant ends when the client's own clock
  // reaches the lease end — a true instant only the world can compute, now
  // that every clock fault of the run is known.
  for (Fact& f : history_.facts) {
    if (auto* g = std::get_if<LockGranted>(&f.body)) {
      g->promised_end = slots_[g->client].clock.when_reads(g->clock, g->lease_end_local, f.at);
      if (tracing_) trace_.line(promise_json(f, history_, true_now()));
    } else if (auto* e = std::get_if<LockExtended>(&f.body)) {
      e->promised_end = slots_[e->client].clock.when_reads(e->clock, e->lease_end_local, f.at);
      if (tracing_) trace_.line(promise_json(f, history_, true_now()));
    }
  }
  if (tracing_)
    for (ProcessId p = 0; p < slots_.size(); ++p) trace_.line(clock_json(true_now(), p, slots_[p].clock, history_));
}

}  // namespace locksim
