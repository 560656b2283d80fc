#include "sim/world/latency.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "sim/core/limits.h"

namespace locksim {

Duration Latency::sample(Rng& rng) const {
  switch (kind) {
    case Kind::constant: return a;
    case Kind::uniform: return rng.between(a, b);
    case Kind::exponential: return rng.exponential(a);
    case Kind::lognormal: return rng.lognormal(a, shape);
    case Kind::pareto: return rng.pareto(a, shape);
  }
  return a;
}

std::string Latency::describe() const {
  auto shape_text = [this] {
    std::string s = std::to_string(shape);
    while (s.size() > 1 && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
  };
  switch (kind) {
    case Kind::constant: return format_duration(a);
    case Kind::uniform: return "uniform(" + format_duration(a) + ", " + format_duration(b) + ")";
    case Kind::exponential: return "exponential(" + format_duration(a) + ")";
    case Kind::lognormal: return "lognormal(" + format_duration(a) + ", " + shape_text() + ")";
    case Kind::pareto: return "pareto(" + format_duration(a) + ", " + shape_text() + ")";
  }
  return "?";
}

Duration Latency::lowest() const {
  switch (kind) {
    case Kind::constant:
    case Kind::uniform:
    case Kind::pareto: return a;
    case Kind::exponential:
    case Kind::lognormal: return Duration{0};
  }
  return Duration{0};
}

std::optional<Duration> Latency::highest() const {
  switch (kind) {
    case Kind::constant: return a;
    case Kind::uniform: return b;
    default: return std::nullopt;
  }
}

DurationText read_duration_text(const std::string& raw, Duration& out) {
  std::string text;
  for (char c : raw)
    if (!std::isspace(static_cast<unsigned char>(c))) text.push_back(c);
  if (text == "0") {
    out = Duration{0};
    return DurationText::ok;
  }
  std::size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  // Digits past the 19th cannot matter to a value that must fit int64
  // nanoseconds: remember that there were more and call it too large.
  __int128 whole = 0;
  std::size_t digits = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    if (++digits <= 30) whole = whole * 10 + (text[i] - '0');
    ++i;
  }
  std::int64_t frac = 0;
  std::int64_t frac_scale = 1;
  bool too_fine = false;
  if (i < text.size() && text[i] == '.') {
    ++i;
    std::size_t frac_digits = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      if (++frac_digits <= 15) {
        frac = frac * 10 + (text[i] - '0');
        frac_scale *= 10;
      } else if (text[i] != '0') {
        too_fine = true;
      }
      ++i;
    }
    if (frac_digits == 0) return DurationText::bad;
  }
  if (digits == 0) return DurationText::bad;
  const std::string unit = text.substr(i);
  std::int64_t unit_ns;
  if (unit == "ns") unit_ns = 1;
  else if (unit == "us") unit_ns = 1'000;
  else if (unit == "ms") unit_ns = 1'000'000;
  else if (unit == "s") unit_ns = 1'000'000'000;
  else if (unit == "min" || unit == "m") unit_ns = 60'000'000'000;
  else if (unit == "h") unit_ns = 3'600'000'000'000;
  else return DurationText::bad;
  if (too_fine || static_cast<__int128>(frac) * unit_ns % frac_scale != 0) return DurationText::too_fine;
  if (digits > 30) return DurationText::too_large;
  const __int128 ns = whole * unit_ns + static_cast<__int128>(frac) * unit_ns / frac_scale;
  if (ns > static_cast<__int128>(INT64_MAX)) return DurationText::too_large;
  const auto value = static_cast<std::int64_t>(ns);
  out = Duration{negative ? -value : value};
  return DurationText::ok;
}

std::optional<Duration> parse_duration(const std::string& text) {
  Duration d{0};
  if (read_duration_text(text, d) != DurationText::ok) return std::nullopt;
  return d;
}

