#include "sim/scenario/faults/clock_jump.h"

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
      .resolve = [](const ClockJumpFault& f, const FaultResolver& run) -> FaultAction {
        if (!f.drawn) return fault::ClockJump{run.id(f.target), f.by};
        Rng rng = run.rng("by");
        const Duration size = f.drawn->sample(rng);
        return fault::ClockJump{run.id(f.target), f.backwards ? -size : size};
      },
      .target = [](const ClockJumpFault& f) { return &f.target; },
      .clock_effect = [](const ClockJumpFault& f) {
        std::optional<Duration> size = f.drawn ? f.drawn->highest() : std::optional<Duration>(f.by);
        if (size && *size < Duration{0}) size = -*size;
        return ClockEffect{.drift_ppm = std::nullopt, .jump = size, .key = "by"};
      },
  };
  return kind;
}

}  // namespace locksim
