// The judged lines of a trace: what the checkers computed about a run —
// each session's belief interval and promised window, the service holder over
// time, each Redis node's roles, each property's verdict — written after the
// run's facts so that analysis/ draws them instead of deriving them again.
// The line format is part 4 of the contract in sim/world/trace_format.h.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "sim/check/checkers.h"
#include "sim/core/trace.h"
#include "sim/history/history.h"

namespace locksim {

// Per property: the history cannot decide it (locksim check's unknown); its
// verdict line then says so instead of holds or violated.
using Undecided = std::array<bool, kPropertyCount>;

// The judged lines, in order: "judged", then "belief", "promised-window",
// "holder", "role-interval" and "verdict" lines, all at the run's end.
// Each Redis node's first role comes from h.service.initial_masters.
std::vector<std::string> judged_lines(const History& h, const Verdicts& verdicts, const Undecided& undecided = {});

// The witness object exactly as locksim run --json writes it, or null.
std::string witness_json(const History& h, const std::optional<Witness>& witness);

// Writes judged_lines() to |trace| when it is enabled; nothing otherwise.
void write_judged_lines(TraceSink& trace, const History& h, const Verdicts& verdicts, const Undecided& undecided = {});

}  // namespace locksim
