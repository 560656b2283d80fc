#include "sim/sweep/story_gap.h"

#include <algorithm>

#include "sim/core/check.h"
#include "sim/sweep/summary.h"

namespace locksim::sweep {

bool gap_matters(std::uint64_t runs, std::uint64_t violated, std::uint64_t fired) {
  LOCKSIM_CHECK(fired <= runs, "a fault fires in at most every run");
  if (fired == runs) return false;
  if (fired == 0) return true;  // the story never happened: any number here says nothing about it
  const auto n = static_cast<std::int64_t>(runs);
  const auto k = static_cast<std::int64_t>(fired);
  const auto v = static_cast<std::int64_t>(violated);
  if (v == 0) return static_cast<double>(n - k) * wilson_interval(0, k).high >= 1.0;
  const double story_rate = std::min(1.0, static_cast<double>(v) / static_cast<double>(k));
  return story_rate > wilson_interval(v, n).high;
}

std::vector<bool> story_needs(const ScenarioSpec& spec) {
  const std::vector<std::string>& listed = spec.expect.fired;
  std::vector<bool> needs;
  for (const FaultSpec& f : spec.faults)
    needs.push_back(listed.empty() || std::find(listed.begin(), listed.end(), f.name) != listed.end());
  return needs;
}

}  // namespace locksim::sweep
