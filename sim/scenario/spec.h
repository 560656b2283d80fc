// ScenarioSpec: one fully resolved, validated scenario (one variant of one
// file, with any --set overrides applied). read_spec() (read/spec_reader.h)
// produces it from a scenario document; the builder (build.h) turns it into a
// world plan. Everything here is a plain value. The defaults are not here:
// every key's default is declared once, with the key, by the section that
// reads it (read/*_section.cc), and resolve_defaults() fills in the ones that
// depend on other values — so a spec that leaves the reader is complete.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/check/property.h"
#include "sim/core/limits.h"
#include "sim/core/time.h"
#include "sim/history/history.h"
#include "sim/history/server_event.h"
#include "sim/lock/redlock_knobs.h"
#include "sim/lock/store_lock_config.h"
#include "sim/lock/styles.h"
#include "sim/redis/config.h"
#include "sim/resource/policy.h"
#include "sim/scenario/faults/kinds.h"
#include "sim/scenario/search_spec.h"
#include "sim/scenario/source.h"
#include "sim/workload/step.h"
#include "sim/world/latency.h"
#include "sim/world/network.h"

namespace locksim {

// Redis-based (single-node, Redlock) or kept in a consensus store ([store]):
// etcd's Mutex, ZooKeeper with Curator, Chubby, Consul, and the
// lease-by-observation locks of Kubernetes and the DynamoDB lock client.
// "none" is the no-lock baseline: clients go straight to the resource.
// Each has its row in protocols.h: what it runs on and what applies to it.
enum class LockProtocol : std::uint8_t { single_node, redlock, etcd, zookeeper, chubby, consul, kubernetes, dynamodb, none };

// Redlock's own knobs (the distlock page and the reference client redlock-rb).
struct RedlockSpec {
  RedlockKnobs knobs;         // the client's own knobs, as the model takes them (lock/redlock.h)
  std::uint32_t quorum = 0;   // resolved: N/2 + 1 unless written
  std::string fencing_node;   // resolved: the first node unless written
};

// Redisson-style renewal: while the holder runs, extend the lease every
// renew_every; a failed renewal is only logged — the holder is not told.
struct WatchdogSpec {
  bool enabled = false;
  Duration renew_every{};  // resolved: ttl / 3 unless written
};

// [store_lock]: the client side of a store-kept lock — its session, the
// recipe's options and the client policy, as the model takes them
// (sim/lock/store_lock_config.h). Every knob not written is resolved from the
// protocol and its release (read/store_section.cc): keepalive_every by the
// protocol's rule (etcd TTL/3, ...), recheck and clientv3's loops from the
// release (their phases stay 0: the loops start with the client's first
// session), suspended_after 2T/3, lost_after T, lock_delay and
// renew_deadline the protocol's.
struct StoreLockSpec {
  StoreLockKnobs knobs;
  bool keepalive_every_written = false;  // etcd: else each reply's TTL / 3, as clientv3 computes it
};

struct LockSpec {
  LockProtocol protocol{};
  std::string key;
  Duration ttl{};
  AcquireStyle acquire{};
  ReleaseStyle release{};
  FencingStyle fencing{};
  std::string fencing_key;
  Duration request_timeout{};  // a request with no reply by then is *info*
  Duration reconnect_delay{};  // after a refused connection, requests to that node fail unsent this long
  bool evalsha = false;        // scripts as EVALSHA, EVAL after NOSCRIPT (the library's script cache)
  ClockKind clock{};           // the client's clock for validity
  // validity = ttl - elapsed - (ttl * drift_factor_ppm / 1e6 + drift_fixed)
  std::int64_t drift_factor_ppm = 0;
  Duration drift_fixed{};
  // Retries, as client libraries configure them; every client inherits them
  // unless it sets its own.
  int attempts = 0;  // per cycle; 0 = until the run ends
  Latency retry_delay;
  std::string preset;  // "redlock-rb", "node-redlock-4.2.0", ... (defaults it applied), "" = none
  RedlockSpec redlock;
  WatchdogSpec watchdog;
  // After a successful SET, WAIT for this many replicas (0 = do not WAIT);
  // fewer acks within wait_timeout fail the attempt.
  int wait_replicas = 0;
  Duration wait_timeout{};
  StoreLockSpec store_lock;
};

// [store]: the consensus store's members and timings (sim/consensus/
// store_config.h). Timings left out come from the protocol's defaults
// (store_presets.h).
struct StoreSpec {
  std::vector<std::string> members;  // resolved: s1, s2, s3 for a store protocol unless written
  std::string initial_leader;        // resolved: the first member unless written
  Duration heartbeat{};
  Duration election_timeout{};
  Duration lessor_tick{};
  std::optional<Duration> lessor_tick_phase;  // nullopt: drawn per run
  // etcd's expiry queue (consensus/lessor.h), resolved from the release.
  ClockKind lessor_queue_clock = ClockKind::monotonic;
  Duration expired_retry{};
  Duration lease_checkpoint_interval{};  // 0 = off
  bool renew_confirms_leadership = false;
  Duration min_ttl{};
  Duration promotion_extension{};
  std::int64_t ttl_multiplier = 1;
  // The resource's stock lives in the store, and a decrement is a txn that
  // compares the holder's create revision (etcd's recommended pattern).
  bool stock = false;
};

// [redis.initial] KEY = 32 | "text" | { value = ..., ttl = "10s" }: a key the
// masters hold when the run starts. A string stands for a lock value some
// earlier client set (its token is the string's hash).
struct InitialKeySpec {
  std::string key;
  bool is_integer = false;
  std::int64_t integer = 0;
  std::string text;
  std::optional<Duration> ttl;
};

struct RedisSpec {
  std::vector<std::string> nodes;
  std::vector<InitialKeySpec> initial;
  // Replicas of the (single) master nodes[0], replicating asynchronously.
  std::vector<std::string> replicas;
  // Expiry clock, persistence, fsync interval, delayed restart, and for
  // replication: min_replicas_to_write, min_replicas_max_lag, ack_every,
  // replication_delay (replica_of is set per node by the builder).
  redis::NodeConfig node;
};

// Redis Sentinel: failover for a master with replicas.
struct SentinelSpec {
  std::vector<std::string> names;  // empty = no sentinels
  std::uint32_t quorum = 0;        // resolved: 2, or fewer with fewer sentinels, unless written
  Duration down_after{};           // down-after-milliseconds
  Duration ping_every{};
  Duration failover_timeout{};
  // Clients follow +switch-master this long after a sentinel announces it
  // (client libraries reconnect lazily).
  Duration client_follow_delay{};
};

// A service the critical section calls (the incident's identity service):
// it answers each call after a latency drawn from its distribution.
struct ServiceSpec {
  std::string name;
  Latency latency;
  SourcePos pos;
};

struct ResourceSpec {
  std::string name;
  WritePolicy policy{};
  AppKind app{};
  std::int64_t initial_stock = 0;
};

// When a fault fires or a client starts: at a true time, fixed or drawn per
// run; at the n-th time a client reaches a phase ("c1 acquired"); or at the
// n-th time a server has an event ("r1 key-expired", history/server_event.h).
struct TriggerSpec {
  enum class Kind : std::uint8_t { time, phase, event };
  Kind kind = Kind::time;
  Duration at_time{};  // kind == time
  // at = "uniform(0s, 5s)": the trigger time is drawn per run (at_time is
  // then unused), so a sweep over many seeds covers many pause starts.
  std::optional<Latency> at_drawn;
  std::string process;  // phase or event: "c1" of "c1 acquired", "r1" of "r1 key-expired"
  Phase phase = Phase::started;                  // kind == phase
  ServerEvent event = ServerEvent::key_dropped;  // kind == event
  Duration delay{};     // `after` (`start_after`): fire this long after the trigger
  int occurrence = 1;   // the n-th time the phase is reached or the event happens
  bool at_a_time() const { return kind == Kind::time; }
};

struct ClientSpec {
  std::string name;
  Duration start{};  // when it begins, unless it waits for |start_on|
  // start = "c1 acquired" / "r1 key-expired": it begins start_on->delay
  // (`start_after`) after that trigger's first time, and |start| is unused.
  std::optional<TriggerSpec> start_on;
  std::vector<Step> steps;
  int iterations = 0;    // acquire -> steps -> release cycles
  int attempts = 0;      // acquire attempts per cycle (resolved: lock.attempts unless written)
  Latency retry_delay;   // resolved: lock.retry_delay unless written
  Duration think{};      // between cycles
  bool release = false;  // release after the steps
  SourcePos pos;
};

struct ClockSpec {
  Duration offset{};
  std::int64_t drift_ppm = 0;
};

struct LinkOverride {
  std::string name;
  std::string from;
  std::string to;
  LinkSpec spec;  // resolved: [network]'s latency and loss unless written
  bool both_ways = false;
  SourcePos pos;
};

struct NetworkSpec {
  LinkSpec default_link;
  std::vector<LinkOverride> links;
};

// One [fault.NAME]: when it fires, and what it does (one of the kinds in
// faults/kinds.h, each a struct of its own keys).
struct FaultSpec {
  std::string name;
  TriggerSpec trigger;
  FaultKindSpec kind;
  SourcePos pos;
};

// One [expect.NAME] bound (client_bounds.h): |client|'s |what| compared with
// |value| (a count, ppm of the client's ops, or ns, by |unit|).
struct ClientBound {
  enum class Op : std::uint8_t { eq, lt, le, gt, ge };
  enum class Unit : std::uint8_t { count, share_ppm, duration };
  std::string client;
  std::string what;  // "rejected", "wait", ...
  Op op = Op::eq;
  Unit unit = Unit::count;
  std::int64_t value = 0;
  std::string text;  // as written, for messages: "100%", "> 30s"
};

struct Expectation {
  // Per property: nullopt = not stated; true = violated; false = holds.
  std::array<std::optional<bool>, kPropertyCount> violated{};
  // Faults the story depends on: each must fire, with an effect.
  std::vector<std::string> fired;
  std::vector<ClientBound> clients;  // [expect.NAME]
  std::optional<Duration> longest_stuck_at_least;
  std::optional<Duration> longest_stuck_at_most;
  std::optional<std::int64_t> sessions_at_least;
  std::optional<std::int64_t> sessions_at_most;
  // Grants whose lease had already ended on the client's own clock when acquire returned.
  std::optional<std::int64_t> expired_grants_at_least;
  std::optional<std::int64_t> expired_grants_at_most;
  // A transactional resource's commits and rollbacks (efficiency).
  std::optional<std::int64_t> commits_at_least;
  std::optional<std::int64_t> commits_at_most;
  std::optional<std::int64_t> rollbacks_at_least;
  std::optional<std::int64_t> rollbacks_at_most;
};

struct ScenarioSpec {
  std::string file;
  std::string name;
  std::string title;
  std::string story;
  std::string variant = "base";
  std::string variant_description;
  Duration run_for{};
  std::uint64_t seed = 0;
  std::uint64_t max_events = 0;  // per run; more is an error (core/limits.h)
  std::uint64_t max_facts = 0;
  LockSpec lock;
  RedisSpec redis;
  StoreSpec store;
  SentinelSpec sentinel;
  std::vector<ServiceSpec> services;
  ResourceSpec resource;
  std::vector<ClientSpec> clients;
  std::map<std::string, ClockSpec> clocks;  // by process name
  NetworkSpec network;
  std::vector<FaultSpec> faults;
  Expectation expect;
  SearchSpec search;  // what `locksim search` may inject; a run ignores it
};

}  // namespace locksim
