// What a client can do at all, read from its spec before anything runs: the
// phases it can reach and how many times at most, and whether each of its
// steps means something to the resource it works on.
//
// A fault triggered at a phase the client never reaches ("c1 decremented"
// for a client that only adds to a collection), or at an occurrence past
// the most it can reach ("the 2nd c1 acquired" with one iteration), would
// simply never fire, and the run would report a verdict about a story that
// did not happen. The same goes for a step the resource ignores: a "mark"
// without the unique-token policy, a "decrement" on a register. Both are
// refused when the file is read (check_reach), with the key to change.
// Counts are upper bounds: a session can end early (a rejected op, a failed
// validity check), never run longer.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "sim/scenario/doc.h"
#include "sim/scenario/reader.h"
#include "sim/scenario/spec.h"

namespace locksim::scenario {

inline constexpr std::size_t kPhaseCount = static_cast<std::size_t>(Phase::done) + 1;
inline constexpr std::int64_t kUnbounded = INT64_MAX;

// Per phase, the most times |client| can reach it in a run (0: never;
// kUnbounded: no bound, such as acquire attempts that retry until the run ends).
std::array<std::int64_t, kPhaseCount> phase_reach(const ScenarioSpec& spec, const ClientSpec& client);

// Refuses steps that do not apply to the resource and phase triggers that can
// never fire. REQUIRES: |spec| was read from |root| without errors.
void check_reach(Reader& r, const DocNode& root, const ScenarioSpec& spec);

}  // namespace locksim::scenario
