#include "sim/scenario/faults/restart.h"

#include "sim/history/history.h"
#include "sim/scenario/faults/kind.h"

namespace locksim {

using namespace scenario;

const FaultKindDecl<RestartFault>& kind_decl(std::type_identity<RestartFault>) {
  static const FaultKindDecl<RestartFault> kind{
      .name = fault_kind_name(FaultKind::restart),
      .doc = "restart a crashed process",
      .keys = {{{.name = "target", .rule = ProcessRule{}, .doc = "", .required = true}, into(&RestartFault::target)}},
      .resolve = [](const RestartFault& f, const FaultResolver& run) -> FaultAction {
        return fault::Restart{run.id(f.target)};
      },
      .target = [](const RestartFault& f) { return &f.target; },
  };
  return kind;
}

}  // namespace locksim
