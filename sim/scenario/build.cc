#include "sim/scenario/build.h"

#include <map>

#include "sim/core/check.h"
#include "sim/scenario/faults/fault_kinds.h"
#include "sim/lock/redlock.h"
#include "sim/lock/single_node_lock.h"
#include "sim/lock/master_follower.h"
#include "sim/lock/watchdog.h"
#include "sim/redis/sentinel.h"
#include "sim/workload/service.h"
#include "sim/redis/redis_node.h"
#include "sim/resource/resource.h"
#include "sim/workload/client_process.h"

namespace locksim {

namespace {

Clock clock_for(const ScenarioSpec& spec, const std::string& name) {
  const auto it = spec.clocks.find(name);
  if (it == spec.clocks.end()) return Clock{};
  return Clock{it->second.offset, it->second.drift_ppm};
}

ProcessId must_find(const World& world, const std::string& name) {
  const ProcessId id = world.find(name);
  LOCKSIM_CHECK(id != kNoProcess, "the parser let an unknown process name through");
  return id;
}

using LockFactory = ClientProcess::LockFactory;

// How each client builds its lock: the protocol the scenario names, wrapped
// in a watchdog when renewals are on.
LockFactory lock_factory(const ScenarioSpec& spec, World& w, const ServiceLayout& service,
                         const std::vector<ProcessId>& sentinels) {
  const ValidityRule rule{spec.lock.ttl, spec.lock.drift_factor_ppm, spec.lock.drift_fixed};
  const redis::KeyId fencing_key = w.intern_key(spec.lock.fencing_key);
  LockFactory base;
  if (spec.lock.protocol == LockProtocol::single_node) {
    SingleNodeLockConfig lock;
    lock.node = service.nodes.front();
    lock.key = service.lock_key;
    lock.fencing_key = fencing_key;
    lock.acquire = spec.lock.acquire;
    lock.release = spec.lock.release;
    lock.fencing = spec.lock.fencing;
    lock.validity = rule;
    lock.request_timeout = spec.lock.request_timeout;
    lock.clock = spec.lock.clock;
    lock.wait_replicas = spec.lock.wait_replicas;
    lock.wait_timeout = spec.lock.wait_timeout;
    base = [lock](Process& self, LockListener& listener, std::uint64_t tag_base) -> std::unique_ptr<LockClient> {
      return std::make_unique<SingleNodeLock>(self, listener, lock, tag_base);
    };
  } else {
    RedlockConfig lock;
    lock.nodes = service.nodes;
    lock.quorum = service.quorum;
    lock.key = service.lock_key;
    lock.fencing = spec.lock.fencing;
    lock.fencing_key = fencing_key;
    lock.fencing_node = must_find(w, spec.lock.redlock.fencing_node);
    lock.validity = rule;
    lock.node_timeout = spec.lock.redlock.node_timeout;
    lock.parallel = spec.lock.redlock.parallel;
    lock.check_validity = spec.lock.redlock.check_validity;
    lock.first_attempt_expiry = spec.lock.redlock.first_attempt_expiry;
    lock.clock = spec.lock.clock;
    base = [lock](Process& self, LockListener& listener, std::uint64_t tag_base) -> std::unique_ptr<LockClient> {
      return std::make_unique<RedlockClient>(self, listener, lock, tag_base);
    };
  }
  if (spec.lock.watchdog.enabled) {
    const Duration every = spec.lock.watchdog.renew_every;
    base = [base, every](Process& self, LockListener& listener, std::uint64_t tag_base) -> std::unique_ptr<LockClient> {
      return std::make_unique<WatchdogLock>(self, listener, every, tag_base,
                                            [&](LockListener& inner_listener, std::uint64_t inner_tags) {
                                              return base(self, inner_listener, inner_tags);
                                            });
    };
  }
  if (!sentinels.empty()) {
    const Duration delay = spec.sentinel.client_follow_delay;
    base = [base, sentinels, delay](Process& self, LockListener& listener,
                                    std::uint64_t tag_base) -> std::unique_ptr<LockClient> {
      return std::make_unique<MasterFollower>(self, listener, sentinels, delay, tag_base,
                                              [&](LockListener& inner_listener, std::uint64_t inner_tags) {
                                                return base(self, inner_listener, inner_tags);
                                              });
    };
  }
  return base;
}

}  // namespace

std::unique_ptr<World> build_world(const ScenarioSpec& spec, std::uint64_t seed, TraceSink& trace) {
  auto world = std::make_unique<World>(seed, trace);
  World& w = *world;
  w.set_budgets(spec.max_events, spec.max_facts);
  // Key ids: the lock's, the fencing counter's, then the initial keyspace's.
  w.intern_key(spec.lock.key);
  w.intern_key(spec.lock.fencing_key);
  redis::NodeConfig node_config = spec.redis.node;
  for (const InitialKeySpec& k : spec.redis.initial) {
    const redis::Value value =
        k.is_integer ? redis::Value::integer(k.integer) : redis::Value::token(stable_hash(k.text));
    node_config.initial.push_back(redis::InitialKey{w.intern_key(k.key), value, k.ttl});
  }

  // Masters, then their replicas: every node that can serve the lock. Only
  // masters record held keys, so the holder is "the current master's value".
  ServiceLayout service;
  for (const auto& name : spec.redis.nodes) {
    service.nodes.push_back(w.add(std::make_unique<redis::RedisNode>(name, node_config), ProcessKind::redis_node,
                                  clock_for(spec, name)));
  }
  const ProcessId master = service.nodes.front();
  std::vector<ProcessId> replicas;
  for (const auto& name : spec.redis.replicas) {
    redis::NodeConfig config = node_config;
    config.replica_of = master;
    replicas.push_back(
        w.add(std::make_unique<redis::RedisNode>(name, config), ProcessKind::redis_node, clock_for(spec, name)));
    service.nodes.push_back(replicas.back());
  }
  const ProcessId resource =
      w.add(std::make_unique<Resource>(spec.resource.name,
                                       ResourceConfig{spec.resource.policy, spec.resource.app, spec.resource.initial_stock}),
            ProcessKind::resource, clock_for(spec, spec.resource.name));
  std::map<std::string, ProcessId> services;
  for (const ServiceSpec& s : spec.services)
    services[s.name] = w.add(std::make_unique<Service>(s.name, s.latency), ProcessKind::service, clock_for(spec, s.name));

  // Sentinels come after the clients, but the clients must know their ids
  // (to ask them where the master is): ids are handed out in order.
  const auto first_client = static_cast<ProcessId>(w.process_count());
  std::vector<ProcessId> clients, sentinels;
  for (std::size_t i = 0; i < spec.clients.size(); ++i) clients.push_back(first_client + static_cast<ProcessId>(i));
  for (std::size_t i = 0; i < spec.sentinel.names.size(); ++i)
    sentinels.push_back(first_client + static_cast<ProcessId>(spec.clients.size() + i));

  service.lock_key = w.intern_key(spec.lock.key);
  service.quorum = spec.lock.protocol == LockProtocol::redlock ? spec.lock.redlock.quorum : 1;
  w.set_service(service);
  w.set_app(spec.resource.app);
  const LockFactory make_lock = lock_factory(spec, w, service, sentinels);
  for (const ClientSpec& c : spec.clients) {
    WorkloadConfig wl;
    wl.start = c.start;
    wl.steps = c.steps;
    wl.iterations = c.iterations;
    wl.attempts = c.attempts;
    wl.retry_delay = c.retry_delay;
    wl.think = c.think;
    wl.release = c.release;
    wl.resource = resource;
    wl.send_marks = spec.resource.policy == WritePolicy::unique_token_cas;
    wl.op_timeout = spec.lock.request_timeout;
    for (const Step& step : c.steps) wl.step_service.push_back(step.service.empty() ? kNoProcess : services.at(step.service));
    const ProcessId id =
        w.add(std::make_unique<ClientProcess>(c.name, std::move(wl), make_lock), ProcessKind::client, clock_for(spec, c.name));
    LOCKSIM_CHECK(id == clients[static_cast<std::size_t>(&c - spec.clients.data())], "client ids are handed out in order");
  }
  for (std::size_t i = 0; i < spec.sentinel.names.size(); ++i) {
    redis::SentinelConfig config;
    config.master = master;
    config.replicas = replicas;
    config.sentinels = sentinels;
    config.clients = clients;
    config.quorum = spec.sentinel.quorum;
    config.down_after = spec.sentinel.down_after;
    config.ping_every = spec.sentinel.ping_every;
    config.failover_timeout = spec.sentinel.failover_timeout;
    const ProcessId id = w.add(std::make_unique<redis::Sentinel>(spec.sentinel.names[i], config), ProcessKind::sentinel,
                               clock_for(spec, spec.sentinel.names[i]));
    LOCKSIM_CHECK(id == sentinels[i], "sentinel ids are handed out in order");
  }

  w.set_default_link(spec.network.default_link);
  for (const LinkOverride& l : spec.network.links) {
    const ProcessId from = must_find(w, l.from);
    const ProcessId to = must_find(w, l.to);
    w.set_link(from, to, l.spec);
    if (l.both_ways) w.set_link(to, from, l.spec);
  }

  std::map<std::string, ProcessId, std::less<>> ids;
  for (ProcessId p = 0; p < w.process_count(); ++p) ids.emplace(w.process(p).name(), p);
  std::vector<std::string> fault_names;
  for (const FaultSpec& f : spec.faults) fault_names.push_back(f.name);
  w.set_fault_names(std::move(fault_names));
  for (std::uint32_t index = 0; index < spec.faults.size(); ++index) {
    const FaultSpec& f = spec.faults[index];
    FaultAction action = scenario::resolve_fault(f.kind, scenario::FaultResolver(ids, seed, f.name));
    if (f.trigger.at_phase) {
      w.on_phase(must_find(w, f.trigger.process), f.trigger.phase, f.trigger.delay, std::move(action),
                 f.trigger.occurrence, index);
    } else {
      Duration at = f.trigger.at_time;
      if (f.trigger.at_drawn) {
        Rng rng = Rng::derive(seed, "fault " + f.name, "at");
        at = f.trigger.at_drawn->sample(rng);
      }
      w.schedule_fault(saturating_add(TrueTime{at}, f.trigger.delay), std::move(action), index);
    }
  }
  return world;
}

}  // namespace locksim
