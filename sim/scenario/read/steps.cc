#include "sim/scenario/read/steps.h"

#include <algorithm>
#include <cctype>

#include "sim/scenario/keys.h"

namespace locksim::scenario {

namespace {

constexpr StepKind kStepKinds[] = {StepKind::read,           StepKind::write,
                                   StepKind::mark,           StepKind::add,
                                   StepKind::increment_size, StepKind::decrement,
                                   StepKind::check_and_decrement, StepKind::increment,
                                   StepKind::add_and_increment,   StepKind::commit,
                                   StepKind::check,          StepKind::work,
                                   StepKind::call};

const ServiceSpec* find_service(const ScenarioSpec& spec, const std::string& name) {
  for (const ServiceSpec& s : spec.services)
    if (s.name == name) return &s;
  return nullptr;
}

// "call NAME" where NAME is no service: what NAME is, the services there
// are, and the latency forms.
std::string unknown_service_message(const ReadContext& c, const std::string& name) {
  std::vector<std::string> services;
  for (const ServiceSpec& s : c.spec.services) services.push_back(s.name);
  std::string what;
  // Later clients are not registered yet; every other process is.
  if (const ProcessNames::Entry* p = c.processes.find(name))
    what = in_quotes(name) + " is " + (p->kind == NameKind::resource ? "the " : "a ") + p->kind_word() +
           ", not a service";
  else
    what = "unknown service " + in_quotes(name) + did_you_mean(name, services);
  what += services.empty() ? "; there are no services (declare one as [service." + name + "])"
                           : "; services: " + join_list(services);
  return what +
         ". \"call\" takes a service or a latency: a duration such as \"2s\", or constant(V), uniform(LOW, HIGH), "
         "exponential(MEAN), lognormal(MEDIAN, SIGMA), pareto(SCALE, ALPHA)";
}

}  // namespace

std::optional<Step> read_step(ReadContext& c, const std::string& raw, const SourcePos& pos, const std::string& key) {
  Reader& r = c.r;
  const std::string text = trim(raw);
  std::size_t space = 0;
  while (space < text.size() && !std::isspace(static_cast<unsigned char>(text[space]))) ++space;
  const std::string verb = text.substr(0, space);
  const std::string arg = trim(std::string_view(text).substr(space));
  const auto* kind = std::find_if(std::begin(kStepKinds), std::end(kStepKinds),
                                  [&](StepKind k) { return verb == step_name(k); });
  if (kind == std::end(kStepKinds)) {
    std::vector<std::string> names;
    for (StepKind k : kStepKinds) names.emplace_back(step_name(k));
    r.fail(pos, key,
           "unknown step " + in_quotes(verb) + did_you_mean(verb, names) + "; steps are: " + join_list(names) +
               " (work and call take a duration, such as \"work 2s\"; call also takes a service, such as "
               "\"call identity\")");
    return std::nullopt;
  }
  Step step{*kind, Latency::constant(Duration{0}), {}};
  const bool timed = *kind == StepKind::work || *kind == StepKind::call;
  if (timed && arg.empty()) {
    r.fail(pos, key,
           *kind == StepKind::call
               ? "step \"call\" needs a service or a latency, such as \"call identity\", \"call 2s\" or "
                 "\"call lognormal(200ms, 0.5)\""
               : "step " + in_quotes(verb) + " needs a duration or latency, such as \"" + verb + " 2s\" or \"" + verb +
                     " lognormal(200ms, 0.5)\"");
    return std::nullopt;
  }
  // "call identity": a request to the service process; it takes the
  // service's latency, so the step has none of its own.
  if (*kind == StepKind::call && find_service(c.spec, arg) != nullptr) {
    step.service = arg;
    return step;
  }
  if (!timed) {
    if (arg.empty()) return step;
    r.fail(pos, key, "step " + in_quotes(verb) + " takes no argument, got " + in_quotes(raw));
    return std::nullopt;
  }
  std::string error;
  std::optional<Latency> l = parse_latency(arg, error);
  if (!l) {
    // A plain value that is not a duration: the unit rules say why.
    if (arg.find('(') == std::string::npos) duration_from_text(arg, Sign::non_negative, error);
    // A word is a service name that matches none; anything else was meant as
    // a latency, and the latency's error says what is wrong.
    if (*kind == StepKind::call && std::isalpha(static_cast<unsigned char>(arg[0])) && valid_process_name(arg))
      error = unknown_service_message(c, arg);
    r.fail(pos, key, "in step " + in_quotes(raw) + ": " + error);
    return std::nullopt;
  }
  step.duration = *l;
  return step;
}

}  // namespace locksim::scenario
