// The side-by-side comparison: the same stories against every lock service.
// Each story is a scenario file whose variants are the services (the base is
// one of them); each (story, variant) cell runs N seeds and counts, per
// property, the runs that violated it, and per fault the runs in which it
// fired with an effect.
//
// Seeds are the sweeps' (seeds.h: scenario name, variant, an empty cell), so
// `locksim run FILE --variant V --seed S` replays any run, and the counts do
// not depend on the thread count: each run's outcome lands in its replica's
// slot and the sums are taken in replica order.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/check/property.h"
#include "sim/scenario/spec.h"

namespace locksim::sweep {

struct CompareCell {
  std::string story;    // the scenario's name
  std::string file;
  std::string variant;
  std::string description;  // the variant's one line
  std::uint64_t runs = 0;
  std::array<std::uint64_t, kPropertyCount> violations{};
  std::array<std::optional<std::uint64_t>, kPropertyCount> first_seed{};  // the lowest replica's seed that violated
  std::vector<std::string> faults;           // the story's faults, in file order
  std::vector<std::uint64_t> fault_effective;  // per fault: runs in which it fired with an effect
  std::vector<bool> fault_expected;          // per fault: listed in [expect] fired (or none is listed)
};

// Called after each run with how many of the cell's runs have finished,
// from any worker thread (progress.h's update may be called so).
using RunsDone = std::function<void(std::uint64_t runs_done)>;

// Runs |seeds| seeds of |spec| (file |file|) on |threads| threads.
CompareCell compare_cell(const ScenarioSpec& spec, const std::string& file, std::uint64_t seeds, unsigned threads,
                         const RunsDone& ran = nullptr);

}  // namespace locksim::sweep
