// PartitionGroups: copies share one list (a sweep's every run copies its
// partitions twice), and a default one has no groups.
#include "sim/history/partition_groups.h"

#include <gtest/gtest.h>

#include <vector>

namespace locksim {
namespace {

TEST(PartitionGroups, CopiesShareTheOneList) {
  const PartitionGroups made{{1, 2}, {3}};
  const PartitionGroups copy = made;
  EXPECT_EQ(&copy.get(), &made.get());
  ASSERT_EQ(copy.size(), 2u);
  EXPECT_EQ(copy[0], (std::vector<ProcessId>{1, 2}));
  EXPECT_EQ(copy[1], (std::vector<ProcessId>{3}));
}

TEST(PartitionGroups, MadeFromAListOfGroups) {
  PartitionGroups::Groups groups{{0}, {4, 5}};
  const PartitionGroups made = groups;
  EXPECT_EQ(made.get(), groups);
  std::size_t members = 0;
  for (const auto& group : made) members += group.size();
  EXPECT_EQ(members, 3u);
}

TEST(PartitionGroups, ADefaultOneHasNoGroups) {
  const PartitionGroups none;
  EXPECT_EQ(none.size(), 0u);
  EXPECT_TRUE(none.get().empty());
  EXPECT_EQ(none.begin(), none.end());
}

}  // namespace
}  // namespace locksim
