#include "sim/check/faults.h"

namespace locksim {

FaultTally::FaultTally(const History& h) {
  out_.reserve(h.fault_names.size());
  for (const std::string& name : h.fault_names) out_.push_back(FaultOutcome{name});
}

void FaultTally::count(const Fact& f, const FaultFired& fired) {
  if (fired.fault >= out_.size()) return;
  FaultOutcome& o = out_[fired.fault];
  if (o.fired++ == 0) o.first_at = f.at;
  if (!fired.took_effect) return;
  if (o.effective++ == 0) o.first_effective_at = f.at;
}

std::vector<FaultOutcome> fault_outcomes(const History& h) {
  FaultTally tally(h);
  for_each_fact(h, tally);
  return tally.take();
}

}  // namespace locksim
