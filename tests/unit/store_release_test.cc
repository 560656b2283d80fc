// Releases of the store locks (sim/scenario/store_presets.h) as a scenario
// reads them: the default release per protocol, a named one, keys written
// winning over it, and the errors for a release of another protocol, an
// etcd-only key under ZooKeeper and a loop phase not below its period.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "sim/core/limits.h"
#include "sim/scenario/file.h"

namespace locksim::scenario {
namespace {

using namespace std::chrono_literals;

std::string store_file(const std::string& protocol, const std::string& extra = "") {
  return "[scenario]\nname = \"t\"\n[lock]\nprotocol = \"" + protocol + "\"\nttl = \"9s\"\n" + extra +
         "[client.c1]\nsteps = [\"work 1s\"]\n";
}

ScenarioSpec spec_of(const std::string& text) {
  ScenarioError error;
  std::optional<ScenarioFile> file = ScenarioFile::from_string(text, "inline.toml", error);
  if (!file) {
    ADD_FAILURE() << error.to_string();
    return {};
  }
  std::optional<ScenarioSpec> spec = file->resolve("base", {}, error);
  if (!spec) ADD_FAILURE() << error.to_string();
  return spec.value_or(ScenarioSpec{});
}

ScenarioError error_of(const std::string& text) {
  ScenarioError error;
  std::optional<ScenarioFile> file = ScenarioFile::from_string(text, "inline.toml", error);
  if (file && file->resolve("base", {}, error)) ADD_FAILURE() << "read without error:\n" << text;
  return error;
}

TEST(StoreRelease, EtcdFollows3423UnlessTheFileNamesAnother) {
  const ScenarioSpec spec = spec_of(store_file("etcd"));
  EXPECT_EQ(spec.lock.preset, "etcd-3.4.23");
  EXPECT_EQ(spec.store.lessor_queue_clock, ClockKind::wall);
  EXPECT_EQ(spec.store.expired_retry, 7s) << "ReqTimeout: 5 s + 2 x the 1 s election timeout";
  EXPECT_FALSE(spec.store.renew_confirms_leadership);
  EXPECT_FALSE(spec.lock.store_lock.knobs.recheck_after_wait) << "no 3.4 Mutex re-reads its own key";
  EXPECT_EQ(spec.lock.store_lock.knobs.clientv3_timing.keepalive_tick, 500ms);
  EXPECT_EQ(spec.lock.store_lock.knobs.clientv3_timing.deadline_tick, 1s);
  EXPECT_EQ(spec.lock.store_lock.knobs.clientv3_timing.first_keepalive_timeout, 5s);
  EXPECT_EQ(spec.lock.store_lock.knobs.clientv3_timing.keepalive_tick_phase, 0ms) << "the first keepalive goes out with the session";
  EXPECT_EQ(spec.lock.store_lock.knobs.clientv3_timing.deadline_tick_phase, 0ms) << "the deadline loop starts with the session";

  const ScenarioSpec newer = spec_of(store_file("etcd", "preset = \"etcd-3.5.33\"\n"));
  EXPECT_EQ(newer.store.lessor_queue_clock, ClockKind::monotonic);
  EXPECT_TRUE(newer.store.renew_confirms_leadership);
  EXPECT_TRUE(newer.lock.store_lock.knobs.recheck_after_wait);
}

TEST(StoreRelease, AKeyWrittenWinsOverTheRelease) {
  const ScenarioSpec spec = spec_of(store_file(
      "etcd", "preset = \"etcd-3.5.33\"\n[store]\nlessor_queue_clock = \"wall\"\n[store_lock]\nrecheck = false\n"
              "deadline_tick_phase = \"300ms\"\n"));
  EXPECT_EQ(spec.store.lessor_queue_clock, ClockKind::wall);
  EXPECT_FALSE(spec.lock.store_lock.knobs.recheck_after_wait);
  EXPECT_EQ(spec.lock.store_lock.knobs.clientv3_timing.deadline_tick_phase, 300ms);
}

TEST(StoreRelease, ZooKeeperReleasesDifferInWhenLostComes) {
  EXPECT_EQ(spec_of(store_file("zookeeper")).lock.preset, "zookeeper-3.8.0");
  EXPECT_EQ(spec_of(store_file("zookeeper")).lock.store_lock.knobs.lost_after, 9s);
  EXPECT_EQ(spec_of(store_file("zookeeper", "preset = \"zookeeper-3.9.3\"\n")).lock.store_lock.knobs.lost_after,
            Duration(9s) * 666'667 / 1'000'000);
}

TEST(StoreRelease, AReleaseOfAnotherProtocolIsRefused) {
  const ScenarioError e = error_of(store_file("zookeeper", "preset = \"etcd-3.4.23\"\n"));
  EXPECT_EQ(e.line, 6) << e.to_string();
  EXPECT_EQ(e.key, "lock.preset") << e.to_string();
  EXPECT_NE(e.message.find("is a release of \"etcd\""), std::string::npos) << e.to_string();
}

TEST(StoreRelease, AClientLibraryPresetIsRefusedForAStore) {
  const ScenarioError e = error_of(store_file("etcd", "preset = \"redsync\"\n"));
  EXPECT_EQ(e.key, "lock.preset") << e.to_string();
  EXPECT_NE(e.message.find("describes a Redis client"), std::string::npos) << e.to_string();
}

TEST(StoreRelease, EtcdsLessorKeysAreRefusedForZooKeeper) {
  const ScenarioError e = error_of(store_file("zookeeper", "[store]\nlessor_queue_clock = \"wall\"\n"));
  EXPECT_EQ(e.key, "store.lessor_queue_clock") << e.to_string();
  EXPECT_NE(e.message.find("is etcd's lessor"), std::string::npos) << e.to_string();
  const ScenarioError f = error_of(store_file("zookeeper", "[store_lock]\ndeadline_tick = \"2s\"\n"));
  EXPECT_EQ(f.key, "store_lock.deadline_tick") << f.to_string();
}

TEST(StoreRelease, ALoopsPhaseMustBeBelowItsPeriod) {
  const ScenarioError e = error_of(store_file("etcd", "[store_lock]\ndeadline_tick_phase = \"1s\"\n"));
  EXPECT_EQ(e.key, "store_lock.deadline_tick_phase") << e.to_string();
  EXPECT_EQ(e.line, 7) << e.to_string();
  EXPECT_NE(e.message.find("must be below store_lock.deadline_tick = 1s"), std::string::npos) << e.to_string();
  const ScenarioError f = error_of(store_file("etcd", "[store]\nlessor_tick = \"200ms\"\nlessor_tick_phase = \"250ms\"\n"));
  EXPECT_EQ(f.key, "store.lessor_tick_phase") << f.to_string();
}

TEST(StoreRelease, ACenturyLongTtlResolvesEveryShareOfItExactly) {
  // The fuzzer found ttl * 333,333 ppm overflowing (UBSan) from a TTL of
  // 2.5 hours; TTLs run to a century, so every share of one is exact.
  const auto with_ttl = [](const std::string& protocol, const std::string& ttl, const std::string& extra) {
    return "[scenario]\nname = \"t\"\n[lock]\nprotocol = \"" + protocol + "\"\nttl = \"" + ttl + "\"\n" + extra +
           "[client.c1]\nsteps = [\"work 1s\"]\n";
  };
  const Duration century = 100 * kYear;
  const ScenarioSpec etcd = spec_of(with_ttl("etcd", "3155760000s", ""));
  EXPECT_EQ(etcd.lock.ttl, century);
  EXPECT_EQ(etcd.lock.store_lock.knobs.keepalive_every, Duration{century.count() / 1'000'000 * 333'333});
  const ScenarioSpec zk = spec_of(with_ttl("zookeeper", "3155760000s", "preset = \"zookeeper-3.9.3\"\n"));
  EXPECT_EQ(zk.lock.store_lock.knobs.lost_after, Duration{century.count() / 1'000'000 * 666'667})
      << "2T/3 after SUSPENDED: 4T/3 after the last packet";
  EXPECT_EQ(spec_of(with_ttl("etcd", "876000s", "")).lock.store_lock.knobs.keepalive_every,
            Duration{std::int64_t{876'000'000'000'000} / 1'000'000 * 333'333});
}

}  // namespace
}  // namespace locksim::scenario
