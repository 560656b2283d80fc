// The representable range: what a run can hold without an int64 overflowing.
//
// True and local time are int64 nanoseconds, which reach ±292 years. A run
// adds durations to instants everywhere: a timer at now + a TTL, a lease end
// at a clock reading + a TTL, a pause that ends at now + its length, a clock
// that reads its offset + its drifted run time + every jump so far. So no
// single value may use the whole range. The budget:
//
//   a duration a user writes (run_for, a TTL, a pause, a timeout, a latency,
//   a fault time, a clock offset or jump)                     <= 100 years
//   what a clock may read during a run                         <= ±150 years
//   a clock reading + one more duration                        <= 250 years
//
// which leaves 42 years of headroom under int64's 292. The parser refuses a
// value past its limit and says which limit (a 100-year run is already
// absurd for a lock story; the point is that nothing a user can type wraps
// around). Clock readings are checked by the world whenever a clock changes
// (a run that would push one past ±150 years stops with an error), and the
// few sums that can go further — a deadline past every run, a retry after
// another retry — saturate at "never" with the helpers below, which is what
// such a deadline means.
//
// Counts are bounded too, so memory is: processes per scenario, the bytes of
// an input file, and (per run, settable in [scenario]) events dispatched and
// facts recorded.
#pragma once

#include <chrono>
#include <cstdint>
#include <limits>

#include "sim/core/time.h"

namespace locksim {

// 365.25 days: the Julian year, so "100 years" means the same to everyone.
inline constexpr Duration kYear = std::chrono::seconds(31'557'600);
// The longest run, and the longest duration of anything a scenario states.
inline constexpr Duration kMaxDuration = 100 * kYear;
// The farthest a process's clock may read from zero, either way.
inline constexpr Duration kMaxClockReading = 150 * kYear;
static_assert(kMaxClockReading + kMaxDuration <= Duration{std::numeric_limits<std::int64_t>::max()} - 40 * kYear,
              "a clock reading plus one duration must stay well inside int64 nanoseconds");

// Clock rates: above -100 % (a clock that stops or runs backwards is not a
// clock) and at most +100 % (twice true speed; real oscillators are off by
// parts per million, a bad VM clock by a few percent).
inline constexpr std::int64_t kMinDriftPpm = -999'999;
inline constexpr std::int64_t kMaxDriftPpm = 1'000'000;

// Processes in one scenario (clients, nodes, replicas, sentinels, services,
// the resource). Links are created on first use, so memory grows with the
// pairs that talk, not with the square of this.
inline constexpr std::size_t kMaxProcesses = 10'000;
// A scenario file (the catalogue's are a few KiB).
inline constexpr std::size_t kMaxScenarioBytes = 4 << 20;
// Per run, unless [scenario] says otherwise: a run that dispatches more
// events or records more facts stops with an error instead of running for
// ever or exhausting memory.
inline constexpr std::uint64_t kDefaultMaxEvents = 50'000'000;
inline constexpr std::uint64_t kDefaultMaxFacts = 4'000'000;  // 72 bytes each: under 300 MB
inline constexpr std::uint64_t kMaxEventBudget = 10'000'000'000;
inline constexpr std::uint64_t kMaxFactBudget = 100'000'000;

// A duration as error messages state it: "100 years", "876001h", "90min",
// else format_duration's "1.5s" (format_duration keeps seconds as the
// largest unit, which reads badly for the values limits are about).
std::string human_duration(Duration d);

// a + b, or the far end of the range when the sum would leave it. For
// deadlines: an instant past every run is "never".
constexpr std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
  std::int64_t sum = 0;
  if (!__builtin_add_overflow(a, b, &sum)) return sum;
  return b > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
}
constexpr Duration saturating_add(Duration a, Duration b) { return Duration{saturating_add(a.count(), b.count())}; }
constexpr TrueTime saturating_add(TrueTime t, Duration d) {
  return TrueTime{saturating_add(t.time_since_epoch(), d)};
}
constexpr LocalTime saturating_add(LocalTime t, Duration d) {
  return LocalTime{saturating_add(t.time_since_epoch(), d)};
}
// d * n, saturating the same way (n >= 0).
constexpr Duration saturating_mul(Duration d, std::int64_t n) {
  std::int64_t product = 0;
  if (!__builtin_mul_overflow(d.count(), n, &product)) return Duration{product};
  return Duration{(d.count() < 0) != (n < 0) ? std::numeric_limits<std::int64_t>::min()
                                             : std::numeric_limits<std::int64_t>::max()};
}
// d * ppm / 1,000,000, exact where it fits and saturating where it does not:
// the plain product overflows from d > 9.2e12 ns (2.5 hours) at ppm =
// 1,000,000, and TTLs run to a century.
constexpr Duration scale_ppm(Duration d, std::int64_t ppm) {
  const __int128 v = static_cast<__int128>(d.count()) * ppm / 1'000'000;
  if (v > std::numeric_limits<std::int64_t>::max()) return Duration{std::numeric_limits<std::int64_t>::max()};
  if (v < std::numeric_limits<std::int64_t>::min()) return Duration{std::numeric_limits<std::int64_t>::min()};
  return Duration{static_cast<std::int64_t>(v)};
}

}  // namespace locksim
