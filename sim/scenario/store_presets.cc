#include "sim/scenario/store_presets.h"

#include <array>

#include "sim/core/check.h"

namespace locksim::scenario {

namespace {

using namespace std::chrono_literals;

// Sources: etcd 3.4 (server/lease/lessor.go, client/v3/concurrency); the
// ZooKeeper admin guide (tickTime 2 s, session timeout 2..20 ticks) and
// Curator's defaults (60 s session); Burrows, "The Chubby lock service"
// (12 s lease, lock-delay up to a minute); Consul's session docs (TTL 10 s
// minimum, kept twice as long, lock-delay 15 s) and its lock API (15 s
// session, renewed every TTL/2); client-go leaderelection (15 s / 10 s / 2 s);
// the DynamoDB lock client (20 s lease, 5 s heartbeat).
constexpr std::int64_t kThird = 333'333, kHalf = 500'000;

const std::array<StorePreset, 6> kPresets{{
    {.protocol = LockProtocol::etcd, .system = "etcd v3, clientv3/concurrency Session + Mutex", .ttl = 60s,
     .heartbeat = 100ms, .election_timeout = 1s, .lessor_tick = 500ms, .min_ttl = 2s, .ttl_multiplier = 1,
     .promotion_extension = std::nullopt, .keepalive_per_ttl_ppm = kThird, .keepalive_fixed = 0s,
     .policy = SessionPolicy::deadline, .lock_delay = 0s, .renew_deadline = std::nullopt},
    {.protocol = LockProtocol::zookeeper, .system = "ZooKeeper (tickTime 2 s) + Curator InterProcessMutex",
     .ttl = 60s, .heartbeat = 1s, .election_timeout = 4s, .lessor_tick = 2s, .min_ttl = 4s, .ttl_multiplier = 1,
     .promotion_extension = 0s, .keepalive_per_ttl_ppm = kThird, .keepalive_fixed = 0s,
     .policy = SessionPolicy::obey_suspended, .lock_delay = 0s, .renew_deadline = std::nullopt},
    {.protocol = LockProtocol::chubby, .system = "Chubby (sequencers, lock-delay)", .ttl = 12s, .heartbeat = 1s,
     .election_timeout = 4s, .lessor_tick = 500ms, .min_ttl = 12s, .ttl_multiplier = 1,
     .promotion_extension = std::nullopt, .keepalive_per_ttl_ppm = kThird, .keepalive_fixed = 0s,
     .policy = SessionPolicy::deadline, .lock_delay = 60s, .renew_deadline = std::nullopt},
    {.protocol = LockProtocol::consul, .system = "Consul sessions + KV lock", .ttl = 15s, .heartbeat = 200ms,
     .election_timeout = 1s, .lessor_tick = 100ms, .min_ttl = 10s, .ttl_multiplier = 2, .promotion_extension = 0s,
     .keepalive_per_ttl_ppm = kHalf, .keepalive_fixed = 0s, .policy = SessionPolicy::deadline, .lock_delay = 15s,
     .renew_deadline = std::nullopt},
    {.protocol = LockProtocol::kubernetes, .system = "Kubernetes Lease (client-go leaderelection)", .ttl = 15s,
     .heartbeat = 100ms, .election_timeout = 1s, .lessor_tick = 500ms, .min_ttl = 2s, .ttl_multiplier = 1,
     .promotion_extension = std::nullopt, .keepalive_per_ttl_ppm = 0, .keepalive_fixed = 2s,
     .policy = SessionPolicy::deadline, .lock_delay = 0s, .renew_deadline = 10s},
    {.protocol = LockProtocol::dynamodb, .system = "DynamoDB lock client", .ttl = 20s, .heartbeat = 100ms,
     .election_timeout = 1s, .lessor_tick = 500ms, .min_ttl = 2s, .ttl_multiplier = 1,
     .promotion_extension = std::nullopt, .keepalive_per_ttl_ppm = 0, .keepalive_fixed = 5s,
     .policy = SessionPolicy::deadline, .lock_delay = 0s, .renew_deadline = std::nullopt},
}};

}  // namespace

const StorePreset& store_preset(LockProtocol protocol) {
  for (const StorePreset& p : kPresets)
    if (p.protocol == protocol) return p;
  LOCKSIM_CHECK(false, "store_preset: not a store protocol");
  return kPresets.front();
}

}  // namespace locksim::scenario
