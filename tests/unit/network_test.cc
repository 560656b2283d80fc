// The network: per-link FIFO under random latency, loss, partitions (who is
// cut, drop versus hold, heal) and per-link random streams.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/rng.h"
#include "sim/world/network.h"

namespace locksim {
namespace {

using namespace std::chrono_literals;

TrueTime T(Duration d) { return kTrueStart + d; }

LinkSpec link_with(const std::string& latency, std::int64_t loss_ppm = 0) {
  std::string error;
  auto l = parse_latency(latency, error);
  EXPECT_TRUE(l) << error;
  return LinkSpec{*l, loss_ppm};
}

std::vector<std::string> names(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back("p" + std::to_string(i));
  return out;
}

TEST(NetworkTest, ConstantLatencyArrivesAtSendPlusLatency) {
  // With the default constant link, a message arrives exactly latency after it is sent.
  Network net(names(2), LinkSpec{}, 1);
  EXPECT_EQ(net.link(0, 1).latency.a, Duration{1ms});
  EXPECT_EQ(net.schedule(0, 1, T(5ms)), T(6ms));
  net.set_link(0, 1, link_with("7ms"));
  EXPECT_EQ(net.schedule(0, 1, T(10ms)), T(17ms));
  EXPECT_EQ(net.schedule(1, 0, T(10ms)), T(11ms));  // the reverse link is its own
}

TEST(NetworkTest, FifoPerLinkUnderRandomLatency) {
  // Under random latency arrivals on each link never decrease, and none arrives before its latency floor.
  Network net(names(3), link_with("uniform(1ms, 50ms)"), 7);
  std::vector<TrueTime> last(9, kTrueStart);
  int reordered_if_not_fifo = 0;
  TrueTime now = kTrueStart;
  for (int i = 0; i < 3000; ++i) {
    if (i % 3 == 0) now += 100us;  // several sends share an instant
    const ProcessId from = static_cast<ProcessId>(i % 3);
    const ProcessId to = static_cast<ProcessId>((i / 3) % 3);
    const TrueTime arrival = net.schedule(from, to, now);
    ASSERT_NE(arrival, Network::kLost);
    ASSERT_GE(arrival, now + 1ms);
    const std::size_t link = from * 3 + to;
    ASSERT_GE(arrival, last[link]) << "message " << i << " overtook an earlier one on its link";
    if (arrival == last[link]) ++reordered_if_not_fifo;
    last[link] = arrival;
  }
  // The FIFO clamp did real work: random latency alone would have reordered these.
  EXPECT_GT(reordered_if_not_fifo, 100);
}

TEST(NetworkTest, FifoClampIsPerLinkOnly) {
  // A slow message on one link does not hold back another link.
  Network net(names(3), LinkSpec{}, 1);
  net.set_link(0, 1, link_with("10s"));
  EXPECT_EQ(net.schedule(0, 1, T(0s)), T(10s));
  EXPECT_EQ(net.schedule(0, 2, T(0s)), T(1ms));
  EXPECT_EQ(net.schedule(2, 1, T(0s)), T(1ms));
  net.set_link(0, 1, link_with("1ms"));
  EXPECT_EQ(net.schedule(0, 1, T(1s)), T(10s));  // behind the slow one on its own link
}

TEST(NetworkTest, LossAtExtremesAndInBetween) {
  // 100% loss loses everything, 0% nothing, 30% about 30%; lost messages do not advance the FIFO clamp.
  Network net(names(2), LinkSpec{}, 3);
  net.set_link(0, 1, link_with("1ms", 1'000'000));
  net.set_link(1, 0, link_with("1ms", 0));
  for (int i = 0; i < 1000; ++i) {
    EXPECT_EQ(net.schedule(0, 1, T(Duration{i * 1ms})), Network::kLost);
    EXPECT_NE(net.schedule(1, 0, T(Duration{i * 1ms})), Network::kLost);
  }
  Network partial(names(2), link_with("uniform(1ms, 2ms)", 300'000), 3);
  int lost = 0;
  for (int i = 0; i < 10000; ++i) lost += partial.schedule(0, 1, T(1s)) == Network::kLost ? 1 : 0;
  EXPECT_NEAR(lost, 3000, 300);
}

TEST(NetworkTest, SameSeedSameDrawsAndLinksDoNotShareStreams) {
  // A link's draws depend only on the seed and its endpoint names: other links and extra processes do not shift them.
  auto arrivals = [](Network& net, ProcessId from, ProcessId to) {
    std::vector<TrueTime> out;
    for (int i = 0; i < 50; ++i) out.push_back(net.schedule(from, to, T(Duration{i * 1s})));
    return out;
  };
  const LinkSpec spec = link_with("exponential(5ms)");
  Network a(names(2), spec, 11);
  Network b(names(4), spec, 11);
  // Interleave traffic on other links in b: it must not disturb p0->p1.
  for (int i = 0; i < 30; ++i) (void)b.schedule(2, 3, T(0s));
  const auto a01 = arrivals(a, 0, 1);
  EXPECT_EQ(a01, arrivals(b, 0, 1));
  Network c(names(2), spec, 11);
  EXPECT_NE(a01, arrivals(c, 1, 0));  // the reverse link has its own stream
  Network d(names(2), spec, 12);
  EXPECT_NE(a01, arrivals(d, 0, 1));  // another seed draws differently
}

TEST(NetworkTest, PartitionCutsOnlyPairsInDifferentGroups) {
  // Pairs split across groups are cut both ways; pairs in one group, or with a process in no group, are not.
  Network net(names(5), LinkSpec{}, 1);
  EXPECT_EQ(net.judge(0, 2), Network::Verdict::deliver);
  const std::uint32_t id = net.partition({{0, 1}, {2}, {3}}, PartitionMode::drop);
  EXPECT_TRUE(net.active(id));
  EXPECT_EQ(net.judge(0, 2), Network::Verdict::drop);
  EXPECT_EQ(net.judge(2, 0), Network::Verdict::drop);
  EXPECT_EQ(net.judge(1, 2), Network::Verdict::drop);
  EXPECT_EQ(net.judge(2, 3), Network::Verdict::drop);
  EXPECT_EQ(net.judge(0, 1), Network::Verdict::deliver);
  EXPECT_EQ(net.judge(1, 0), Network::Verdict::deliver);
  EXPECT_EQ(net.judge(0, 0), Network::Verdict::deliver);
  EXPECT_EQ(net.judge(0, 4), Network::Verdict::deliver);  // p4 is in no group
  EXPECT_EQ(net.judge(4, 2), Network::Verdict::deliver);
}

TEST(NetworkTest, SmallWorldsVerdictTableAnswersAsTheLoopDoes) {
  // Up to 64 processes the network remembers each pair's verdict while a
  // partition is active, until the next start or heal; larger worlds loop
  // over the partitions every time. Through
  // random partitions (drop and hold, overlapping) and heals, a 10-process
  // world and a 70-process world that partition the same 10 answer alike.
  Network small(names(10), LinkSpec{}, 1);
  Network large(names(70), LinkSpec{}, 1);
  Rng rng(5);
  std::vector<std::uint32_t> ids;
  for (int step = 0; step < 60; ++step) {
    if (ids.empty() || rng.below(3) != 0) {
      std::vector<std::vector<ProcessId>> groups(1 + rng.below(3));
      for (ProcessId p = 0; p < 10; ++p)
        if (rng.below(4) != 0) groups[rng.below(groups.size())].push_back(p);
      const PartitionMode mode = rng.below(2) == 0 ? PartitionMode::drop : PartitionMode::hold;
      const std::uint32_t id = small.partition(groups, mode);
      ASSERT_EQ(large.partition(groups, mode), id);
      ids.push_back(id);
    } else {
      const std::uint32_t id = ids[rng.below(ids.size())];
      small.heal(id);
      large.heal(id);
    }
    for (ProcessId from = 0; from < 10; ++from)
      for (ProcessId to = 0; to < 10; ++to) {
        std::uint32_t held_small = 99, held_large = 99;
        const Network::Verdict verdict = small.judge(from, to, &held_small);
        ASSERT_EQ(verdict, large.judge(from, to, &held_large)) << "step " << step << ", " << from << " -> " << to;
        if (verdict == Network::Verdict::hold)  // which partition holds it: only meaningful for hold
          ASSERT_EQ(held_small, held_large) << "step " << step << ", " << from << " -> " << to;
      }
  }
}

TEST(NetworkTest, ResetIsANewNetworkForTheNewSeed) {
  // After a run that partitioned, judged pairs and drew latencies, reset()
  // answers as a network constructed with the new seed: same draws, no
  // partition, and no verdict remembered from the old run passes for fresh
  // (the old run's partition ids and epochs start again from 0).
  Network used(names(3), link_with("uniform(1ms, 9ms)"), 1);
  used.partition({{0}, {1, 2}}, PartitionMode::drop);  // the old run's first partition, judged below
  for (ProcessId from = 0; from < 3; ++from)
    for (ProcessId to = 0; to < 3; ++to) {
      used.judge(from, to);
      used.schedule(from, to, T(1s));
    }
  used.reset(2);
  Network fresh(names(3), link_with("uniform(1ms, 9ms)"), 2);
  EXPECT_EQ(used.judge(0, 1), Network::Verdict::deliver);
  // The new run's first partition cuts other pairs than the old run's did.
  ASSERT_EQ(used.partition({{0, 1}, {2}}, PartitionMode::drop), fresh.partition({{0, 1}, {2}}, PartitionMode::drop));
  for (ProcessId from = 0; from < 3; ++from)
    for (ProcessId to = 0; to < 3; ++to) {
      EXPECT_EQ(used.judge(from, to), fresh.judge(from, to)) << from << " -> " << to;
      EXPECT_EQ(used.schedule(from, to, T(0s)), fresh.schedule(from, to, T(0s))) << from << " -> " << to;
    }
}

TEST(NetworkTest, HoldReportsItsPartitionAndDropBeatsHold) {
  // A hold partition answers hold with its id; when a drop partition also cuts the pair, drop wins.
  Network net(names(4), LinkSpec{}, 1);
  const std::uint32_t hold = net.partition({{0}, {1, 2}}, PartitionMode::hold);
  std::uint32_t holder = 99;
  EXPECT_EQ(net.judge(0, 1, &holder), Network::Verdict::hold);
  EXPECT_EQ(holder, hold);
  const std::uint32_t drop = net.partition({{0, 1}, {2}}, PartitionMode::drop);
  EXPECT_NE(drop, hold);
  EXPECT_EQ(net.judge(0, 2, &holder), Network::Verdict::drop);  // cut by both
  EXPECT_EQ(net.judge(0, 1, &holder), Network::Verdict::hold);  // cut by hold only
  EXPECT_EQ(net.judge(1, 2), Network::Verdict::drop);           // cut by drop only
  // Drop beats hold whatever the creation order.
  Network rev(names(3), LinkSpec{}, 1);
  rev.partition({{0}, {1}}, PartitionMode::drop);
  rev.partition({{0}, {1}}, PartitionMode::hold);
  EXPECT_EQ(rev.judge(0, 1), Network::Verdict::drop);
  // Two hold partitions: the first one created holds.
  Network two(names(3), LinkSpec{}, 1);
  const std::uint32_t first = two.partition({{0}, {1}}, PartitionMode::hold);
  two.partition({{0}, {1}}, PartitionMode::hold);
  EXPECT_EQ(two.judge(0, 1, &holder), Network::Verdict::hold);
  EXPECT_EQ(holder, first);
}

TEST(NetworkTest, HealRestoresDeliveryAndIdsAreNotReused) {
  // Healing deactivates exactly one partition; a later partition gets a fresh id.
  Network net(names(3), LinkSpec{}, 1);
  const std::uint32_t a = net.partition({{0}, {1}}, PartitionMode::drop);
  const std::uint32_t b = net.partition({{0}, {2}}, PartitionMode::hold);
  net.heal(a);
  EXPECT_FALSE(net.active(a));
  EXPECT_TRUE(net.active(b));
  EXPECT_EQ(net.judge(0, 1), Network::Verdict::deliver);
  EXPECT_EQ(net.judge(0, 2), Network::Verdict::hold);
  net.heal(b);
  EXPECT_EQ(net.judge(0, 2), Network::Verdict::deliver);
  net.heal(b);    // healing twice is harmless
  net.heal(999);  // so is an unknown id
  EXPECT_FALSE(net.active(999));
  const std::uint32_t c = net.partition({{1}, {2}}, PartitionMode::drop);
  EXPECT_NE(c, a);
  EXPECT_NE(c, b);
  EXPECT_EQ(net.judge(1, 2), Network::Verdict::drop);
}

}  // namespace
}  // namespace locksim

namespace locksim {
namespace {

TEST(NetworkTest, LargeWorldsFindTheirLinksSparselyAndDrawTheSame) {
  // Above 256 processes links live in a hash map: the same links, the same
  // per-link streams and FIFO clamps as in a small world's dense table.
  const LinkSpec slow = link_with("uniform(1ms, 9ms)");
  Network small(names(4), link_with("exponential(2ms)"), 11);
  Network large(names(10'000), link_with("exponential(2ms)"), 11);
  small.set_link(3, 0, slow);
  large.set_link(3, 0, slow);
  EXPECT_EQ(large.link(3, 0).latency.describe(), "uniform(1ms, 9ms)");
  EXPECT_EQ(large.link(0, 3).latency.describe(), "exponential(2ms)");  // the default, never created
  EXPECT_EQ(large.link(9'999, 42).latency.describe(), "exponential(2ms)");
  for (int i = 0; i < 200; ++i) {
    const TrueTime now = T(std::chrono::microseconds(100 * i));
    EXPECT_EQ(small.schedule(3, 0, now), large.schedule(3, 0, now));
    EXPECT_EQ(small.schedule(1, 2, now), large.schedule(1, 2, now));
  }
  EXPECT_NE(large.schedule(9'999, 5'000, T(0s)), Network::kLost);
}

TEST(NetworkTest, LanesAnswerAsTheLinkTableDoes) {
  // Up to 32 processes, a link with nothing to draw is read from its pair's
  // lane (fixed_arrival), and the lane keeps every link's last delivery. A
  // random mix of sends by both paths, links set before and after their
  // first use (fixed, drawing, lossy) and resets must give the same answers
  // in a world with lanes, one with only the dense table and one with the
  // hash map: same arrivals, same FIFO clamps, same draws.
  const std::vector<LinkSpec> specs = {link_with("1ms"), link_with("7ms"), link_with("uniform(1ms, 9ms)"),
                                       link_with("2ms", 300'000)};
  std::vector<Network> worlds;
  for (const int n : {4, 40, 300}) worlds.emplace_back(names(n), link_with("3ms"), 5);
  Rng rng(17);
  TrueTime now = T(0s);
  int fast_answers = 0;
  for (int step = 0; step < 4'000; ++step) {
    const auto from = static_cast<ProcessId>(rng.below(4));
    const auto to = static_cast<ProcessId>(rng.below(4));
    now += Duration{static_cast<std::int64_t>(rng.below(2'000'000))};
    const std::uint64_t op = rng.below(20);
    if (op == 0) {
      const LinkSpec& spec = specs[rng.below(specs.size())];
      for (Network& w : worlds) w.set_link(from, to, spec);
    } else if (op == 1 && rng.below(10) == 0) {
      const std::uint64_t seed = rng.below(1'000);
      for (Network& w : worlds) w.reset(seed);
      now = T(0s);
    } else if (op < 10) {
      const TrueTime expected = worlds[0].schedule(from, to, now);
      for (std::size_t w = 1; w < worlds.size(); ++w)
        ASSERT_EQ(worlds[w].schedule(from, to, now), expected) << "step " << step << ", world " << w;
    } else {
      TrueTime expected{};
      const bool fast = worlds[0].fixed_arrival(from, to, now, expected);
      fast_answers += fast ? 1 : 0;
      for (std::size_t w = 1; w < worlds.size(); ++w) {
        TrueTime arrival{};
        const bool also = worlds[w].fixed_arrival(from, to, now, arrival);
        if (w == 1) ASSERT_EQ(also, fast) << "step " << step;  // the dense table answers the same pairs
        // The hash map never answers here: a fixed link there takes schedule().
        if (!also && fast) arrival = worlds[w].schedule(from, to, now);
        if (fast) ASSERT_EQ(arrival, expected) << "step " << step << ", world " << w;
        if (!fast && also) FAIL() << "step " << step << ": only world " << w << " answered";
      }
      if (!fast) {
        const TrueTime slow = worlds[0].schedule(from, to, now);
        for (std::size_t w = 1; w < worlds.size(); ++w) ASSERT_EQ(worlds[w].schedule(from, to, now), slow);
      }
    }
  }
  EXPECT_GT(fast_answers, 1'000) << "the test must take the lanes' path often";
}

TEST(NetworkTest, AResetNetworkAnswersAsANewOne) {
  // A reset keeps the links a run made (Network::reset), each back to the
  // default spec with nothing delivered and nothing drawn: every answer
  // after it must be a new network's with the same seed. Links set to draw,
  // to lose or to a fixed latency before the reset, used and unused pairs,
  // and after it both paths (schedule and fixed_arrival), in worlds with
  // lanes, with only the dense table and with the hash map.
  const std::vector<LinkSpec> specs = {link_with("7ms"), link_with("uniform(1ms, 9ms)"), link_with("2ms", 300'000)};
  for (const int n : {4, 40, 300}) {
    for (const LinkSpec& fallback : {link_with("3ms"), link_with("uniform(2ms, 5ms)")}) {
      Network reused(names(n), fallback, 5);
      Rng rng(static_cast<std::uint64_t>(n));
      auto random_pair = [&] {
        return std::pair{static_cast<ProcessId>(rng.below(4)), static_cast<ProcessId>(rng.below(4))};
      };
      for (int step = 0; step < 200; ++step) {  // the first run: links made, set, used
        const auto [from, to] = random_pair();
        if (rng.below(5) == 0) reused.set_link(from, to, specs[rng.below(specs.size())]);
        reused.schedule(from, to, T(Duration{static_cast<std::int64_t>(step) * 1'000'000}));
      }
      reused.reset(11);
      Network fresh(names(n), fallback, 11);
      TrueTime now = T(0s);
      for (int step = 0; step < 400; ++step) {
        const auto [from, to] = random_pair();
        now += Duration{static_cast<std::int64_t>(rng.below(2'000'000))};
        ASSERT_EQ(reused.link(from, to).latency.a, fresh.link(from, to).latency.a) << "n " << n << ", step " << step;
        const std::uint64_t op = rng.below(10);
        if (op == 0) {
          const LinkSpec& spec = specs[rng.below(specs.size())];
          reused.set_link(from, to, spec);
          fresh.set_link(from, to, spec);
        } else if (op < 5) {
          ASSERT_EQ(reused.schedule(from, to, now), fresh.schedule(from, to, now)) << "n " << n << ", step " << step;
        } else {
          // A kept link may answer on the fast path where a new network has
          // no link yet; the arrival is the same either way.
          TrueTime kept{}, made{};
          if (!reused.fixed_arrival(from, to, now, kept)) kept = reused.schedule(from, to, now);
          if (!fresh.fixed_arrival(from, to, now, made)) made = fresh.schedule(from, to, now);
          ASSERT_EQ(kept, made) << "n " << n << ", step " << step;
        }
      }
    }
  }
}

}  // namespace
}  // namespace locksim
