// Link latency distributions: constant, uniform, exponential, lognormal and
// pareto, written in scenario files as "1ms", "uniform(1ms, 5ms)",
// "exponential(2ms)", "lognormal(2ms, 0.5)" (median, sigma) and
// "pareto(1ms, 1.5)" (scale, shape). Heavy tails matter: Kleppmann's GitHub
// example is a packet delayed ~90 s.
#pragma once

#include <optional>
#include <string>

#include "sim/core/rng.h"
#include "sim/core/time.h"

namespace locksim {

struct Latency {
  enum class Kind : std::uint8_t { constant, uniform, exponential, lognormal, pareto };
  Kind kind = Kind::constant;
  Duration a{0};       // constant value, uniform low, exponential mean, lognormal median, pareto scale
  Duration b{0};       // uniform high
  double shape = 0.0;  // lognormal sigma, pareto alpha

  static Latency constant(Duration d) { return {Kind::constant, d, Duration{0}, 0.0}; }
  Duration sample(Rng& rng) const;
  std::string describe() const;
  // The least a draw can be, and the most when there is a most (uniform,
  // constant; the other distributions have unbounded tails).
  Duration lowest() const;
  std::optional<Duration> highest() const;
};

// Parses a latency spec; on failure returns nullopt and sets |error|. Every
// duration in it must be within kMaxDuration (core/limits.h), so that no draw
// leaves the representable range.
std::optional<Latency> parse_latency(const std::string& text, std::string& error);

// How "10s", "250ms", "40us", "5ns", "1.5s", "-3s", "0" read as text.
enum class DurationText : std::uint8_t {
  ok,
  bad,        // not a number and a unit
  too_fine,   // below 1 ns ("1.0000000001s")
  too_large,  // a number and a unit, but beyond int64 nanoseconds
};
DurationText read_duration_text(const std::string& text, Duration& out);
// The same, for callers that only need "did it read": nullopt unless ok.
std::optional<Duration> parse_duration(const std::string& text);

}  // namespace locksim
