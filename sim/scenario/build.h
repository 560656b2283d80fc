// Turns a ScenarioSpec into a World ready to run: Redis nodes, the resource
// and the clients as processes (in that order, so start-up ties break the
// same way every time), their clocks, the links, and the fault schedule.
#pragma once

#include <cstdint>
#include <memory>

#include "sim/core/trace.h"
#include "sim/scenario/spec.h"
#include "sim/world/world.h"

namespace locksim {

// REQUIRES: |spec| was validated by the parser (names resolve, values in range).
std::unique_ptr<World> build_world(const ScenarioSpec& spec, std::uint64_t seed, TraceSink& trace);

}  // namespace locksim
