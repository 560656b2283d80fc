// [lock]: the client side of the lock protocol.
#include <algorithm>
#include <climits>

#include "sim/scenario/presets.h"
#include "sim/scenario/protocols.h"
#include "sim/scenario/read/sections.h"
#include "sim/scenario/store_presets.h"

namespace locksim::scenario {

namespace {

using namespace std::chrono_literals;

// The protocol key: one option per row of the protocol table, each row's
// doc in the key's.
ChoiceRule protocol_rule() {
  ChoiceRule rule;
  for (const ProtocolDecl& p : protocols()) rule.options.emplace_back(static_cast<std::int64_t>(p.protocol), p.name);
  rule.fallback = static_cast<std::int64_t>(LockProtocol::single_node);
  return rule;
}

const std::string& protocol_doc() {
  static const std::string doc = [] {
    std::string out = "which protocol the clients run: ";
    for (const ProtocolDecl& p : protocols())
      out += (&p == &protocols().front() ? "" : "; ") + ("`" + std::string(p.name) + "`, ") + std::string(p.doc);
    return out;
  }();
  return doc;
}

constexpr std::pair<AcquireStyle, std::string_view> kAcquireStyles[] = {
    {AcquireStyle::set_nx_px, "set-nx-px"}, {AcquireStyle::setnx_then_expire, "setnx-then-expire"}};
constexpr std::pair<ReleaseStyle, std::string_view> kReleaseStyles[] = {
    {ReleaseStyle::compare_and_delete, "compare-and-delete"}, {ReleaseStyle::del, "del"}};
constexpr std::pair<bool, std::string_view> kScriptModes[] = {{false, "eval"}, {true, "evalsha"}};
constexpr std::pair<FencingStyle, std::string_view> kFencingStyles[] = {{FencingStyle::none, "none"},
                                                                        {FencingStyle::incr, "incr"},
                                                                        {FencingStyle::incr_in_script, "incr-in-script"}};
constexpr std::pair<ClockKind, std::string_view> kClientClocks[] = {{ClockKind::monotonic, "monotonic"},
                                                                    {ClockKind::wall, "wall"}};

// Client libraries' presets, then store releases, numbered in that order.
ChoiceRule preset_rule() {
  ChoiceRule rule;
  std::int64_t i = 0;
  for (const LockPreset& p : lock_presets()) rule.options.emplace_back(i++, p.name);
  for (const StoreRelease& r : store_releases()) rule.options.emplace_back(i++, r.name);
  return rule;
}

std::string_view preset_name(std::int64_t index) {
  const auto presets = lock_presets();
  const auto n = static_cast<std::int64_t>(presets.size());
  return index < n ? presets[static_cast<std::size_t>(index)].name
                   : store_releases()[static_cast<std::size_t>(index - n)].name;
}

const KeyTable<LockSpec> kLockKeys{
    {{.name = "protocol", .rule = protocol_rule(), .doc = protocol_doc()},
     into(&LockSpec::protocol)},
    {{.name = "preset",
      .rule = preset_rule(),
      .doc = "a client library's defaults for the keys it covers ([presets](#presets)), or, for etcd and "
             "ZooKeeper, the release the store and its client follow ([releases](#releases)); keys written "
             "explicitly win",
      .default_note = "none; etcd: `\"etcd-3.4.23\"`, ZooKeeper: `\"zookeeper-3.8.0\"`"},
     [](LockSpec& lock, const KeyValue& value) { lock.preset = preset_name(std::get<std::int64_t>(value)); }},
    {{.name = "key", .rule = StringRule{.fallback = "lock", .non_empty = true}, .doc = "the Redis key of the lock"},
     into(&LockSpec::key)},
    {{.name = "ttl",
      .rule = DurationRule{.sign = Sign::positive, .fallback = 10s},
      .doc = "lease length (`PX`); for a store protocol the session TTL the client asks for (etcd lease, "
             "ZooKeeper session timeout, Chubby/Consul session), or the lease duration of an observation lock; "
             "left out under a store protocol, that protocol's own default ([`[store]`](#store))"},
     into(&LockSpec::ttl)},
    {{.name = "acquire",
      .rule = choice_of(kAcquireStyles, AcquireStyle::set_nx_px),
      .doc = "one atomic `SET key value NX PX ttl`, or the unsafe `SETNX` followed by a separate `EXPIRE`"},
     into(&LockSpec::acquire)},
    {{.name = "release",
      .rule = choice_of(kReleaseStyles, ReleaseStyle::compare_and_delete),
      .doc = "the Lua compare-and-delete of the distlock page, or a plain `DEL` without owner check"},
     into(&LockSpec::release)},
    {{.name = "fencing",
      .rule = choice_of(kFencingStyles, FencingStyle::none),
      .doc = "`incr`: after acquiring, the client takes a fencing token from `INCR fencing_key`; `incr-in-script`: "
             "`SET NX PX` and `INCR fencing_key` in one Lua script, so the token is taken in the same instant as "
             "the lock, as many deployments do (single node only: Redlock's nodes would each count their own)"},
     into(&LockSpec::fencing)},
    {{.name = "fencing_key",
      .rule = StringRule{.fallback = "fence", .non_empty = true},
      .doc = "the counter key for `fencing = \"incr\"` or `\"incr-in-script\"`"},
     into(&LockSpec::fencing_key)},
    {{.name = "request_timeout",
      .rule = DurationRule{.sign = Sign::positive, .fallback = 1s},
      .doc = "a request with no reply by then counts as *info* (outcome unknown)"},
     into(&LockSpec::request_timeout)},
    {{.name = "reconnect_delay",
      .rule = DurationRule{.sign = Sign::non_negative, .fallback = Duration{0}},
      .doc = "after a node refused a connection (its process crashed: `what = \"process\"`), the client's Redis "
             "library waits this long before it connects to that node again, and requests to it meanwhile fail at "
             "once, unsent (ioredis's default retryStrategy first waits 50 ms; `0`: every request tries to connect, "
             "as redis-py and redis-rb do)"},
     into(&LockSpec::reconnect_delay)},
    {{.name = "scripts",
      .rule = choice_of(kScriptModes, false),
      .doc = "how the client sends its Lua scripts (release, extension, lock-and-incr): `eval`, the body every time; "
             "or `evalsha`, by SHA1, sending the body with `EVAL` only when the node answers NOSCRIPT — as "
             "node-redlock does — so the first script a node runs after it (re)started or was promoted costs one "
             "more round trip",
      .default_note = "`\"eval\"` (or the preset's)"},
     into(&LockSpec::evalsha)},
    {{.name = "clock",
      .rule = choice_of(kClientClocks, ClockKind::monotonic),
      .doc = "the client clock that measures validity"},
     into(&LockSpec::clock)},
    {{.name = "drift_factor",
      .rule = FractionRule{.fallback_ppm = 0},
      .doc = "validity = ttl − elapsed − (ttl × drift_factor + drift_fixed); `0.01` is Redlock's usual 1 % (stored "
             "as 10000 ppm)"},
     into(&LockSpec::drift_factor_ppm)},
    {{.name = "drift_fixed",
      .rule = DurationRule{.sign = Sign::non_negative, .fallback = 0s},
      .doc = "the fixed part of the drift allowance (Redlock adds 2 ms)"},
     into(&LockSpec::drift_fixed)},
    {{.name = "attempts",
      .rule = IntegerRule{.min = 0, .max = INT_MAX, .fallback = 0},
      .doc = "acquire attempts per cycle, the first one included, as client libraries configure them; `0` = keep "
             "trying until the run ends. Every client inherits it unless it sets its own"},
     into(&LockSpec::attempts)},
    {{.name = "retry_delay",
      .rule = LatencyRule{.fallback = Latency::constant(100ms)},
      .doc = "wait between failed attempts (a distribution gives jitter); inherited like `attempts`"},
     into(&LockSpec::retry_delay)},
    {{.name = "watchdog",
      .rule = BoolRule{.fallback = false},
      .doc = "Redisson-style renewal: while the holder runs, extend the lease every `renew_every`. A failed renewal "
             "is only logged — the holder is not told"},
     into_nested<LockSpec>([](LockSpec& l) -> auto& { return l.watchdog.enabled; })},
    {{.name = "renew_every",
      .rule = DurationRule{.sign = Sign::positive},
      .doc = "the watchdog's period (Redisson: 30 s lease, every 10 s). Left out, it resolves to a third of `ttl`; "
             "without the watchdog it has no effect",
      .default_note = "ttl / 3"},
     into_nested<LockSpec>([](LockSpec& l) -> auto& { return l.watchdog.renew_every; })},
    // The upper bound (the number of replicas) is checked by check_deployment().
    {{.name = "wait_replicas",
      .rule = IntegerRule{.min = 0, .max = INT_MAX, .fallback = 0},
      .doc = "after a successful `SET NX PX`, send `WAIT wait_replicas wait_timeout` and count the lock as taken "
             "only if that many replicas acknowledged the write; fewer acks fail the attempt (the client then gives "
             "the key back with compare-and-delete and retries). `0` = no `WAIT`. Above 0 it needs "
             "[replicas](#replication); above their number it is an error",
      .type_note = "integer, 0..the number of `redis.replicas`"},
     into(&LockSpec::wait_replicas)},
    {{.name = "wait_timeout",
      .rule = DurationRule{.sign = Sign::non_negative,
                           .fallback = 100ms,
                           .whole_unit = 1ms,
                           .whole_unit_name = "milliseconds",
                           .whole_unit_why = "WAIT's timeout is in milliseconds, and 0 means wait for ever"},
      .doc = "`WAIT`'s timeout. `\"0\"` is Redis's `WAIT n 0`: block until enough replicas ack, for ever if need "
             "be. Redis takes milliseconds, so a finer value (`\"500us\"`) is an error rather than silently "
             "truncated (to 0, which would mean \"for ever\")"},
     into(&LockSpec::wait_timeout)},};

}  // namespace

SectionDecl lock_section() { return {.name = "lock", .keys = declarations(kLockKeys)}; }

void read_lock_section(ReadContext& c) {
  const DocNode& l = c.section("lock");
  LockSpec& lock = c.spec.lock;
  read_keys(c.r, l, kLockKeys, lock);
  if (const DocNode* written = l.find("protocol"); written != nullptr) {
    const auto& errors = c.r.errors();
    c.protocol_unreadable =
        std::any_of(errors.begin(), errors.end(), [&](const ScenarioError& e) { return e.key == written->path; });
  }
  if (c.protocol_unreadable) return;  // a preset's protocol would be compared with the default's
  const LockPreset* preset = find_lock_preset(lock.preset);
  if (preset != nullptr && preset->first_attempt_expiry && !protocol_decl(lock.protocol).quorum_of_masters)
    c.r.fail(*l.find("preset"),
             in_quotes(preset->name) + " counts the lease from the first attempt, as a Redlock client does; it needs protocol = \"redlock\"");
  if (const StoreRelease* release = find_store_release(lock.preset); release != nullptr && release->protocol != lock.protocol)
    c.r.fail(*l.find("preset"), in_quotes(release->name) + " is a release of " +
                                    in_quotes(lock_protocol_name(release->protocol)) + "; the protocol is " +
                                    in_quotes(lock_protocol_name(lock.protocol)));
}

}  // namespace locksim::scenario
