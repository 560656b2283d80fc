// Turns a ScenarioSpec into a WorldPlan for one run, and the plan into a
// World. The builder lays out every process first — Redis nodes, replicas,
// the resource, services, clients, sentinels, in that order, so start-up ties
// break the same way every time — and owns the name table that gives each
// its id; then it makes the models, which may name each other by id, the
// links and the fault schedule (each fault resolved by its kind, with its
// draws for this run's seed).
#pragma once

#include <cstdint>
#include <memory>

#include "sim/core/trace.h"
#include "sim/scenario/spec.h"
#include "sim/world/plan.h"
#include "sim/world/world.h"

namespace locksim {

// REQUIRES: |spec| came from the reader (names resolve, values in range).
WorldPlan plan_world(const ScenarioSpec& spec, std::uint64_t seed);
std::unique_ptr<World> build_world(const ScenarioSpec& spec, std::uint64_t seed, TraceSink& trace);

}  // namespace locksim
