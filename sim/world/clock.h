// A process's clocks: a mapping from true time to what the process reads.
//
// Why a machine's time cannot be trusted (and so why models never see true
// time): its oscillator runs fast or slow by tens to hundreds of ppm, NTP or
// an operator can step the wall clock forward or back at any moment, and only
// the monotonic clock is promised never to go backwards — it still drifts.
// Redis expires keys by the wall clock (db.c keyIsExpired) while its event
// loop timers use the steady clock (ae.c); Kleppmann's and antirez's argument
// is about exactly this difference.
//
// Model: piecewise linear in true time. Each segment starts at a true instant
// with a monotonic reading and a rate (1e6 + drift_ppm) / 1e6; a drift change
// starts a new segment (a slew is a temporary drift change). The wall clock is
// the monotonic reading plus the initial offset plus every jump applied so far.
//
//   monotonic(t) = m_k + (t - s_k) * (1e6 + ppm_k) / 1e6   for s_k <= t < s_{k+1}
//   wall(t)      = monotonic(t) + offset + sum of jumps at or before t
//
// Integer arithmetic throughout (128-bit intermediates), so the same history
// maps to the same readings on every machine.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "sim/core/ids.h"
#include "sim/core/time.h"

namespace locksim {

class Clock {
 public:
  // A clock that reads true time + offset and runs at 1e6 + drift_ppm ticks per million.
  explicit Clock(Duration offset = Duration{0}, std::int64_t drift_ppm = 0);

  LocalTime monotonic(TrueTime t) const;
  LocalTime wall(TrueTime t) const;
  LocalTime read(ClockKind kind, TrueTime t) const { return kind == ClockKind::wall ? wall(t) : monotonic(t); }

  // REQUIRES: at is not before the latest change already applied.
  void set_drift(TrueTime at, std::int64_t drift_ppm);
  void jump_wall(TrueTime at, Duration by);
  std::int64_t drift_ppm(TrueTime t) const;

  // The first true instant >= from at which this clock reads >= target, given
  // every change applied so far (the future is assumed unchanged).
  TrueTime when_reads(ClockKind kind, LocalTime target, TrueTime from) const;
  // How long in true time until the monotonic clock has advanced by |local|,
  // starting at |from|; a span that would end past every run ends at
  // kTrueNever (the result is then kTrueNever - from).
  Duration true_span(Duration local, TrueTime from) const;

  // The largest distance from zero either reading reaches over [from, until],
  // exactly (128-bit), given every change applied so far: the world checks it
  // against kMaxClockReading whenever the clock changes. Readings rise
  // between changes, so the ends of the interval bound it.
  __int128 farthest_reading(TrueTime from, TrueTime until) const;

  // The clock's whole shape, for the trace's clock lines (trace_format.h):
  // with these the analysis reads any process's clock at any true instant
  // exactly as the model did, without the simulator.
  struct Segment {
    TrueTime start;
    LocalTime monotonic_start;
    std::int64_t drift_ppm;
  };
  struct Jump {
    TrueTime at;
    Duration by;
  };
  Duration offset() const { return offset_; }
  std::span<const Segment> segments() const { return {segments_.data(), segments_.size()}; }
  std::span<const Jump> jumps() const { return {jumps_.data(), jumps_.size()}; }

 private:
  const Segment& segment_at(TrueTime t) const;
  static LocalTime advance(const Segment& s, TrueTime t);
  static __int128 advance_exact(const Segment& s, TrueTime t);
  __int128 wall_offset_exact(TrueTime t) const;
  // First t in [s.start, +inf) at which the segment's line reaches |target_ns|
  // (a local reading in ns, widened so that shifted targets cannot overflow).
  static TrueTime solve(const Segment& s, __int128 target_ns);

  Duration offset_;
  // Inline room for the common clock (one segment, a jump or none): building
  // and copying a world's clocks allocates nothing.
  boost::container::small_vector<Segment, 2> segments_;  // sorted by start; never empty
  boost::container::small_vector<Jump, 1> jumps_;        // sorted by at
};

}  // namespace locksim