std::optional<Latency> parse_latency(const std::string& raw, std::string& error) {
  std::string text;
  for (char c : raw)
    if (!std::isspace(static_cast<unsigned char>(c))) text.push_back(c);
  const auto open = text.find('(');
  if (open == std::string::npos) {
    Duration value{0};
    const DurationText read = read_duration_text(text, value);
    if (read == DurationText::too_large || (read == DurationText::ok && value > kMaxDuration)) {
      error = "\"" + raw + "\" is longer than the longest supported run, " + human_duration(kMaxDuration);
      return std::nullopt;
    }
    const std::optional<Duration> d = read == DurationText::ok ? std::optional<Duration>(value) : std::nullopt;
    if (!d || *d < Duration{0}) {
      error = "expected a duration such as \"1ms\" or a distribution such as \"uniform(1ms, 5ms)\", got \"" + raw + "\"";
      return std::nullopt;
    }
    return Latency::constant(*d);
  }
  if (text.back() != ')') {
    error = "missing ')' in latency \"" + raw + "\"";
    return std::nullopt;
  }
  const std::string name = text.substr(0, open);
  std::vector<std::string> args;
  std::string current;
  for (std::size_t i = open + 1; i + 1 < text.size(); ++i) {
    if (text[i] == ',') {
      args.push_back(current);
      current.clear();
    } else {
      current.push_back(text[i]);
    }
  }
  args.push_back(current);

  auto duration_arg = [&](std::size_t idx, Duration& out) {
    Duration d{0};
    const DurationText read = read_duration_text(args[idx], d);
    if (read == DurationText::too_large || (read == DurationText::ok && d > kMaxDuration)) {
      error = "\"" + args[idx] + "\" in \"" + raw + "\" is longer than the longest supported run, " +
              human_duration(kMaxDuration);
      return false;
    }
    if (read != DurationText::ok || d < Duration{0}) {
      error = "\"" + args[idx] + "\" is not a duration (use units: ns, us, ms, s) in \"" + raw + "\"";
      return false;
    }
    out = d;
    return true;
  };
  auto number_arg = [&](std::size_t idx, double& out) {
    char* end = nullptr;
    out = std::strtod(args[idx].c_str(), &end);
    if (args[idx].empty() || *end != '\0' || !(out > 0) || !std::isfinite(out)) {
      error = "\"" + args[idx] + "\" is not a positive number in \"" + raw + "\"";
      return false;
    }
    return true;
  };
  auto arity = [&](std::size_t n, const char* usage) {
    if (args.size() != n) {
      error = std::string("expected ") + usage + ", got \"" + raw + "\"";
      return false;
    }
    return true;
  };

  Latency l;
  if (name == "constant") {
    l.kind = Latency::Kind::constant;
    if (!arity(1, "constant(VALUE)") || !duration_arg(0, l.a)) return std::nullopt;
  } else if (name == "uniform") {
    l.kind = Latency::Kind::uniform;
    if (!arity(2, "uniform(LOW, HIGH)") || !duration_arg(0, l.a) || !duration_arg(1, l.b)) return std::nullopt;
    if (l.b < l.a) {
      error = "uniform(LOW, HIGH) needs LOW <= HIGH in \"" + raw + "\"";
      return std::nullopt;
    }
  } else if (name == "exponential" || name == "exp") {
    l.kind = Latency::Kind::exponential;
    if (!arity(1, "exponential(MEAN)") || !duration_arg(0, l.a)) return std::nullopt;
  } else if (name == "lognormal") {
    l.kind = Latency::Kind::lognormal;
    if (!arity(2, "lognormal(MEDIAN, SIGMA)") || !duration_arg(0, l.a) || !number_arg(1, l.shape)) return std::nullopt;
  } else if (name == "pareto") {
    l.kind = Latency::Kind::pareto;
    if (!arity(2, "pareto(SCALE, ALPHA)") || !duration_arg(0, l.a) || !number_arg(1, l.shape)) return std::nullopt;
  } else {
    error = "unknown latency distribution \"" + name + "\" (constant, uniform, exponential, lognormal, pareto)";
    return std::nullopt;
  }
  return l;
}

}  // namespace locksim
