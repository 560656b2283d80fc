#include "sim/run/build.h"

#include <algorithm>
#include <memory>

#include "sim/consensus/store_member.h"
#include "sim/core/check.h"
#include "sim/redis/redis_node.h"
#include "sim/redis/sentinel.h"
#include "sim/resource/resource.h"
#include "sim/scenario/faults/fault_kinds.h"
#include "sim/scenario/lock_factory.h"
#include "sim/scenario/protocols.h"
#include "sim/scenario/store_presets.h"
#include "sim/workload/client_process.h"
#include "sim/workload/service.h"

namespace locksim {

using scenario::NameTable;

// Every process's id, before any model exists: models name each other by id.
// The names are the spec's own (views into it), sorted once laid out.
struct Planner::Layout {
  NameTable ids;
  std::vector<ProcessId> nodes;  // masters, then replicas; or the store's members
  std::vector<ProcessId> replicas;
  std::vector<ProcessId> members;  // the consensus store's
  ProcessId resource = kNoProcess;
  std::vector<ProcessId> clients;
  std::vector<ProcessId> sentinels;

  ProcessId add(std::string_view name) {
    const auto id = static_cast<ProcessId>(ids.size());
    ids.emplace_back(name, id);
    return id;
  }
  ProcessId id(std::string_view name) const {
    const ProcessId id = scenario::find_id(ids, name);
    LOCKSIM_CHECK(id != kNoProcess, "the reader let an unknown process name through");
    return id;
  }
};

namespace {

using Layout = Planner::Layout;

Layout lay_out(const ScenarioSpec& spec) {
  Layout l;
  for (const std::string& name : spec.redis.nodes) l.nodes.push_back(l.add(name));
  for (const std::string& name : spec.redis.replicas) {
    l.replicas.push_back(l.add(name));
    l.nodes.push_back(l.replicas.back());
  }
  for (const std::string& name : spec.store.members) {
    l.members.push_back(l.add(name));
    l.nodes.push_back(l.members.back());
  }
  l.resource = l.add(spec.resource.name);
  for (const ServiceSpec& s : spec.services) l.add(s.name);
  for (const ClientSpec& c : spec.clients) l.clients.push_back(l.add(c.name));
  for (const std::string& name : spec.sentinel.names) l.sentinels.push_back(l.add(name));
  std::sort(l.ids.begin(), l.ids.end());
  LOCKSIM_CHECK(std::adjacent_find(l.ids.begin(), l.ids.end(),
                                   [](const auto& a, const auto& b) { return a.first == b.first; }) == l.ids.end(),
                "the reader let a duplicate process name through");
  return l;
}

redis::KeyId key_id(WorldPlan& plan, const std::string& key) {
  const auto it = std::find(plan.keys.begin(), plan.keys.end(), key);
  if (it != plan.keys.end()) return static_cast<redis::KeyId>(it - plan.keys.begin());
  plan.keys.push_back(key);
  return static_cast<redis::KeyId>(plan.keys.size() - 1);
}

Clock clock_for(const ScenarioSpec& spec, const std::string& name) {
  const auto it = spec.clocks.find(name);
  if (it == spec.clocks.end()) return Clock{};
  return Clock{it->second.offset, it->second.drift_ppm};
}

// Makes a T from |args| and plans it. A resettable plan also keeps a maker
// that makes the same T again from copies of |args|, for a world reset for
// another seed; a plan built once moves |args| straight in, as it always did.
template <typename T, typename... Args>
void add_process(WorldPlan& plan, const ScenarioSpec& spec, ProcessKind kind, Args&&... args) {
  std::unique_ptr<Process> model;
  PlannedProcess::Maker make;
  if (plan.resettable) {
    make = [... kept = std::forward<Args>(args)](std::unique_ptr<Process> old) -> std::unique_ptr<Process> {
      if (!old) return std::make_unique<T>(kept...);
      // In the last run's model's memory, which this maker made a T: a
      // sweep's run neither allocates nor frees the model itself, and its
      // memory is the one still in the cache.
      static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__, "freed below with the plain operator delete");
      T* place = static_cast<T*>(old.release());
      std::destroy_at(place);
      try {
        return std::unique_ptr<Process>(std::construct_at(place, kept...));
      } catch (...) {
        ::operator delete(static_cast<void*>(place));
        throw;
      }
    };
    model = make(nullptr);
  } else {
    model = std::make_unique<T>(std::forward<Args>(args)...);
  }
  const Clock clock = clock_for(spec, model->name());
  plan.processes.push_back({std::move(model), kind, clock});
  plan.processes.back().make = std::move(make);
}

void plan_redis(WorldPlan& plan, const ScenarioSpec& spec, const Layout& l) {
  if (spec.redis.nodes.empty()) return;  // a store protocol, or none
  redis::NodeConfig config = spec.redis.node;
  for (const InitialKeySpec& k : spec.redis.initial) {
    const redis::Value value =
        k.is_integer ? redis::Value::integer(k.integer) : redis::Value::token(stable_hash(k.text));
    config.initial.push_back(redis::InitialKey{key_id(plan, k.key), value, k.ttl});
  }
  for (const std::string& name : spec.redis.nodes)
    add_process<redis::RedisNode>(plan, spec, ProcessKind::redis_node, name, config);
  config.replica_of = l.nodes.front();
  for (const std::string& name : spec.redis.replicas)
    add_process<redis::RedisNode>(plan, spec, ProcessKind::redis_node, name, config);
}

// The store's members, all with one config: the lock's key and, when the
// stock lives there, the stock.
void plan_store(WorldPlan& plan, const ScenarioSpec& spec, const Layout& l) {
  const StoreSpec& s = spec.store;
  consensus::StoreConfig config;
  config.members = l.members;
  config.heartbeat = s.heartbeat;
  config.election_timeout = s.election_timeout;
  config.initial_leader = s.initial_leader.empty() ? kNoProcess : l.id(s.initial_leader);
  config.lessor_tick = s.lessor_tick;
  config.lessor_tick_phase = s.lessor_tick_phase;
  config.min_ttl = s.min_ttl;
  config.lessor.ttl_multiplier = s.ttl_multiplier;
  config.lessor.queue_clock = s.lessor_queue_clock;
  config.lessor.expired_retry = s.expired_retry;
  config.lessor.checkpoint_interval = s.lease_checkpoint_interval;
  config.renew_confirms_leadership = s.renew_confirms_leadership;
  const bool zookeeper = uses_store(spec.lock.protocol) && scenario::store_preset(spec.lock.protocol).zookeeper_sessions;
  config.expiry_in_buckets = zookeeper;
  config.every_request_touches = zookeeper;
  config.promotion_extension = s.promotion_extension;
  config.lock_key = plan.service.lock_key;
  if (s.stock) {
    config.app = AppKind::stock;
    config.initial_stock = spec.resource.initial_stock;
  }
  for (const std::string& name : s.members)
    add_process<consensus::StoreMember>(plan, spec, ProcessKind::store_member, name, config);
}

Trigger trigger_of(const TriggerSpec& t, const Layout& l) {
  Trigger out{l.id(t.process), t.phase, t.delay, t.occurrence};
  if (t.kind == TriggerSpec::Kind::event) out.what = t.event;
  return out;
}

void plan_clients(WorldPlan& plan, const ScenarioSpec& spec, const Layout& l) {
  LockTargets targets;
  targets.service = plan.service;
  targets.fencing_key = key_id(plan, spec.lock.fencing_key);
  if (!spec.lock.redlock.fencing_node.empty()) targets.fencing_node = l.id(spec.lock.redlock.fencing_node);
  targets.sentinels = l.sentinels;
  const ClientProcess::LockFactory make_lock = lock_factory(spec, targets);
  for (const ClientSpec& c : spec.clients) {
    WorkloadConfig wl;
    wl.start = c.start;
    wl.start_on_trigger = c.start_on.has_value();
    if (c.start_on) plan.starts.push_back(PlannedStart{l.id(c.name), trigger_of(*c.start_on, l)});
    wl.steps = c.steps;
    wl.iterations = c.iterations;
    wl.attempts = c.attempts;
    wl.retry_delay = c.retry_delay;
    wl.think = c.think;
    wl.release = c.release;
    wl.resource = l.resource;
    wl.send_marks = spec.resource.policy == WritePolicy::unique_token_cas;
    wl.op_timeout = spec.lock.request_timeout;
    for (const Step& step : c.steps)
      wl.step_service.push_back(step.service.empty() ? kNoProcess : l.id(step.service));
    add_process<ClientProcess>(plan, spec, ProcessKind::client, c.name, std::move(wl), make_lock,
                               RedisLibraryConfig{spec.lock.reconnect_delay, spec.lock.evalsha});
  }
}

void plan_sentinels(WorldPlan& plan, const ScenarioSpec& spec, const Layout& l) {
  if (spec.sentinel.names.empty()) return;
  redis::SentinelConfig config;
  config.master = l.nodes.front();
  config.replicas = l.replicas;
  config.sentinels = l.sentinels;
  config.clients = l.clients;
  config.quorum = spec.sentinel.quorum;
  config.down_after = spec.sentinel.down_after;
  config.ping_every = spec.sentinel.ping_every;
  config.failover_timeout = spec.sentinel.failover_timeout;
  for (const std::string& name : spec.sentinel.names)
    add_process<redis::Sentinel>(plan, spec, ProcessKind::sentinel, name, config);
}

// |f| as planned for |seed|; |seed_free| says whether nothing in it was drawn
// from the seed (it is then the same for every seed).
PlannedFault plan_fault(const FaultSpec& f, const Layout& l, std::uint64_t seed, bool& seed_free) {
  const scenario::FaultResolver resolver(l.ids, seed, f.name);
  PlannedFault planned{f.name, scenario::resolve_fault(f.kind, resolver), PlannedFault::AtTime{}};
  const TriggerSpec& t = f.trigger;
  if (!t.at_a_time()) {
    planned.when = trigger_of(t, l);
  } else {
    Duration at = t.at_time;
    if (t.at_drawn) {
      Rng rng = resolver.rng("at");
      at = t.at_drawn->sample(rng);
    }
    planned.when = PlannedFault::AtTime{saturating_add(TrueTime{at}, t.delay)};
  }
  seed_free = !resolver.drew();
  return planned;
}

}  // namespace

