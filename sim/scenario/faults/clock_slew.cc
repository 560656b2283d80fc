#include "sim/scenario/faults/clock_slew.h"

#include "sim/history/history.h"
#include "sim/scenario/read/clock_rate.h"
#include "sim/scenario/faults/kind.h"

namespace locksim {

using namespace scenario;

const FaultKindDecl<ClockSlewFault>& kind_decl(std::type_identity<ClockSlewFault>) {
  static const FaultKindDecl<ClockSlewFault> kind{
      .name = fault_kind_name(FaultKind::clock_slew),
      .doc = "for a while the clock runs at another rate, then returns to the rate it had before (an NTP slew, a VM's "
             "clock catching up)",
      .keys = {{{.name = "target", .rule = ProcessRule{}, .doc = "", .required = true}, into(&ClockSlewFault::target)},
               {{.name = "drift",
                 .rule = drift_rule(),
                 .doc = "the rate during the slew: `\"500ppm\"` (NTP slews at most 500 ppm), `\"-1%\"`",
                 .required = true,
                 .type_note = kDriftType},
                into(&ClockSlewFault::drift_ppm)},
               {{.name = "length",
                 .rule = LatencyRule{},
                 .doc = "how long the slew lasts: `\"60s\"`, or drawn per run: `\"uniform(1min, 2min)\"`",
                 .required = true,
                 .type_note = "duration or latency"},
                into(&ClockSlewFault::length)}},
      .resolve = [](const ClockSlewFault& f, const FaultResolver& run) -> FaultAction {
        Rng rng = run.rng("length");
        return fault::ClockSlew{run.id(f.target), f.drift_ppm, f.length.sample(rng)};
      },
      .describe = [](const ClockSlewFault& f) {
        return "of " + f.target + " at " + std::to_string(f.drift_ppm) + "ppm for " + f.length.describe();
      },
      .target = [](const ClockSlewFault& f) { return &f.target; },
      .clock_effect = [](const ClockSlewFault& f) {
        return ClockEffect{.drift_ppm = f.drift_ppm, .jump = Duration{0}, .key = "drift"};
      },
      // The length is drawn before the rate (a search's draws are in this order).
      .search = SearchSide<ClockSlewFault>{
          .values = {{.key = "length", .span = true, .doc = "`\"100ms..30s\"`: how long a pause or a slew lasts"},
                     {.key = "drift", .type = Searched::rate, .doc = "`\"-1%..+1%\"`: the clock's new rate"}},
          .make = [](const SearchedFault& f) {
            return ClockSlewFault{*f.target, *f.values[1], Latency::constant(Duration{*f.values[0]})};
          },
      },
  };
  return kind;
}

}  // namespace locksim
