#include "sim/check/faults.h"

namespace locksim {

std::vector<FaultOutcome> fault_outcomes(const History& h) {
  std::vector<FaultOutcome> out;
  out.reserve(h.fault_names.size());
  for (const std::string& name : h.fault_names) out.push_back(FaultOutcome{name});
  for (const Fact& f : h.facts) {
    const auto* fired = std::get_if<FaultFired>(&f.body);
    if (fired == nullptr || fired->fault >= out.size()) continue;
    FaultOutcome& o = out[fired->fault];
    if (o.fired++ == 0) o.first_at = f.at;
    if (!fired->took_effect) continue;
    if (o.effective++ == 0) o.first_effective_at = f.at;
  }
  return out;
}

}  // namespace locksim
