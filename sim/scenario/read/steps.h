// A client's steps as written ("read", "work 2s", "call identity").
#pragma once

#include <optional>
#include <string>

#include "sim/scenario/read/context.h"

namespace locksim::scenario {

// The step |raw| (written at |pos| under |key|), or nullopt after failing. A
// "call NAME" whose NAME is a [service.NAME] read so far becomes a call to
// that service; any other argument of work and call must be a latency.
std::optional<Step> read_step(ReadContext& c, const std::string& raw, const SourcePos& pos, const std::string& key);

}  // namespace locksim::scenario
