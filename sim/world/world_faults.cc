// How the world applies faults and its own control events (a resume, a
// heal, a reseed, a client's delayed start): what each fault does to a
// process, a clock or the network, the facts it records, and the spans it
// opens and closes (FaultSpan).
#include <cstdlib>

#include "sim/world/world.h"

namespace locksim {

void World::run_control(const Control& control) {
  if (const auto* action = std::get_if<FaultAction>(&control)) {
    apply(*action);
  } else if (const auto* named = std::get_if<NamedFault>(&control)) {
    fire(*named);
  } else if (const auto* r = std::get_if<Resume>(&control)) {
    resume(r->target);
  } else if (const auto* b = std::get_if<Begin>(&control)) {
    begin(b->client);
  } else if (const auto* fresh = std::get_if<Reseed>(&control)) {
    model_stream_seed_ = fresh->seed;  // each model's next draw comes from the fresh seed's stream
    for (Slot& slot : slots_) slot.rng.reset();
    network_->reseed(fresh->seed);
  } else if (const auto* h = std::get_if<Heal>(&control)) {
    if (!network_->active(h->partition)) return;
    network_->heal(h->partition);
    record_fact(FaultApplied{.kind = FaultKind::heal, .partition = h->partition});
    end_span(SpanKind::partitioned, kNoProcess, h->partition, SpanEnd::healed);
    if (h->partition < held_.size()) {
      // Held messages arrive now, in the order they were held, before any
      // later message on their link that is due at this same instant.
      std::vector<std::uint32_t> held;
      held.swap(held_[h->partition]);
      for (std::uint32_t slot : held)
        deliver(Event{true_now(), 0, messages_[slot].to, kDeliver, delivery_arg(slot, messages_[slot].from), 0});
    }
  }
}

bool World::apply(const FaultAction& action) {
  return std::visit([&](const auto& f) { return apply_fault(f); }, action);
}

bool World::apply_fault(const fault::Pause& f) {
  const TrueTime now = true_now();
  Slot& s = slots_[f.target];
  if (s.state == ProcessState::crashed) return false;
  const TrueTime until = saturating_add(now, f.length);
  const bool longer = s.state != ProcessState::paused || s.paused_until < until;
  const TrueTime resumes = longer ? until : s.paused_until;
  record_fact(FaultApplied{.kind = FaultKind::pause, .target = f.target, .length = f.length, .until = resumes});
  if (!longer) return false;
  spans_.open(FaultSpan{.what = SpanKind::paused, .target = f.target, .from = now});
  s.state = ProcessState::paused;
  s.paused_until = until;
  schedule_control(until, Resume{f.target});
  return true;
}

bool World::apply_fault(const fault::Crash& f) {
  const TrueTime now = true_now();
  Slot& s = slots_[f.target];
  if (s.state == ProcessState::crashed) return false;
  const TrueTime restarts = f.down_for >= Duration{0} ? saturating_add(now, f.down_for) : kTrueNever;
  record_fact(FaultApplied{.kind = FaultKind::crash, .target = f.target, .down_for = f.down_for, .until = restarts});
  end_span(SpanKind::paused, f.target, 0, SpanEnd::crashed);
  spans_.open(FaultSpan{.what = SpanKind::down, .target = f.target, .from = now});
  s.process_crash = f.process_only;  // before on_crash: a model may ask what survives
  s.model->on_crash();
  s.state = ProcessState::crashed;
  ++s.incarnation;  // every timer of the old life is now stale
  for (const Event& e : s.pending)
    if (e.kind == kDeliver || e.kind == kOutgoing || e.kind == kLocal)
      messages_.release(static_cast<std::uint32_t>(e.arg0));
  s.pending.clear();
  if (restarts != kTrueNever) schedule_control(restarts, Control{FaultAction{fault::Restart{f.target}}});
  return true;
}

bool World::apply_fault(const fault::Restart& f) {
  return restart(f.target);
}

bool World::apply_fault(const fault::ClockJump& f) {
  const TrueTime now = true_now();
  slots_[f.target].clock.jump_wall(now, f.by);
  record_fact(FaultApplied{.kind = FaultKind::clock_jump, .target = f.target, .by = f.by});
  check_clock_range(f.target);
  clock_changed(f.target);
  return true;
}

bool World::apply_fault(const fault::ClockDrift& f) {
  const TrueTime now = true_now();
  slots_[f.target].clock.set_drift(now, f.drift_ppm);
  record_fact(FaultApplied{.kind = FaultKind::clock_drift, .target = f.target, .drift_ppm = f.drift_ppm});
  end_span(SpanKind::slewed, f.target, 0, SpanEnd::rate_changed);
  check_clock_range(f.target);
  clock_changed(f.target);
  return true;
}

bool World::apply_fault(const fault::ClockSlew& f) {
  const TrueTime now = true_now();
  Slot& s = slots_[f.target];
  const std::int64_t before = s.clock.drift_ppm(now);
  s.clock.set_drift(now, f.drift_ppm);
  const TrueTime ends = saturating_add(now, f.length);
  record_fact(FaultApplied{
      .kind = FaultKind::clock_slew, .target = f.target, .length = f.length, .drift_ppm = f.drift_ppm, .until = ends});
  end_span(SpanKind::slewed, f.target, 0, SpanEnd::rate_changed);
  spans_.open(FaultSpan{.what = SpanKind::slewed, .target = f.target, .from = now, .drift_ppm = f.drift_ppm});
  check_clock_range(f.target);
  clock_changed(f.target);
  schedule_control(ends, Control{FaultAction{fault::ClockDrift{f.target, before}}});
  return true;
}

bool World::apply_fault(const fault::Partition& f) {
  const TrueTime now = true_now();
  const std::uint32_t id = network_->partition(f.groups.get(), f.mode);
  if (history_.partition_groups.size() <= id) history_.partition_groups.resize(id + 1);
  history_.partition_groups[id] = f.groups;
  const bool hold = f.mode == PartitionMode::hold;
  const TrueTime heals = f.heal_after >= Duration{0} ? saturating_add(now, f.heal_after) : kTrueNever;
  record_fact(FaultApplied{.kind = FaultKind::partition, .partition = id, .hold = hold, .until = heals});
  spans_.open(FaultSpan{.what = SpanKind::partitioned, .hold = hold, .partition = id, .from = now});
  if (heals != kTrueNever) schedule_control(heals, Heal{id});
  return true;
}

bool World::apply_fault(const fault::PlantedCrash&) {
  std::abort();
}

void World::resume(ProcessId p) {
  Slot& s = slots_[p];
  if (s.state != ProcessState::paused || true_now() < s.paused_until) return;
  s.state = ProcessState::running;
  record_fact(FaultApplied{.kind = FaultKind::resume, .target = p});
  end_span(SpanKind::paused, p, 0, SpanEnd::resumed);
  // Everything that waited runs now, in the order it arrived and before
  // anything else due at this instant (per-link FIFO). A handler that pauses
  // the process again leaves the rest waiting; one that crashes it, lost.
  while (!s.pending.empty() && s.state == ProcessState::running) {
    const Event next = s.pending.front();
    s.pending.pop_front();
    run_waiting(p, next);
  }
}

bool World::restart(ProcessId p) {
  Slot& s = slots_[p];
  if (s.state != ProcessState::crashed) return false;
  s.state = ProcessState::running;
  record_fact(FaultApplied{.kind = FaultKind::restart, .target = p});
  end_span(SpanKind::down, p, 0, SpanEnd::restarted);
  s.model->on_restart();
  return true;
}

void World::end_span(SpanKind what, ProcessId target, std::uint32_t partition, SpanEnd why) {
  if (std::optional<FaultSpan> span = spans_.close(what, target, partition, why)) record_fact(*span);
}

void World::clock_changed(ProcessId p) {
  Slot& s = slots_[p];
  switch (s.state) {
    case ProcessState::running: s.model->on_clock_adjusted(); return;
    case ProcessState::paused: s.pending.push_back(Event{true_now(), 0, p, kClockAdjusted, 0, 0}); return;
    case ProcessState::crashed: return;  // restart re-arms from scratch
  }
}

}  // namespace locksim
