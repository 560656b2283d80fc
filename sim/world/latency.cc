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

namespace {

// "2ms": a constant latency.
std::optional<Latency> parse_plain(const std::string& raw, const std::string& text, std::string& error) {
  Duration value{0};
  const DurationText read = read_duration_text(text, value);
  if (read == DurationText::too_large || (read == DurationText::ok && value > kMaxDuration)) {
    error = "\"" + raw + "\" is longer than the longest supported run, " + human_duration(kMaxDuration);
    return std::nullopt;
  }
  if (read != DurationText::ok || value < Duration{0}) {
    error = "expected a duration such as \"1ms\" or a distribution such as \"uniform(1ms, 5ms)\", got \"" + raw + "\"";
    return std::nullopt;
  }
  return Latency::constant(value);
}

// The arguments of "name(a, b)", each read with a message that quotes the whole.
class DistributionArgs {
 public:
  DistributionArgs(const std::string& raw, const std::string& inside, std::string& error) : raw_(raw), error_(error) {
    std::string current;
    for (char c : inside) {
      if (c == ',') {
        args_.push_back(current);
        current.clear();
      } else {
        current.push_back(c);
      }
    }
    args_.push_back(current);
  }

  bool arity(std::size_t n, const char* usage) {
    if (args_.size() == n) return true;
    error_ = std::string("expected ") + usage + ", got \"" + raw_ + "\"";
    return false;
  }
  bool duration(std::size_t i, Duration& out) {
    Duration d{0};
    const DurationText read = read_duration_text(args_[i], d);
    if (read == DurationText::too_large || (read == DurationText::ok && d > kMaxDuration)) {
      error_ = "\"" + args_[i] + "\" in \"" + raw_ + "\" is longer than the longest supported run, " +
               human_duration(kMaxDuration);
      return false;
    }
    if (read != DurationText::ok || d < Duration{0}) {
      error_ = "\"" + args_[i] + "\" is not a duration (use units: ns, us, ms, s) in \"" + raw_ + "\"";
      return false;
    }
    out = d;
    return true;
  }
  bool number(std::size_t i, double& out) {
    char* end = nullptr;
    out = std::strtod(args_[i].c_str(), &end);
    if (args_[i].empty() || *end != '\0' || !(out > 0) || !std::isfinite(out)) {
      error_ = "\"" + args_[i] + "\" is not a positive number in \"" + raw_ + "\"";
      return false;
    }
    return true;
  }

 private:
  const std::string& raw_;
  std::string& error_;
  std::vector<std::string> args_;
};

// "uniform(1ms, 5ms)" and the like.
std::optional<Latency> parse_distribution(const std::string& raw, const std::string& name, DistributionArgs& args,
                                          std::string& error) {
  Latency l;
  bool ok = false;
  if (name == "constant") {
    l.kind = Latency::Kind::constant;
    ok = args.arity(1, "constant(VALUE)") && args.duration(0, l.a);
  } else if (name == "uniform") {
    l.kind = Latency::Kind::uniform;
    ok = args.arity(2, "uniform(LOW, HIGH)") && args.duration(0, l.a) && args.duration(1, l.b);
    if (ok && l.b < l.a) {
      error = "uniform(LOW, HIGH) needs LOW <= HIGH in \"" + raw + "\"";
      ok = false;
    }
  } else if (name == "exponential" || name == "exp") {
    l.kind = Latency::Kind::exponential;
    ok = args.arity(1, "exponential(MEAN)") && args.duration(0, l.a);
  } else if (name == "lognormal") {
    l.kind = Latency::Kind::lognormal;
    ok = args.arity(2, "lognormal(MEDIAN, SIGMA)") && args.duration(0, l.a) && args.number(1, l.shape);
  } else if (name == "pareto") {
    l.kind = Latency::Kind::pareto;
    ok = args.arity(2, "pareto(SCALE, ALPHA)") && args.duration(0, l.a) && args.number(1, l.shape);
  } else {
    error = "unknown latency distribution \"" + name + "\" (constant, uniform, exponential, lognormal, pareto)";
  }
  return ok ? std::optional<Latency>(l) : std::nullopt;
}

}  // namespace

std::optional<Latency> parse_latency(const std::string& raw, std::string& error) {
  std::string text;
  for (char c : raw)
    if (!std::isspace(static_cast<unsigned char>(c))) text.push_back(c);
  const auto open = text.find('(');
  if (open == std::string::npos) return parse_plain(raw, text, error);
  if (text.back() != ')') {
    error = "missing ')' in latency \"" + raw + "\"";
    return std::nullopt;
  }
  DistributionArgs args(raw, text.substr(open + 1, text.size() - open - 2), error);
  return parse_distribution(raw, text.substr(0, open), args, error);
}

}  // namespace locksim
