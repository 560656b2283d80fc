// Scenario file -> ScenarioSpec. Three passes over a merged document tree
// (doc.h): merge (base, then the variant, then each --set), schema (every key
// known, anywhere), then meaning (types, units, ranges, cross-references).
// The schema pass runs first so that a misspelt key is reported as such and
// not as whatever the missing key's default then breaks. scenarios/FORMAT.md
// is the user's reference for everything read here; keep the two in step.
#include "sim/scenario/parse.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <climits>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "sim/core/limits.h"
#include "sim/core/rng.h"
#include "sim/scenario/client_bounds.h"
#include "sim/scenario/consistency.h"
#include "sim/scenario/doc.h"
#include "sim/scenario/presets.h"
#include "sim/scenario/reader.h"

namespace locksim {

using scenario::DocNode;
using scenario::in_quotes;
using scenario::join_key;
using scenario::join_list;
using scenario::Reader;
using scenario::Sign;

struct ScenarioFile::Impl {
  struct Variant {
    std::string name;
    std::string description;
    DocNode doc;  // the variant's keys, paths as written ("variant.fenced.lock.fencing")
  };
  std::string path;
  std::uint64_t content_hash = 0;
  std::shared_ptr<const toml::table> toml;  // owns every value the trees point into
  DocNode base;                             // the document without [variant]
  std::vector<Variant> variants;            // in file order

  const Variant* find_variant(const std::string& name) const {
    for (const Variant& v : variants)
      if (v.name == name) return &v;
    return nullptr;
  }
};

namespace {

constexpr const char* kSetFile = "--set";

// ---- Names as written in scenario files -------------------------------------

constexpr std::pair<LockProtocol, std::string_view> kProtocols[] = {{LockProtocol::single_node, "single-node"},
                                                                    {LockProtocol::redlock, "redlock"}};
constexpr std::pair<bool, std::string_view> kRequestModes[] = {{false, "sequential"}, {true, "parallel"}};
constexpr std::pair<AcquireStyle, std::string_view> kAcquireStyles[] = {
    {AcquireStyle::set_nx_px, "set-nx-px"}, {AcquireStyle::setnx_then_expire, "setnx-then-expire"}};
constexpr std::pair<ReleaseStyle, std::string_view> kReleaseStyles[] = {
    {ReleaseStyle::compare_and_delete, "compare-and-delete"}, {ReleaseStyle::del, "del"}};
constexpr std::pair<FencingStyle, std::string_view> kFencingStyles[] = {{FencingStyle::none, "none"},
                                                                        {FencingStyle::incr, "incr"}};
constexpr std::pair<ClockKind, std::string_view> kClientClocks[] = {{ClockKind::monotonic, "monotonic"},
                                                                    {ClockKind::wall, "wall"}};
constexpr std::pair<ClockKind, std::string_view> kExpiryClocks[] = {{ClockKind::wall, "wall"},
                                                                    {ClockKind::monotonic, "monotonic"}};
constexpr std::pair<redis::Persistence, std::string_view> kPersistence[] = {
    {redis::Persistence::none, "none"},
    {redis::Persistence::aof_everysec, "aof-everysec"},
    {redis::Persistence::aof_always, "aof-always"}};
constexpr std::pair<WritePolicy, std::string_view> kWritePolicies[] = {
    {WritePolicy::none, "none"},
    {WritePolicy::fencing, "fencing"},
    {WritePolicy::unique_token_cas, "unique-token-cas"}};
constexpr std::pair<AppKind, std::string_view> kAppKinds[] = {{AppKind::counter, "counter"},
                                                              {AppKind::register_value, "register"},
                                                              {AppKind::collection, "collection"},
                                                              {AppKind::stock, "stock"},
                                                              {AppKind::none, "none"}};
constexpr std::pair<FaultSpecKind, std::string_view> kFaultKinds[] = {{FaultSpecKind::pause, "pause"},
                                                                      {FaultSpecKind::crash, "crash"},
                                                                      {FaultSpecKind::restart, "restart"},
                                                                      {FaultSpecKind::clock_jump, "clock-jump"},
                                                                      {FaultSpecKind::clock_drift, "clock-drift"},
                                                                      {FaultSpecKind::clock_slew, "clock-slew"},
                                                                      {FaultSpecKind::partition, "partition"}};
constexpr std::pair<PartitionMode, std::string_view> kPartitionModes[] = {{PartitionMode::drop, "drop"},
                                                                          {PartitionMode::hold, "hold"}};
constexpr std::pair<bool, std::string_view> kVerdicts[] = {{false, "holds"}, {true, "violated"}};

constexpr StepKind kStepKinds[] = {StepKind::read,
                                   StepKind::write,
                                   StepKind::mark,
                                   StepKind::add,
                                   StepKind::increment_size,
                                   StepKind::decrement,
                                   StepKind::check_and_decrement,
                                   StepKind::check,
                                   StepKind::work,
                                   StepKind::call};

std::string_view fault_kind_text(FaultSpecKind kind) {
  for (const auto& [k, name] : kFaultKinds)
    if (k == kind) return name;
  return "?";
}

// ---- The schema: which keys each table takes ---------------------------------

using Keys = std::vector<std::string>;

const Keys kTopKeys{"scenario", "lock",   "redlock", "redis", "sentinel", "service", "resource",
                    "client",   "clock",  "network", "link",  "fault",    "expect"};
const Keys kScenarioKeys{"name", "title", "story", "run_for", "seed", "max_events", "max_facts"};
const Keys kLockKeys{
    "protocol",        "key",         "ttl",           "acquire",     "release",  "fencing",     "fencing_key",
    "request_timeout", "clock",       "drift_factor",  "drift_fixed", "attempts", "retry_delay", "preset",
    "watchdog",        "renew_every", "wait_replicas", "wait_timeout"};
const Keys kRedlockKeys{"requests", "node_timeout", "check_validity", "quorum", "fencing_node", "first_attempt_expiry"};
const Keys kRedisKeys{"nodes",           "initial",               "expiry_clock",         "persistence",          "fsync_every",
                      "delayed_restart", "replicas",              "min_replicas_to_write", "min_replicas_max_lag",
                      "ack_every",       "replication_delay"};
const Keys kSentinelKeys{"names", "quorum", "down_after", "ping_every", "failover_timeout", "client_follow_delay"};
const Keys kServiceKeys{"latency"};
const Keys kResourceKeys{"name", "policy", "app", "initial_stock"};
const Keys kClientKeys{"start", "steps", "iterations", "attempts", "retry_delay", "think", "release"};
const Keys kClockKeys{"offset", "drift"};
const Keys kNetworkKeys{"latency", "loss"};
const Keys kLinkKeys{"from", "to", "latency", "loss", "both_ways"};
const Keys kFaultCommonKeys{"kind", "at", "after", "occurrence"};
const Keys kFaultKeys{"kind",          "at", "after", "occurrence", "target", "length",
                      "restart_after", "by", "drift", "groups",     "mode",   "heal_after"};

Keys fault_kind_keys(FaultSpecKind kind) {
  switch (kind) {
    case FaultSpecKind::pause: return {"target", "length"};
    case FaultSpecKind::crash: return {"target", "restart_after"};
    case FaultSpecKind::restart: return {"target"};
    case FaultSpecKind::clock_jump: return {"target", "by"};
    case FaultSpecKind::clock_drift: return {"target", "drift"};
    case FaultSpecKind::clock_slew: return {"target", "drift", "length"};
    case FaultSpecKind::partition: return {"groups", "mode", "heal_after"};
  }
  return {};
}

Keys expect_keys() {
  Keys keys;
  for (Property p : kAllProperties) keys.emplace_back(property_name(p));
  for (const char* k : {"fired", "longest-stuck-at-least", "longest-stuck-at-most", "sessions-at-least",
                        "sessions-at-most", "expired-grants-at-least", "expired-grants-at-most"})
    keys.emplace_back(k);
  return keys;
}

bool contains(const Keys& keys, std::string_view key) {
  for (const std::string& k : keys)
    if (k == key) return true;
  return false;
}

void check_schema(Reader& r, const DocNode& root) {
  r.check_keys(root, kTopKeys, "a scenario");
  struct Section {
    std::string_view name;
    const Keys* keys;
    bool named;  // [client.NAME] and the like
  };
  static const Keys kExpectKeys = expect_keys();
  const Section sections[] = {
      {"scenario", &kScenarioKeys, false}, {"lock", &kLockKeys, false},         {"redlock", &kRedlockKeys, false},
      {"redis", &kRedisKeys, false},       {"sentinel", &kSentinelKeys, false}, {"service", &kServiceKeys, true},
      {"resource", &kResourceKeys, false}, {"client", &kClientKeys, true},
      {"clock", &kClockKeys, true},        {"network", &kNetworkKeys, false},   {"link", &kLinkKeys, true},
      {"fault", &kFaultKeys, true},        {"expect", &kExpectKeys, false}};
  for (const DocNode& node : root.members) {
    for (const Section& s : sections) {
      if (node.key != s.name) continue;
      const DocNode* table = r.table(root, s.name);
      if (table == nullptr) break;
      const std::string label = "[" + std::string(s.name) + (s.named ? ".NAME]" : "]");
      if (!s.named) {
        if (s.name == "expect") {
          // [expect.CLIENT] tables are read (and checked) by read_client_bounds.
          DocNode own = *table;
          std::erase_if(own.members, [](const DocNode& m) { return m.table; });
          r.check_keys(own, *s.keys, label);
          break;
        }
        r.check_keys(*table, *s.keys, label);
        break;
      }
      r.all_tables(*table, "[" + std::string(s.name) + ".NAME]");
      for (const DocNode& item : table->members)
        if (item.table) r.check_keys(item, *s.keys, label);
      break;
    }
  }
}

// ---- Meaning ----------------------------------------------------------------

std::string trim(std::string_view text) {
  std::size_t b = 0, e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
  return std::string(text.substr(b, e - b));
}

// A latency written by hand ("2s", "lognormal(200ms, 0.5)"), with the unit
// rules in the error when a plain value is not a duration.
std::optional<Latency> latency_from_text(const std::string& text, std::string& error) {
  std::optional<Latency> l = parse_latency(text, error);
  if (!l && text.find('(') == std::string::npos) scenario::duration_from_text(text, Sign::non_negative, error);
  return l;
}

bool valid_process_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
  return true;
}

class SpecBuilder {
 public:
  SpecBuilder(Reader& r, const DocNode& root, const std::string& file) : r_(r), root_(root), file_(file) {}

