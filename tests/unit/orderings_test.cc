// The orders of events a history on local clocks allows (sim/recorded/
// orderings.h): by hand on the small cases, and against a brute force that
// tries every offset on a fine grid — the enumeration must find exactly the
// orders (with no ties) the grid finds, no more and no fewer.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "sim/core/rng.h"
#include "sim/recorded/orderings.h"

namespace locksim {
namespace {

using Readings = std::vector<std::vector<std::int64_t>>;
// An order of every event: (recorder, reading) in true-time order; nullopt
// when two events tie (the enumeration only yields orders without ties).
using Order = std::vector<std::pair<std::size_t, std::int64_t>>;

std::optional<Order> order_at(const Readings& readings, const std::vector<std::int64_t>& offsets, std::int64_t scale) {
  std::vector<std::pair<std::int64_t, std::pair<std::size_t, std::int64_t>>> events;
  for (std::size_t p = 0; p < readings.size(); ++p)
    for (std::int64_t r : readings[p]) events.push_back({scale * r - offsets[p], {p, r}});
  std::sort(events.begin(), events.end());
  Order out;
  for (std::size_t i = 0; i < events.size(); ++i) {
    // Ties within one recorder are its own order, not a question of offsets.
    if (i > 0 && events[i].first == events[i - 1].first && events[i].second.first != events[i - 1].second.first)
      return std::nullopt;
    out.push_back(events[i].second);
  }
  return out;
}

std::set<Order> enumerated(const Readings& readings, Duration u) {
  const auto orders = orderings_within(readings, u, 100000);
  EXPECT_TRUE(orders.has_value());
  std::set<Order> out;
  for (const auto& offsets : orders->offsets) {
    const auto order = order_at(readings, offsets, orders->scale);
    EXPECT_TRUE(order.has_value()) << "an enumerated order has a tie";
    if (order) out.insert(*order);
  }
  EXPECT_EQ(out.size(), orders->offsets.size()) << "an order was enumerated twice";
  for (const auto& offsets : orders->offsets)
    for (std::size_t p = 0; p < offsets.size(); ++p)
      for (std::size_t q = 0; q < offsets.size(); ++q)
        EXPECT_LE(offsets[q] - offsets[p], orders->scale * u.count()) << "offsets further apart than the bound";
  return out;
}

TEST(Orderings, TwoCloseEventsGoEitherWay) {
  const auto orders = enumerated({{10}, {10}}, Duration{1});
  EXPECT_EQ(orders.size(), 2u);
}

TEST(Orderings, EventsFurtherApartThanTheBoundKeepTheirOrder) {
  EXPECT_EQ(enumerated({{0}, {5}}, Duration{4}).size(), 1u);
  EXPECT_EQ(enumerated({{0}, {5}}, Duration{5}).size(), 1u);  // at the bound they may tie, not swap
  EXPECT_EQ(enumerated({{0}, {5}}, Duration{6}).size(), 2u);
}

TEST(Orderings, NoUncertaintyLeavesOnlyTheReadingsOwnOrder) {
  // With u = 0 a tie stays a tie, which the caller judges as read.
  EXPECT_EQ(enumerated({{10}, {10}}, Duration{0}).size(), 0u);
  EXPECT_EQ(enumerated({{1}, {10}}, Duration{0}).size(), 1u);
}

TEST(Orderings, TooManyOrdersIsSaid) {
  Readings many(4);
  for (std::int64_t i = 0; i < 20; ++i)
    for (auto& r : many) r.push_back(i);
  EXPECT_FALSE(orderings_within(many, Duration{100}, 50).has_value());
}

// Every order a grid of offsets reaches, the enumeration finds, and the
// reverse: random small histories of three recorders.
TEST(Orderings, MatchesABruteForceOverEveryOffset) {
  Rng rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    Readings readings(3);
    for (auto& r : readings)
      for (std::uint64_t i = rng.below(3) + 1; i > 0; --i) r.push_back(static_cast<std::int64_t>(rng.below(12)));
    const Duration u{static_cast<std::int64_t>(rng.below(5))};
    const std::set<Order> found = enumerated(readings, u);
    // Offsets on a grid finer than any gap (quarters of a nanosecond, as
    // scale 4), the first recorder's fixed at 0.
    std::set<Order> brute;
    const std::int64_t grid = 4 * u.count();
    for (std::int64_t o1 = -grid; o1 <= grid; ++o1)
      for (std::int64_t o2 = -grid; o2 <= grid; ++o2) {
        if (std::abs(o2 - o1) > grid) continue;
        if (const auto order = order_at(readings, {0, o1, o2}, 4)) brute.insert(*order);
      }
    EXPECT_EQ(found, brute) << "trial " << trial << " u " << u.count();
  }
}

}  // namespace
}  // namespace locksim
