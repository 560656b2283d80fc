#include "sim/sweep/axis.h"

#include <cctype>
#include <cstdint>
#include <limits>

#include "sim/core/check.h"
#include "sim/core/time.h"
#include "sim/scenario/doc.h"
#include "sim/scenario/reader.h"
#include "sim/world/latency.h"

namespace locksim::sweep {

namespace {

using i128 = __int128;
using scenario::trim;

// What a value is, and the integer unit it is counted in.
enum class Kind : std::uint8_t {
  duration,  // nanoseconds
  ppm,       // ppm, printed "NNNppm"
  percent,   // ppm, printed "N.NNNN%"
  integer,   // ones
  decimal,   // billionths, printed with at least one decimal digit
};

constexpr std::int64_t kDecimalScale = 1'000'000'000;  // decimals count billionths

struct Quantity {
  Kind kind = Kind::integer;
  i128 units = 0;
};

bool is_rate(Kind k) { return k == Kind::ppm || k == Kind::percent; }
bool is_number(Kind k) { return k == Kind::integer || k == Kind::decimal; }

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

// A plain number: [+-]digits[.digits], at most 18 whole and 9 decimal digits.
// Sets |decimal| when it has a decimal point; |units| counts billionths.
bool parse_number(const std::string& text, i128& billionths, bool& decimal) {
  std::size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  i128 whole = 0;
  std::size_t digits = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    if (++digits > 18) return false;
    whole = whole * 10 + (text[i++] - '0');
  }
  if (digits == 0) return false;
  i128 frac = 0;
  std::size_t frac_digits = 0;
  decimal = false;
  if (i < text.size() && text[i] == '.') {
    decimal = true;
    ++i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      if (++frac_digits > 9) return false;
      frac = frac * 10 + (text[i++] - '0');
    }
    if (frac_digits == 0) return false;
  }
  if (i != text.size()) return false;
  for (std::size_t d = frac_digits; d < 9; ++d) frac *= 10;
  billionths = whole * kDecimalScale + frac;
  if (negative) billionths = -billionths;
  return true;
}

// Reads |raw| as a duration, rate, integer or decimal.
std::optional<Quantity> parse_quantity(std::string_view raw) {
  const std::string text = trim(raw);
  if (text.empty()) return std::nullopt;
  if (ends_with(text, "ppm") || ends_with(text, "%")) {
    std::string ignored;
    const std::optional<std::int64_t> ppm = scenario::ppm_from_text(text, ignored);
    if (!ppm) return std::nullopt;
    return Quantity{ends_with(text, "%") ? Kind::percent : Kind::ppm, *ppm};
  }
  i128 billionths = 0;
  bool decimal = false;
  if (parse_number(text, billionths, decimal)) {
    if (decimal) return Quantity{Kind::decimal, billionths};
    return Quantity{Kind::integer, billionths / kDecimalScale};
  }
  if (const std::optional<Duration> d = parse_duration(text)) return Quantity{Kind::duration, d->count()};
  return std::nullopt;
}

bool fits_int64(i128 v) {
  return v >= std::numeric_limits<std::int64_t>::min() && v <= std::numeric_limits<std::int64_t>::max();
}

// |units| / |scale| written exactly with up to |max_decimals| digits after the
// point, trailing zeros trimmed, and at least |min_decimals| of them.
std::string exact_decimal(i128 units, std::int64_t scale, int min_decimals) {
  std::string sign = units < 0 ? "-" : "";
  const i128 mag = units < 0 ? -units : units;
  const auto whole = static_cast<std::int64_t>(mag / scale);
  i128 rest = mag % scale;
  std::string decimals;
  for (std::int64_t s = scale / 10; s > 0 && (rest != 0 || static_cast<int>(decimals.size()) < min_decimals);
       s /= 10) {
    decimals.push_back(static_cast<char>('0' + static_cast<int>(rest / s)));
    rest %= s;
  }
  while (static_cast<int>(decimals.size()) < min_decimals) decimals.push_back('0');
  return sign + std::to_string(whole) + (decimals.empty() ? "" : "." + decimals);
}