  ScenarioSpec build() {
    spec_.file = file_;
    check_schema(r_, root_);
    read_scenario();
    read_lock();
    read_redis();
    read_sentinel();
    read_services();
    read_resource();
    read_clients();
    register_processes();
    read_redlock();
    check_replication();
    read_clocks();
    read_network();
    read_links();
    read_faults();
    read_expect();
    // Contradictions between values need the values themselves to be right;
    // they are found once every key reads.
    if (!r_.failed()) scenario::check_consistency(r_, root_, spec_);
    return spec_;
  }

 private:
  struct Process {
    std::string name;
    std::string_view kind;  // "redis node", "replica", "sentinel", "service", "resource", "client"
    SourcePos pos;          // where the name was written
  };

  // The section |key| of the root, or an empty table standing in for it.
  const DocNode& section(std::string_view key) {
    if (const DocNode* node = root_.find(key); node != nullptr && node->table) return *node;
    DocNode& empty = placeholders_.emplace_back();
    empty.key = std::string(key);
    empty.path = std::string(key);
    empty.pos = {file_, 0};
    empty.table = true;
    return empty;
  }

  void read_scenario() {
    const DocNode& s = section("scenario");
    if (const DocNode* name = r_.require(s, "name");
        name != nullptr && r_.string(s, "name", spec_.name) && spec_.name.empty())
      r_.fail(*name, "must not be empty");
    r_.string(s, "title", spec_.title);
    r_.string(s, "story", spec_.story);
    r_.duration(s, "run_for", Sign::positive, spec_.run_for);
    std::int64_t seed = 0;
    if (r_.integer(s, "seed", std::int64_t{0}, INT64_MAX, seed)) spec_.seed = static_cast<std::uint64_t>(seed);
    // Budgets: a run that needs more stops with an error rather than running
    // for ever (a retry loop with no delay) or exhausting memory.
    std::int64_t budget = 0;
    if (r_.integer(s, "max_events", std::int64_t{1}, static_cast<std::int64_t>(kMaxEventBudget), budget))
      spec_.max_events = static_cast<std::uint64_t>(budget);
    if (r_.integer(s, "max_facts", std::int64_t{1}, static_cast<std::int64_t>(kMaxFactBudget), budget))
      spec_.max_facts = static_cast<std::uint64_t>(budget);
  }

  void read_lock() {
    const DocNode& l = section("lock");
    LockSpec& lock = spec_.lock;
    r_.choice(l, "protocol", kProtocols, lock.protocol);
    read_preset(l);  // defaults only: every key read below overrides them
    if (r_.string(l, "key", lock.key) && lock.key.empty()) r_.fail(*l.find("key"), "must not be empty");
    r_.duration(l, "ttl", Sign::positive, lock.ttl);
    r_.choice(l, "acquire", kAcquireStyles, lock.acquire);
    r_.choice(l, "release", kReleaseStyles, lock.release);
    r_.choice(l, "fencing", kFencingStyles, lock.fencing);
    if (r_.string(l, "fencing_key", lock.fencing_key) && lock.fencing_key.empty())
      r_.fail(*l.find("fencing_key"), "must not be empty");
    r_.duration(l, "request_timeout", Sign::positive, lock.request_timeout);
    r_.choice(l, "clock", kClientClocks, lock.clock);
    r_.fraction_ppm(l, "drift_factor", lock.drift_factor_ppm);
    r_.duration(l, "drift_fixed", Sign::non_negative, lock.drift_fixed);
    r_.integer(l, "attempts", 0, INT_MAX, lock.attempts);
    r_.latency(l, "retry_delay", lock.retry_delay);
    r_.boolean(l, "watchdog", lock.watchdog.enabled);
    r_.duration(l, "renew_every", Sign::positive, lock.watchdog.renew_every);
    // The upper bound (the number of replicas) is checked in check_replication().
    r_.integer(l, "wait_replicas", 0, INT_MAX, lock.wait_replicas);
    if (r_.duration(l, "wait_timeout", Sign::non_negative, lock.wait_timeout))
      whole_units(l, "wait_timeout", lock.wait_timeout, std::chrono::milliseconds(1), "milliseconds",
                  "WAIT's timeout is in milliseconds, and 0 means wait for ever");
    // Redisson renews every lease / 3 (30 s lease, every 10 s).
    if (lock.watchdog.enabled && lock.watchdog.renew_every == Duration{0})
      lock.watchdog.renew_every = std::max(Duration{1}, lock.ttl / 3);
  }

  // preset = "redlock-rb": a client library's defaults (presets.h), written
  // into the spec before the file's own keys are read over them.
  void read_preset(const DocNode& l) {
    std::vector<std::string> names;
    for (const scenario::LockPreset& p : scenario::lock_presets()) names.emplace_back(p.name);
    std::size_t index = 0;
    if (!r_.one_of(l, "preset", names, index)) return;
    preset_ = &scenario::lock_presets()[index];
    if (preset_->first_attempt_expiry && spec_.lock.protocol != LockProtocol::redlock) {
      r_.fail(*l.find("preset"),
              in_quotes(preset_->name) + " models a bug of a Redlock client; it needs protocol = \"redlock\"");
      return;
    }
    scenario::apply_preset(*preset_, spec_.lock);
  }

