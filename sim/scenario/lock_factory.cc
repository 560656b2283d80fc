#include "sim/scenario/lock_factory.h"

#include "sim/core/check.h"
#include "sim/scenario/protocols.h"

#include "sim/lock/master_follower.h"
#include "sim/lock/no_lock.h"
#include "sim/lock/redlock.h"
#include "sim/lock/single_node_lock.h"
#include "sim/lock/store_lock.h"
#include "sim/lock/watchdog.h"

namespace locksim {

using LockFactory = ClientProcess::LockFactory;

LockFactory store_factory(const ScenarioSpec& spec, const LockTargets& targets) {
  const LockSpec& l = spec.lock;
  const StoreLockSpec& s = l.store_lock;
  const ProtocolDecl& protocol = protocol_decl(l.protocol);
  StoreLockConfig lock;
  lock.recipe = *protocol.recipe;
  lock.members = targets.service.nodes;
  lock.key = targets.service.lock_key;
  lock.ttl = l.ttl;
  lock.request_timeout = l.request_timeout;
  lock.clock = l.clock;
  lock.clientv3 = protocol.clientv3;
  lock.knobs = s.knobs;
  // clientv3 waits the reply's TTL / 3; a written keepalive_every wins.
  if (s.keepalive_every_written) lock.knobs.clientv3_timing.keepalive_every = s.knobs.keepalive_every;
  // Curator's policies are ZooKeeper's; every other session lock believes
  // until its own deadline.
  if (!protocol.curator_policies) lock.knobs.policy = SessionPolicy::deadline;
  lock.stock_in_store = spec.store.stock;
  return [lock](Process& self, LockListener& listener, std::uint64_t tag_base) -> std::unique_ptr<LockClient> {
    return make_store_lock(self, listener, lock, tag_base);
  };
}

LockFactory no_lock_factory(const ScenarioSpec&, const LockTargets&) {
  return [](Process& self, LockListener& listener, std::uint64_t tag_base) -> std::unique_ptr<LockClient> {
    return std::make_unique<NoLock>(self, listener, tag_base);
  };
}

LockFactory single_node_factory(const ScenarioSpec& spec, const LockTargets& targets) {
  const LockSpec& l = spec.lock;
  SingleNodeLockConfig lock;
  lock.node = targets.service.nodes.front();
  lock.key = targets.service.lock_key;
  lock.fencing_key = targets.fencing_key;
  lock.acquire = l.acquire;
  lock.release = l.release;
  lock.fencing = l.fencing;
  lock.validity = ValidityRule{l.ttl, l.drift_factor_ppm, l.drift_fixed};
  lock.request_timeout = l.request_timeout;
  lock.clock = l.clock;
  lock.wait_replicas = l.wait_replicas;
  lock.wait_timeout = l.wait_timeout;
  return [lock](Process& self, LockListener& listener, std::uint64_t tag_base) -> std::unique_ptr<LockClient> {
    return std::make_unique<SingleNodeLock>(self, listener, lock, tag_base);
  };
}

LockFactory redlock_factory(const ScenarioSpec& spec, const LockTargets& targets) {
  const LockSpec& l = spec.lock;
  RedlockConfig lock;
  lock.nodes = targets.service.nodes;
  lock.quorum = targets.service.quorum;
  lock.key = targets.service.lock_key;
  lock.fencing = l.fencing;
  lock.fencing_key = targets.fencing_key;
  lock.fencing_node = targets.fencing_node;
  lock.validity = ValidityRule{l.ttl, l.drift_factor_ppm, l.drift_fixed};
  lock.knobs = l.redlock.knobs;
  lock.clock = l.clock;
  return [lock](Process& self, LockListener& listener, std::uint64_t tag_base) -> std::unique_ptr<LockClient> {
    return std::make_unique<RedlockClient>(self, listener, lock, tag_base);
  };
}

LockFactory lock_factory(const ScenarioSpec& spec, const LockTargets& targets) {
  LockFactory base = protocol_decl(spec.lock.protocol).factory(spec, targets);
  if (spec.lock.watchdog.enabled) {
    const Duration every = spec.lock.watchdog.renew_every;
    base = [base, every](Process& self, LockListener& listener, std::uint64_t tag_base) -> std::unique_ptr<LockClient> {
      return std::make_unique<WatchdogLock>(self, listener, every, tag_base,
                                            [&](LockListener& inner_listener, std::uint64_t inner_tags) {
                                              return base(self, inner_listener, inner_tags);
                                            });
    };
  }
  if (!targets.sentinels.empty()) {
    const Duration delay = spec.sentinel.client_follow_delay;
    const std::vector<ProcessId> sentinels = targets.sentinels;
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

}  // namespace locksim
