#include "sim/cli/clock_bounds_option.h"

#include <chrono>

#include "sim/scenario/doc.h"
#include "sim/scenario/reader.h"

namespace locksim::cli {

namespace {

constexpr const char* kFlag = "locksim check: --clock-uncertainty ";

// Clocks a day apart order nothing; the cap also keeps the judge's
// arithmetic (readings scaled, offsets added) far from overflowing.
std::optional<Duration> bound_from(const std::string& text, const std::string& given, std::ostream& err) {
  std::string error;
  const std::optional<Duration> d = scenario::duration_from_text(text, scenario::Sign::non_negative, error);
  if (!d) {
    err << kFlag << given << ": " << error << "\n";
    return std::nullopt;
  }
  if (*d > std::chrono::hours(24)) {
    err << kFlag << given << ": more than a day: clocks that far apart order no two events\n";
    return std::nullopt;
  }
  return d;
}

}  // namespace

bool parse_clock_bounds(const std::vector<std::string>& values, ClockBoundsOption& out, std::ostream& err) {
  for (const std::string& v : values) {
    const auto equals = v.find('=');
    if (equals == std::string::npos) {
      if (out.all) {
        err << kFlag << v << ": the bound for every pair is given twice (" << format_duration(*out.all) << " and "
            << v << "); a pair's own is written A:B=D\n";
        return false;
      }
      out.all = bound_from(v, v, err);
      if (!out.all) return false;
      continue;
    }
    const std::string names = v.substr(0, equals);
    const auto colon = names.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == names.size()) {
      err << kFlag << v << ": a pair's bound is written A:B=D, two process names and a duration (c1:redis=50ms)\n";
      return false;
    }
    const std::optional<Duration> within = bound_from(v.substr(equals + 1), v, err);
    if (!within) return false;
    out.pairs.push_back({names.substr(0, colon), names.substr(colon + 1), *within, v});
  }
  if (!out.pairs.empty() && !out.all) {
    err << kFlag << out.pairs.front().text
        << ": a pair's bound needs the one for every other pair too (--clock-uncertainty D)\n";
    return false;
  }
  return true;
}

std::optional<ClockBounds> resolve_clock_bounds(const ClockBoundsOption& option, const RecordedHistory& h,
                                                std::ostream& err) {
  ClockBounds out;
  out.all = option.all.value_or(Duration{0});
  std::vector<std::string> names;
  for (const ProcessInfo& p : h.history.processes) names.push_back(p.name);
  names.push_back(kObserverName);
  const auto id_of = [&](const std::string& name, const std::string& given) -> std::optional<ProcessId> {
    for (ProcessId p = 0; p < names.size(); ++p)
      if (names[p] == name) return p;
    err << kFlag << given << ": \"" << name << "\" is no process of the history" << scenario::did_you_mean(name, names)
        << "\n";
    return std::nullopt;
  };
  for (const ClockBoundsOption::Pair& pair : option.pairs) {
    const auto a = id_of(pair.a, pair.text);
    const auto b = a ? id_of(pair.b, pair.text) : std::nullopt;
    if (!a || !b) return std::nullopt;
    if (*a == *b) {
      err << kFlag << pair.text << ": a process's clock is never apart from itself; name two\n";
      return std::nullopt;
    }
    out.pairs.push_back({*a, *b, pair.within});
  }
  return out;
}

}  // namespace locksim::cli
