// Making a world: from a plan in one step, and again from the same plan for
// the next seed (reset), which a sweep does a million times and so keeps
// every buffer the last run grew.
#include <algorithm>

#include "sim/core/check.h"
#include "sim/world/world.h"

namespace locksim {

World::World(std::uint64_t seed, WorldPlan plan, TraceSink& trace)
    : seed_(seed), model_stream_seed_(seed), trace_(trace), tracing_(trace.enabled()), engine_(*this) {
  set_budgets(plan.max_events, plan.max_facts);
  history_.key_names = std::move(plan.keys);
  // A slot holds a deque: growing the vector would move every one of them.
  slots_.reserve(plan.processes.size());
  history_.processes.reserve(plan.processes.size());
  const bool resettable = plan.resettable;
  LOCKSIM_CHECK(!resettable || std::all_of(plan.processes.begin(), plan.processes.end(),
                                           [](const PlannedProcess& p) { return static_cast<bool>(p.make); }),
                "a resettable plan has a maker for every process");
  for (PlannedProcess& p : plan.processes) {
    add(std::move(p.model), p.kind, p.clock);
    if (resettable) {
      makers_.push_back(std::move(p.make));
      initial_clocks_.push_back(p.clock);
    }
  }
  history_.service = std::move(plan.service);
  history_.app = plan.app;
  default_link_ = plan.default_link;
  for (const PlannedLink& l : plan.links) set_link(l.from, l.to, l.spec);
  for (const PlannedFault& f : plan.faults) history_.fault_names.push_back(f.name);
  if (resettable) blank_history_ = history_;
  // One allocation where doubling from empty would make eight: a short run
  // records a few dozen facts, a long one grows from here.
  history_.facts.reserve(128);
  starts_ = std::move(plan.starts);
  arm_plan(plan.faults);
}

void World::arm_plan(const std::vector<PlannedFault>& faults) {
  for (std::uint32_t index = 0; index < faults.size(); ++index) {
    const PlannedFault& f = faults[index];
    if (const auto* at = std::get_if<PlannedFault::AtTime>(&f.when)) {
      schedule_fault(at->at, f.action, index);
    } else {
      on_trigger(std::get<Trigger>(f.when), f.action, index);
    }
  }
  for (const PlannedStart& s : starts_) start_on(s.trigger, s.client);
}

void World::reset(std::uint64_t seed, const std::vector<PlannedFault>& faults) {
  LOCKSIM_CHECK(!makers_.empty() && makers_.size() == slots_.size(),
                "only a world built from a plan with makers resets");
  // A sweep's reset keeps the plan's faults, redrawn; a search's brings the
  // next candidate's, and the history names them.
  const bool same_names = faults.size() == blank_history_.fault_names.size() &&
                          std::equal(faults.begin(), faults.end(), blank_history_.fault_names.begin(),
                                     [](const PlannedFault& f, const std::string& name) { return f.name == name; });
  if (!same_names) {
    blank_history_.fault_names.clear();
    for (const PlannedFault& f : faults) blank_history_.fault_names.push_back(f.name);
  }
  seed_ = seed;
  model_stream_seed_ = seed;
  engine_.reset();
  ran_ = false;  // run() resets the network (links, partitions) for the new seed
  messages_.clear();
  controls_.clear();
  heals_.clear();
  triggers_ = TriggerTable{};
  trigger_actions_.clear();
  held_.clear();
  spans_.clear();
  timer_incarnation_.clear();
  history_ = blank_history_;
  history_.facts.reserve(128);
  next_session_ = 1;
  finished_ = false;
  until_ = kTrueStart + kMaxDuration;
  // Field by field, not a fresh Slot: a fresh one drops the memory its
  // containers hold and cost a sweep run 2 % (1.05 -> 1.22 us a reset). A
  // field added to Slot must be reset here; repeated_runs_test holds every
  // catalogue variant's reset runs to fresh ones.
  for (ProcessId p = 0; p < slots_.size(); ++p) {
    Slot& s = slots_[p];
    s.model = makers_[p](std::move(s.model));
    s.model->world_ = this;
    s.model->id_ = p;
    s.clock = initial_clocks_[p];
    s.state = ProcessState::running;
    s.incarnation = 0;
    s.paused_until = TrueTime{};
    s.pending.clear();
    s.rng.reset();
    s.process_crash = false;
    s.rewrites_sends = s.model->rewrites_sends();
    s.library_may_fail = false;
  }
  libraries_may_fail_ = false;
  arm_plan(faults);
}
World::~World() = default;

ProcessId World::add(std::unique_ptr<Process> process, ProcessKind kind, Clock clock) {
  LOCKSIM_CHECK(!network_, "processes are added before the run starts");
  const auto id = static_cast<ProcessId>(slots_.size());
  process->world_ = this;
  process->id_ = id;
  history_.processes.push_back({process->name(), kind});
  Slot slot;
  slot.rng_name = Rng::stream_name(process->name(), "model");
  slot.rewrites_sends = process->rewrites_sends();
  slot.model = std::move(process);
  slot.clock = clock;
  slot.kind = kind;
  slots_.push_back(std::move(slot));
  return id;
}

ProcessId World::find(const std::string& name) const {
  for (ProcessId p = 0; p < slots_.size(); ++p)
    if (slots_[p].model->name() == name) return p;
  return kNoProcess;
}

redis::KeyId World::intern_key(const std::string& key) {
  auto& names = history_.key_names;
  auto it = std::find(names.begin(), names.end(), key);
  if (it != names.end()) return static_cast<redis::KeyId>(it - names.begin());
  names.push_back(key);
  return static_cast<redis::KeyId>(names.size() - 1);
}

void World::set_link(ProcessId from, ProcessId to, const LinkSpec& spec) {
  link_overrides_.emplace_back(from, to, spec);
}

void World::set_budgets(std::uint64_t max_events, std::uint64_t max_facts) {
  engine_.set_event_budget(max_events);
  max_facts_ = max_facts;
}

}  // namespace locksim