  // An array of process names (redis.nodes, redis.replicas, sentinel.names):
  // each a valid name, none listed twice. |what| names one entry ("node").
  bool read_names(const DocNode& table, std::string_view key, std::string_view what, std::vector<std::string>& names,
                  std::vector<SourcePos>& positions) {
    std::vector<std::pair<std::string, SourcePos>> items;
    if (!r_.strings(table, key, items)) return false;
    const DocNode& node = *table.find(key);
    names.clear();
    positions.clear();
    for (const auto& [name, pos] : items) {
      if (!valid_process_name(name)) r_.fail(pos, node.path, bad_name_message(name));
      if (std::find(names.begin(), names.end(), name) != names.end())
        r_.fail(pos, node.path, std::string(what) + " " + in_quotes(name) + " is listed twice");
      names.push_back(name);
      positions.push_back(pos);
    }
    return true;
  }

  void read_redis() {
    const DocNode& rs = section("redis");
    RedisSpec& redis = spec_.redis;
    if (read_names(rs, "nodes", "node", redis.nodes, redis_node_pos_) && redis.nodes.empty())
      r_.fail(*rs.find("nodes"), "needs at least one node name");
    r_.choice(rs, "expiry_clock", kExpiryClocks, redis.node.expiry_clock);
    r_.choice(rs, "persistence", kPersistence, redis.node.persistence);
    r_.duration(rs, "fsync_every", Sign::positive, redis.node.fsync_every);
    r_.duration(rs, "delayed_restart", Sign::non_negative, redis.node.delayed_restart);
    // Replication: replicas of nodes[0]; the protocol and node count they
    // need are checked in check_replication().
    read_names(rs, "replicas", "replica", redis.replicas, redis_replica_pos_);
    const auto replicas = static_cast<std::int64_t>(redis.replicas.size());
    std::int64_t min_replicas = 0;
    if (r_.integer(rs, "min_replicas_to_write", INT64_MIN, INT64_MAX, min_replicas)) {
      if (min_replicas < 0 || min_replicas > replicas)
        r_.fail(*rs.find("min_replicas_to_write"),
                replica_count_rule(replicas) + "; got " + std::to_string(min_replicas));
      else
        redis.node.min_replicas_to_write = static_cast<int>(min_replicas);
    }
    if (r_.duration(rs, "min_replicas_max_lag", Sign::positive, redis.node.min_replicas_max_lag))
      whole_units(rs, "min_replicas_max_lag", redis.node.min_replicas_max_lag, std::chrono::seconds(1), "seconds",
                  "redis.conf's min-replicas-max-lag is in seconds, and 0 turns the check off");
    r_.duration(rs, "ack_every", Sign::positive, redis.node.ack_every);
    r_.duration(rs, "replication_delay", Sign::non_negative, redis.node.replication_delay);
    if (const DocNode* initial = r_.table(rs, "initial"))
      for (const DocNode& key : initial->members) read_initial_key(key, redis.initial);
  }

  // KEY = 32, KEY = "text" or KEY = { value = 32 | "text", ttl = "10s" }.
  void read_initial_key(const DocNode& node, std::vector<InitialKeySpec>& out) {
    InitialKeySpec key;
    key.key = node.key;
    if (key.key.empty()) return r_.fail(node, "a key name must not be empty");
    const DocNode* value = &node;
    if (node.table) {
      r_.check_keys(node, {"value", "ttl"}, "an initial key such as { value = 32, ttl = \"10s\" }");
      value = r_.require(node, "value");
      if (node.find("ttl") != nullptr) {
        Duration ttl{0};
        if (r_.duration(node, "ttl", Sign::positive, ttl)) key.ttl = ttl;
      }
      if (value == nullptr) return;
    }
    if (!value->table && value->value->is_integer()) {
      key.is_integer = true;
      key.integer = *value->value->value<std::int64_t>();
    } else if (!r_.string_value(*value, "an integer (a counter such as a fencing token) or a string (a lock value)",
                                key.text)) {
      return;
    }
    out.push_back(std::move(key));
  }

  // A duration that Redis takes in whole |unit|s: anything finer would be
  // truncated, and 0 means something else there (|why|).
  void whole_units(const DocNode& table, std::string_view key, Duration d, Duration unit, std::string_view unit_name,
                   std::string_view why) {
    if (d % unit == Duration{0}) return;
    const DocNode& node = *table.find(key);
    r_.fail(node, "must be a whole number of " + std::string(unit_name) + " (" + std::string(why) + "), got " +
                      in_quotes(*node.value->value<std::string>()));
  }

  // The range of a count of replicas (min_replicas_to_write, wait_replicas).
  static std::string replica_count_rule(std::int64_t replicas) {
    if (replicas == 0)
      return "must be 0 without replicas (redis.replicas is empty; add them such as replicas = [\"R\"] in "
             "[redis])";
    return "must be between 0 and " + std::to_string(replicas) + " (the number of redis.replicas)";
  }

  // [sentinel]. The checks that need the replicas and the quorum's default
  // are in check_replication().
  void read_sentinel() {
    const DocNode& s = section("sentinel");
    SentinelSpec& sentinel = spec_.sentinel;
    read_names(s, "names", "sentinel", sentinel.names, sentinel_pos_);
    std::int64_t quorum = 0;
    if (r_.integer(s, "quorum", INT64_MIN, INT64_MAX, quorum)) sentinel_quorum_ = quorum;
    r_.duration(s, "down_after", Sign::positive, sentinel.down_after);
    r_.duration(s, "ping_every", Sign::positive, sentinel.ping_every);
    r_.duration(s, "failover_timeout", Sign::positive, sentinel.failover_timeout);
    r_.duration(s, "client_follow_delay", Sign::non_negative, sentinel.client_follow_delay);
  }

  // [service.NAME], in file order.
  void read_services() {
    for (const DocNode& s : section("service").members) {
      if (!s.table) continue;  // reported by the schema pass
      ServiceSpec service;
      service.name = s.key;
      service.pos = s.pos;
      if (!valid_process_name(s.key)) r_.fail(s, bad_name_message(s.key));
      r_.latency(s, "latency", service.latency);
      spec_.services.push_back(std::move(service));
    }
  }

  void read_resource() {
    const DocNode& rs = section("resource");
    if (r_.string(rs, "name", spec_.resource.name) && !valid_process_name(spec_.resource.name))
      r_.fail(*rs.find("name"), bad_name_message(spec_.resource.name));
    r_.choice(rs, "policy", kWritePolicies, spec_.resource.policy);
    r_.choice(rs, "app", kAppKinds, spec_.resource.app);
    r_.integer(rs, "initial_stock", std::int64_t{0}, INT64_MAX, spec_.resource.initial_stock);
  }

  void read_clients() {
    const DocNode& clients = section("client");
    for (const DocNode& c : clients.members) {
      if (!c.table) continue;  // reported by the schema pass
      ClientSpec client;
      client.name = c.key;
      client.pos = c.pos;
      if (!valid_process_name(c.key)) r_.fail(c, bad_name_message(c.key));
      r_.duration(c, "start", Sign::non_negative, client.start);
      std::vector<std::pair<std::string, SourcePos>> steps;
      if (r_.strings(c, "steps", steps)) {
        for (const auto& [text, pos] : steps) {
          if (auto step = read_step(text, pos, c.find("steps")->path)) client.steps.push_back(*step);
        }
      }
      r_.integer(c, "iterations", 1, INT_MAX, client.iterations);
      // Unset: the client inherits lock.attempts and lock.retry_delay.
      int attempts = 0;
      if (r_.integer(c, "attempts", 0, INT_MAX, attempts)) client.attempts = attempts;
      Latency retry_delay;
      if (r_.latency(c, "retry_delay", retry_delay)) client.retry_delay = retry_delay;
      r_.duration(c, "think", Sign::non_negative, client.think);
      r_.boolean(c, "release", client.release);
      spec_.clients.push_back(std::move(client));
    }
    if (spec_.clients.empty())
      r_.fail(clients.pos, "client", "at least one client is required, such as [client.c1] with steps = [\"write\"]");
  }

