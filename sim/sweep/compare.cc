#include "sim/sweep/compare.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

#include "sim/core/trace.h"
#include "sim/run/run.h"
#include "sim/sweep/seeds.h"
#include "sim/sweep/story_gap.h"

namespace locksim::sweep {

namespace {

// What one run leaves behind: a bit per property, a bit per fault.
struct RunMarks {
  std::array<bool, kPropertyCount> violated{};
  std::vector<bool> effective;
};

}  // namespace

CompareCell compare_cell(const ScenarioSpec& spec, const std::string& file, std::uint64_t seeds, unsigned threads,
                         const RunsDone& ran) {
  CompareCell cell;
  cell.story = spec.name;
  cell.file = file;
  cell.variant = spec.variant;
  cell.description = spec.variant_description;
  cell.runs = seeds;
  for (const FaultSpec& f : spec.faults) cell.faults.push_back(f.name);
  cell.fault_expected = story_needs(spec);
  const std::uint64_t base = cell_seed_base(spec.name, spec.variant, "");
  std::vector<RunMarks> marks(seeds);
  // A run that fails (a RunError: a budget exceeded) stops the cell; the
  // lowest such replica's error is the one reported, whatever the threads.
  std::vector<std::exception_ptr> errors(seeds);
  std::atomic<std::uint64_t> next{0};
  std::atomic<std::uint64_t> finished{0};
  std::atomic<bool> failed{false};
  const auto work = [&] {
    RepeatedRuns runs(spec);  // one world per worker, reset between its replicas
    for (std::uint64_t r = next++; r < seeds && !failed; r = next++) {
      try {
        const RunResult& result = runs.run(
            replica_seed(base, r), {.witnesses = WitnessDetail::time_only, .compare_expectation = false});
        for (std::size_t p = 0; p < kPropertyCount; ++p) marks[r].violated[p] = result.verdicts[p].violated;
        for (const FaultOutcome& f : result.faults) marks[r].effective.push_back(f.effective > 0);
        if (ran) ran(++finished);
      } catch (...) {
        errors[r] = std::current_exception();
        failed = true;
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < std::max(1u, threads); ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  cell.fault_effective.assign(cell.faults.size(), 0);
  for (std::uint64_t r = 0; r < seeds; ++r) {
    for (std::size_t p = 0; p < kPropertyCount; ++p) {
      if (!marks[r].violated[p]) continue;
      ++cell.violations[p];
      if (!cell.first_seed[p]) cell.first_seed[p] = replica_seed(base, r);
    }
    for (std::size_t f = 0; f < marks[r].effective.size() && f < cell.faults.size(); ++f)
      cell.fault_effective[f] += marks[r].effective[f] ? 1 : 0;
  }
  return cell;
}

}  // namespace locksim::sweep
