#include "sim/world/clock.h"

#include <algorithm>
#include <cstdint>

#include "sim/core/check.h"
#include "sim/core/limits.h"

namespace locksim {

namespace {

constexpr std::int64_t kMillion = 1'000'000;

}  // namespace

Clock::Clock(Duration offset, std::int64_t drift_ppm) : offset_(offset) {
  LOCKSIM_CHECK(drift_ppm > -kMillion, "a clock must move forward");
  segments_.push_back({kTrueStart, LocalTime{Duration{0}}, drift_ppm});
}

__int128 Clock::advance_exact(const Segment& s, TrueTime t) {
  const __int128 dt = static_cast<__int128>(t.time_since_epoch().count()) - s.start.time_since_epoch().count();
  // Most clocks have no drift: no 128-bit division for them (the same value).
  if (s.drift_ppm == 0) return s.monotonic_start.time_since_epoch().count() + dt;
  // A drifting clock within hours of its segment's start: the product fits
  // in 64 bits, and 64-bit division by the constant is a multiply, where
  // the 128-bit one is a library call. Both truncate toward zero: the same value.
  std::int64_t product;
  if (dt >= 0 && dt <= INT64_MAX && !__builtin_mul_overflow(static_cast<std::int64_t>(dt), kMillion + s.drift_ppm, &product))
    return s.monotonic_start.time_since_epoch().count() + static_cast<__int128>(product / kMillion);
  return s.monotonic_start.time_since_epoch().count() + dt * (kMillion + s.drift_ppm) / kMillion;
}

LocalTime Clock::advance(const Segment& s, TrueTime t) {
  // In range by the world's check (farthest_reading); kept exact otherwise.
  return LocalTime{Duration{static_cast<std::int64_t>(advance_exact(s, t))}};
}

TrueTime Clock::solve(const Segment& s, __int128 target_ns) {
  // 128-bit throughout: a far target (or a negative shift) must saturate to
  // "never", not wrap around to an instant that fires at once.
  const __int128 start_reading = s.monotonic_start.time_since_epoch().count();
  if (target_ns <= start_reading) return s.start;
  const __int128 need = target_ns - start_reading;
  if (s.drift_ppm == 0) {  // rate 1: dt = need, without the 128-bit division
    const __int128 at = static_cast<__int128>(s.start.time_since_epoch().count()) + need;
    if (at >= static_cast<__int128>(kTrueNever.time_since_epoch().count())) return kTrueNever;
    return TrueTime{Duration{static_cast<std::int64_t>(at)}};
  }
  // Smallest dt with floor(dt * rate / 1e6) >= need: dt = ceil(need * 1e6 / rate).
  const __int128 rate = kMillion + s.drift_ppm;
  __int128 dt;
  std::int64_t scaled;
  if (need <= INT64_MAX && !__builtin_mul_overflow(static_cast<std::int64_t>(need), kMillion, &scaled)) {
    // A target within hours: 64-bit division (need > 0 and rate > 0 here, so
    // truncation is the floor, as in the 128-bit form below).
    const auto rate64 = static_cast<std::int64_t>(rate);
    std::int64_t dt64 = scaled / rate64;
    if (dt64 * rate64 < scaled) ++dt64;
    dt = dt64;
  } else {
    dt = need * kMillion / rate;
    if (dt * rate < need * kMillion) ++dt;
  }
  const __int128 at = static_cast<__int128>(s.start.time_since_epoch().count()) + dt;
  if (at >= static_cast<__int128>(kTrueNever.time_since_epoch().count())) return kTrueNever;
  return TrueTime{Duration{static_cast<std::int64_t>(at)}};
}

const Clock::Segment& Clock::segment_at(TrueTime t) const {
  auto it = std::upper_bound(segments_.begin(), segments_.end(), t,
                             [](TrueTime value, const Segment& s) { return value < s.start; });
  return it == segments_.begin() ? segments_.front() : *(it - 1);
}

__int128 Clock::wall_offset_exact(TrueTime t) const {
  __int128 total = offset_.count();
  for (const Jump& j : jumps_) {
    if (j.at > t) break;
    total += j.by.count();
  }
  return total;
}

__int128 Clock::farthest_reading(TrueTime from, TrueTime until) const {
  const auto magnitude = [](__int128 v) { return v < 0 ? -v : v; };
  __int128 farthest = 0;
  for (TrueTime t : {from, until}) {
    const __int128 mono = advance_exact(segment_at(t), t);
    farthest = std::max({farthest, magnitude(mono + offset_.count()), magnitude(mono + wall_offset_exact(t))});
  }
  return farthest;
}

LocalTime Clock::monotonic(TrueTime t) const {
  // The monotonic epoch is arbitrary; starting it at the wall's initial
  // reading keeps traces easy to read.
  return advance(segment_at(t), t) + offset_;
}

LocalTime Clock::wall(TrueTime t) const {
  // Every Redis command reads it: for a clock that never changes (one
  // segment, no jump), the sum below without the search for the segment and
  // the walk over the jumps. The same value: wall_offset_exact is offset_.
  if (segments_.size() == 1 && jumps_.empty())
    return LocalTime{Duration{static_cast<std::int64_t>(advance_exact(segments_.front(), t) + offset_.count())}};
  return LocalTime{Duration{static_cast<std::int64_t>(advance_exact(segment_at(t), t) + wall_offset_exact(t))}};
}

std::int64_t Clock::drift_ppm(TrueTime t) const { return segment_at(t).drift_ppm; }

void Clock::set_drift(TrueTime at, std::int64_t drift_ppm) {
  LOCKSIM_CHECK(drift_ppm > -kMillion, "a clock must move forward");
  LOCKSIM_CHECK(at >= segments_.back().start, "clock changes must be applied in order");
  const LocalTime m = advance(segments_.back(), at);
  if (at == segments_.back().start) {
    segments_.back().drift_ppm = drift_ppm;
  } else {
    segments_.push_back({at, m, drift_ppm});
  }
}

void Clock::jump_wall(TrueTime at, Duration by) {
  LOCKSIM_CHECK(jumps_.empty() || at >= jumps_.back().at, "clock changes must be applied in order");
  jumps_.push_back({at, by});
}

TrueTime Clock::when_reads(ClockKind kind, LocalTime target, TrueTime from) const {
  // The common clock, one rate and no step that matters to |kind|: one
  // line, solved at once (what the walk below does in its first piece).
  if (segments_.size() == 1 && (kind == ClockKind::monotonic || jumps_.empty())) {
    const TrueTime t = solve(segments_.front(), static_cast<__int128>(target.time_since_epoch().count()) - offset_.count());
    return t < from ? from : t;
  }
  // Walk the pieces from |from| on. On each piece the reading is an
  // increasing line; the wall clock may step at jump instants (up or down),
  // which is why this is a walk and not a single inversion. No allocation:
  // the next cut is the earlier of the next segment start and the next jump.
  auto next_segment = std::upper_bound(segments_.begin(), segments_.end(), from,
                                       [](TrueTime value, const Segment& s) { return value < s.start; });
  auto next_jump = std::upper_bound(jumps_.begin(), jumps_.end(), from,
                                    [](TrueTime value, const Jump& j) { return value < j.at; });
  TrueTime piece_start = from;
  for (;;) {
    TrueTime cut = next_segment == segments_.end() ? kTrueNever : next_segment->start;
    if (kind == ClockKind::wall && next_jump != jumps_.end() && next_jump->at < cut) cut = next_jump->at;
    const Segment& s = segment_at(piece_start);
    const __int128 shift = kind == ClockKind::wall ? wall_offset_exact(piece_start) : offset_.count();
    // Reading on this piece = advance(s, t) + shift.
    TrueTime t = solve(s, static_cast<__int128>(target.time_since_epoch().count()) - shift);
    if (t < piece_start) t = piece_start;
    if (t < cut) return t;
    if (cut == kTrueNever) return kTrueNever;
    piece_start = cut;
    while (next_segment != segments_.end() && next_segment->start <= piece_start) ++next_segment;
    while (next_jump != jumps_.end() && next_jump->at <= piece_start) ++next_jump;
  }
}

Duration Clock::true_span(Duration local, TrueTime from) const {
  if (local <= Duration{0}) return Duration{0};
  // Every client's timer asks this, and most clocks run at rate 1 with no
  // change to come: the span is |local| itself, unless a sum below would
  // saturate, which the general path settles.
  if (segments_.size() == 1 && segments_.front().drift_ppm == 0) {
    const Segment& s = segments_.front();
    const __int128 reading = static_cast<__int128>(s.monotonic_start.time_since_epoch().count()) +
                             (from - s.start).count() + offset_.count();
    if (from >= s.start && reading + local.count() < INT64_MAX &&
        static_cast<__int128>(from.time_since_epoch().count()) + local.count() < INT64_MAX)
      return local;
  }
  const TrueTime at = when_reads(ClockKind::monotonic, saturating_add(monotonic(from), local), from);
  return at - from;
}

}  // namespace locksim
