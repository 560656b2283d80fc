#include "sim/check/faults.h"

namespace locksim {

FaultTally::FaultTally(const History& h, std::vector<FaultOutcome>& out) : out_(out) {
  out_.resize(h.fault_names.size());
  for (std::size_t i = 0; i < out_.size(); ++i) {
    // A fresh outcome but for the name's memory.
    std::string name = std::move(out_[i].name);
    name.assign(h.fault_names[i]);
    out_[i] = FaultOutcome{std::move(name)};
  }
}

void FaultTally::count(const Fact& f, const FaultFired& fired) {
  if (fired.fault >= out_.size()) return;
  FaultOutcome& o = out_[fired.fault];
  if (o.fired++ == 0) o.first_at = f.at;
  if (!fired.took_effect) return;
  if (o.effective++ == 0) o.first_effective_at = f.at;
}

std::vector<FaultOutcome> fault_outcomes(const History& h) {
  std::vector<FaultOutcome> out;
  FaultTally tally(h, out);
  for_each_fact(h, tally);
  return out;
}

}  // namespace locksim