Planner::Planner(const ScenarioSpec& spec)
    : spec_(spec), layout_(std::make_unique<Layout>(lay_out(spec))), seed_free_faults_(spec.faults.size()) {}
Planner::~Planner() = default;

std::vector<PlannedFault> Planner::faults(std::uint64_t seed) const {
  std::vector<PlannedFault> out;
  faults(seed, out);
  return out;
}

void Planner::faults(std::uint64_t seed, std::vector<PlannedFault>& out) const {
  // Resolving a fault looks its processes up by name: one that drew nothing
  // from the seed is kept the first time, and copied for every later seed.
  out.resize(spec_.faults.size());
  for (std::size_t i = 0; i < spec_.faults.size(); ++i) {
    std::optional<PlannedFault>& kept = seed_free_faults_[i];
    if (kept) {
      out[i] = *kept;
      continue;
    }
    bool seed_free = false;
    out[i] = plan_fault(spec_.faults[i], *layout_, seed, seed_free);
    if (seed_free) kept = out[i];
  }
}

void Planner::faults(std::uint64_t seed, const std::vector<FaultSpec>& specs, std::vector<PlannedFault>& out) const {
  out.resize(specs.size());
  bool seed_free = false;
  for (std::size_t i = 0; i < specs.size(); ++i) out[i] = plan_fault(specs[i], *layout_, seed, seed_free);
}