  std::optional<Step> read_step(const std::string& raw, const SourcePos& pos, const std::string& key) {
    const std::string text = trim(raw);
    std::size_t space = 0;
    while (space < text.size() && !std::isspace(static_cast<unsigned char>(text[space]))) ++space;
    const std::string verb = text.substr(0, space);
    const std::string arg = trim(std::string_view(text).substr(space));
    std::vector<std::string> names;
    for (StepKind k : kStepKinds) names.emplace_back(step_name(k));
    for (StepKind k : kStepKinds) {
      if (verb != step_name(k)) continue;
      Step step{k, Latency::constant(Duration{0}), {}};
      const bool timed = k == StepKind::work || k == StepKind::call;
      if (timed && arg.empty()) {
        r_.fail(pos, key,
                k == StepKind::call
                    ? "step \"call\" needs a service or a latency, such as \"call identity\", \"call 2s\" or "
                      "\"call lognormal(200ms, 0.5)\""
                    : "step " + in_quotes(verb) + " needs a duration or latency, such as \"" + verb + " 2s\" or \"" +
                          verb + " lognormal(200ms, 0.5)\"");
        return std::nullopt;
      }
      // "call identity": a request to the service process; it takes the
      // service's latency, so the step has none of its own.
      if (k == StepKind::call && find_service(arg) != nullptr) {
        step.service = arg;
        return step;
      }
      if (!timed && !arg.empty()) {
        r_.fail(pos, key, "step " + in_quotes(verb) + " takes no argument, got " + in_quotes(raw));
        return std::nullopt;
      }
      if (timed) {
        std::string error;
        std::optional<Latency> l = latency_from_text(arg, error);
        if (!l) {
          // A word is a service name that matches none; anything else was
          // meant as a latency, and the latency's error says what is wrong.
          if (k == StepKind::call && std::isalpha(static_cast<unsigned char>(arg[0])) && valid_process_name(arg))
            error = unknown_service_message(arg);
          r_.fail(pos, key, "in step " + in_quotes(raw) + ": " + error);
          return std::nullopt;
        }
        step.duration = *l;
      }
      return step;
    }
    r_.fail(pos, key,
            "unknown step " + in_quotes(verb) + scenario::did_you_mean(verb, names) +
                "; steps are: " + join_list(names) +
                " (work and call take a duration, such as \"work 2s\"; call also takes a service, such as "
                "\"call identity\")");
    return std::nullopt;
  }

  const ServiceSpec* find_service(const std::string& name) const {
    for (const ServiceSpec& s : spec_.services)
      if (s.name == name) return &s;
    return nullptr;
  }

  // "call NAME" where NAME is no service: what NAME is, the services there
  // are, and the latency forms.
  std::string unknown_service_message(const std::string& name) const {
    std::vector<std::string> services;
    for (const ServiceSpec& s : spec_.services) services.push_back(s.name);
    std::string what;
    // Clients are registered later; the other kinds are known by now.
    const std::pair<const std::vector<std::string>*, const char*> kinds[] = {{&spec_.redis.nodes, "a redis node"},
                                                                            {&spec_.redis.replicas, "a replica"},
                                                                            {&spec_.sentinel.names, "a sentinel"}};
    for (const auto& [names, kind] : kinds) {
      if (std::find(names->begin(), names->end(), name) != names->end())
        what = in_quotes(name) + " is " + kind + ", not a service";
    }
    if (name == spec_.resource.name) what = in_quotes(name) + " is the resource, not a service";
    for (const ClientSpec& c : spec_.clients)
      if (c.name == name) what = in_quotes(name) + " is a client, not a service";
    if (what.empty()) what = "unknown service " + in_quotes(name) + scenario::did_you_mean(name, services);
    what += services.empty() ? "; there are no services (declare one as [service." + name + "])"
                             : "; services: " + join_list(services);
    return what +
           ". \"call\" takes a service or a latency: a duration such as \"2s\", or constant(V), uniform(LOW, HIGH), "
           "exponential(MEAN), lognormal(MEDIAN, SIGMA), pareto(SCALE, ALPHA)";
  }

  static std::string bad_name_message(const std::string& name) {
    return "bad process name " + in_quotes(name) + ": use letters, digits, '-' and '_'";
  }

  // Process names are unique across redis nodes, replicas, sentinels,
  // services, the resource and clients (registered in that order, which is
  // the order error messages list them in).
  void register_processes() {
    const DocNode& redis = section("redis");
    const auto add_list = [&](const std::vector<std::string>& names, const std::vector<SourcePos>& positions,
                              std::string_view kind, const DocNode& table, std::string_view key) {
      const DocNode* node = table.find(key);
      for (std::size_t i = 0; i < names.size(); ++i)
        add_process(names[i], kind, i < positions.size() ? positions[i] : table.pos,
                    node != nullptr ? node->path : join_key(table.path, key));
    };
    add_list(spec_.redis.nodes, redis_node_pos_, "redis node", redis, "nodes");
    add_list(spec_.redis.replicas, redis_replica_pos_, "replica", redis, "replicas");
    add_list(spec_.sentinel.names, sentinel_pos_, "sentinel", section("sentinel"), "names");
    for (const ServiceSpec& s : spec_.services) add_process(s.name, "service", s.pos, join_key("service", s.name));
    const DocNode& resource = section("resource");
    const DocNode* resource_name = resource.find("name");
    add_process(spec_.resource.name, "resource", resource_name ? resource_name->pos : resource.pos,
                resource_name ? resource_name->path : "resource.name");
    for (const ClientSpec& c : spec_.clients) add_process(c.name, "client", c.pos, join_key("client", c.name));
    if (processes_.size() > kMaxProcesses) {
      const DocNode& clients = section("client");
      r_.fail(clients.pos, "client",
              std::to_string(processes_.size()) + " processes; a scenario has at most " +
                  std::to_string(kMaxProcesses) +
                  " (clients, redis nodes, replicas, sentinels, services and the resource together)");
    }
  }

  void add_process(const std::string& name, std::string_view kind, const SourcePos& pos, const std::string& key) {
    const auto [it, added] = process_index_.emplace(name, processes_.size());
    if (added) {
      processes_.push_back({name, kind, pos});
      return;
    }
    const Process& p = processes_[it->second];
    std::string where;
    if (p.pos.line > 0 && p.pos.file == pos.file)
      where = " (line " + std::to_string(p.pos.line) + ")";
    else if (p.pos.file == kSetFile)
      where = " (from --set)";
    r_.fail(pos, key,
            "name " + in_quotes(name) + " is already taken by the " + std::string(p.kind) + where +
                "; process names must be unique across clients, redis nodes, replicas, sentinels, services and "
                "the resource");
  }

