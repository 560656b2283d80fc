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

// |readings|: per recorder, the readings that matter (its events' and the
// lease ends it promised), any order. nullopt when there are more than
// |limit| orders.
std::optional<Orderings> orderings_within(const std::vector<std::vector<std::int64_t>>& readings, Duration uncertainty,
                                          std::size_t limit);

}  // namespace locksim
