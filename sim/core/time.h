// Time in locksim.
//
// There are two kinds of time and the type system keeps them apart:
//  - TrueTime: the engine's time, the one physics would agree on. Only the
//    engine, the world's bookkeeping, the recorded history and the checkers see
//    it. A model that reads true time would be immune to the clock faults the
//    simulator exists to inject.
//  - LocalTime: what one process's clock says (wall or monotonic). Models only
//    ever read LocalTime, through their own process.
// Both count int64 nanoseconds, enough for 292 years of simulated time; no
// floating point ever enters an event time.
#pragma once

#include <chrono>
#include <cstdint>
#include <limits>
#include <string>

namespace locksim {

using Duration = std::chrono::duration<std::int64_t, std::nano>;

// Tag types: they are never asked for "now"; they only make the two
// time_point types distinct so that TrueTime - LocalTime does not compile.
struct TrueClock {
  using duration = Duration;
};
struct LocalClock {
  using duration = Duration;
};

using TrueTime = std::chrono::time_point<TrueClock, Duration>;
using LocalTime = std::chrono::time_point<LocalClock, Duration>;

inline constexpr TrueTime kTrueStart{};
inline constexpr TrueTime kTrueNever{Duration{std::numeric_limits<std::int64_t>::max()}};

// "10s", "250ms", "1.5s", "40us", "-3s": the shortest exact human form, used in
// traces, witnesses and tables so that numbers read like the scenario files.
std::string format_duration(Duration d);
inline std::string format_time(TrueTime t) { return format_duration(t.time_since_epoch()); }
inline std::string format_time(LocalTime t) { return format_duration(t.time_since_epoch()); }

// For text people read (witnesses, tables): rounded to the precision that
// matters — to the microsecond below one second, to the millisecond from
// there on ("25.902ms", "10.022s") — where format_duration is exact
// ("25.902059ms"). JSON keeps the exact nanoseconds beside it.
std::string format_duration_rounded(Duration d);
inline std::string format_time_rounded(TrueTime t) { return format_duration_rounded(t.time_since_epoch()); }

inline constexpr std::int64_t to_ms(Duration d) { return std::chrono::duration_cast<std::chrono::milliseconds>(d).count(); }

}  // namespace locksim
