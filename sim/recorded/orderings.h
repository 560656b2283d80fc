// The orders of events a history on local clocks allows.
//
// Each recorder's readings are true time plus an offset of its own, the
// offsets unknown but no two more than |u| apart. Two events of recorders p
// and q, read x on p's clock and y on q's, happened x first exactly when
// offset(q) - offset(p) < y - x: so the offsets' differences, each in
// [-u, u], are cut by every such y - x inside that range, and every choice
// of a piece per pair that the offsets can meet at once (a system of
// difference constraints) is one order of all the events. Judging one
// history per order, and the history's own readings besides, is exact: no
// order the bounds allow is missed, and none they forbid is judged.
//
// The pieces are open (an order with no ties); the history's own readings,
// which may tie, are judged separately by the caller. To land strictly
// inside every piece with whole numbers, times are scaled by |scale| (the
// recorders plus one: a cycle of constraints then keeps a positive slack).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "sim/core/time.h"

namespace locksim {

struct Orderings {
  std::int64_t scale = 1;
  // Per order, each recorder's offset in scaled nanoseconds: recorder p's
  // reading L of an event happened at scale * L - offsets[p].
  std::vector<std::vector<std::int64_t>> offsets;
};

// No bound of a pair's own (it follows from the others', if from any).
inline constexpr std::int64_t kOffsetUnbounded = std::numeric_limits<std::int64_t>::max() / 8;

// How far apart offsets may be, in ns: offset(q) - offset(p) <= most[p * n + q].
struct OffsetBounds {
  // Every pair at most |within| apart either way (kOffsetUnbounded: none).
  OffsetBounds(std::size_t count, std::int64_t within);
  // offset(q) - offset(p) in [lo, hi], besides what was set before.
  void between(std::size_t p, std::size_t q, std::int64_t lo, std::int64_t hi);
  std::size_t n;
  std::vector<std::int64_t> most;
};

// |readings|: per recorder, the readings that matter (its events' and the
// lease ends it promised), any order. nullopt when there are more than
// |limit| orders.
std::optional<Orderings> orderings_within(const std::vector<std::vector<std::int64_t>>& readings, Duration uncertainty,
                                          std::size_t limit);
// The same with bounds of each pair's own: an event known only within a
// range of a common clock is a "recorder" of its own, its offset from the
// clock's in [-range, 0] (it happened at its earliest reading or up to the
// range later).
std::optional<Orderings> orderings_within(const std::vector<std::vector<std::int64_t>>& readings,
                                          const OffsetBounds& bounds, std::size_t limit);

}  // namespace locksim
