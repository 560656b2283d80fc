#include "sim/scenario/faults/crash.h"

#include "sim/history/history.h"
#include "sim/scenario/faults/kind.h"

namespace locksim {

using namespace scenario;

const FaultKindDecl<CrashFault>& kind_decl(std::type_identity<CrashFault>) {
  static const FaultKindDecl<CrashFault> kind{
      .name = fault_kind_name(FaultKind::crash),
      .doc = "volatile state is lost; deliveries are dropped",
      .keys = {{{.name = "target", .rule = ProcessRule{}, .doc = "", .required = true}, into(&CrashFault::target)},
               {{.name = "restart_after",
                 .rule = DurationRule{.sign = Sign::non_negative},
                 .doc = "restart this long after the crash",
                 .default_note = "stays down"},
                into(&CrashFault::restart_after)}},
      .resolve = [](const CrashFault& f, const FaultResolver& run) -> FaultAction {
        return fault::Crash{run.id(f.target), f.restart_after.value_or(Duration{-1})};
      },
      .target = [](const CrashFault& f) { return &f.target; },
  };
  return kind;
}

}  // namespace locksim
