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
  EXPECT_EQ(copy.get(), (PartitionGroups::Groups{{1, 2}, {3}}));
}

TEST(PartitionGroups, MadeFromAListOfGroups) {
  PartitionGroups::Groups groups{{0}, {4, 5}};
  const PartitionGroups made = groups;
  EXPECT_EQ(made.get(), groups);
}

TEST(PartitionGroups, ADefaultOneHasNoGroups) {
  const PartitionGroups none;
  EXPECT_TRUE(none.get().empty());
}

}  // namespace
}  // namespace locksim
