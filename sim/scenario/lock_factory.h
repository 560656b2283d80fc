// How each client makes its lock: the protocol the scenario names, wrapped in
// a watchdog when renewals are on and in a master follower when sentinels
// fail the master over.
#pragma once

#include <vector>

#include "sim/scenario/spec.h"
#include "sim/workload/client_process.h"

namespace locksim {

// The ids the locks talk to, from the builder's plan.
struct LockTargets {
  ServiceLayout service;              // the nodes, the quorum and the lock's key
  redis::KeyId fencing_key = 0;
  ProcessId fencing_node = kNoProcess;  // Redlock's INCR node
  std::vector<ProcessId> sentinels;
};

// The clients' lock for the protocol the spec names (its row's factory,
// protocols.h), wrapped as the spec asks.
ClientProcess::LockFactory lock_factory(const ScenarioSpec& spec, const LockTargets& targets);

// Each protocol family's factory, for its rows in protocols.cc.
ClientProcess::LockFactory single_node_factory(const ScenarioSpec& spec, const LockTargets& targets);
ClientProcess::LockFactory redlock_factory(const ScenarioSpec& spec, const LockTargets& targets);
ClientProcess::LockFactory store_factory(const ScenarioSpec& spec, const LockTargets& targets);
ClientProcess::LockFactory no_lock_factory(const ScenarioSpec& spec, const LockTargets& targets);

}  // namespace locksim
