#include "sim/scenario/faults/pause.h"

#include "sim/history/history.h"
#include "sim/scenario/faults/kind.h"

namespace locksim {

using namespace scenario;

const FaultKindDecl<PauseFault>& kind_decl(std::type_identity<PauseFault>) {
  static const FaultKindDecl<PauseFault> kind{
      .name = fault_kind_name(FaultKind::pause),
      .doc = "stop-the-world pause (GC, VM migration, SIGSTOP): deliveries and timers wait and run in order when it "
             "resumes; its clocks keep running",
      .keys = {{{.name = "target", .rule = ProcessRule{}, .doc = "", .required = true}, into(&PauseFault::target)},
               {{.name = "length",
                 .rule = LatencyRule{},
                 .doc = "how long: `\"2s\"`, or drawn per run: `\"lognormal(2s, 0.5)\"`",
                 .required = true,
                 .type_note = "duration or latency"},
                into(&PauseFault::length)}},
      .resolve = [](const PauseFault& f, const FaultResolver& run) -> FaultAction {
        Rng rng = run.rng("length");
        return fault::Pause{run.id(f.target), f.length.sample(rng)};
      },
      .describe = [](const PauseFault& f) { return "of " + f.target + " for " + f.length.describe(); },
      .target = [](const PauseFault& f) { return &f.target; },
      .search = SearchSide<PauseFault>{
          .values = {{.key = "length",
                      .span = true,
                      .doc = "`\"100ms..30s\"`: how long a pause or a slew lasts"}},
          .make = [](const SearchedFault& f) {
            return PauseFault{*f.target, Latency::constant(Duration{*f.values[0]})};
          },
      },
  };
  return kind;
}

}  // namespace locksim
