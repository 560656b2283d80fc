#include "sim/scenario/store_presets.h"

#include <array>

#include "sim/core/check.h"
#include "sim/scenario/protocols.h"

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
     .policy = SessionPolicy::deadline, .lock_delay = 0s, .renew_deadline = std::nullopt, .zookeeper_sessions = false},
    {.protocol = LockProtocol::zookeeper, .system = "ZooKeeper (tickTime 2 s) + Curator InterProcessMutex",
     .ttl = 60s, .heartbeat = 1s, .election_timeout = 4s, .lessor_tick = 2s, .min_ttl = 4s, .ttl_multiplier = 1,
     .promotion_extension = 0s, .keepalive_per_ttl_ppm = kThird, .keepalive_fixed = 0s,
     .policy = SessionPolicy::obey_suspended, .lock_delay = 0s, .renew_deadline = std::nullopt, .zookeeper_sessions = true},
    {.protocol = LockProtocol::chubby, .system = "Chubby (sequencers, lock-delay)", .ttl = 12s, .heartbeat = 1s,
     .election_timeout = 4s, .lessor_tick = 500ms, .min_ttl = 12s, .ttl_multiplier = 1,
     .promotion_extension = std::nullopt, .keepalive_per_ttl_ppm = kThird, .keepalive_fixed = 0s,
     .policy = SessionPolicy::deadline, .lock_delay = 60s, .renew_deadline = std::nullopt, .zookeeper_sessions = false},
    {.protocol = LockProtocol::consul, .system = "Consul sessions + KV lock", .ttl = 15s, .heartbeat = 200ms,
     .election_timeout = 1s, .lessor_tick = 100ms, .min_ttl = 10s, .ttl_multiplier = 2, .promotion_extension = 0s,
     .keepalive_per_ttl_ppm = kHalf, .keepalive_fixed = 0s, .policy = SessionPolicy::deadline, .lock_delay = 15s,
     .renew_deadline = std::nullopt, .zookeeper_sessions = false},
    {.protocol = LockProtocol::kubernetes, .system = "Kubernetes Lease (client-go leaderelection)", .ttl = 15s,
     .heartbeat = 100ms, .election_timeout = 1s, .lessor_tick = 500ms, .min_ttl = 2s, .ttl_multiplier = 1,
     .promotion_extension = std::nullopt, .keepalive_per_ttl_ppm = 0, .keepalive_fixed = 2s,
     .policy = SessionPolicy::deadline, .lock_delay = 0s, .renew_deadline = 10s, .zookeeper_sessions = false},
    {.protocol = LockProtocol::dynamodb, .system = "DynamoDB lock client", .ttl = 20s, .heartbeat = 100ms,
     .election_timeout = 1s, .lessor_tick = 500ms, .min_ttl = 2s, .ttl_multiplier = 1,
     .promotion_extension = std::nullopt, .keepalive_per_ttl_ppm = 0, .keepalive_fixed = 5s,
     .policy = SessionPolicy::deadline, .lock_delay = 0s, .renew_deadline = std::nullopt, .zookeeper_sessions = false},
}};

// etcd: the server's lease/lessor.go and the client's clientv3/lease.go and
// clientv3/concurrency/mutex.go, read from each release's source.
//   3.4.23 (Debian 12's etcd-server and golang-etcd-server-dev): the expiry
//     queue holds expiry.UnixNano() (wall) and compares now.UnixNano();
//     LeaseRenew renews on any member that believes it leads; Mutex.Lock
//     returns once the lower keys are gone without re-reading its own key.
//     (The whole 3.4 line, to 3.4.45, has all three.)
//   3.5.33: the queue holds the time.Time (its monotonic reading compares,
//     since 3.5.0); LeaseRenew first confirms leadership (ensureLeadership,
//     since 3.5.13); Mutex.Lock re-reads its key and fails with
//     ErrSessionExpired (since 3.5.0).
// Both: the lessor's runLoop every 500 ms; an expiry-queue item that came
// due is pushed back by expiredLeaseRetryInterval, which the server sets to
// its ReqTimeout(): 5 s + 2 × the election timeout (etcdserver/server.go;
// lease/lessor.go's own default, 3 s, never applies) — resolved from
// [store] election_timeout, so no release row carries it;
// clientv3's sendKeepAliveLoop every retryConnWait = 500 ms sending when
// nextKeepAlive (reply + TTL/3) has passed, deadlineLoop every second closing
// the keepalive when deadline (reply + TTL) has passed, the first deadline
// firstKeepAliveTimeout = DialTimeout + 1 s, or defaultTTL 5 s without a
// DialTimeout.
// ZooKeeper (release-3.8.0-1) with Curator 5.9.0: Curator's simulated expiry
// makes LOST one negotiated session timeout after SUSPENDED; a 3.9.3 client
// (Curator 5.9.0's default) expires the session itself 4T/3 after it last
// heard from the ensemble (ZOOKEEPER-4508), 2T/3 after SUSPENDED.
constexpr std::array<StoreRelease, 4> kReleases{{
    {.name = "etcd-3.4.23", .protocol = LockProtocol::etcd, .source = "etcd v3.4.23 (Debian 12)",
     .lessor_queue_clock = ClockKind::wall, .renew_confirms_leadership = false,
     .recheck = false, .keepalive_tick = 500ms, .deadline_tick = 1s, .first_keepalive_timeout = 5s,
     .lost_after_per_ttl_ppm = 0},
    {.name = "etcd-3.5.33", .protocol = LockProtocol::etcd, .source = "etcd v3.5.33",
     .lessor_queue_clock = ClockKind::monotonic, .renew_confirms_leadership = true,
     .recheck = true, .keepalive_tick = 500ms, .deadline_tick = 1s, .first_keepalive_timeout = 5s,
     .lost_after_per_ttl_ppm = 0},
    {.name = "zookeeper-3.8.0", .protocol = LockProtocol::zookeeper,
     .source = "ZooKeeper release-3.8.0-1 (Debian 12), its client, Curator 5.9.0",
     .lessor_queue_clock = ClockKind::monotonic, .renew_confirms_leadership = false,
     .recheck = true, .keepalive_tick = 0s, .deadline_tick = 0s, .first_keepalive_timeout = 0s,
     .lost_after_per_ttl_ppm = 1'000'000},
    {.name = "zookeeper-3.9.3", .protocol = LockProtocol::zookeeper,
     .source = "ZooKeeper release-3.9.3's client (Curator 5.9.0's default), Curator 5.9.0",
     .lessor_queue_clock = ClockKind::monotonic, .renew_confirms_leadership = false,
     .recheck = true, .keepalive_tick = 0s, .deadline_tick = 0s, .first_keepalive_timeout = 0s,
     .lost_after_per_ttl_ppm = 666'667},
}};

}  // namespace

std::span<const StoreRelease> store_releases() { return kReleases; }

const StoreRelease* find_store_release(std::string_view name) {
  for (const StoreRelease& r : kReleases)
    if (r.name == name) return &r;
  return nullptr;
}

const StoreRelease* default_store_release(LockProtocol protocol) {
  return find_store_release(protocol_decl(protocol).default_release);
}

const StorePreset& store_preset(LockProtocol protocol) {
  for (const StorePreset& p : kPresets)
    if (p.protocol == protocol) return p;
  LOCKSIM_CHECK(false, "store_preset: not a store protocol");
  return kPresets.front();
}

}  // namespace locksim::scenario