std::string format_quantity(const Quantity& q) {
  const auto v = static_cast<std::int64_t>(q.units);
  switch (q.kind) {
    case Kind::duration:
      return format_duration(Duration{v});
    case Kind::ppm:
      return std::to_string(v) + "ppm";
    case Kind::percent:
      return exact_decimal(q.units, 10'000, 0) + "%";
    case Kind::integer:
      return std::to_string(v);
    case Kind::decimal:
      return exact_decimal(q.units, kDecimalScale, 1);
  }
  return "";
}

const char* kind_rule() {
  return "a range takes durations (10s), rates (200ppm, 0.5%), integers or decimals";
}

// Brings start, end and step of a range to one kind; fails on a mix of
// families (a duration and a rate).
bool unify(Quantity& start, Quantity& end, Quantity* step, const std::string& spec, std::string& error) {
  // A bare 0 ("0..10s:1s") takes the kind of the other parts, as "0" does in scenario files.
  auto unitless_zero = [](const Quantity& q) { return q.kind == Kind::integer && q.units == 0; };
  const Quantity& typed = unitless_zero(start) ? (unitless_zero(end) && step != nullptr ? *step : end) : start;
  for (Quantity* q : {&start, &end, step})
    if (q != nullptr && unitless_zero(*q) && !is_number(typed.kind)) q->kind = typed.kind;
  auto family_ok = [&](const Quantity& q) {
    if (start.kind == Kind::duration) return q.kind == Kind::duration;
    if (is_rate(start.kind)) return is_rate(q.kind);
    return is_number(q.kind);
  };
  if (!family_ok(end) || (step != nullptr && !family_ok(*step))) {
    error = "range " + quoted(spec) + " mixes kinds of value; its start, end and step must all be durations, all "
            "rates or all numbers";
    return false;
  }
  if (is_number(start.kind)) {
    const bool decimal = start.kind == Kind::decimal || end.kind == Kind::decimal ||
                         (step != nullptr && step->kind == Kind::decimal);
    if (decimal) {
      for (Quantity* q : {&start, &end, step}) {
        if (q == nullptr || q->kind == Kind::decimal) continue;
        q->kind = Kind::decimal;
        q->units *= kDecimalScale;
      }
    }
  }
  // Rates keep the start's unit; the units (ppm) are the same either way.
  end.kind = start.kind;
  if (step != nullptr) step->kind = start.kind;
  return true;
}

bool push(std::vector<std::string>& out, const Quantity& q, const std::string& spec, std::string& error) {
  if (!fits_int64(q.units)) {
    error = "range " + quoted(spec) + " runs past the largest value";
    return false;
  }
  if (out.size() >= kMaxAxisValues) {
    error = "range " + quoted(spec) + " has more than " + std::to_string(kMaxAxisValues) + " values";
    return false;
  }
  out.push_back(format_quantity(q));
  return true;
}

std::optional<Quantity> range_part(const std::string& part, const char* what, const std::string& spec,
                                   std::string& error) {
  std::optional<Quantity> q = parse_quantity(part);
  if (!q) {
    error = "bad range " + std::string(what) + " " + quoted(trim(part)) + " in " + quoted(spec) + "; " + kind_rule();
    return std::nullopt;
  }
  return q;
}

}  // namespace

// Builds the lazy form of a linear range; a friend of AxisValues.
struct AxisBuilder {
  static AxisValues linear(std::uint8_t kind, __int128 start, __int128 step, std::size_t count) {
    AxisValues values;
    values.linear_ = AxisValues::Linear{kind, start, step, count};
    return values;
  }
};

