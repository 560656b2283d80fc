// ServiceHolder::holder against its definition (holder.h), over every way
// up to five nodes can hold up to three values or none: the values on at
// least a quorum of nodes, the most recently written winning a tie. Majority
// quorums take a shortcut (one candidate, counted); the others count every
// value. Both are held to the same reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "sim/check/holder.h"

namespace locksim {
namespace {

// values[i]: what node i holds (0 = nothing), written in node order.
std::optional<std::uint64_t> by_definition(const std::vector<std::uint64_t>& values, std::uint32_t quorum) {
  std::optional<std::uint64_t> best;
  std::size_t best_written = 0;
  for (const std::uint64_t v : values) {
    if (v == 0) continue;
    const auto count = static_cast<std::size_t>(std::count(values.begin(), values.end(), v));
    std::size_t last_written = 0;
    for (std::size_t i = 0; i < values.size(); ++i)
      if (values[i] == v) last_written = i + 1;
    if (count >= quorum && (!best || last_written > best_written)) {
      best = v;
      best_written = last_written;
    }
  }
  return best;
}

TEST(ServiceHolder, EveryAssignmentOfValuesToNodesGivesTheDefinedHolder) {
  std::size_t held = 0;
  for (std::uint32_t n = 1; n <= 5; ++n) {
    for (std::uint32_t quorum = 1; quorum <= n + 1; ++quorum) {
      std::size_t assignments = 1;
      for (std::uint32_t i = 0; i < n; ++i) assignments *= 4;
      for (std::size_t code = 0; code < assignments; ++code) {
        ServiceLayout layout;
        layout.quorum = quorum;
        layout.lock_key = 7;
        std::vector<std::uint64_t> values;
        for (std::uint32_t i = 0, c = static_cast<std::uint32_t>(code); i < n; ++i, c /= 4) {
          layout.nodes.push_back(10 + i);
          values.push_back(c % 4);
        }
        ServiceHolder service(layout);
        for (std::uint32_t i = 0; i < n; ++i)
          if (values[i] != 0) service.apply(Fact{kTrueStart, KeyHeld{10 + i, 7, values[i]}});
        const auto expected = by_definition(values, quorum);
        ASSERT_EQ(service.holder(), expected) << n << " nodes, quorum " << quorum << ", assignment " << code;
        held += expected ? 1 : 0;
      }
    }
  }
  EXPECT_GT(held, 1000u);
}

// A value that left a node (KeyDropped) no longer counts there.
TEST(ServiceHolder, ADroppedValueStopsCounting) {
  ServiceLayout layout;
  layout.nodes = {1, 2, 3};
  layout.quorum = 2;
  ServiceHolder service(layout);
  service.apply(Fact{kTrueStart, KeyHeld{1, 0, 5}});
  service.apply(Fact{kTrueStart, KeyHeld{2, 0, 5}});
  EXPECT_EQ(service.holder(), std::optional<std::uint64_t>{5});
  service.apply(Fact{kTrueStart, KeyDropped{2, 0, 5, KeyGone::expired}});
  EXPECT_EQ(service.holder(), std::nullopt);
}

}  // namespace
}  // namespace locksim