WorldPlan Planner::plan(std::uint64_t seed, bool resettable) const {
  const ScenarioSpec& spec = spec_;
  const Layout& l = *layout_;
  WorldPlan plan;
  plan.resettable = resettable;
  plan.processes.reserve(l.ids.size());
  plan.max_events = spec.max_events;
  plan.max_facts = spec.max_facts;
  // Key ids: the lock's, the fencing counter's, then the initial keyspace's.
  plan.service.lock_key = key_id(plan, spec.lock.key);
  key_id(plan, spec.lock.fencing_key);
  // Only masters record held keys, so the holder is "the current master's
  // value"; a store's members speak for one committed state, recorded by
  // whichever leads.
  plan.service.nodes = l.nodes;
  if (uses_store(spec.lock.protocol)) {
    const ProcessId leader = spec.store.initial_leader.empty() ? kNoProcess : l.id(spec.store.initial_leader);
    for (const ProcessId m : l.members) plan.service.initial_masters.push_back(m == leader ? kNoProcess : leader);
    plan.service.quorum = 1;
    plan.service.replicated_state = true;
  } else if (!l.nodes.empty()) {  // protocol = "none" has no lock service at all
    plan.service.initial_masters.assign(spec.redis.nodes.size(), kNoProcess);
    plan.service.initial_masters.resize(l.nodes.size(), l.nodes.front());  // replicas follow nodes[0]
    plan.service.quorum = protocol_decl(spec.lock.protocol).quorum_of_masters ? spec.lock.redlock.quorum : 1;
  }
  plan.app = spec.resource.app;
  plan_redis(plan, spec, l);
  plan_store(plan, spec, l);
  // A stock kept in the store is the store's to record; the resource
  // process then holds no application.
  const AppKind resource_app = spec.store.stock ? AppKind::none : spec.resource.app;
  const ResourceConfig resource{spec.resource.policy, resource_app, spec.resource.initial_stock};
  add_process<Resource>(plan, spec, ProcessKind::resource, spec.resource.name, resource);
  for (const ServiceSpec& s : spec.services)
    add_process<Service>(plan, spec, ProcessKind::service, s.name, s.latency);
  plan_clients(plan, spec, l);
  plan_sentinels(plan, spec, l);
  // Models name each other by the ids laid out above; each is made at the
  // position its id says, checked by name, not only counted.
  LOCKSIM_CHECK(plan.processes.size() == l.ids.size(), "every process laid out is made");
  for (std::size_t i = 0; i < plan.processes.size(); ++i)
    LOCKSIM_CHECK(l.id(plan.processes[i].model->name()) == i, "each process is made at the id laid out for its name");

  plan.default_link = spec.network.default_link;
  for (const LinkOverride& link : spec.network.links) {
    plan.links.push_back({l.id(link.from), l.id(link.to), link.spec});
    if (link.both_ways) plan.links.push_back({l.id(link.to), l.id(link.from), link.spec});
  }
  plan.faults = faults(seed);
  return plan;
}

WorldPlan plan_world(const ScenarioSpec& spec, std::uint64_t seed) { return Planner(spec).plan(seed, false); }

std::unique_ptr<World> build_world(const ScenarioSpec& spec, std::uint64_t seed, TraceSink& trace) {
  return std::make_unique<World>(seed, plan_world(spec, seed), trace);
}

}  // namespace locksim
