// Sweep axes: `--vary KEY=SPEC` parsed and expanded into canonical values.
//
// SPEC is one of
//   a range            A..B:STEP   A, A+STEP, ... up to B inclusive   "1s..10s:1s"
//   a geometric range  A..B*F      A, A*F, A*F*F, ... while <= B       "1ms..10s*10"
//   a list             X,Y,Z       exactly these values                "0ppm,5000ppm,20000ppm"
// Ranges take durations (ns, us, ms, s, min, h), rates (ppm, %), integers
// and decimals. Arithmetic is exact — integer nanoseconds, integer ppm,
// decimals as integer billionths — so a range never prints float noise and
// never drops its end to rounding; a geometric step that would leave that
// grid (1ns * 1.5) is an error rather than a rounded value. Values print in
// canonical form: durations as format_duration does ("1.5s", "250ms"), rates
// in the unit of the range's start ("5000ppm" or "0.5%"), integers plainly,
// decimals without trailing zeros but with at least one decimal digit ("0.5",
// "2.0"). List items that read as one of those kinds are canonicalised the
// same way; anything else (a latency "uniform(1ms, 5ms)", a name, a TOML
// array) is passed through as written. Commas inside (), [], {} or quotes do
// not split a list.
//
// Values are not checked against the key here: each cell is resolved by the
// scenario reader (scenario/file.h), which owns every key's rules and error messages.
//
// A linear range is never written out: its values are computed from their
// index (start + index * step), so `1ms..1000s:1ms` costs three integers, not
// a million strings. Lists and geometric ranges (at most a few dozen exact
// values fit in int64) are held as text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace locksim::sweep {

inline constexpr std::size_t kMaxAxisValues = 1'000'000;

// The values of one axis, in order, as canonical text, by index.
class AxisValues {
 public:
  AxisValues() = default;
  // A list of values, taken as they are (already canonical). Implicit, so a
  // test can write Axis{"lock.ttl", {"1s", "2s"}}.
  AxisValues(std::vector<std::string> values) : listed_(std::move(values)) {}

  std::size_t size() const { return linear_ ? linear_->count : listed_.size(); }
  // REQUIRES: index < size().
  std::string at(std::size_t index) const;
  // Every value, written out (tests and short axes).
  std::vector<std::string> all() const;

  // The values in order, each computed when it is reached:
  // `for (const std::string& value : axis.values)`.
  class Iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = std::string;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = std::string;
    Iterator(const AxisValues* values, std::size_t index) : values_(values), index_(index) {}
    std::string operator*() const { return values_->at(index_); }
    Iterator& operator++() {
      ++index_;
      return *this;
    }
    bool operator==(const Iterator& other) const { return index_ == other.index_; }

   private:
    const AxisValues* values_;
    std::size_t index_;
  };
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, size()}; }

 private:
  friend struct AxisBuilder;
  struct Linear {
    std::uint8_t kind = 0;  // axis.cc's Kind
    __int128 start = 0;     // in the kind's units
    __int128 step = 0;
    std::size_t count = 0;  // every value fits int64 (checked when built)
  };
  std::vector<std::string> listed_;
  std::optional<Linear> linear_;
};

// One --vary: a key and its values.
struct Axis {
  std::string key;
  AxisValues values;
};

// Parses one "KEY=SPEC". On failure returns nullopt and sets |error| to a
// one-line message (without the command's name).
std::optional<Axis> parse_axis(std::string_view text, std::string& error);

// SPEC alone, as lazily computed values.
std::optional<AxisValues> parse_spec(std::string_view spec, std::string& error);
// SPEC alone, written out into canonical values.
std::optional<std::vector<std::string>> expand_spec(std::string_view spec, std::string& error);

// The canonical text of one value (see above); text of no known kind comes
// back trimmed and otherwise unchanged.
std::string canonical_value(std::string_view text);

}  // namespace locksim::sweep
