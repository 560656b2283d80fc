// [redis]: the nodes, their configuration, their replicas and the keys they
// hold when the run starts.
#include "sim/scenario/protocols.h"
#include "sim/scenario/read/sections.h"

#include <toml++/toml.h>

namespace locksim::scenario {

namespace {

using namespace std::chrono_literals;
using redis::NodeConfig;

constexpr std::pair<ClockKind, std::string_view> kExpiryClocks[] = {{ClockKind::wall, "wall"},
                                                                    {ClockKind::monotonic, "monotonic"}};
constexpr std::pair<redis::Persistence, std::string_view> kPersistence[] = {
    {redis::Persistence::none, "none"},
    {redis::Persistence::aof_everysec, "aof-everysec"},
    {redis::Persistence::aof_always, "aof-always"}};

// The keys read by hand: their values name processes or depend on each other.
constexpr std::pair<redis::ActiveExpiry, std::string_view> kActiveExpiry[] = {{redis::ActiveExpiry::instant, "instant"},
                                                                            {redis::ActiveExpiry::cron, "cron"}};
constexpr std::string_view kNodes = "nodes", kReplicas = "replicas", kMinReplicas = "min_replicas_to_write";

const KeyTable<NodeConfig> kRedisKeys{
    {{.name = kNodes,
      .rule = CustomRule{"array of process names"},
      .doc = "the Redis nodes, in order; at least one, no repeats. The single-node protocol takes exactly one; "
             "several need `protocol = \"redlock\"`",
      .default_note = "`[\"r1\"]`"},
     {}},
    {{.name = "initial",
      .rule = CustomRule{"table"},
      .doc = "keys the masters hold when the run starts: `fence = 32` (an integer: a counter, so the first INCR "
             "gives 33), `lock = \"text\"` (a lock value some earlier client set), or `lock = { value = ..., ttl = "
             "\"5s\" }` (with a TTL). On disk like any acknowledged write: persistence keeps them across a crash; "
             "replicas get them with their first full resync"},
     {}},
    {{.name = "expiry_clock",
      .rule = choice_of(kExpiryClocks, ClockKind::wall),
      .doc = "the clock a node judges key expiry by. Redis 7 uses the wall clock (`db.c` `keyIsExpired`); "
             "`monotonic` is antirez's proposed fix"},
     into(&NodeConfig::expiry_clock)},
    {{.name = "active_expiry",
      .rule = choice_of(kActiveExpiry, redis::ActiveExpiry::instant),
      .doc = "how a master drops expired keys nobody touches: `instant`, at the first instant each is expired, so the "
             "drop, its DEL to the replicas and the end of its visibility coincide; or `cron`, as Redis does, in "
             "activeExpireCycle every 100 ms (hz 10) of the node's monotonic clock, up to 100 ms after the key "
             "stopped being visible (a command that touches it first drops it at once)"},
     into(&NodeConfig::active_expiry)},
    {{.name = "persistence",
      .rule = choice_of(kPersistence, redis::Persistence::none),
      .doc = "what survives a crash: nothing; writes fsynced once per `fsync_every` of the node's wall clock "
             "(`appendfsync everysec`: the first write of a new second at once, a later one at the first 100 ms "
             "tick of the next second); every acknowledged write (`appendfsync always`)"},
     into(&NodeConfig::persistence)},
    {{.name = "fsync_every",
      .rule = DurationRule{.sign = Sign::positive, .fallback = 1s},
      .doc = "the period of the node's wall clock that `aof-everysec` fsyncs at most once in (Redis: a second)"},
     into(&NodeConfig::fsync_every)},
    {{.name = "delayed_restart",
      .rule = DurationRule{.sign = Sign::non_negative, .fallback = 0s},
      .doc = "antirez's *delayed restart*: after a crash a node stays unavailable until this long has passed since "
             "the crash (by its monotonic clock), so no lock it forgot can be granted twice. A bit more than the "
             "max TTL is the page's advice; `\"0\"` serves at once"},
     into(&NodeConfig::delayed_restart)},
    {{.name = kReplicas,
      .rule = CustomRule{"array of process names"},
      .doc = "replicas of the master `nodes[0]`, replicating asynchronously ([below](#replication)); no repeats. "
             "Needs the single-node protocol, so `nodes` has exactly one entry",
      .default_note = "`[]`"},
     {}},
    {{.name = kMinReplicas,
      .rule = IntegerRule{.min = INT64_MIN, .max = INT64_MAX, .fallback = 0},
      .doc = "redis.conf `min-replicas-to-write`: the master refuses writes (`NOREPLICAS`) while fewer replicas "
             "than this have acknowledged within `min_replicas_max_lag`. `0` = no check",
      .type_note = "integer, 0..the number of `replicas`"},
     {}},
    {{.name = "min_replicas_max_lag",
      .rule = DurationRule{.sign = Sign::positive,
                           .fallback = 10s,
                           .whole_unit = 1s,
                           .whole_unit_name = "seconds",
                           .whole_unit_why = "redis.conf's min-replicas-max-lag is in seconds, and 0 turns the "
                                             "check off"},
      .doc = "redis.conf `min-replicas-max-lag`: how recent a replica's last ack must be to count, in whole seconds "
             "of the master's monotonic clock, as in Redis (so `\"1500ms\"` is an error rather than truncated to "
             "1 s; `\"0\"` is refused because Redis reads 0 as \"check off\")"},
     into(&NodeConfig::min_replicas_max_lag)},
    {{.name = "ack_every",
      .rule = DurationRule{.sign = Sign::positive, .fallback = 1s},
      .doc = "how often a replica sends `REPLCONF ACK` (Redis: once a second, from `replicationCron`), on its "
             "monotonic clock; a replica waiting for a full resync asks again this often"},
     into(&NodeConfig::ack_every)},
    {{.name = "replication_delay",
      .rule = DurationRule{.sign = Sign::non_negative, .fallback = 0s},
      .doc = "how long a write waits in the master's output buffer before it is sent to the replicas (a busy "
             "master, a slow replica link). A master that crashes loses what is still waiting — the window in "
             "which a granted lock exists nowhere else. `\"0\"` = sent with the reply"},
     into(&NodeConfig::replication_delay)},};

// KEY = 32, KEY = "text" or KEY = { value = 32 | "text", ttl = "10s" }.
void read_initial_key(Reader& r, const DocNode& node, std::vector<InitialKeySpec>& out) {
  InitialKeySpec key;
  key.key = node.key;
  if (key.key.empty()) return r.fail(node, "a key name must not be empty");
  const DocNode* value = &node;
  if (node.table) {
    r.check_keys(node, {"value", "ttl"}, "an initial key such as { value = 32, ttl = \"10s\" }");
    value = r.require(node, "value");
    if (node.find("ttl") != nullptr) {
      Duration ttl{0};
      if (r.duration(node, "ttl", Sign::positive, ttl)) key.ttl = ttl;
    }
    if (value == nullptr) return;
  }
  if (!value->table && value->value->is_integer()) {
    key.is_integer = true;
    key.integer = *value->value->value<std::int64_t>();
  } else if (!r.string_value(*value, "an integer (a counter such as a fencing token) or a string (a lock value)",
                             key.text)) {
    return;
  }
  out.push_back(std::move(key));
}

}  // namespace

std::string replica_count_rule(std::int64_t replicas) {
  if (replicas == 0)
    return "must be 0 without replicas (redis.replicas is empty; add them such as replicas = [\"R\"] in [redis])";
  return "must be between 0 and " + std::to_string(replicas) + " (the number of redis.replicas)";
}

SectionDecl redis_section() { return {.name = "redis", .keys = declarations(kRedisKeys)}; }

void read_redis_section(ReadContext& c) {
  const DocNode& rs = c.section("redis");
  RedisSpec& redis = c.spec.redis;
  if (!uses_redis(c.spec.lock.protocol)) {
    // The lock lives in a store, or there is none: no Redis node exists, and
    // keys for one would be silently ignored.
    if (!rs.members.empty())
      c.r.fail(rs.members.front(), "[redis] applies to the Redis protocols, and the protocol is \"" +
                                       std::string(lock_protocol_name(c.spec.lock.protocol)) + "\"" +
                                       (uses_store(c.spec.lock.protocol) ? ": its lock lives in [store]" : ""));
    return;
  }
  read_keys(c.r, rs, kRedisKeys, redis.node);
  if (rs.find(kNodes) == nullptr) {
    redis.nodes = {"r1"};
    c.processes.add(c.r, "r1", NameKind::redis_node, rs.pos, "redis.nodes");
  } else if (read_processes(c, rs, kNodes, "node", NameKind::redis_node, redis.nodes) && redis.nodes.empty()) {
    c.r.fail(*rs.find(kNodes), "needs at least one node name");
  }
  read_processes(c, rs, kReplicas, "replica", NameKind::replica, redis.replicas);
  const auto replicas = static_cast<std::int64_t>(redis.replicas.size());
  if (std::optional<KeyValue> value = read_key(c.r, rs, declared(kRedisKeys, kMinReplicas))) {
    const std::int64_t min_replicas = std::get<std::int64_t>(*value);
    if (min_replicas < 0 || min_replicas > replicas)
      c.r.fail(*rs.find(kMinReplicas), replica_count_rule(replicas) + "; got " + std::to_string(min_replicas));
    else
      redis.node.min_replicas_to_write = static_cast<int>(min_replicas);
  }
  if (const DocNode* initial = c.r.table(rs, "initial"))
    for (const DocNode& key : initial->members) read_initial_key(c.r, key, redis.initial);
}

}  // namespace locksim::scenario