namespace {

// A linear range, kept as start, step and count. It fails where writing the
// values out one by one would have: at the first value past int64, or at
// value kMaxAxisValues + 1, whichever comes first.
std::optional<AxisValues> linear_range(const std::string& spec, const std::string& a, const std::string& b,
                                       const std::string& s, std::string& error) {
  auto start = range_part(a, "start", spec, error);
  if (!start) return std::nullopt;
  auto end = range_part(b, "end", spec, error);
  if (!end) return std::nullopt;
  auto step = range_part(s, "step", spec, error);
  if (!step) return std::nullopt;
  if (!unify(*start, *end, &*step, spec, error)) return std::nullopt;
  if (step->units <= 0) {
    error = "range " + quoted(spec) + ": the step must be greater than zero";
    return std::nullopt;
  }
  if (start->units > end->units) {
    error = "range " + quoted(spec) + " is empty: its start is past its end";
    return std::nullopt;
  }
  // Parts are at most 10^27 units (18 digits of billionths), so none of this
  // comes near __int128's 10^38.
  const i128 count = (end->units - start->units) / step->units + 1;
  constexpr i128 kInt64Max = std::numeric_limits<std::int64_t>::max();
  const i128 first_too_big = fits_int64(start->units) ? (kInt64Max - start->units) / step->units + 1 : 0;
  if (first_too_big < count && first_too_big <= static_cast<i128>(kMaxAxisValues)) {
    error = "range " + quoted(spec) + " runs past the largest value";
    return std::nullopt;
  }
  if (count > static_cast<i128>(kMaxAxisValues)) {
    error = "range " + quoted(spec) + " has more than " + std::to_string(kMaxAxisValues) + " values";
    return std::nullopt;
  }
  return AxisBuilder::linear(static_cast<std::uint8_t>(start->kind), start->units, step->units,
                             static_cast<std::size_t>(count));
}

std::optional<std::vector<std::string>> expand_geometric(const std::string& spec, const std::string& a,
                                                         const std::string& b, const std::string& f,
                                                         std::string& error) {
  auto start = range_part(a, "start", spec, error);
  if (!start) return std::nullopt;
  auto end = range_part(b, "end", spec, error);
  if (!end) return std::nullopt;
  if (!unify(*start, *end, nullptr, spec, error)) return std::nullopt;
  i128 factor = 0;  // billionths
  bool decimal = false;
  if (!parse_number(trim(f), factor, decimal)) {
    error = "bad factor " + quoted(trim(f)) + " in " + quoted(spec) + "; write a number above 1 such as 10 or 1.5";
    return std::nullopt;
  }
  if (factor <= kDecimalScale) {
    error = "range " + quoted(spec) + ": the factor must be greater than 1";
    return std::nullopt;
  }
  if (start->units <= 0) {
    error = "range " + quoted(spec) + ": a geometric range needs a start greater than zero";
    return std::nullopt;
  }
  if (start->units > end->units) {
    error = "range " + quoted(spec) + " is empty: its start is past its end";
    return std::nullopt;
  }
  std::vector<std::string> out;
  for (Quantity v = *start; v.units <= end->units;) {
    if (!push(out, v, spec, error)) return std::nullopt;
    // v fits int64 (push checked it) but the factor may be up to 10^27: a
    // product past __int128 is past every end.
    i128 next = 0;
    if (__builtin_mul_overflow(v.units, factor, &next)) break;
    if (next % kDecimalScale != 0) {
      error = "range " + quoted(spec) + ": " + format_quantity(v) + " * " + trim(f) +
              " is not exact (the finest step is 1ns, 1ppm, 1 or 0.000000001)";
      return std::nullopt;
    }
    v.units = next / kDecimalScale;
    if (!fits_int64(v.units)) break;  // past every end
  }
  return out;
}

// Splits a list at commas outside quotes and brackets.
std::vector<std::string> split_list(std::string_view spec) {
  std::vector<std::string> items;
  std::string current;
  int depth = 0;
  char quote = 0;
  for (char c : spec) {
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
      --depth;
    } else if (c == ',' && depth == 0) {
      items.push_back(current);
      current.clear();
      continue;
    }
    current.push_back(c);
  }
  items.push_back(current);
  return items;
}

}  // namespace