  // Replication and failover: replicas need the single-node protocol (and so
  // one master), sentinels need replicas, and the counts of replicas and
  // sentinels bound wait_replicas and the sentinel quorum. Resolves the
  // quorum's default (2, or 1 with a single sentinel).
  void check_replication() {
    const DocNode& redis = section("redis");
    const auto replicas = static_cast<std::int64_t>(spec_.redis.replicas.size());
    if (replicas > 0 && spec_.lock.protocol == LockProtocol::redlock)
      r_.fail(*redis.find("replicas"),
              "replicas are for the single-node lock (one master, nodes[0], and its replicas); Redlock's nodes are "
              "independent masters, and the protocol is \"redlock\"");

    const DocNode& s = section("sentinel");
    SentinelSpec& sentinel = spec_.sentinel;
    const auto sentinels = static_cast<std::int64_t>(sentinel.names.size());
    if (!s.members.empty() && s.find("names") == nullptr)
      r_.fail(s.members.front(), "[sentinel] has no names; list the sentinels, such as names = [\"s1\", \"s2\", "
                                 "\"s3\"] (names = [] runs without sentinels)");
    if (sentinels > 0 && replicas == 0)
      r_.fail(*s.find("names"),
              "sentinels fail the master over to one of its replicas, and redis.replicas is empty; add replicas such "
              "as replicas = [\"R\"] in [redis]");
    if (sentinel_quorum_) {
      const std::int64_t q = *sentinel_quorum_;
      // Without sentinels the quorum does nothing: a variant may set
      // names = [] and still inherit it.
      if (q < 1 || (sentinels > 0 && q > sentinels))
        r_.fail(*s.find("quorum"),
                sentinels > 0 ? "must be between 1 and " + std::to_string(sentinels) +
                                    " (the number of sentinel.names); got " + std::to_string(q)
                              : "must be at least 1; got " + std::to_string(q));
      else
        sentinel.quorum = static_cast<std::uint32_t>(q);
    } else if (sentinels > 0 && sentinel.quorum > static_cast<std::uint64_t>(sentinels)) {
      sentinel.quorum = static_cast<std::uint32_t>(sentinels);
    }

    const DocNode* wait = section("lock").find("wait_replicas");
    if (wait != nullptr && spec_.lock.wait_replicas > replicas)
      r_.fail(*wait, replica_count_rule(replicas) + "; got " + std::to_string(spec_.lock.wait_replicas));
  }

  // [redlock], and the node count each protocol allows. Runs once the lock,
  // the nodes and every process are known. Resolves quorum (N/2 + 1) and
  // fencing_node (the first node) for either protocol.
  void read_redlock() {
    LockSpec& lock = spec_.lock;
    RedlockSpec& redlock = lock.redlock;
    const DocNode& rl = section("redlock");
    const DocNode& redis = section("redis");
    const std::vector<std::string>& nodes = spec_.redis.nodes;
    const auto n = static_cast<std::int64_t>(nodes.size());
    if (lock.protocol != LockProtocol::redlock) {
      if (root_.find("redlock") != nullptr) {
        const bool written = section("lock").find("protocol") != nullptr;
        r_.fail(rl.members.empty() ? rl : rl.members.front(),
                "[redlock] applies only with protocol = \"redlock\" in [lock], and the protocol is \"single-node\"" +
                    std::string(written ? "" : " (the default)"));
      }
      if (n > 1 && redis.find("nodes") != nullptr)
        r_.fail(*redis.find("nodes"),
                "the single-node lock uses exactly one node; use protocol = \"redlock\" for several (got " +
                    std::to_string(n) + ": " + join_list(nodes) + ")");
    }
    if (lock.protocol == LockProtocol::redlock) {
      // Redlock always takes the lock with SET NX PX and gives it back with
      // compare-and-delete on every node: the unsafe single-node styles do not
      // exist there, and silently ignoring them would mislead.
      const DocNode& l = section("lock");
      if (const DocNode* a = l.find("acquire"); a != nullptr && lock.acquire != AcquireStyle::set_nx_px)
        r_.fail(*a, "Redlock always acquires with SET NX PX; acquire styles apply to protocol = \"single-node\"");
      if (const DocNode* rel = l.find("release"); rel != nullptr && lock.release != ReleaseStyle::compare_and_delete)
        r_.fail(*rel, "Redlock always releases with compare-and-delete on every node; release styles apply to "
                      "protocol = \"single-node\"");
    }
    if (preset_ != nullptr) {
      if (auto timeout = scenario::preset_node_timeout(*preset_, lock.ttl)) redlock.node_timeout = *timeout;
    }
    r_.choice(rl, "requests", kRequestModes, redlock.parallel);
    r_.duration(rl, "node_timeout", Sign::positive, redlock.node_timeout);
    r_.boolean(rl, "check_validity", redlock.check_validity);
    r_.boolean(rl, "first_attempt_expiry", redlock.first_attempt_expiry);
    std::int64_t quorum = 0;
    if (r_.integer(rl, "quorum", INT64_MIN, INT64_MAX, quorum)) {
      if (quorum < 0 || quorum > n)
        r_.fail(*rl.find("quorum"), "must be between 1 and " + std::to_string(n) +
                                        " (the number of redis nodes), or 0 for a majority (" +
                                        std::to_string(n / 2 + 1) + "); got " + std::to_string(quorum));
      else
        redlock.quorum = static_cast<std::uint32_t>(quorum);
    }
    if (redlock.quorum == 0) redlock.quorum = static_cast<std::uint32_t>(n / 2 + 1);
    if (const DocNode* f = rl.find("fencing_node")) {
      std::string name;
      if (r_.string_value(*f, "a redis node name such as \"r1\"", name)) {
        if (std::find(nodes.begin(), nodes.end(), name) != nodes.end()) {
          redlock.fencing_node = name;
        } else {
          std::string what = "unknown redis node " + in_quotes(name) + scenario::did_you_mean(name, nodes);
          for (const Process& p : processes_)
            if (p.name == name) what = in_quotes(name) + " is the " + std::string(p.kind) + ", not a redis node";
          r_.fail(*f, what + "; redis nodes: " + join_list(nodes));
        }
      }
    }
    if (redlock.fencing_node.empty() && !nodes.empty()) redlock.fencing_node = nodes.front();
  }

  std::vector<std::string> process_names(bool clients_only = false) const {
    std::vector<std::string> names;
    for (const Process& p : processes_)
      if (!clients_only || p.kind == "client") names.push_back(p.name);
    return names;
  }

  // True when |name| is a known process; fails otherwise.
  bool known_process(const std::string& name, const SourcePos& pos, const std::string& key) {
    if (process_index_.count(name) != 0) return true;
    const std::vector<std::string> names = process_names();
    r_.fail(pos, key,
            "unknown process " + in_quotes(name) + scenario::did_you_mean(name, names) +
                "; processes: " + join_list(names));
    return false;
  }

  // A string-valued key naming a process.
  bool process_key(const DocNode& table, std::string_view key, std::string& out) {
    const DocNode* node = table.find(key);
    std::string name;
    if (node == nullptr || !r_.string_value(*node, "a process name such as \"c1\"", name)) return false;
    if (!known_process(name, node->pos, node->path)) return false;
    out = name;
    return true;
  }

  void read_clocks() {
    for (const DocNode& c : section("clock").members) {
      if (!c.table || !known_process(c.key, c.pos, c.path)) continue;
      ClockSpec clock;
      r_.duration(c, "offset", Sign::any, clock.offset);
      read_drift(c, "drift", clock.drift_ppm);
      spec_.clocks[c.key] = clock;
    }
  }

  bool read_drift(const DocNode& table, std::string_view key, std::int64_t& out) {
    return r_.ppm(table, key, kMinDriftPpm, kMaxDriftPpm,
                  "drift must be above -1000000ppm (-100%: the clock would stop) and at most 1000000ppm (+100%: "
                  "twice true speed)",
                  out);
  }

  bool read_loss(const DocNode& table, std::string_view key, std::int64_t& out) {
    return r_.ppm(table, key, 0, 1'000'000, "loss must be between 0% and 100%", out);
  }

