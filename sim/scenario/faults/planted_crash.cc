#include "sim/scenario/faults/planted_crash.h"

#include "sim/scenario/faults/kind.h"

namespace locksim {

using namespace scenario;

const FaultKindDecl<PlantedCrashFault>& kind_decl(std::type_identity<PlantedCrashFault>) {
  static const FaultKindDecl<PlantedCrashFault> kind{
      .name = "planted-crash",
      .doc = "test-only: the simulator aborts when it fires, as a model's bug would",
      .hidden = true,
      .keys = {{{.name = "target", .rule = ProcessRule{}, .doc = "", .required = true},
                into(&PlantedCrashFault::target)}},
      .resolve = [](const PlantedCrashFault& f, const FaultResolver& run) -> FaultAction {
        return fault::PlantedCrash{run.id(f.target)};
      },
      .target = [](const PlantedCrashFault& f) { return &f.target; },
  };
  return kind;
}

}  // namespace locksim
