#include "sim/scenario/faults/clock_jump.h"

#include <toml++/toml.h>

#include "sim/history/history.h"
#include "sim/scenario/faults/kind.h"
#include "sim/scenario/read/context.h"

namespace locksim {

using namespace scenario;

namespace {

// by = "15s" / "-2s" (a fixed step) or by = "+uniform(5s, 20s)" /
// "-exponential(2s)" (a size drawn per run; the sign is the direction).
void read_by(ReadContext& c, const DocNode& table, ClockJumpFault& out) {
  const DocNode* by = c.r.require(table, "by");
  std::string raw;
  if (by == nullptr || !c.r.string_value(*by, "a duration string such as \"-2s\" or \"+uniform(5s, 20s)\"", raw))
    return;
  const std::string text = trim(raw);
  std::string error;
  if (text.find('(') == std::string::npos) {
    if (auto d = duration_from_text(text, Sign::any, error))
      out.by = *d;
    else
      c.r.fail(*by, error);
    return;
  }
  if (text[0] != '+' && text[0] != '-') {
    c.r.fail(*by, "a drawn jump needs a direction: write " + in_quotes("+" + text) + " to step the clock forward or " +
                      in_quotes("-" + text) + " to step it back, got " + in_quotes(raw));
    return;
  }
  std::optional<Latency> size = parse_latency(trim(std::string_view(text).substr(1)), error);
  if (!size) {
    c.r.fail(*by, error);
    return;
  }
  out.drawn = *size;
  out.backwards = text[0] == '-';
}

// The inverse of read_by: a step keeps its sign ("+15s"), a drawn size its
// direction in front ("-exponential(2s)").
std::string by_text(const ClockJumpFault& f) {
  if (f.drawn) return (f.backwards ? "-" : "+") + f.drawn->describe();
  return (f.by >= Duration{0} ? "+" : "") + format_duration(f.by);
}

void write_by(const ClockJumpFault& f, toml::table& out) { out.insert_or_assign("by", by_text(f)); }

}  // namespace

const FaultKindDecl<ClockJumpFault>& kind_decl(std::type_identity<ClockJumpFault>) {
  static const FaultKindDecl<ClockJumpFault> kind{
      .name = fault_kind_name(FaultKind::clock_jump),
      .doc = "the wall clock steps (NTP step, operator); monotonic is untouched",
      .keys = {{{.name = "target", .rule = ProcessRule{}, .doc = "", .required = true}, into(&ClockJumpFault::target)},
               {{.name = "by",
                 .rule = CustomRule{"duration, may be negative, or a signed latency"},
                 .doc = "how far: `\"15s\"`, `\"-2s\"`; or a size drawn per run with its direction in front: "
                        "`\"+uniform(5s, 20s)\"` (forward), `\"-exponential(2s)\"` (back). A distribution without `+` "
                        "or `-` is an error",
                 .required = true},
                {}}},
      .read_custom = read_by,
      .write_custom = write_by,
      .resolve = [](const ClockJumpFault& f, const FaultResolver& run) -> FaultAction {
        if (!f.drawn) return fault::ClockJump{run.id(f.target), f.by};
        Rng rng = run.rng("by");
        const Duration size = f.drawn->sample(rng);
        return fault::ClockJump{run.id(f.target), f.backwards ? -size : size};
      },
      .describe = [](const ClockJumpFault& f) { return "of " + f.target + " by " + by_text(f); },
      .target = [](const ClockJumpFault& f) { return &f.target; },
      .clock_effect = [](const ClockJumpFault& f) {
        std::optional<Duration> size = f.drawn ? f.drawn->highest() : std::optional<Duration>(f.by);
        if (size && *size < Duration{0}) size = -*size;
        return ClockEffect{.drift_ppm = std::nullopt, .jump = size, .key = "by"};
      },
      .search = SearchSide<ClockJumpFault>{
          .values = {{.key = "by",
                      .sign = Sign::any,
                      .span = true,
                      .doc = "`\"-20s..+20s\"`: how far the wall clock steps"}},
          .make = [](const SearchedFault& f) {
            return ClockJumpFault{*f.target, Duration{*f.values[0]}, std::nullopt, false};
          },
      },
  };
  return kind;
}

}  // namespace locksim