  void read_network() {
    const DocNode& n = section("network");
    r_.latency(n, "latency", spec_.network.default_link.latency);
    read_loss(n, "loss", spec_.network.default_link.loss_ppm);
  }

  void read_links() {
    for (const DocNode& l : section("link").members) {
      if (!l.table) continue;
      LinkOverride link;
      link.name = l.key;
      link.pos = l.pos;
      link.spec = spec_.network.default_link;
      if (r_.require(l, "from")) process_key(l, "from", link.from);
      if (r_.require(l, "to")) process_key(l, "to", link.to);
      if (!link.from.empty() && link.from == link.to)
        r_.fail(*l.find("to"), "a link joins two different processes; both ends are " + in_quotes(link.to));
      r_.latency(l, "latency", link.spec.latency);
      read_loss(l, "loss", link.spec.loss_ppm);
      r_.boolean(l, "both_ways", link.both_ways);
      spec_.network.links.push_back(std::move(link));
    }
  }

  void read_faults() {
    for (const DocNode& f : section("fault").members) {
      if (!f.table) continue;
      FaultSpec fault;
      fault.name = f.key;
      fault.pos = f.pos;
      if (!r_.require(f, "kind") || !r_.choice(f, "kind", kFaultKinds, fault.kind)) continue;
      const std::string kind_text(fault_kind_text(fault.kind));
      const Keys kind_keys = fault_kind_keys(fault.kind);
      for (const DocNode& m : f.members) {
        if (contains(kFaultCommonKeys, m.key) || contains(kind_keys, m.key)) continue;
        r_.fail(m, in_quotes(m.key) + " does not apply to a " + kind_text + " fault (a " + kind_text +
                       " fault takes: " + join_list(kind_keys) + ")");
      }
      if (const DocNode* at = r_.require(f, "at")) read_trigger(*at, fault.trigger);
      r_.duration(f, "after", Sign::non_negative, fault.trigger.delay);
      if (r_.integer(f, "occurrence", 1, INT_MAX, fault.trigger.occurrence) && !fault.trigger.at_phase &&
          f.find("at") != nullptr)
        r_.fail(*f.find("occurrence"), "occurrence counts phases; it needs a phase trigger such as at = \"c1 read\"");
      if (fault.kind != FaultSpecKind::partition && r_.require(f, "target")) process_key(f, "target", fault.target);
      switch (fault.kind) {
        case FaultSpecKind::pause:
          if (r_.require(f, "length")) r_.latency(f, "length", fault.length);
          break;
        case FaultSpecKind::crash: r_.duration(f, "restart_after", Sign::non_negative, fault.restart_after); break;
        case FaultSpecKind::restart: break;
        case FaultSpecKind::clock_jump:
          if (const DocNode* by = r_.require(f, "by")) read_jump(*by, fault);
          break;
        case FaultSpecKind::clock_drift:
          if (r_.require(f, "drift")) read_drift(f, "drift", fault.drift_ppm);
          break;
        case FaultSpecKind::clock_slew:
          if (r_.require(f, "drift")) read_drift(f, "drift", fault.drift_ppm);
          if (r_.require(f, "length")) r_.latency(f, "length", fault.length);
          break;
        case FaultSpecKind::partition:
          if (const DocNode* groups = r_.require(f, "groups")) read_groups(*groups, fault.groups);
          r_.choice(f, "mode", kPartitionModes, fault.mode);
          r_.duration(f, "heal_after", Sign::non_negative, fault.heal_after);
          break;
      }
      spec_.faults.push_back(std::move(fault));
    }
  }

  // at = "5s" (true time), at = "uniform(1s, 9s)" (a true time drawn per run)
  // or at = "c1 acquired" (a client reaching a phase).
  void read_trigger(const DocNode& at, TriggerSpec& trigger) {
    std::string raw;
    if (!r_.string_value(at, "a time such as \"5s\" or \"uniform(1s, 9s)\", or a phase such as \"c1 acquired\"", raw))
      return;
    const std::string text = trim(raw);
    if (text.find('(') != std::string::npos) {  // phases never have parentheses
      if (text[0] == '-' || text[0] == '+') {
        r_.fail(at, "a drawn trigger time takes no sign (it counts from the start of the run): write " +
                        in_quotes(trim(std::string_view(text).substr(1))) + ", got " + in_quotes(raw));
        return;
      }
      std::string error;
      std::optional<Latency> drawn = parse_latency(text, error);
      if (!drawn) {
        r_.fail(at, error);
        return;
      }
      trigger.at_phase = false;
      trigger.at_drawn = *drawn;
      return;
    }
    const bool looks_like_time = !text.empty() && (std::isdigit(static_cast<unsigned char>(text[0])) ||
                                                   text[0] == '-' || text[0] == '+' || text[0] == '.');
    if (looks_like_time) {
      std::string error;
      if (auto d = scenario::duration_from_text(text, Sign::non_negative, error)) {
        trigger.at_phase = false;
        trigger.at_time = *d;
      } else {
        r_.fail(at, error);
      }
      return;
    }
    std::istringstream words(text);
    std::string process, phase_text, extra;
    words >> process >> phase_text >> extra;
    if (phase_text.empty() || !extra.empty()) {
      r_.fail(at,
              "expected a time such as \"5s\" or \"uniform(1s, 9s)\", or \"PROCESS PHASE\" such as "
              "\"c1 acquired\", got " +
                  in_quotes(raw));
      return;
    }
    const std::vector<std::string> clients = process_names(true);
    bool is_client = false;
    for (const std::string& c : clients) is_client = is_client || c == process;
    if (!is_client) {
      for (const Process& p : processes_) {
        if (p.name == process) {
          r_.fail(at, in_quotes(process) + " is a " + std::string(p.kind) +
                          "; phase triggers name a client (clients: " + join_list(clients) + ")");
          return;
        }
      }
      r_.fail(at, "unknown client " + in_quotes(process) + scenario::did_you_mean(process, clients) +
                      "; clients: " + join_list(clients));
      return;
    }
    Phase phase{};
    if (!parse_phase(phase_text, phase)) {
      std::vector<std::string> phases;
      for (int i = 0; i <= static_cast<int>(Phase::done); ++i) phases.emplace_back(phase_name(static_cast<Phase>(i)));
      r_.fail(at, "unknown phase " + in_quotes(phase_text) + scenario::did_you_mean(phase_text, phases) +
                      "; phases: " + join_list(phases));
      return;
    }
    trigger.at_phase = true;
    trigger.process = process;
    trigger.phase = phase;
  }

  // by = "15s" / "-2s" (a fixed step) or by = "+uniform(5s, 20s)" /
  // "-exponential(2s)" (a size drawn per run; the sign is the direction).
  void read_jump(const DocNode& by, FaultSpec& fault) {
    std::string raw;
    if (!r_.string_value(by, "a duration string such as \"-2s\" or \"+uniform(5s, 20s)\"", raw)) return;
    const std::string text = trim(raw);
    std::string error;
    if (text.find('(') == std::string::npos) {
      if (auto d = scenario::duration_from_text(text, Sign::any, error))
        fault.by = *d;
      else
        r_.fail(by, error);
      return;
    }
    if (text[0] != '+' && text[0] != '-') {
      r_.fail(by, "a drawn jump needs a direction: write " + in_quotes("+" + text) + " to step the clock forward or " +
                      in_quotes("-" + text) + " to step it back, got " + in_quotes(raw));
      return;
    }
    std::optional<Latency> size = parse_latency(trim(std::string_view(text).substr(1)), error);
    if (!size) {
      r_.fail(by, error);
      return;
    }
    fault.by_drawn = *size;
    fault.by_negative = text[0] == '-';
  }