std::string canonical_value(std::string_view text) {
  if (const std::optional<Quantity> q = parse_quantity(text); q && fits_int64(q->units)) return format_quantity(*q);
  return trim(text);
}

std::optional<AxisValues> parse_spec(std::string_view raw, std::string& error) {
  const std::string spec = trim(raw);
  if (spec.empty()) {
    error = "empty SPEC; write a range A..B:STEP, a geometric range A..B*F or a list X,Y,Z";
    return std::nullopt;
  }
  const std::vector<std::string> items = split_list(spec);
  if (items.size() == 1 && spec.find("..") != std::string::npos) {
    const std::size_t dots = spec.find("..");
    const std::string a = spec.substr(0, dots);
    const std::string rest = spec.substr(dots + 2);
    const std::size_t colon = rest.rfind(':');
    const std::size_t star = rest.rfind('*');
    if (colon != std::string::npos && star != std::string::npos) {
      error = "range " + quoted(spec) + " has both a step (:) and a factor (*); give one";
      return std::nullopt;
    }
    if (colon != std::string::npos) return linear_range(spec, a, rest.substr(0, colon), rest.substr(colon + 1), error);
    if (star != std::string::npos) {
      auto values = expand_geometric(spec, a, rest.substr(0, star), rest.substr(star + 1), error);
      if (!values) return std::nullopt;
      return AxisValues(std::move(*values));
    }
    error = "range " + quoted(spec) + " needs a step (A..B:STEP) or a factor (A..B*F)";
    return std::nullopt;
  }
  std::vector<std::string> values;
  for (const std::string& item : items) {
    if (trim(item).empty()) {
      error = "list " + quoted(spec) + " has an empty value";
      return std::nullopt;
    }
    if (values.size() >= kMaxAxisValues) {
      error = "list " + quoted(spec) + " has more than " + std::to_string(kMaxAxisValues) + " values";
      return std::nullopt;
    }
    values.push_back(canonical_value(item));
  }
  return AxisValues(std::move(values));
}

std::optional<std::vector<std::string>> expand_spec(std::string_view spec, std::string& error) {
  std::optional<AxisValues> values = parse_spec(spec, error);
  if (!values) return std::nullopt;
  return values->all();
}

std::string AxisValues::at(std::size_t index) const {
  if (!linear_) return listed_.at(index);
  LOCKSIM_CHECK(index < linear_->count, "axis value index out of range");
  return format_quantity(Quantity{static_cast<Kind>(linear_->kind),
                                  linear_->start + static_cast<i128>(index) * linear_->step});
}

std::vector<std::string> AxisValues::all() const {
  std::vector<std::string> out;
  out.reserve(size());
  for (std::size_t i = 0; i < size(); ++i) out.push_back(at(i));
  return out;
}

std::optional<Axis> parse_axis(std::string_view raw, std::string& error) {
  const std::size_t eq = raw.find('=');
  if (eq == std::string_view::npos) {
    error = "expected KEY=SPEC such as clock.C.drift=0.5%..2%:0.5%, got " + quoted(raw);
    return std::nullopt;
  }
  Axis axis;
  axis.key = trim(raw.substr(0, eq));
  if (axis.key.empty()) {
    error = "missing key before '=' in " + quoted(raw);
    return std::nullopt;
  }
  for (char c : axis.key) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == ';' || c == '=') {
      error = "bad key " + quoted(axis.key) + ": a key is dotted, such as clock.C.drift";
      return std::nullopt;
    }
  }
  auto values = parse_spec(raw.substr(eq + 1), error);
  if (!values) {
    error = axis.key + ": " + error;
    return std::nullopt;
  }
  axis.values = std::move(*values);
  return axis;
}

}  // namespace locksim::sweep
