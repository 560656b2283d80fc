// ScenarioSpec: one fully resolved, validated scenario (one variant of one
// file, with any --set overrides applied). The parser (parse.h) produces it
// from TOML; the builder (build.h) turns it into a World. Everything here is a
// plain value with defaults that match real deployments.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/history/history.h"
#include "sim/check/property.h"
#include "sim/core/limits.h"
#include "sim/core/time.h"
#include "sim/lock/styles.h"
#include "sim/redis/config.h"
#include "sim/resource/policy.h"
#include "sim/workload/step.h"
#include "sim/world/latency.h"
#include "sim/world/network.h"

namespace locksim {

using namespace std::chrono_literals;

// Where a value came from, for error messages and witnesses.
struct SourcePos {
  std::string file;  // the scenario file, or "--set"
  int line = 0;
};

enum class LockProtocol : std::uint8_t { single_node, redlock };

// Redlock's own knobs (the distlock page and the reference client redlock-rb).
struct RedlockSpec {
  bool parallel = false;             // "sequential" (the page) or "parallel" (most clients)
  Duration node_timeout = 50ms;      // per-node request timeout (5-50 ms for a 10 s TTL)
  bool check_validity = true;        // false: Kleppmann's naive client, no TTL - elapsed - drift > 0 check
  std::uint32_t quorum = 0;          // 0 = N/2 + 1
  std::string fencing_node;          // node that INCRs fencing tokens; "" = the first node
  // node-redlock's known bug (issues #169, #296): with retries, the lease end
  // is computed from the FIRST attempt's start, so acquire can return a lock
  // that has already expired.
  bool first_attempt_expiry = false;
};

// Redisson-style renewal: while the holder runs, extend the lease every
// renew_every; a failed renewal is only logged — the holder is not told.
struct WatchdogSpec {
  bool enabled = false;
  Duration renew_every = 0s;  // 0 = ttl / 3
};

struct LockSpec {
  LockProtocol protocol = LockProtocol::single_node;
  std::string key = "lock";
  Duration ttl = 10s;
  AcquireStyle acquire = AcquireStyle::set_nx_px;
  ReleaseStyle release = ReleaseStyle::compare_and_delete;
  FencingStyle fencing = FencingStyle::none;
  std::string fencing_key = "fence";
  Duration request_timeout = 1s;      // a request with no reply by then is *info*
  ClockKind clock = ClockKind::monotonic;  // the client's clock for validity
  // validity = ttl - elapsed - (ttl * drift_factor_ppm / 1e6 + drift_fixed)
  std::int64_t drift_factor_ppm = 0;
  Duration drift_fixed = 0ms;
  // Retries, as client libraries configure them; a client's own `attempts`
  // and `retry_delay` override these.
  int attempts = 0;  // per cycle; 0 = until the run ends
  Latency retry_delay = Latency::constant(100ms);
  std::string preset;  // "redlock-rb", "node-redlock", ... (defaults it applied), "" = none
  RedlockSpec redlock;
  WatchdogSpec watchdog;
  // After a successful SET, WAIT for this many replicas (0 = do not WAIT);
  // fewer acks within wait_timeout fail the attempt.
  int wait_replicas = 0;
  Duration wait_timeout = 100ms;
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
  std::vector<std::string> nodes{"r1"};
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
  std::uint32_t quorum = 2;
  Duration down_after = 30s;       // down-after-milliseconds
  Duration ping_every = 1s;
  Duration failover_timeout = 180s;
  // Clients follow +switch-master this long after a sentinel announces it
  // (client libraries reconnect lazily).
  Duration client_follow_delay = 0s;
};

// A service the critical section calls (the incident's identity service):
// it answers each call after a latency drawn from its distribution.
struct ServiceSpec {
  std::string name;
  Latency latency = Latency::constant(1ms);
  SourcePos pos;
};

struct ResourceSpec {
  std::string name = "resource";
  WritePolicy policy = WritePolicy::none;
  AppKind app = AppKind::counter;
  std::int64_t initial_stock = 1;
};

struct ClientSpec {
  std::string name;
  Duration start = 0s;
  std::vector<Step> steps;
  int iterations = 1;          // acquire -> steps -> release cycles
  std::optional<int> attempts;          // acquire attempts per cycle; unset = lock.attempts
  std::optional<Latency> retry_delay;   // unset = lock.retry_delay
  Duration think = 0s;         // between cycles
  bool release = true;         // release after the steps
  SourcePos pos;
};

struct ClockSpec {
  Duration offset = 0s;
  std::int64_t drift_ppm = 0;
};

struct LinkOverride {
  std::string name;
  std::string from;
  std::string to;
  LinkSpec spec;
  bool both_ways = true;
  SourcePos pos;
};

struct NetworkSpec {
  LinkSpec default_link;
  std::vector<LinkOverride> links;
};

enum class FaultSpecKind : std::uint8_t { pause, crash, restart, clock_jump, clock_drift, clock_slew, partition };

struct TriggerSpec {
  bool at_phase = false;
  Duration at_time = 0s;  // when !at_phase
  // at = "uniform(0s, 5s)": the trigger time is drawn per run (at_time is
  // then unused), so a sweep over many seeds covers many pause starts.
  std::optional<Latency> at_drawn;
  std::string process;    // when at_phase: "c1" of "c1 acquired"
  Phase phase = Phase::started;
  Duration delay = 0s;    // `after`: fire this long after the trigger
  int occurrence = 1;     // the n-th time the phase is reached
};

struct FaultSpec {
  std::string name;
  FaultSpecKind kind = FaultSpecKind::pause;
  TriggerSpec trigger;
  std::string target;                         // pause, crash, restart, clock faults
  Latency length = Latency::constant(0ns);    // pause
  Duration restart_after = -1ns;              // crash; negative = stays down
  Duration by = 0s;                           // clock-jump (signed)
  // by = "+uniform(5s, 20s)" / "-exponential(2s)": the jump's size is drawn
  // per run (by is then unused); by_negative gives its direction.
  std::optional<Latency> by_drawn;
  bool by_negative = false;
  std::int64_t drift_ppm = 0;                 // clock-drift, clock-slew (for `length`)
  std::vector<std::vector<std::string>> groups;  // partition
  PartitionMode mode = PartitionMode::drop;   // partition
  Duration heal_after = -1ns;                 // partition; negative = never
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
};

struct ScenarioSpec {
  std::string file;
  std::string name;
  std::string title;
  std::string story;
  std::string variant = "base";
  std::string variant_description;
  Duration run_for = 60s;
  std::uint64_t seed = 1;
  std::uint64_t max_events = kDefaultMaxEvents;  // per run; more is an error (core/limits.h)
  std::uint64_t max_facts = kDefaultMaxFacts;
  LockSpec lock;
  RedisSpec redis;
  SentinelSpec sentinel;
  std::vector<ServiceSpec> services;
  ResourceSpec resource;
  std::vector<ClientSpec> clients;
  std::map<std::string, ClockSpec> clocks;  // by process name
  NetworkSpec network;
  std::vector<FaultSpec> faults;
  Expectation expect;
};

}  // namespace locksim
