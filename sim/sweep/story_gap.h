// When a fault that did not fire makes a cell's number mean less than it
// says.
//
// A story's violation rests on its faults ([expect] fired: "the faults the
// story depends on"). A run in which one of them did not fire with an effect
// — the pause came after the holder had finished, the crash hit a node that
// was already down — did not test the story, yet it counts in the cell's
// runs. Most of the time that changes nothing worth saying: 20 such runs out
// of 2,000 leave a 0 % resting on 1,980 runs and move a 64 % by less than its
// own 95 % interval. Saying so on every cell taught people to skip the note.
// So the gap is reported only where it could change what the cell says:
//
//   - a cell that never broke the property (0 %, "safe"): if the runs
//     without the fault had told the story at the highest rate the runs with
//     it still allow (their 95 % Wilson upper bound), at least one of them
//     would be expected to break it — (runs - fired) * upper >= 1. Then the
//     0 % may only mean the story did not happen. (About one run in five
//     missing, for a few hundred runs or more.)
//   - a cell that broke it: its rate counts every run, but the violations
//     need the fault, so the story's own rate is violated / fired. When that
//     lies above the cell's 95 % interval the table's rate reads low by more
//     than its noise.
//
// analysis/provenance.py applies the same rule to a sweep's fault.NAME.fired
// shares; tests/data/story_gap_cases.csv holds the cases both are held to.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/scenario/spec.h"

namespace locksim::sweep {

// Whether |runs| - |fired| runs without a fault the story needs could change
// what a cell with |violated| violating runs says. REQUIRES: fired <= runs.
bool gap_matters(std::uint64_t runs, std::uint64_t violated, std::uint64_t fired);

// Per fault of |spec|, in file order: whether the story needs it — [expect]
// fired lists it, or lists no fault at all (then every fault counts).
std::vector<bool> story_needs(const ScenarioSpec& spec);

}  // namespace locksim::sweep
