#include "sim/scenario/faults/clock_drift.h"

#include "sim/history/history.h"
#include "sim/scenario/read/clock_rate.h"
#include "sim/scenario/faults/kind.h"

namespace locksim {

using namespace scenario;

const FaultKindDecl<ClockDriftFault>& kind_decl(std::type_identity<ClockDriftFault>) {
  static const FaultKindDecl<ClockDriftFault> kind{
      .name = fault_kind_name(FaultKind::clock_drift),
      .doc = "from now on the clock runs at a new rate",
      .keys = {{{.name = "target", .rule = ProcessRule{}, .doc = "", .required = true},
                into(&ClockDriftFault::target)},
               {{.name = "drift",
                 .rule = drift_rule(),
                 .doc = "the new rate: `\"2%\"`, `\"-50ppm\"`",
                 .required = true,
                 .type_note = kDriftType},
                into(&ClockDriftFault::drift_ppm)}},
      .resolve = [](const ClockDriftFault& f, const FaultResolver& run) -> FaultAction {
        return fault::ClockDrift{run.id(f.target), f.drift_ppm};
      },
      .describe = [](const ClockDriftFault& f) { return "of " + f.target + " to " + std::to_string(f.drift_ppm) + "ppm"; },
      .target = [](const ClockDriftFault& f) { return &f.target; },
      .clock_effect = [](const ClockDriftFault& f) {
        return ClockEffect{.drift_ppm = f.drift_ppm, .jump = Duration{0}, .key = "drift"};
      },
      .search = SearchSide<ClockDriftFault>{
          .values = {{.key = "drift", .type = Searched::rate, .doc = "`\"-1%..+1%\"`: the clock's new rate"}},
          .make = [](const SearchedFault& f) { return ClockDriftFault{*f.target, *f.values[0]}; },
      },
  };
  return kind;
}

}  // namespace locksim
