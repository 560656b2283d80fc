#include "sim/scenario/faults/crash.h"

#include "sim/history/history.h"
#include "sim/scenario/faults/kind.h"

namespace locksim {

using namespace scenario;

namespace {
constexpr std::pair<bool, std::string_view> kWhat[] = {{false, "machine"}, {true, "process"}};
}

const FaultKindDecl<CrashFault>& kind_decl(std::type_identity<CrashFault>) {
  static const FaultKindDecl<CrashFault> kind{
      .name = fault_kind_name(FaultKind::crash),
      .doc = "volatile state is lost; a machine crash drops what is sent to it, a process crash refuses it",
      .keys = {{{.name = "target", .rule = ProcessRule{}, .doc = "", .required = true}, into(&CrashFault::target)},
               {{.name = "restart_after",
                 .rule = DurationRule{.sign = Sign::non_negative},
                 .doc = "restart this long after the crash",
                 .default_note = "stays down"},
                into(&CrashFault::restart_after)},
               {{.name = "what",
                 .rule = choice_of(kWhat, false),
                 .doc = "`\"machine\"` (power loss, kernel panic): silence — requests are dropped and clients wait "
                        "for their timeouts; a Redis node loses what it had not fsynced. `\"process\"` (kill -9, "
                        "the OOM killer): the host stays up and refuses every connection at once, so a client's "
                        "request fails in one round trip; a Redis node keeps everything it acknowledged (the page "
                        "cache outlives the process)"},
                into(&CrashFault::process_only)}},
      .resolve = [](const CrashFault& f, const FaultResolver& run) -> FaultAction {
        return fault::Crash{run.id(f.target), f.restart_after.value_or(Duration{-1}), f.process_only};
      },
      .describe = [](const CrashFault& f) {
        return "of " + f.target +
               (f.restart_after ? ", restarting after " + format_duration(*f.restart_after) : ", staying down");
      },
      .target = [](const CrashFault& f) { return &f.target; },
      .search = SearchSide<CrashFault>{
          .values = {{.key = "restart_after",
                      .sign = Sign::non_negative,
                      .optional = true,
                      .zero_is_at_once = true,
                      .not_for_clients = "a client cannot restart",
                      .doc = "`\"0s..10s\"`: restart this long after the crash; absent = stays down"}},
          .make = [](const SearchedFault& f) {
            CrashFault crash{*f.target, std::nullopt};
            if (f.values[0]) crash.restart_after = Duration{*f.values[0]};
            return crash;
          },
      },
  };
  return kind;
}

}  // namespace locksim
