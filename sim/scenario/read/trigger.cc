#include "sim/scenario/read/trigger.h"

#include <cctype>
#include <sstream>

namespace locksim::scenario {

namespace {

// at = "uniform(1s, 9s)": phases never have parentheses.
void read_drawn(ReadContext& c, const DocNode& at, const std::string& raw, const std::string& text,
                TriggerSpec& trigger) {
  if (text[0] == '-' || text[0] == '+') {
    c.r.fail(at, "a drawn trigger time takes no sign (it counts from the start of the run): write " +
                     in_quotes(trim(std::string_view(text).substr(1))) + ", got " + in_quotes(raw));
    return;
  }
  std::string error;
  std::optional<Latency> drawn = parse_latency(text, error);
  if (!drawn) return c.r.fail(at, error);
  trigger.kind = TriggerSpec::Kind::time;
  trigger.at_drawn = *drawn;
}

// at = "c1 acquired".
void read_phase(ReadContext& c, const DocNode& at, const std::string& raw, const std::string& text,
                TriggerSpec& trigger) {
  std::istringstream words(text);
  std::string process, phase_text, extra;
  words >> process >> phase_text >> extra;
  if (phase_text.empty() || !extra.empty())
    return c.r.fail(at,
                    "expected a time such as \"5s\" or \"uniform(1s, 9s)\", or \"PROCESS PHASE\" such as "
                    "\"c1 acquired\", got " +
                        in_quotes(raw));
  const std::vector<std::string> clients = c.processes.names("client");
  const ProcessNames::Entry* entry = c.processes.find(process);
  if (entry == nullptr)
    return c.r.fail(at, "unknown client " + in_quotes(process) + did_you_mean(process, clients) +
                            "; clients: " + join_list(clients));
  if (entry->kind != "client")
    return c.r.fail(at, in_quotes(process) + " is a " + std::string(entry->kind) +
                            "; phase triggers name a client (clients: " + join_list(clients) + ")");
  Phase phase{};
  if (!parse_phase(phase_text, phase)) {
    const std::vector<std::string> phases = phase_names();
    return c.r.fail(at, "unknown phase " + in_quotes(phase_text) + did_you_mean(phase_text, phases) +
                            "; phases: " + join_list(phases));
  }
  trigger.kind = TriggerSpec::Kind::phase;
  trigger.process = process;
  trigger.phase = phase;
}

}  // namespace

void read_trigger(ReadContext& c, const DocNode& at, TriggerSpec& trigger) {
  std::string raw;
  if (!c.r.string_value(at, "a time such as \"5s\" or \"uniform(1s, 9s)\", or a phase such as \"c1 acquired\"", raw))
    return;
  const std::string text = trim(raw);
  if (text.find('(') != std::string::npos) return read_drawn(c, at, raw, text, trigger);
  const bool looks_like_time = !text.empty() && (std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '-' ||
                                                 text[0] == '+' || text[0] == '.');
  if (!looks_like_time) return read_phase(c, at, raw, text, trigger);
  std::string error;
  if (auto d = duration_from_text(text, Sign::non_negative, error)) {
    trigger.kind = TriggerSpec::Kind::time;
    trigger.at_time = *d;
  } else {
    c.r.fail(at, error);
  }
}

}  // namespace locksim::scenario
