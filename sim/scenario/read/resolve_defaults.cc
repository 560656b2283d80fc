#include "sim/scenario/read/resolve_defaults.h"

#include <algorithm>

#include "sim/scenario/presets.h"
#include "sim/scenario/read/sections.h"

namespace locksim::scenario {

namespace {

// Sentinel's usual quorum: two sentinels must agree the master is down.
constexpr std::uint32_t kSentinelQuorum = 2;

bool written_in(const DocNode& table, std::string_view key) { return table.find(key) != nullptr; }

// A preset sets defaults only: a key written anywhere (base, variant,
// --set) wins over it.
void apply_preset(ReadContext& c) {
  const LockPreset* preset = find_lock_preset(c.spec.lock.preset);
  if (preset == nullptr) return;
  LockSpec& lock = c.spec.lock;
  const auto unwritten = [&](std::string_view section, std::string_view key) { return !c.written(section, key); };
  if (unwritten("lock", "drift_factor")) lock.drift_factor_ppm = preset->drift_factor_ppm;
  if (unwritten("lock", "drift_fixed")) lock.drift_fixed = preset->drift_fixed;
  if (unwritten("lock", "attempts")) lock.attempts = preset->attempts;
  if (unwritten("lock", "retry_delay")) lock.retry_delay = preset->retry_delay;
  if (unwritten("lock", "clock")) lock.clock = preset->clock;
  if (preset->ttl && unwritten("lock", "ttl")) lock.ttl = *preset->ttl;
  if (unwritten("redlock", "requests")) lock.redlock.knobs.parallel = preset->parallel;
  if (unwritten("redlock", "first_attempt_expiry")) lock.redlock.knobs.first_attempt_expiry = preset->first_attempt_expiry;
  if (unwritten("redlock", "return_early")) lock.redlock.knobs.return_early = preset->return_early;
  if (unwritten("redlock", "check_validity")) lock.redlock.knobs.check_validity = preset->check_validity;
  if (unwritten("redlock", "failed_attempt_cleanup")) lock.redlock.knobs.cleanup = preset->cleanup;
  if (unwritten("lock", "scripts")) lock.evalsha = preset->evalsha;
  // After the ttl: the node timeout may be a share of the ttl in force.
  if (unwritten("redlock", "node_timeout"))
    if (auto timeout = preset_node_timeout(*preset, lock.ttl)) lock.redlock.knobs.node_timeout = *timeout;
}

}  // namespace

void resolve_defaults(ReadContext& c) {
  apply_preset(c);
  resolve_store_defaults(c);
  ScenarioSpec& spec = c.spec;
  LockSpec& lock = spec.lock;
  const auto n = static_cast<std::uint32_t>(spec.redis.nodes.size());
  if (lock.redlock.quorum == 0) lock.redlock.quorum = n / 2 + 1;
  if (lock.redlock.fencing_node.empty() && !spec.redis.nodes.empty())
    lock.redlock.fencing_node = spec.redis.nodes.front();
  // Redisson renews every lease / 3 (30 s lease, every 10 s).
  if (!c.written("lock", "renew_every")) lock.watchdog.renew_every = std::max(Duration{1}, lock.ttl / 3);
  // With fewer sentinels than that, all of them.
  const auto sentinels = static_cast<std::uint32_t>(spec.sentinel.names.size());
  if (!c.written("sentinel", "quorum"))
    spec.sentinel.quorum = sentinels > 0 ? std::min(kSentinelQuorum, sentinels) : kSentinelQuorum;
  const DocNode& clients = c.section("client");
  for (ClientSpec& client : spec.clients) {
    const DocNode* table = clients.find(client.name);
    if (table == nullptr || !written_in(*table, "attempts")) client.attempts = lock.attempts;
    if (table == nullptr || !written_in(*table, "retry_delay")) client.retry_delay = lock.retry_delay;
  }
  const DocNode& links = c.section("link");
  for (LinkOverride& link : spec.network.links) {
    const DocNode* table = links.find(link.name);
    if (table == nullptr || !written_in(*table, "latency")) link.spec.latency = spec.network.default_link.latency;
    if (table == nullptr || !written_in(*table, "loss")) link.spec.loss_ppm = spec.network.default_link.loss_ppm;
  }
}

}  // namespace locksim::scenario