  // groups = [["c1", "r1"], ["c2", "r2"]]
  void read_groups(const DocNode& node, std::vector<std::vector<std::string>>& out) {
    const char* const kExample = "an array of groups such as [[\"c1\", \"r1\"], [\"c2\"]]";
    const toml::array* groups = node.table ? nullptr : node.value->as_array();
    if (groups == nullptr) {
      r_.fail(node, std::string("expected ") + kExample + ", got " +
                        (node.table ? std::string("a table") : scenario::describe_value(*node.value)));
      return;
    }
    std::vector<std::vector<std::string>> result;
    std::vector<std::string> seen;
    for (const toml::node& g : *groups) {
      const toml::array* members = g.as_array();
      if (members == nullptr) {
        r_.fail(node.pos_of(g), node.path,
                std::string("expected ") + kExample + ", but one group is " + scenario::describe_value(g));
        return;
      }
      if (members->empty()) {
        r_.fail(node.pos_of(g), node.path, "a group must name at least one process");
        return;
      }
      std::vector<std::string> group;
      for (const toml::node& m : *members) {
        if (!m.is_string()) {
          r_.fail(node.pos_of(m), node.path, "expected a process name, got " + scenario::describe_value(m));
          return;
        }
        const std::string name = *m.value<std::string>();
        if (!known_process(name, node.pos_of(m), node.path)) return;
        for (const std::string& s : seen) {
          if (s == name) {
            r_.fail(node.pos_of(m), node.path, in_quotes(name) + " is in more than one group");
            return;
          }
        }
        seen.push_back(name);
        group.push_back(name);
      }
      result.push_back(std::move(group));
    }
    if (result.size() < 2) {
      r_.fail(node, "a partition needs at least two groups, got " + std::to_string(result.size()));
      return;
    }
    out = std::move(result);
  }

  void read_expect() {
    const DocNode& e = section("expect");
    Expectation& expect = spec_.expect;
    read_fired(e, expect.fired);
    scenario::read_client_bounds(r_, e, spec_.clients, expect.clients);
    for (Property p : kAllProperties) {
      bool violated = false;
      if (r_.choice(e, property_name(p), kVerdicts, violated)) expect.violated[static_cast<std::size_t>(p)] = violated;
    }
    Duration d{0};
    if (r_.duration(e, "longest-stuck-at-least", Sign::non_negative, d)) expect.longest_stuck_at_least = d;
    if (r_.duration(e, "longest-stuck-at-most", Sign::non_negative, d)) expect.longest_stuck_at_most = d;
    std::int64_t n = 0;
    if (r_.integer(e, "sessions-at-least", std::int64_t{0}, INT64_MAX, n)) expect.sessions_at_least = n;
    if (r_.integer(e, "sessions-at-most", std::int64_t{0}, INT64_MAX, n)) expect.sessions_at_most = n;
    if (r_.integer(e, "expired-grants-at-least", std::int64_t{0}, INT64_MAX, n)) expect.expired_grants_at_least = n;
    if (r_.integer(e, "expired-grants-at-most", std::int64_t{0}, INT64_MAX, n)) expect.expired_grants_at_most = n;
    if (expect.longest_stuck_at_least && expect.longest_stuck_at_most &&
        *expect.longest_stuck_at_most < *expect.longest_stuck_at_least)
      r_.fail(*e.find("longest-stuck-at-most"), "is below longest-stuck-at-least");
    if (expect.sessions_at_least && expect.sessions_at_most && *expect.sessions_at_most < *expect.sessions_at_least)
      r_.fail(*e.find("sessions-at-most"), "is below sessions-at-least");
    if (expect.expired_grants_at_least && expect.expired_grants_at_most &&
        *expect.expired_grants_at_most < *expect.expired_grants_at_least)
      r_.fail(*e.find("expired-grants-at-most"), "is below expired-grants-at-least");
  }

  // expect.fired = ["c1-gc-pause"]: names of [fault.NAME] tables, each once.
  void read_fired(const DocNode& e, std::vector<std::string>& out) {
    std::vector<std::pair<std::string, SourcePos>> items;
    if (!r_.strings(e, "fired", items)) return;
    const std::string& key = e.find("fired")->path;
    std::vector<std::string> faults;
    for (const FaultSpec& f : spec_.faults) faults.push_back(f.name);
    for (const auto& [name, pos] : items) {
      if (std::find(faults.begin(), faults.end(), name) == faults.end()) {
        r_.fail(pos, key,
                "unknown fault " + in_quotes(name) + scenario::did_you_mean(name, faults) +
                    (faults.empty() ? "; the scenario has no faults" : "; faults: " + join_list(faults)));
      } else if (std::find(out.begin(), out.end(), name) != out.end()) {
        r_.fail(pos, key, "fault " + in_quotes(name) + " is listed twice");
      } else {
        out.push_back(name);
      }
    }
  }

  Reader& r_;
  const DocNode& root_;
  const std::string& file_;
  ScenarioSpec spec_;
  std::vector<Process> processes_;
  std::map<std::string, std::size_t, std::less<>> process_index_;  // name -> index in processes_
  std::vector<SourcePos> redis_node_pos_;         // where each of spec_.redis.nodes was written
  std::vector<SourcePos> redis_replica_pos_;      // ... each of spec_.redis.replicas
  std::vector<SourcePos> sentinel_pos_;           // ... each of spec_.sentinel.names
  std::optional<std::int64_t> sentinel_quorum_;   // sentinel.quorum as written, checked once the names are known
  const scenario::LockPreset* preset_ = nullptr;  // lock.preset, once read
  std::deque<DocNode> placeholders_;              // stable addresses for section()
};

// `--set a.b.c=value` as a one-key document merged into |root|.
bool apply_override(const std::string& text, DocNode& root, std::vector<std::shared_ptr<toml::table>>& keep_alive,
                    ScenarioError& error) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos) {
    error = {kSetFile, 0, "", "expected KEY=VALUE such as \"lock.ttl=10s\", got " + in_quotes(text)};
    return false;
  }
  const std::string key = trim(std::string_view(text).substr(0, eq));
  const std::string value = trim(std::string_view(text).substr(eq + 1));
  // One key per --set: a value spanning lines would be read as a TOML
  // document whose second line sets a key nobody checks.
  if (text.find_first_of("\r\n") != std::string::npos) {
    error = {kSetFile, 0, key, "a --set is one KEY=VALUE on one line; give each key its own --set"};
    return false;
  }
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = key.find('.', start);
    parts.push_back(
        trim(std::string_view(key).substr(start, dot == std::string::npos ? std::string::npos : dot - start)));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  for (const std::string& p : parts) {
    if (p.empty()) {
      error = {
          kSetFile, 0, key,
          key.empty() ? "missing key before '=' in " + in_quotes(text) : "empty part in dotted key " + in_quotes(key)};
      return false;
    }
  }
  if (parts.front() == "variant") {
    error = {kSetFile, 0, key, "--set cannot change variants; choose the variant to run instead"};
    return false;
  }
  auto doc = std::make_shared<toml::table>();
  try {
    *doc = toml::parse("v = " + value);
  } catch (const toml::parse_error&) {
    doc->clear();
  }
  if (!doc->contains("v")) doc->insert_or_assign("v", value);  // not TOML: a plain string
  keep_alive.push_back(doc);

  std::string path;
  for (const std::string& p : parts) path = join_key(path, p);
  DocNode node = scenario::doc_from_value(*doc->get("v"), parts.back(), path, SourcePos{kSetFile, 0}, false);
  for (std::size_t i = parts.size() - 1; i-- > 0;) {
    DocNode parent;
    parent.key = parts[i];
    parent.path = path.substr(0, path.size() - join_key("", node.key).size() - 1);
    path = parent.path;
    parent.pos = {kSetFile, 0};
    parent.table = true;
    parent.members.push_back(std::move(node));
    node = std::move(parent);
  }
  DocNode wrapper;
  wrapper.table = true;
  wrapper.members.push_back(std::move(node));
  merge_into(root, wrapper);
  return true;
}

