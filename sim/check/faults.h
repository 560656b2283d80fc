// Which of a scenario's faults happened: a verdict of "holds" is only worth
// something when the faults the story depends on fired, and fired with an
// effect. A fault whose time lies after the run, whose phase is never
// reached, or that pauses a process that had already crashed would otherwise
// leave a silent 0 % behind. Measured from the history's FaultFired facts.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/check/fact_pass.h"
#include "sim/history/history.h"

namespace locksim {

struct FaultOutcome {
  std::string name;
  std::int64_t fired = 0;      // times its trigger came
  std::int64_t effective = 0;  // ... of which it changed something
  TrueTime first_at = kTrueNever;            // first firing (kTrueNever: never)
  TrueTime first_effective_at = kTrueNever;  // first firing that took effect
  bool operator==(const FaultOutcome&) const = default;
};

// One entry per name in h.fault_names, in that order.
std::vector<FaultOutcome> fault_outcomes(const History& h);

// fault_outcomes as a consumer of one pass over the facts (fact_pass.h),
// counting into |out| (made one entry per fault first). A caller that judges
// run after run keeps |out|: its memory, the names' too, serves every run.
class FaultTally {
 public:
  FaultTally(const History& h, std::vector<FaultOutcome>& out);
  template <class Body>
  void on(const Fact& f, const Body& body) {
    if constexpr (std::is_same_v<Body, FaultFired>) count(f, body);
  }

 private:
  void count(const Fact& f, const FaultFired& fired);
  std::vector<FaultOutcome>& out_;
};

}  // namespace locksim
