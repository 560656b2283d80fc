#include "sim/world/message_slab.h"

#include <gtest/gtest.h>

namespace locksim {
namespace {

TEST(MessageSlabTest, GrowsOnlyWhenNoSlotIsFreeAndReusesTheLastGivenBack) {
  MessageSlab slab;
  EXPECT_FALSE(slab.has_free());
  const std::uint32_t a = slab.take();
  const std::uint32_t b = slab.take();
  const std::uint32_t c = slab.take();
  EXPECT_EQ(a, 0u);
  EXPECT_EQ(b, 1u);
  EXPECT_EQ(c, 2u);
  slab[b] = Message{7, 8, redis::Ping{}};
  slab.release(a);
  slab.release(c);
  EXPECT_TRUE(slab.has_free());
  EXPECT_EQ(slab.take(), c);  // last given back, first reused
  EXPECT_EQ(slab.take(), a);
  EXPECT_FALSE(slab.has_free());
  EXPECT_EQ(slab.take(), 3u);  // none free: a new slot
  EXPECT_EQ(slab[b].from, 7u);  // growing kept what the slots held
  EXPECT_EQ(slab[b].to, 8u);
}

TEST(MessageSlabTest, EverySlotGivenBackAtOnceFitsWithoutGrowing) {
  MessageSlab slab;
  for (int i = 0; i < 100; ++i) slab.take();
  for (std::uint32_t slot = 0; slot < 100; ++slot) slab.release(slot);
  for (int i = 0; i < 100; ++i) EXPECT_LT(slab.take(), 100u);
  EXPECT_EQ(slab.take(), 100u);
}

TEST(MessageSlabTest, ClearStartsNumberingAgain) {
  MessageSlab slab;
  slab.take();
  slab.take();
  slab.release(1);
  slab.clear();
  EXPECT_FALSE(slab.has_free());
  EXPECT_EQ(slab.take(), 0u);
  EXPECT_EQ(slab.take(), 1u);
}

TEST(MessageSlabTest, GivingBackMoreSlotsThanThereAreIsAnInternalError) {
  MessageSlab slab;
  slab.take();
  slab.release(0);
  EXPECT_DEATH(slab.release(0), "no more message slots given back than there are");
}

}  // namespace
}  // namespace locksim