std::string variant_note(const std::string& variant) { return " (in variant " + in_quotes(variant) + ")"; }

// |message| without the note variant_note() appended, if it has one.
std::string strip_variant_note(const std::string& message) {
  const std::size_t note = message.rfind(" (in variant \"");
  return note == std::string::npos || message.back() != ')' ? message : message.substr(0, note);
}

std::string string_at(const DocNode& root, std::string_view table, std::string_view key) {
  const DocNode* t = root.find(table);
  const DocNode* v = t != nullptr && t->table ? t->find(key) : nullptr;
  if (v == nullptr || v->table || !v->value->is_string()) return "";
  return *v->value->value<std::string>();
}

}  // namespace

std::string ScenarioError::to_string() const {
  std::string out = file;
  if (line > 0) out += (out.empty() ? "line " : ":") + std::to_string(line);
  for (const std::string* part : {&key, &message}) {
    if (part->empty()) continue;
    if (!out.empty()) out += ": ";
    out += *part;
  }
  return out;
}

std::optional<ScenarioFile> ScenarioFile::load(const std::string& path, ScenarioError& error) {
  ScenarioErrors errors;
  std::optional<ScenarioFile> file = load(path, errors);
  if (!file) error = errors.front();
  return file;
}

std::optional<ScenarioFile> ScenarioFile::load(const std::string& path, ScenarioErrors& errors) {
  errors.clear();
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    errors.push_back({path, 0, "", "is a directory, not a scenario file"});
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    errors.push_back({path, 0, "", std::string("cannot open the scenario file: ") + std::strerror(errno)});
    return std::nullopt;
  }
  // Read at most one byte past the limit: /dev/zero or a mistaken log file
  // must be refused, not read until memory runs out.
  std::string text(kMaxScenarioBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) {
    errors.push_back({path, 0, "", "cannot read the scenario file"});
    return std::nullopt;
  }
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxScenarioBytes) {
    errors.push_back({path, 0, "",
                      "is larger than " + std::to_string(kMaxScenarioBytes >> 20) +
                          " MiB, the most a scenario file may be (is it a scenario file?)"});
    return std::nullopt;
  }
  return from_string(text, path, errors);
}

std::optional<ScenarioFile> ScenarioFile::from_string(std::string_view text, const std::string& path,
                                                      ScenarioError& error) {
  ScenarioErrors errors;
  std::optional<ScenarioFile> file = from_string(text, path, errors);
  if (!file) error = errors.front();
  return file;
}

std::optional<ScenarioFile> ScenarioFile::from_string(std::string_view text, const std::string& path,
                                                      ScenarioErrors& errors) {
  errors.clear();
  auto impl = std::make_shared<Impl>();
  impl->path = path;
  impl->content_hash = stable_hash(text);
  try {
    impl->toml = std::make_shared<const toml::table>(toml::parse(text, std::string_view(path)));
  } catch (const toml::parse_error& e) {
    errors.push_back({path, static_cast<int>(e.source().begin.line), "", "invalid TOML: " + std::string(e.description())});
    return std::nullopt;
  }

  Reader r;
  const DocNode root = scenario::doc_from_toml(*impl->toml, path, true);
  impl->base = root;
  impl->base.members.clear();
  impl->base.pos.line = 0;
  for (const DocNode& section : root.members) {
    if (section.key != "variant") {
      impl->base.members.push_back(section);
      continue;
    }
    if (!section.table) {
      r.fail(section,
             "expected variant tables such as [variant.fenced], got " + scenario::describe_value(*section.value));
      continue;
    }
    for (const DocNode& v : section.members) {
      if (!v.table) {
        r.fail(v, "expected a table such as [variant." + v.key + "], got " + scenario::describe_value(*v.value));
        continue;
      }
      if (v.key == "base") {
        r.fail(v, "\"base\" is the scenario itself; give the variant another name");
        continue;
      }
      Impl::Variant variant{v.key, "", v};
      variant.doc.members.clear();
      for (const DocNode& m : v.members) {
        if (m.key == "description")
          r.string_value(m, "a string", variant.description);
        else
          variant.doc.members.push_back(m);
      }
      impl->variants.push_back(std::move(variant));
    }
  }
  errors = r.errors();

  // Every variant is validated, and every error reported once: a mistake in
  // the base shows up in each variant too, and is listed only for the base.
  ScenarioFile file(std::move(impl));
  for (const std::string& variant : file.variants()) {
    ScenarioErrors variant_errors;
    if (file.resolve(variant, {}, variant_errors)) continue;
    for (ScenarioError& e : variant_errors) {
      const bool seen = std::any_of(errors.begin(), errors.end(), [&](const ScenarioError& known) {
        return known.file == e.file && known.line == e.line && known.key == e.key &&
               known.message.rfind(strip_variant_note(e.message), 0) == 0;
      });
      if (!seen) errors.push_back(std::move(e));
    }
  }
  if (!errors.empty()) return std::nullopt;
  return file;
}

const std::string& ScenarioFile::path() const { return impl_->path; }

std::string ScenarioFile::content_hash() const {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(impl_->content_hash));
  return hex;
}
std::string ScenarioFile::name() const { return string_at(impl_->base, "scenario", "name"); }
std::string ScenarioFile::title() const { return string_at(impl_->base, "scenario", "title"); }
std::string ScenarioFile::story() const { return string_at(impl_->base, "scenario", "story"); }

std::vector<std::string> ScenarioFile::variants() const {
  std::vector<std::string> names{"base"};
  for (const Impl::Variant& v : impl_->variants) names.push_back(v.name);
  return names;
}

std::string ScenarioFile::variant_description(const std::string& variant) const {
  const Impl::Variant* v = impl_->find_variant(variant);
  return v != nullptr ? v->description : "";
}

std::optional<ScenarioSpec> ScenarioFile::resolve(const std::string& variant, const std::vector<std::string>& overrides,
                                                  ScenarioError& error) const {
  ScenarioErrors errors;
  std::optional<ScenarioSpec> spec = resolve(variant, overrides, errors);
  if (!spec) error = errors.front();
  return spec;
}

std::optional<ScenarioSpec> ScenarioFile::resolve(const std::string& variant, const std::vector<std::string>& overrides,
                                                  ScenarioErrors& errors) const {
  errors.clear();
  const Impl& impl = *impl_;
  DocNode root = impl.base;
  const Impl::Variant* v = nullptr;
  if (variant != "base") {
    v = impl.find_variant(variant);
    if (v == nullptr) {
      const std::vector<std::string> known = variants();
      errors.push_back({impl.path, 0, "",
                        "unknown variant " + in_quotes(variant) + scenario::did_you_mean(variant, known) +
                            "; variants: " + join_list(known)});
      return std::nullopt;
    }
    merge_into(root, v->doc);
  }
  std::vector<std::shared_ptr<toml::table>> set_values;  // the --set documents the tree points into
  for (const std::string& o : overrides) {
    ScenarioError error;
    if (!apply_override(o, root, set_values, error)) {
      errors.push_back(std::move(error));
      return std::nullopt;
    }
  }

  Reader r;
  ScenarioSpec spec = SpecBuilder(r, root, impl.path).build();
  if (r.failed()) {
    errors = r.errors();
    // A base key that only breaks with this variant: say which variant.
    for (ScenarioError& e : errors)
      if (v != nullptr && e.file != kSetFile && e.key.rfind(join_key("variant", variant) + ".", 0) != 0)
        e.message += variant_note(variant);
    return std::nullopt;
  }
  spec.file = impl.path;
  spec.variant = variant;
  spec.variant_description = v != nullptr ? v->description : "";
  return spec;
}

}  // namespace locksim
