// The deployment as a whole: what the protocol, the nodes, the replicas and
// the sentinels allow of each other. Each section has been read on its own;
// these are the rules that span sections.
#include "sim/scenario/presets.h"
#include "sim/scenario/protocols.h"
#include "sim/scenario/read/sections.h"

namespace locksim::scenario {

namespace {

// A store-kept lock, or no lock at all, has no Redis client: the [lock] keys
// that describe one would be silently ignored, so they are errors (a store's
// token is its revision; renewal is the session's keepalive).
void check_not_redis(ReadContext& c) {
  const DocNode& l = c.section("lock");
  const LockSpec& lock = c.spec.lock;
  const std::string protocol = lock_protocol_name(lock.protocol);
  // Written at a value that asks for nothing (fencing = "none", the default
  // acquire and release styles, no watchdog) a key is harmless — a variant may
  // have to write it so to switch off what the base file asked for.
  const auto asks = [&](std::string_view key) {
    if (key == "fencing") return lock.fencing != FencingStyle::none;
    if (key == "acquire") return lock.acquire != AcquireStyle::set_nx_px;
    if (key == "release") return lock.release != ReleaseStyle::compare_and_delete;
    if (key == "watchdog") return lock.watchdog.enabled;
    if (key == "wait_replicas") return lock.wait_replicas > 0;
    if (key == "drift_factor") return lock.drift_factor_ppm != 0;
    if (key == "drift_fixed") return lock.drift_fixed != Duration{0};
    if (key == "preset") return find_lock_preset(lock.preset) != nullptr;  // a store release is the store's
    return true;
  };
  for (std::string_view key : {"preset", "acquire", "release", "fencing", "fencing_key", "drift_factor",
                               "drift_fixed", "watchdog", "renew_every", "wait_replicas", "wait_timeout"})
    if (const DocNode* k = l.find(key); k != nullptr && asks(key))
      c.r.fail(*k, "lock." + std::string(key) + " describes a Redis client and does not apply to protocol = \"" +
                       protocol + "\"" +
                       (uses_store(lock.protocol) ? " (its fencing token is the store's revision; see [store_lock])"
                                                  : " (there is no lock service)"));
  const DocNode& s = c.section("sentinel");
  if (!s.members.empty())
    c.r.fail(s.members.front(), "[sentinel] fails a Redis master over, and the protocol is \"" + protocol + "\"" +
                                    (uses_store(c.spec.lock.protocol) ? ": the store elects its own leader" : ""));
  if (c.spec.store.stock && c.spec.resource.app != AppKind::stock)
    c.r.fail(*c.section("store").find("stock"), "store.stock keeps the resource's stock in the store; it needs "
                                                "resource.app = \"stock\"");
}

// The single-node lock talks to one master; Redlock takes and gives back its
// lock the one safe way, on every node.
void check_protocol(ReadContext& c) {
  const LockSpec& lock = c.spec.lock;
  if (!uses_redis(lock.protocol)) return check_not_redis(c);
  const DocNode& redis = c.section("redis");
  const DocNode& l = c.section("lock");
  const std::vector<std::string>& nodes = c.spec.redis.nodes;
  if (!protocol_decl(lock.protocol).quorum_of_masters) {
    if (nodes.size() > 1 && redis.find("nodes") != nullptr)
      c.r.fail(*redis.find("nodes"),
               "the single-node lock uses exactly one node; use protocol = \"redlock\" for several (got " +
                   std::to_string(nodes.size()) + ": " + join_list(nodes) + ")");
    return;
  }
  if (const DocNode* replicas = redis.find("replicas"); replicas != nullptr && !c.spec.redis.replicas.empty())
    c.r.fail(*replicas,
             "replicas are for the single-node lock (one master, nodes[0], and its replicas); Redlock's nodes are "
             "independent masters, and the protocol is \"redlock\"");
  // Redlock always takes the lock with SET NX PX and gives it back with
  // compare-and-delete on every node: the unsafe single-node styles do not
  // exist there, and silently ignoring them would mislead.
  if (const DocNode* a = l.find("acquire"); a != nullptr && lock.acquire != AcquireStyle::set_nx_px)
    c.r.fail(*a, "Redlock always acquires with SET NX PX; acquire styles apply to protocol = \"single-node\"");
  if (const DocNode* rel = l.find("release"); rel != nullptr && lock.release != ReleaseStyle::compare_and_delete)
    c.r.fail(*rel, "Redlock always releases with compare-and-delete on every node; release styles apply to "
                   "protocol = \"single-node\"");
}

// Sentinels need replicas to promote, and their quorum is bounded by their
// number.
void check_sentinels(ReadContext& c) {
  const DocNode& s = c.section("sentinel");
  const auto sentinels = static_cast<std::int64_t>(c.spec.sentinel.names.size());
  if (!s.members.empty() && s.find("names") == nullptr)
    c.r.fail(s.members.front(), "[sentinel] has no names; list the sentinels, such as names = [\"s1\", \"s2\", "
                                "\"s3\"] (names = [] runs without sentinels)");
  if (sentinels > 0 && c.spec.redis.replicas.empty())
    c.r.fail(*s.find("names"),
             "sentinels fail the master over to one of its replicas, and redis.replicas is empty; add replicas such "
             "as replicas = [\"R\"] in [redis]");
  const std::optional<KeyValue> written = read_key(c.r, s, *sentinel_section().find("quorum"));
  if (!written) return;
  // Without sentinels the quorum does nothing: a variant may set names = []
  // and still inherit it.
  const std::int64_t q = std::get<std::int64_t>(*written);
  if (q < 1 || (sentinels > 0 && q > sentinels))
    c.r.fail(*s.find("quorum"), sentinels > 0 ? "must be between 1 and " + std::to_string(sentinels) +
                                                    " (the number of sentinel.names); got " + std::to_string(q)
                                              : "must be at least 1; got " + std::to_string(q));
  else
    c.spec.sentinel.quorum = static_cast<std::uint32_t>(q);
}

}  // namespace

void check_deployment(ReadContext& c) {
  check_protocol(c);
  if (!uses_redis(c.spec.lock.protocol)) return;
  check_sentinels(c);
  const auto replicas = static_cast<std::int64_t>(c.spec.redis.replicas.size());
  const DocNode* wait = c.section("lock").find("wait_replicas");
  if (wait != nullptr && c.spec.lock.wait_replicas > replicas)
    c.r.fail(*wait, replica_count_rule(replicas) + "; got " + std::to_string(c.spec.lock.wait_replicas));
}

}  // namespace locksim::scenario
