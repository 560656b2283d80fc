// Scenario files: what a valid file resolves to, how variants and --set merge,
// and what each kind of broken input reports (file, line, key, message).
#include "sim/scenario/faults/fault_kinds.h"
#include "sim/scenario/file.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <sstream>

#include "sim/scenario/presets.h"
#include "tests/unit/resolve_ok.h"

namespace locksim {
namespace {

using namespace std::chrono_literals;

std::string data_path(const std::string& name) { return std::string(LOCKSIM_SOURCE_DIR) + "/tests/data/" + name; }

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

ScenarioFile load_ok(const std::string& name) {
  ScenarioError error;
  std::optional<ScenarioFile> file = ScenarioFile::load(data_path(name), error);
  if (!file) ADD_FAILURE() << error.to_string();
  return *file;
}

// The error of loading |text| as "inline.toml"; fails the test if it loads.
ScenarioError inline_error(const std::string& text) {
  ScenarioError error;
  if (ScenarioFile::from_string(text, "inline.toml", error)) ADD_FAILURE() << "loaded without error:\n" << text;
  return error;
}

ScenarioError file_error(const std::string& name) {
  ScenarioError error;
  if (ScenarioFile::load(data_path(name), error)) ADD_FAILURE() << name << " loaded without error";
  return error;
}

// The error of resolving |variant| of |file| with |overrides|.
ScenarioError resolve_error(const ScenarioFile& file, const std::string& variant,
                            const std::vector<std::string>& overrides) {
  ScenarioError error;
  if (file.resolve(variant, overrides, error)) ADD_FAILURE() << "resolved without error";
  return error;
}

void expect_error(const ScenarioError& e, const std::string& file, int line, const std::string& key,
                  const std::string& fragment) {
  EXPECT_EQ(e.file, file) << e.to_string();
  EXPECT_EQ(e.line, line) << e.to_string();
  EXPECT_EQ(e.key, key) << e.to_string();
  EXPECT_NE(e.message.find(fragment), std::string::npos) << "no \"" << fragment << "\" in: " << e.to_string();
}

// Two clients and nothing else; broken-input tests append the one bad table.
// Lines 1-6; the appended text starts on line 7.
const std::string kTwoClients =
    "[scenario]\n"
    "name = \"t\"\n"
    "[client.c1]\n"
    "steps = [\"read\", \"write\"]\n"
    "[client.c2]\n"
    "steps = [\"read\", \"write\"]\n";

// ---- Valid files -------------------------------------------------------------

TEST(ParseValid, FullFileResolvesToExpectedSpec) {
  // Proves every key of the format reaches the ScenarioSpec with its exact value.
  const ScenarioFile file = load_ok("full.toml");
  EXPECT_EQ(file.name(), "full");
  EXPECT_EQ(file.title(), "Every key");
  EXPECT_EQ(file.story(), "A file that sets every key.");
  const ScenarioSpec s = resolve_ok(file, "base");
  EXPECT_EQ(s.file, data_path("full.toml"));
  EXPECT_EQ(s.name, "full");
  EXPECT_EQ(s.variant, "base");
  EXPECT_EQ(s.run_for, 120s);
  EXPECT_EQ(s.seed, 42u);

  EXPECT_EQ(s.lock.protocol, LockProtocol::redlock);
  EXPECT_EQ(s.lock.key, "orders-lock");
  EXPECT_EQ(s.lock.ttl, 8s);
  EXPECT_EQ(s.lock.acquire, AcquireStyle::set_nx_px);  // the only style Redlock has
  EXPECT_EQ(s.lock.release, ReleaseStyle::compare_and_delete);
  EXPECT_EQ(s.lock.fencing, FencingStyle::incr);
  EXPECT_EQ(s.lock.fencing_key, "orders-fence");
  EXPECT_EQ(s.lock.request_timeout, 250ms);
  EXPECT_EQ(s.lock.clock, ClockKind::wall);
  EXPECT_EQ(s.lock.drift_factor_ppm, 10'000);
  EXPECT_EQ(s.lock.drift_fixed, 2ms);
  EXPECT_EQ(s.lock.attempts, 4);
  EXPECT_EQ(s.lock.retry_delay.kind, Latency::Kind::uniform);
  EXPECT_EQ(s.lock.retry_delay.a, 10ms);
  EXPECT_EQ(s.lock.retry_delay.b, 30ms);
  EXPECT_EQ(s.lock.preset, "");
  EXPECT_TRUE(s.lock.watchdog.enabled);
  EXPECT_EQ(s.lock.watchdog.renew_every, 2s);

  EXPECT_TRUE(s.lock.redlock.knobs.parallel);
  EXPECT_EQ(s.lock.redlock.knobs.node_timeout, 20ms);
  EXPECT_FALSE(s.lock.redlock.knobs.check_validity);
  EXPECT_EQ(s.lock.redlock.quorum, 2u);
  EXPECT_EQ(s.lock.redlock.fencing_node, "rb");
  EXPECT_TRUE(s.lock.redlock.knobs.first_attempt_expiry);

  EXPECT_EQ(s.redis.nodes, (std::vector<std::string>{"ra", "rb", "rc"}));
  EXPECT_EQ(s.redis.node.expiry_clock, ClockKind::monotonic);
  EXPECT_EQ(s.redis.node.persistence, redis::Persistence::aof_everysec);
  EXPECT_EQ(s.redis.node.fsync_every, 500ms);
  EXPECT_EQ(s.redis.node.delayed_restart, 11s);

  EXPECT_EQ(s.resource.name, "db");
  EXPECT_EQ(s.resource.policy, WritePolicy::unique_token_cas);
  EXPECT_EQ(s.resource.app, AppKind::stock);
  EXPECT_EQ(s.resource.initial_stock, 3);

  ASSERT_EQ(s.clients.size(), 2u);
  const ClientSpec& c2 = s.clients[0];  // file order, not alphabetical
  EXPECT_EQ(c2.name, "c2");
  EXPECT_EQ(c2.start, 1500ms);
  ASSERT_EQ(c2.steps.size(), 5u);
  EXPECT_EQ(c2.steps[0].kind, StepKind::read);
  EXPECT_EQ(c2.steps[1].kind, StepKind::work);
  EXPECT_EQ(c2.steps[1].duration.kind, Latency::Kind::constant);
  EXPECT_EQ(c2.steps[1].duration.a, 2s);
  EXPECT_EQ(c2.steps[2].kind, StepKind::call);
  EXPECT_EQ(c2.steps[2].duration.kind, Latency::Kind::lognormal);
  EXPECT_EQ(c2.steps[2].duration.a, 200ms);
  EXPECT_DOUBLE_EQ(c2.steps[2].duration.shape, 0.5);
  EXPECT_EQ(c2.steps[3].kind, StepKind::check);
  EXPECT_EQ(c2.steps[4].kind, StepKind::decrement);
  EXPECT_EQ(c2.iterations, 3);
  EXPECT_EQ(c2.attempts, 5);
  EXPECT_EQ(c2.retry_delay.kind, Latency::Kind::uniform);
  EXPECT_EQ(c2.retry_delay.a, 50ms);
  EXPECT_EQ(c2.retry_delay.b, 150ms);
  EXPECT_EQ(c2.think, 40us);
  EXPECT_FALSE(c2.release);
  EXPECT_EQ(c2.pos.line, 52);
  const ClientSpec& c1 = s.clients[1];
  EXPECT_EQ(c1.name, "c1");
  EXPECT_EQ(c1.start, 0s);
  std::vector<StepKind> kinds;
  for (const Step& step : c1.steps) kinds.push_back(step.kind);
  EXPECT_EQ(kinds, (std::vector<StepKind>{StepKind::mark, StepKind::read, StepKind::decrement,
                                          StepKind::check_and_decrement}));
  EXPECT_EQ(c1.iterations, 1);
  EXPECT_EQ(c1.attempts, s.lock.attempts);  // inherited
  EXPECT_EQ(c1.retry_delay.kind, s.lock.retry_delay.kind);
  EXPECT_TRUE(c1.release);

  ASSERT_EQ(s.clocks.size(), 2u);
  EXPECT_EQ(s.clocks.at("rc").offset, -3s);
  EXPECT_EQ(s.clocks.at("rc").drift_ppm, 20'000);
  EXPECT_EQ(s.clocks.at("c1").offset, 0s);
  EXPECT_EQ(s.clocks.at("c1").drift_ppm, -50);

  EXPECT_EQ(s.network.default_link.latency.kind, Latency::Kind::exponential);
  EXPECT_EQ(s.network.default_link.latency.a, 2ms);
  EXPECT_EQ(s.network.default_link.loss_ppm, 1'000);
  ASSERT_EQ(s.network.links.size(), 2u);
  const LinkOverride& slow = s.network.links[0];
  EXPECT_EQ(slow.name, "slow");
  EXPECT_EQ(slow.from, "c1");
  EXPECT_EQ(slow.to, "ra");
  EXPECT_EQ(slow.spec.latency.a, 5ms);
  EXPECT_EQ(slow.spec.loss_ppm, 250);
  EXPECT_FALSE(slow.both_ways);
  const LinkOverride& inherited = s.network.links[1];  // unset keys come from [network]
  EXPECT_EQ(inherited.name, "default-loss");
  EXPECT_EQ(inherited.spec.latency.kind, Latency::Kind::exponential);
  EXPECT_EQ(inherited.spec.loss_ppm, 1'000);
  EXPECT_TRUE(inherited.both_ways);

  ASSERT_EQ(s.faults.size(), 7u);
  const FaultSpec& gc = s.faults[0];
  EXPECT_EQ(gc.name, "gc");
  const auto& pause = std::get<PauseFault>(gc.kind);
  EXPECT_EQ(gc.trigger.kind, TriggerSpec::Kind::phase);
  EXPECT_EQ(gc.trigger.process, "c1");
  EXPECT_EQ(gc.trigger.phase, Phase::acquire_sent);
  EXPECT_EQ(gc.trigger.delay, 10ms);
  EXPECT_EQ(gc.trigger.occurrence, 2);
  EXPECT_EQ(pause.target, "c1");
  EXPECT_EQ(pause.length.a, 15s);
  EXPECT_EQ(gc.pos.line, 86);
  const FaultSpec& boom = s.faults[1];
  const auto& crash = std::get<CrashFault>(boom.kind);
  EXPECT_TRUE(boom.trigger.at_a_time());
  EXPECT_EQ(boom.trigger.at_time, 5s);
  EXPECT_EQ(crash.target, "rb");
  EXPECT_EQ(crash.restart_after, 1500ms);
  EXPECT_TRUE(std::holds_alternative<RestartFault>(s.faults[2].kind));
  EXPECT_EQ(s.faults[2].trigger.at_time, 20s);
  const FaultSpec& jump = s.faults[3];
  EXPECT_EQ(std::get<ClockJumpFault>(jump.kind).by, -15s);
  const FaultSpec& fast = s.faults[4];
  EXPECT_EQ(fast.trigger.at_time, 0s);
  EXPECT_EQ(std::get<ClockDriftFault>(fast.kind).drift_ppm, 5'000);
  const FaultSpec& ntp = s.faults[5];
  const auto& slew = std::get<ClockSlewFault>(ntp.kind);
  EXPECT_EQ(ntp.trigger.at_time, 2s);
  EXPECT_EQ(slew.target, "rc");
  EXPECT_EQ(slew.drift_ppm, -500);
  EXPECT_EQ(slew.length.kind, Latency::Kind::uniform);
  EXPECT_EQ(slew.length.a, 1min);
  EXPECT_EQ(slew.length.b, 2min);
  const FaultSpec& split = s.faults[6];
  const auto& partition = std::get<PartitionFault>(split.kind);
  EXPECT_EQ(split.trigger.process, "c2");
  EXPECT_EQ(split.trigger.phase, Phase::read);
  EXPECT_EQ(partition.groups, (std::vector<std::vector<std::string>>{{"c1", "ra"}, {"c2", "rb", "rc"}}));
  EXPECT_EQ(partition.mode, PartitionMode::hold);
  EXPECT_EQ(partition.heal_after, 12s);

  auto verdict = [&](Property p) { return s.expect.violated[static_cast<std::size_t>(p)]; };
  EXPECT_EQ(verdict(Property::grant_exclusive), std::optional<bool>(false));
  EXPECT_EQ(verdict(Property::belief_exclusive), std::optional<bool>(true));
  EXPECT_EQ(verdict(Property::resource_exclusive), std::nullopt);
  EXPECT_EQ(verdict(Property::resource_current), std::nullopt);
  EXPECT_EQ(verdict(Property::invariant), std::optional<bool>(true));
  EXPECT_EQ(s.expect.longest_stuck_at_least, std::optional<Duration>(1s));
  EXPECT_EQ(s.expect.longest_stuck_at_most, std::optional<Duration>(10s));
  EXPECT_EQ(s.expect.sessions_at_least, std::optional<std::int64_t>(2));
  EXPECT_EQ(s.expect.sessions_at_most, std::optional<std::int64_t>(9));
  EXPECT_EQ(s.expect.expired_grants_at_least, std::optional<std::int64_t>(1));
  EXPECT_EQ(s.expect.expired_grants_at_most, std::optional<std::int64_t>(4));
}

TEST(ParseValid, MinimalFileGetsTheDocumentedDefaults) {
  // Proves a file with only a name and one client gets the defaults FORMAT.md lists.
  ScenarioError error;
  auto file = ScenarioFile::from_string("[scenario]\nname = \"m\"\n[client.c1]\n", "m.toml", error);
  ASSERT_TRUE(file) << error.to_string();
  EXPECT_EQ(file->variants(), std::vector<std::string>{"base"});
  const ScenarioSpec s = resolve_ok(*file, "base");
  EXPECT_EQ(s.run_for, 60s);
  EXPECT_EQ(s.seed, 1u);
  EXPECT_EQ(s.lock.ttl, 10s);
  EXPECT_EQ(s.lock.acquire, AcquireStyle::set_nx_px);
  EXPECT_EQ(s.lock.release, ReleaseStyle::compare_and_delete);
  EXPECT_EQ(s.lock.clock, ClockKind::monotonic);
  EXPECT_EQ(s.lock.protocol, LockProtocol::single_node);
  EXPECT_EQ(s.lock.preset, "");
  EXPECT_EQ(s.lock.attempts, 0);
  EXPECT_EQ(s.lock.drift_factor_ppm, 0);
  EXPECT_EQ(s.lock.drift_fixed, 0ms);
  EXPECT_FALSE(s.lock.watchdog.enabled);
  EXPECT_EQ(s.lock.watchdog.renew_every, Duration{10s} / 3);  // resolved: a third of the ttl
  EXPECT_FALSE(s.lock.redlock.knobs.parallel);
  EXPECT_EQ(s.lock.redlock.knobs.node_timeout, 50ms);
  EXPECT_TRUE(s.lock.redlock.knobs.check_validity);
  EXPECT_EQ(s.lock.redlock.quorum, 1u);          // resolved: N/2 + 1 with N = 1
  EXPECT_EQ(s.lock.redlock.fencing_node, "r1");  // resolved: the first node
  EXPECT_FALSE(s.lock.redlock.knobs.first_attempt_expiry);
  EXPECT_EQ(s.redis.nodes, std::vector<std::string>{"r1"});
  EXPECT_EQ(s.redis.node.expiry_clock, ClockKind::wall);
  EXPECT_EQ(s.redis.node.delayed_restart, 0s);
  EXPECT_EQ(s.resource.name, "resource");
  EXPECT_EQ(s.resource.app, AppKind::counter);
  EXPECT_EQ(s.network.default_link.latency.a, 1ms);
  EXPECT_EQ(s.network.default_link.loss_ppm, 0);
  ASSERT_EQ(s.clients.size(), 1u);
  EXPECT_TRUE(s.clients[0].steps.empty());
  EXPECT_EQ(s.clients[0].attempts, 0);                // inherits lock.attempts
  EXPECT_EQ(s.clients[0].retry_delay.a, 100ms);       // inherits lock.retry_delay
  EXPECT_EQ(s.lock.retry_delay.kind, Latency::Kind::constant);
  EXPECT_EQ(s.lock.retry_delay.a, 100ms);
  EXPECT_TRUE(s.faults.empty());
  for (const auto& v : s.expect.violated) EXPECT_FALSE(v.has_value());
  EXPECT_FALSE(s.expect.expired_grants_at_least.has_value());
  EXPECT_FALSE(s.expect.expired_grants_at_most.has_value());
  // Replication, failover and services: none, with Redis's own defaults.
  EXPECT_TRUE(s.redis.replicas.empty());
  EXPECT_EQ(s.redis.node.min_replicas_to_write, 0);
  EXPECT_EQ(s.redis.node.min_replicas_max_lag, 10s);
  EXPECT_EQ(s.redis.node.ack_every, 1s);
  EXPECT_EQ(s.redis.node.replication_delay, 0s);
  EXPECT_EQ(s.lock.wait_replicas, 0);
  EXPECT_EQ(s.lock.wait_timeout, 100ms);
  EXPECT_TRUE(s.sentinel.names.empty());
  EXPECT_EQ(s.sentinel.quorum, 2u);
  EXPECT_EQ(s.sentinel.down_after, 30s);
  EXPECT_EQ(s.sentinel.ping_every, 1s);
  EXPECT_EQ(s.sentinel.failover_timeout, 180s);
  EXPECT_EQ(s.sentinel.client_follow_delay, 0s);
  EXPECT_TRUE(s.services.empty());
}

TEST(ParseValid, StepNamesAreTheOnesFilesUse) {
  // Proves step_name() gives the spelling the parser accepts, for every step kind.
  EXPECT_STREQ(step_name(StepKind::increment_size), "increment-size");
  EXPECT_STREQ(step_name(StepKind::check_and_decrement), "check-and-decrement");
  // app "none" takes every resource op; marks need the unique-token policy.
  std::string text = kTwoClients + "[resource]\napp = \"none\"\npolicy = \"unique-token-cas\"\n[client.c3]\nsteps = [";
  for (StepKind k : {StepKind::read, StepKind::write, StepKind::mark, StepKind::add, StepKind::increment_size,
                     StepKind::decrement, StepKind::check_and_decrement, StepKind::check})
    text += "\"" + std::string(step_name(k)) + "\", ";
  text += "\"" + std::string(step_name(StepKind::work)) + " 1s\", \"" + step_name(StepKind::call) + " 1ms\"]\n";
  ScenarioError error;
  auto file = ScenarioFile::from_string(text, "steps.toml", error);
  ASSERT_TRUE(file) << error.to_string();
  EXPECT_EQ(resolve_ok(*file, "base").clients[2].steps.size(), 10u);
}

TEST(ParseValid, ErrorTextLeavesOutEmptyParts) {
  // Proves ScenarioError::to_string() is "file:line: key: message" without empty parts.
  EXPECT_EQ((ScenarioError{"a.toml", 3, "lock.ttl", "bad"}).to_string(), "a.toml:3: lock.ttl: bad");
  EXPECT_EQ((ScenarioError{"--set", 0, "lock.ttl", "bad"}).to_string(), "--set: lock.ttl: bad");
  EXPECT_EQ((ScenarioError{"a.toml", 0, "", "bad"}).to_string(), "a.toml: bad");
}

// ---- Variants ----------------------------------------------------------------

TEST(ParseVariant, DeepMergeOverridesOnlyTheKeysItNames) {
  // Proves a variant changes the keys it sets and inherits the rest, [expect] included.
  const ScenarioFile file = load_ok("variants.toml");
  const ScenarioSpec base = resolve_ok(file, "base");
  const ScenarioSpec s = resolve_ok(file, "zeta");
  EXPECT_EQ(s.variant, "zeta");
  EXPECT_EQ(s.variant_description, "Fenced: tokens from INCR.");
  EXPECT_EQ(base.lock.fencing, FencingStyle::none);
  EXPECT_EQ(s.lock.fencing, FencingStyle::incr);
  EXPECT_EQ(s.resource.policy, WritePolicy::fencing);
  EXPECT_EQ(s.lock.ttl, 10s);                    // inherited from [lock]
  EXPECT_EQ(s.lock.release, ReleaseStyle::del);  // inherited from [lock]
  ASSERT_EQ(s.faults.size(), 1u);
  EXPECT_EQ(std::get<PauseFault>(s.faults[0].kind).length.a, 15s);
  auto verdict = [](const ScenarioSpec& spec, Property p) { return spec.expect.violated[static_cast<std::size_t>(p)]; };
  EXPECT_EQ(verdict(s, Property::grant_exclusive), std::optional<bool>(false));  // inherited
  EXPECT_EQ(verdict(s, Property::resource_exclusive), std::optional<bool>(false));
  EXPECT_EQ(verdict(s, Property::invariant), std::optional<bool>(false));
  EXPECT_EQ(verdict(base, Property::resource_exclusive), std::optional<bool>(true));
  EXPECT_EQ(verdict(base, Property::invariant), std::optional<bool>(true));
}

TEST(ParseVariant, ArraysReplaceAndNewTablesAppend) {
  // Proves arrays are replaced, not merged, and a client the variant adds comes after the base's.
  const ScenarioFile file = load_ok("variants.toml");
  const ScenarioSpec s = resolve_ok(file, "alpha");
  ASSERT_EQ(s.clients.size(), 3u);
  EXPECT_EQ(s.clients[0].name, "c1");
  EXPECT_EQ(s.clients[1].name, "c2");
  EXPECT_EQ(s.clients[2].name, "c0");
  EXPECT_EQ(s.clients[2].start, 20s);
  ASSERT_EQ(s.clients[0].steps.size(), 1u);
  EXPECT_EQ(s.clients[0].steps[0].kind, StepKind::read);
  EXPECT_EQ(std::get<PauseFault>(s.faults[0].kind).length.a, 30s);
  EXPECT_EQ(std::get<PauseFault>(s.faults[0].kind).target, "c1");  // inherited from [fault.gc]
  EXPECT_EQ(s.faults[0].trigger.phase, Phase::read);
}

TEST(ParseVariant, VariantsAreListedInFileOrder) {
  // Proves variants() is "base" then the [variant.*] tables as written, not alphabetically.
  const ScenarioFile file = load_ok("variants.toml");
  EXPECT_EQ(file.variants(), (std::vector<std::string>{"base", "zeta", "alpha", "middle"}));
  EXPECT_EQ(file.variant_description("alpha"), "A longer pause, and a third client.");
  EXPECT_EQ(file.variant_description("middle"), "");
  EXPECT_EQ(file.variant_description("base"), "");
  EXPECT_EQ(resolve_ok(file, "middle").lock.ttl, 30s);
}

TEST(ParseVariant, UnknownVariantListsTheKnownOnes) {
  // Proves asking for a variant the file lacks names the ones it has, with a suggestion.
  const ScenarioFile file = load_ok("variants.toml");
  const ScenarioError e = resolve_error(file, "alpah", {});
  expect_error(e, data_path("variants.toml"), 0, "", "unknown variant \"alpah\"");
  EXPECT_NE(e.message.find("did you mean \"alpha\""), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("base, zeta, alpha, middle"), std::string::npos) << e.message;
}

TEST(ParseVariant, TypoInsideAVariantIsCaughtAtLoad) {
  // Proves load() validates every variant and reports the key as written inside it.
  const ScenarioError e = inline_error(kTwoClients +
                                       "[variant.late]\n"
                                       "description = \"x\"\n"
                                       "lock.tll = \"3s\"\n");
  expect_error(e, "inline.toml", 9, "variant.late.lock.tll", "unknown key");
  EXPECT_NE(e.message.find("did you mean \"variant.late.lock.ttl\""), std::string::npos) << e.message;
}

TEST(ParseVariant, BaseValueBrokenByAVariantNamesTheVariant) {
  // Proves an error at a base line that only a variant triggers says which variant.
  const ScenarioError e = inline_error(kTwoClients +
                                       "[fault.gc]\n"
                                       "kind = \"crash\"\n"
                                       "at = \"1s\"\n"
                                       "target = \"r2\"\n"
                                       "[redis]\n"
                                       "nodes = [\"r1\", \"r2\"]\n"
                                       "[variant.one-node]\n"
                                       "redis.nodes = [\"r1\"]\n"
                                       "[lock]\n"
                                       "protocol = \"redlock\"\n");
  expect_error(e, "inline.toml", 10, "fault.gc.target", "unknown process \"r2\"");
  EXPECT_NE(e.message.find("(in variant \"one-node\")"), std::string::npos) << e.message;
}

TEST(ParseVariant, BaseIsAReservedName) {
  // Proves [variant.base] is refused: "base" already means the story itself.
  const ScenarioError e = inline_error(kTwoClients + "[variant.base]\nlock.ttl = \"1s\"\n");
  expect_error(e, "inline.toml", 7, "variant.base", "\"base\" is the scenario itself");
}

// ---- --set overrides -----------------------------------------------------------

TEST(ParseOverride, UnquotedDurationIsReadAsAString) {
  // Proves --set lock.ttl=3s works without TOML quotes, and applies after the variant.
  const ScenarioFile file = load_ok("variants.toml");
  EXPECT_EQ(resolve_ok(file, "base", {"lock.ttl=3s"}).lock.ttl, 3s);
  EXPECT_EQ(resolve_ok(file, "middle", {"lock.ttl=3s"}).lock.ttl, 3s);
  EXPECT_EQ(resolve_ok(file, "middle", {"lock.ttl=\"4s\""}).lock.ttl, 4s);
  EXPECT_EQ(resolve_ok(file, "base", {"lock.ttl=3s", "lock.ttl=5s"}).lock.ttl, 5s);  // in order
}

TEST(ParseOverride, NestedKeysTakeTomlValues) {
  // Proves deep keys merge into one entry and values are TOML: integers, booleans, arrays, tables.
  const ScenarioFile file = load_ok("variants.toml");
  const ScenarioSpec s = resolve_ok(
      file, "zeta",
      {"client.c2.iterations=4", "client.c1.release=false", "fault.gc.at=c2 read", "redis.nodes=[\"a\", \"b\", \"c\"]",
       "lock.protocol=redlock", "lock.release=compare-and-delete", "network={ latency = \"3ms\" }",
       "scenario.seed=7"});
  EXPECT_EQ(s.clients[1].iterations, 4);
  EXPECT_EQ(s.clients[1].start, 10s);  // the rest of [client.c2] stays
  EXPECT_FALSE(s.clients[0].release);
  EXPECT_EQ(s.faults[0].trigger.process, "c2");
  EXPECT_EQ(std::get<PauseFault>(s.faults[0].kind).target, "c1");
  EXPECT_EQ(s.redis.nodes, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(s.network.default_link.latency.a, 3ms);
  EXPECT_EQ(s.seed, 7u);
  EXPECT_EQ(s.lock.fencing, FencingStyle::incr);  // the variant still applies
}

TEST(ParseOverride, BadSyntaxIsReportedAgainstSet) {
  // Proves a malformed --set (no '=', empty key, empty segment, variant key) is an error from "--set".
  const ScenarioFile file = load_ok("variants.toml");
  expect_error(resolve_error(file, "base", {"lock.ttl"}), "--set", 0, "", "expected KEY=VALUE");
  expect_error(resolve_error(file, "base", {"=3s"}), "--set", 0, "", "missing key");
  expect_error(resolve_error(file, "base", {"lock..ttl=3s"}), "--set", 0, "lock..ttl", "empty part");
  expect_error(resolve_error(file, "base", {"variant.zeta.lock.ttl=3s"}), "--set", 0, "variant.zeta.lock.ttl",
               "cannot change variants");
}

TEST(ParseOverride, BadValuesAreReportedAgainstSet) {
  // Proves a value from --set is checked like the file's and reported with file "--set" and no line.
  const ScenarioFile file = load_ok("variants.toml");
  expect_error(resolve_error(file, "base", {"lock.ttl=10 seconds"}), "--set", 0, "lock.ttl", "bad duration");
  expect_error(resolve_error(file, "base", {"lock.ttl=10"}), "--set", 0, "lock.ttl",
               "expected a duration string such as \"10s\", got integer 10");
  const ScenarioError typo = resolve_error(file, "base", {"lock.tll=1s"});
  expect_error(typo, "--set", 0, "lock.tll", "did you mean \"lock.ttl\"");
  expect_error(resolve_error(file, "base", {"fault.gc.target=c9"}), "--set", 0, "fault.gc.target",
               "unknown process \"c9\"");
}

// ---- Broken files --------------------------------------------------------------

TEST(ParseError, TomlSyntaxErrorCarriesTheParserLine) {
  // Proves a TOML syntax error is reported with the line toml++ found it on.
  const ScenarioError e = file_error("bad-syntax.toml");
  EXPECT_EQ(e.file, data_path("bad-syntax.toml"));
  EXPECT_EQ(e.line, 6);
  EXPECT_EQ(e.key, "");
  EXPECT_EQ(e.message.rfind("invalid TOML: ", 0), 0u) << e.message;
}

TEST(ParseError, UnknownKeySuggestsTheClosestKnownKey) {
  // Proves an unknown key is named in full, with its line and the closest valid key.
  const ScenarioError e = file_error("bad-unknown-key.toml");
  expect_error(e, data_path("bad-unknown-key.toml"), 6, "lock.tll", "unknown key");
  EXPECT_NE(e.message.find("did you mean \"lock.ttl\""), std::string::npos) << e.message;
}

TEST(ParseError, UnknownKeysAreCaughtAtEveryLevel) {
  // Proves unknown keys are found at the top level, in named tables and in [expect], with a hint.
  expect_error(inline_error(kTwoClients + "[clinet.c3]\n"), "inline.toml", 7, "clinet", "did you mean \"client\"");
  expect_error(inline_error(kTwoClients + "[client.c3]\nstrat = \"1s\"\n"), "inline.toml", 8, "client.c3.strat",
               "did you mean \"client.c3.start\"");
  expect_error(inline_error(kTwoClients + "[expect]\ngrant_exclusive = \"holds\"\n"), "inline.toml", 8,
               "expect.grant_exclusive", "did you mean \"expect.grant-exclusive\"");
  expect_error(inline_error(kTwoClients + "[lock]\ncolour = \"red\"\n"), "inline.toml", 8, "lock.colour",
               "[lock] takes: protocol, preset, key, ttl");
}

TEST(ParseError, WrongTypeSaysWhatWasExpectedAndWhatCame) {
  // Proves a value of the wrong TOML type names the expected form and the value found.
  expect_error(file_error("bad-type.toml"), data_path("bad-type.toml"), 6, "lock.ttl",
               "expected a duration string such as \"10s\", got integer 10");
  expect_error(inline_error(kTwoClients + "[client.c3]\niterations = \"2\"\n"), "inline.toml", 8,
               "client.c3.iterations", "expected an integer, got string \"2\"");
  expect_error(inline_error(kTwoClients + "[lock]\nttl = { s = 1 }\n"), "inline.toml", 8, "lock.ttl", "got a table");
  expect_error(inline_error(kTwoClients + "[lock]\nfencing = \"inc\"\n"), "inline.toml", 8, "lock.fencing",
               "expected one of \"none\", \"incr\", \"incr-in-script\", got \"inc\" (did you mean \"incr\"?)");
}

TEST(ParseError, BadUnitsExplainTheUnitRules) {
  // Proves a duration in words or without a unit is refused with the rule for writing one.
  expect_error(file_error("bad-unit.toml"), data_path("bad-unit.toml"), 6, "lock.ttl",
               "bad duration \"10 seconds\"; write a number and a unit (ns, us, ms, s, min, h)");
  expect_error(inline_error(kTwoClients + "[lock]\nttl = \"10\"\n"), "inline.toml", 8, "lock.ttl",
               "\"10\" has no unit");
  expect_error(inline_error(kTwoClients + "[clock.c1]\ndrift = \"2 percent\"\n"), "inline.toml", 8, "clock.c1.drift",
               "write a number and \"ppm\" or \"%\"");
  expect_error(inline_error(kTwoClients + "[network]\nloss = \"150%\"\n"), "inline.toml", 8, "network.loss",
               "between 0% and 100%");
  expect_error(inline_error(kTwoClients + "[lock]\nttl = \"0s\"\n"), "inline.toml", 8, "lock.ttl", "greater than zero");
}

TEST(ParseError, UnknownProcessInAFaultTarget) {
  // Proves a fault aimed at a process that does not exist names the known processes.
  const ScenarioError e = file_error("bad-unknown-process.toml");
  expect_error(e, data_path("bad-unknown-process.toml"), 14, "fault.gc.target", "unknown process \"c3\"");
  EXPECT_NE(e.message.find("processes: r1, resource, c1, c2"), std::string::npos) << e.message;
}

TEST(ParseError, UnknownProcessInClockLinkAndPartition) {
  // Proves [clock.NAME], link ends and partition groups must name known processes.
  expect_error(inline_error(kTwoClients + "[clock.r2]\noffset = \"1s\"\n"), "inline.toml", 7, "clock.r2",
               "unknown process \"r2\" (did you mean \"r1\"?)");
  expect_error(inline_error(kTwoClients + "[link.x]\nfrom = \"c1\"\nto = \"rr1\"\n"), "inline.toml", 9, "link.x.to",
               "unknown process \"rr1\"");
  expect_error(inline_error(kTwoClients + "[fault.split]\n"
                                          "kind = \"partition\"\n"
                                          "at = \"1s\"\n"
                                          "groups = [\n"
                                          "  [\"c1\", \"r1\"],\n"
                                          "  [\"c2\", \"db\"],\n"
                                          "]\n"),
               "inline.toml", 12, "fault.split.groups", "unknown process \"db\"");
}

TEST(ParseError, PhaseTriggersNeedAClientAndAKnownPhase) {
  // Proves "PROCESS PHASE" triggers check the client and the phase, listing valid phases.
  const std::string fault = "[fault.gc]\nkind = \"pause\"\ntarget = \"c1\"\nlength = \"1s\"\n";
  const ScenarioError phase = inline_error(kTwoClients + fault + "at = \"c1 aquired\"\n");
  expect_error(phase, "inline.toml", 11, "fault.gc.at", "unknown phase \"aquired\" (did you mean \"acquired\"?)");
  EXPECT_NE(phase.message.find("started, acquire-sent, setnx-ok, acquired"), std::string::npos) << phase.message;
  expect_error(inline_error(kTwoClients + fault + "at = \"c9 acquired\"\n"), "inline.toml", 11, "fault.gc.at",
               "unknown client \"c9\"");
  expect_error(inline_error(kTwoClients + fault + "at = \"r1 acquired\"\n"), "inline.toml", 11, "fault.gc.at",
               "\"r1\" is a redis node");
  expect_error(inline_error(kTwoClients + fault + "at = \"5 seconds\"\n"), "inline.toml", 11, "fault.gc.at",
               "bad duration");
}

TEST(ParseError, MissingRequiredKeyPointsAtItsTable) {
  // Proves a missing required key is named in full and located at its table's header.
  expect_error(inline_error(kTwoClients + "[fault.gc]\nat = \"1s\"\ntarget = \"c1\"\n"), "inline.toml", 7,
               "fault.gc.kind", "missing required key");
  expect_error(inline_error(kTwoClients + "[fault.gc]\nkind = \"pause\"\nat = \"1s\"\ntarget = \"c1\"\n"),
               "inline.toml", 7, "fault.gc.length", "missing required key");
  expect_error(inline_error("[client.c1]\n"), "inline.toml", 0, "scenario.name", "missing required key");
  expect_error(inline_error("[scenario]\nname = \"x\"\n"), "inline.toml", 0, "client", "at least one client");
}

TEST(ParseError, KeysOfAnotherFaultKindAreRefused) {
  // Proves a key that belongs to a different fault kind is an error naming the kind's keys.
  expect_error(inline_error(kTwoClients + "[fault.boom]\n"
                                          "kind = \"crash\"\n"
                                          "at = \"1s\"\n"
                                          "target = \"r1\"\n"
                                          "length = \"2s\"\n"),
               "inline.toml", 11, "fault.boom.length",
               "\"length\" does not apply to a crash fault (a crash fault takes: target, restart_after, what)");
  expect_error(
      inline_error(kTwoClients + "[fault.t]\nkind = \"clock-jump\"\nat = \"1s\"\ntarget = \"c1\"\nby = \"1s\"\n"
                                 "occurrence = 2\n"),
      "inline.toml", 12, "fault.t.occurrence", "needs a phase trigger");
}

TEST(ParseError, StepsAreCheckedOneByOne) {
  // Proves each step string is checked: name, argument presence and the argument's units.
  auto steps = [](const std::string& list) { return kTwoClients + "[client.c3]\nsteps = [\n" + list + "]\n"; };
  expect_error(inline_error(steps("\"read\",\n\"rite\",\n")), "inline.toml", 10, "client.c3.steps",
               "unknown step \"rite\" (did you mean \"write\"?)");
  expect_error(inline_error(steps("\"work\",\n")), "inline.toml", 9, "client.c3.steps", "needs a duration");
  expect_error(inline_error(steps("\"read 2s\",\n")), "inline.toml", 9, "client.c3.steps", "takes no argument");
  expect_error(inline_error(steps("\"work 2 secs\",\n")), "inline.toml", 9, "client.c3.steps", "bad duration");
}

TEST(ParseError, ProcessNamesAreUniqueAcrossKinds) {
  // Proves a client may not reuse a redis node's or the resource's name.
  expect_error(inline_error(kTwoClients + "[client.r1]\n"), "inline.toml", 7, "client.r1",
               "already taken by the redis node");
  expect_error(inline_error(kTwoClients + "[resource]\nname = \"c2\"\n"), "inline.toml", 5, "client.c2",
               "already taken by the resource");
  expect_error(inline_error(kTwoClients + "[redis]\nnodes = [\"a\", \"a\"]\n"), "inline.toml", 8, "redis.nodes",
               "listed twice");
}

TEST(ParseError, MissingFileIsAnError) {
  // Proves load() of a path that does not exist, or of a directory, reports the path instead of crashing.
  const ScenarioError e = file_error("no-such-file.toml");
  expect_error(e, data_path("no-such-file.toml"), 0, "", "cannot open");
  expect_error(file_error(""), data_path(""), 0, "", "is a directory");
}

TEST(ParseError, EachBadFixtureHasExactlyOneError) {
  // Proves every tests/data/bad-*.toml loads once its single mistake is fixed (the CLI tests rely on it).
  const std::pair<const char*, std::pair<const char*, const char*>> fixes[] = {
      {"bad-syntax.toml", {"ttl = \"10s\n", "ttl = \"10s\"\n"}},
      {"bad-unknown-key.toml", {"tll =", "ttl ="}},
      {"bad-unit.toml", {"10 seconds", "10s"}},
      {"bad-type.toml", {"ttl = 10", "ttl = \"10s\""}},
      {"bad-unknown-process.toml", {"\"c3\"", "\"c2\""}},
  };
  for (const auto& [name, fix] : fixes) {
    std::string text = read_text(data_path(name));
    const std::size_t at = text.find(fix.first);
    ASSERT_NE(at, std::string::npos) << name;
    text.replace(at, std::string(fix.first).size(), fix.second);
    ScenarioError error;
    EXPECT_TRUE(ScenarioFile::from_string(text, name, error)) << name << ": " << error.to_string();
  }
}

// ---- Redlock, presets and the other issue-3 keys -------------------------------

// The base variant of |text| loaded as "inline.toml"; fails the test if it does not load.
ScenarioSpec inline_ok(const std::string& text) {
  ScenarioError error;
  std::optional<ScenarioFile> file = ScenarioFile::from_string(text, "inline.toml", error);
  if (!file) {
    ADD_FAILURE() << error.to_string() << "\nin:\n" << text;
    return ScenarioSpec{};
  }
  return resolve_ok(*file, "base");
}

// kTwoClients, then a Redlock [lock] over five nodes: line 7 is "[lock]", line
// 8 the protocol, |lock_lines| start on line 9, then [redis] (two lines) and |rest|.
std::string redlock_text(const std::string& lock_lines, const std::string& rest = "") {
  return kTwoClients + "[lock]\nprotocol = \"redlock\"\n" + lock_lines +
         "[redis]\nnodes = [\"r1\", \"r2\", \"r3\", \"r4\", \"r5\"]\n" + rest;
}

// What each preset must resolve to: the libraries' defaults as the presets
// table of docs/model-and-limits.md gives them, written out here
// independently of sim/scenario/presets.cc.
struct PresetCase {
  const char* name;
  std::int64_t drift_factor_ppm;
  Duration drift_fixed;
  int attempts;
  Latency::Kind retry_kind;
  Duration retry_a;
  Duration retry_b;
  ClockKind clock;
  bool parallel;
  Duration ttl;
  Duration node_timeout;
  bool first_attempt_expiry;
  bool return_early;
  bool check_validity;
  FailedAttemptCleanup cleanup;
};
constexpr FailedAttemptCleanup kAwait = FailedAttemptCleanup::await;
constexpr Latency::Kind kUniform = Latency::Kind::uniform;
constexpr Latency::Kind kConstant = Latency::Kind::constant;
const PresetCase kPresetCases[] = {
    {"redlock-rb", 10'000, 2ms, 3, kUniform, 0ms, 200ms, ClockKind::wall, false, 10s, 50ms, false, false, true, kAwait},
    {"redlock-rb-2.0.6", 10'000, 2ms, 4, kUniform, 200ms, 250ms, ClockKind::monotonic, false, 10s, 50ms, false, false,
     true, kAwait},
    {"node-redlock-4.2.0", 10'000, 2ms, 11, kUniform, 100ms, 300ms, ClockKind::wall, true, 10s, 50ms, false, false, true,
     kAwait},
    {"node-redlock-5.0.0-beta.2", 10'000, 2ms, 11, kUniform, 100ms, 300ms, ClockKind::wall, true, 10s, 50ms, true, true,
     false, FailedAttemptCleanup::at_give_up},
    {"redlock-py", 10'000, 2ms, 3, kConstant, 200ms, 0ms, ClockKind::wall, false, 10s, 50ms, false, false, true, kAwait},
    {"redsync", 10'000, 0ms, 32, kUniform, 50ms, 250ms, ClockKind::monotonic, true, 8s, 400ms, false, false, true,
     kAwait},
};

TEST(ParsePreset, EachPresetResolvesToItsLibraryDefaults) {
  // Proves every preset sets exactly the documented client-library defaults, and clients inherit its retries.
  EXPECT_EQ(scenario::lock_presets().size(), std::size(kPresetCases)) << "a preset without a case here";
  for (const PresetCase& c : kPresetCases) {
    SCOPED_TRACE(c.name);
    const ScenarioSpec s = inline_ok(redlock_text("preset = \"" + std::string(c.name) + "\"\n"));
    EXPECT_EQ(s.lock.preset, c.name);
    EXPECT_EQ(s.lock.drift_factor_ppm, c.drift_factor_ppm);
    EXPECT_EQ(s.lock.drift_fixed, c.drift_fixed);
    EXPECT_EQ(s.lock.attempts, c.attempts);
    EXPECT_EQ(s.lock.retry_delay.kind, c.retry_kind);
    EXPECT_EQ(s.lock.retry_delay.a, c.retry_a);
    EXPECT_EQ(s.lock.retry_delay.b, c.retry_b);
    EXPECT_EQ(s.lock.clock, c.clock);
    EXPECT_EQ(s.lock.redlock.knobs.parallel, c.parallel);
    EXPECT_EQ(s.lock.ttl, c.ttl);
    EXPECT_EQ(s.lock.redlock.knobs.node_timeout, c.node_timeout);
    EXPECT_EQ(s.lock.redlock.knobs.first_attempt_expiry, c.first_attempt_expiry);
    EXPECT_EQ(s.lock.redlock.knobs.return_early, c.return_early);
    EXPECT_EQ(s.lock.redlock.knobs.check_validity, c.check_validity);
    EXPECT_EQ(s.lock.redlock.knobs.cleanup, c.cleanup);
    // node-redlock's _executeScript and redlock-rb 2's recover_from_script_flush send EVALSHA.
    EXPECT_EQ(s.lock.evalsha, std::string_view(c.name).starts_with("node-redlock") ||
                                  std::string_view(c.name) == "redlock-rb-2.0.6");
    EXPECT_EQ(s.lock.redlock.quorum, 3u);
    ASSERT_EQ(s.clients.size(), 2u);
    EXPECT_EQ(s.clients[0].attempts, c.attempts);
  }
}

TEST(ParsePreset, ExplicitKeyBeatsThePresetInTheSameFile) {
  // Proves keys written before or after `preset`, and in [redlock], override it; redsync's node timeout follows the
  // ttl.
  const ScenarioSpec s =
      inline_ok(redlock_text("attempts = 2\n"
                             "preset = \"redsync\"\n"
                             "ttl = \"20s\"\n"
                             "clock = \"wall\"\n",
                             "[redlock]\nrequests = \"sequential\"\n"));
  EXPECT_EQ(s.lock.preset, "redsync");
  EXPECT_EQ(s.lock.attempts, 2);  // written before the preset
  EXPECT_EQ(s.lock.ttl, 20s);     // written after it
  EXPECT_EQ(s.lock.clock, ClockKind::wall);
  EXPECT_FALSE(s.lock.redlock.knobs.parallel);       // [redlock] beats the preset too
  EXPECT_EQ(s.lock.redlock.knobs.node_timeout, 1s);  // 5 % of the ttl in force, not of 8 s
  EXPECT_EQ(s.lock.retry_delay.a, 50ms);       // not written: the preset's
  EXPECT_EQ(s.lock.drift_fixed, 0ms);
  const ScenarioSpec timeout =
      inline_ok(redlock_text("preset = \"redsync\"\n", "[redlock]\nnode_timeout = \"30ms\"\n"));
  EXPECT_EQ(timeout.lock.redlock.knobs.node_timeout, 30ms);
  EXPECT_EQ(timeout.lock.ttl, 8s);
}

TEST(ParsePreset, ExplicitKeyBeatsThePresetFromAVariantOrSet) {
  // Proves a written key wins over a preset whichever of base, variant or --set holds each of them.
  const ScenarioFile file = load_ok("presets.toml");
  const ScenarioSpec base = resolve_ok(file, "base");
  EXPECT_EQ(base.lock.preset, "node-redlock-4.2.0");
  EXPECT_EQ(base.lock.attempts, 5);
  EXPECT_EQ(base.lock.clock, ClockKind::monotonic);
  EXPECT_EQ(base.lock.retry_delay.a, 100ms);
  EXPECT_TRUE(base.lock.redlock.knobs.parallel);
  EXPECT_EQ(base.clients[0].attempts, 5);  // c1 inherits lock.attempts
  EXPECT_EQ(base.clients[1].attempts, 1);

  const ScenarioSpec redsync = resolve_ok(file, "redsync");  // the preset from the variant, keys from the base
  EXPECT_EQ(redsync.lock.preset, "redsync");
  EXPECT_EQ(redsync.lock.attempts, 5);
  EXPECT_EQ(redsync.lock.clock, ClockKind::monotonic);
  EXPECT_EQ(redsync.lock.retry_delay.a, 50ms);
  EXPECT_EQ(redsync.lock.retry_delay.b, 250ms);
  EXPECT_EQ(redsync.lock.ttl, 8s);
  EXPECT_EQ(redsync.lock.redlock.knobs.node_timeout, 400ms);

  const ScenarioSpec short_retry = resolve_ok(file, "short-retry");  // a key from the variant
  EXPECT_EQ(short_retry.lock.retry_delay.kind, Latency::Kind::constant);
  EXPECT_EQ(short_retry.lock.retry_delay.a, 5ms);
  EXPECT_EQ(short_retry.lock.drift_fixed, 2ms);
  EXPECT_FALSE(resolve_ok(file, "sequential").lock.redlock.knobs.parallel);

  const ScenarioSpec set_key = resolve_ok(file, "base", {"lock.drift_fixed=7ms", "redlock.requests=sequential"});
  EXPECT_EQ(set_key.lock.drift_fixed, 7ms);
  EXPECT_FALSE(set_key.lock.redlock.knobs.parallel);
  const ScenarioSpec set_preset = resolve_ok(file, "short-retry", {"lock.preset=redlock-py"});
  EXPECT_EQ(set_preset.lock.preset, "redlock-py");
  EXPECT_EQ(set_preset.lock.retry_delay.a, 5ms);  // the variant's key beats the --set preset
  EXPECT_EQ(set_preset.lock.attempts, 5);
  EXPECT_EQ(set_preset.lock.clock, ClockKind::monotonic);
  EXPECT_FALSE(set_preset.lock.redlock.knobs.parallel);  // redlock-py's, not node-redlock's
  const ScenarioSpec set_ttl = resolve_ok(file, "redsync", {"lock.ttl=20s"});
  EXPECT_EQ(set_ttl.lock.redlock.knobs.node_timeout, 1s);
}

TEST(ParsePreset, UnknownOrMisplacedPresetIsRefused) {
  // Proves an unknown preset lists the known ones with a suggestion, and the bug preset needs Redlock.
  const ScenarioError unknown = inline_error(redlock_text("preset = \"redlok-rb\"\n"));
  expect_error(unknown, "inline.toml", 9, "lock.preset", "got \"redlok-rb\" (did you mean \"redlock-rb\"?)");
  EXPECT_NE(unknown.message.find("\"redlock-rb\", \"redlock-rb-2.0.6\", \"node-redlock-4.2.0\", \"node-redlock-5.0.0-beta.2\", \"redlock-py\", \"redsync\""), std::string::npos)
      << unknown.message;
  expect_error(inline_error(kTwoClients + "[lock]\npreset = \"node-redlock-5.0.0-beta.2\"\n"), "inline.toml", 8,
               "lock.preset", "needs protocol = \"redlock\"");
  // Other presets are only defaults, and suit a single-node lock as well.
  const ScenarioSpec single = inline_ok(kTwoClients + "[lock]\npreset = \"redlock-py\"\n");
  EXPECT_EQ(single.lock.protocol, LockProtocol::single_node);
  EXPECT_EQ(single.lock.attempts, 3);
}

TEST(ParseRedlock, QuorumAndFencingNodeAreResolved) {
  // Proves quorum defaults to N/2 + 1 (0 means the same), may be set in 1..N, and fencing_node defaults to the first
  // node.
  const ScenarioSpec five = inline_ok(redlock_text(""));
  EXPECT_EQ(five.lock.protocol, LockProtocol::redlock);
  EXPECT_EQ(five.lock.redlock.quorum, 3u);
  EXPECT_EQ(five.lock.redlock.fencing_node, "r1");
  EXPECT_EQ(inline_ok(redlock_text("", "[redlock]\nquorum = 0\n")).lock.redlock.quorum, 3u);
  EXPECT_EQ(inline_ok(redlock_text("", "[redlock]\nquorum = 2\n")).lock.redlock.quorum,
            2u);  // below a majority: allowed
  EXPECT_EQ(inline_ok(redlock_text("", "[redlock]\nquorum = 5\n")).lock.redlock.quorum, 5u);
  EXPECT_EQ(inline_ok(redlock_text("", "[redlock]\nfencing_node = \"r4\"\n")).lock.redlock.fencing_node, "r4");
  const std::string four =
      kTwoClients + "[lock]\nprotocol = \"redlock\"\n[redis]\nnodes = [\"a\", \"b\", \"c\", \"d\"]\n";
  EXPECT_EQ(inline_ok(four).lock.redlock.quorum, 3u);
  EXPECT_EQ(inline_ok(four).lock.redlock.fencing_node, "a");
  const std::string two = kTwoClients + "[lock]\nprotocol = \"redlock\"\n[redis]\nnodes = [\"a\", \"b\"]\n";
  EXPECT_EQ(inline_ok(two).lock.redlock.quorum, 2u);
  const ScenarioSpec keys = inline_ok(redlock_text("",
                                                   "[redlock]\n"
                                                   "requests = \"parallel\"\n"
                                                   "node_timeout = \"5ms\"\n"
                                                   "check_validity = false\n"
                                                   "first_attempt_expiry = true\n"));
  EXPECT_TRUE(keys.lock.redlock.knobs.parallel);
  EXPECT_EQ(keys.lock.redlock.knobs.node_timeout, 5ms);
  EXPECT_FALSE(keys.lock.redlock.knobs.check_validity);
  EXPECT_TRUE(keys.lock.redlock.knobs.first_attempt_expiry);
}

TEST(ParseRedlock, RedlockKeysNeedTheRedlockProtocol) {
  // Proves a [redlock] key under the single-node protocol is an error at that key, saying whether the protocol was
  // written.
  const ScenarioError implicit = inline_error(kTwoClients + "[redlock]\nquorum = 1\n");
  expect_error(implicit, "inline.toml", 8, "redlock.quorum", "applies only with protocol = \"redlock\"");
  EXPECT_NE(implicit.message.find("\"single-node\" (the default)"), std::string::npos) << implicit.message;
  const ScenarioError written =
      inline_error(kTwoClients + "[lock]\nprotocol = \"single-node\"\n[redlock]\ncheck_validity = false\n");
  expect_error(written, "inline.toml", 10, "redlock.check_validity", "the protocol is \"single-node\"");
  EXPECT_EQ(written.message.find("(the default)"), std::string::npos) << written.message;
  expect_error(inline_error(kTwoClients + "[redlock]\n"), "inline.toml", 7, "redlock", "applies only with");
  // A variant that goes back to single-node cannot remove the base's [redlock] keys.
  const ScenarioError variant = inline_error(redlock_text("",
                                                          "[redlock]\nquorum = 3\n"
                                                          "[variant.single]\n"
                                                          "lock.protocol = \"single-node\"\n"
                                                          "redis.nodes = [\"r1\"]\n"));
  expect_error(variant, "inline.toml", 12, "redlock.quorum", "applies only with");
  EXPECT_NE(variant.message.find("(in variant \"single\")"), std::string::npos) << variant.message;
}

TEST(ParseRedlock, SingleNodeProtocolTakesOneNode) {
  // Proves several redis nodes under the single-node protocol are refused at redis.nodes, from a file or --set.
  expect_error(inline_error(kTwoClients + "[redis]\nnodes = [\"r1\", \"r2\"]\n"), "inline.toml", 8, "redis.nodes",
               "the single-node lock uses exactly one node; use protocol = \"redlock\" for several");
  const ScenarioFile file = load_ok("variants.toml");
  expect_error(resolve_error(file, "base", {"redis.nodes=[\"a\", \"b\"]"}), "--set", 0, "redis.nodes",
               "uses exactly one node");
  EXPECT_EQ(resolve_ok(file, "base", {"redis.nodes=[\"a\", \"b\"]", "lock.protocol=redlock", "lock.release=compare-and-delete"})
                .redis.nodes.size(),
            2u);
}

TEST(ParseRedlock, SingleNodeStylesAreRefusedUnderRedlock) {
  // Proves the unsafe single-node acquire/release styles are errors under Redlock, not silently ignored.
  expect_error(inline_error(redlock_text("acquire = \"setnx-then-expire\"\n")), "inline.toml", 9, "lock.acquire",
               "Redlock always acquires with SET NX PX");
  expect_error(inline_error(redlock_text("release = \"del\"\n")), "inline.toml", 9, "lock.release",
               "Redlock always releases with compare-and-delete");
  EXPECT_EQ(resolve_ok(load_ok("variants.toml"), "base", {"lock.protocol=redlock", "redis.nodes=[\"a\", \"b\", \"c\"]",
                                                          "lock.release=compare-and-delete"})
                .lock.protocol,
            LockProtocol::redlock);
}

TEST(ParseRedlock, QuorumOutOfRangeIsRefused) {
  // Proves a quorum above the node count or below 0 is refused with the allowed range, and a string is a type error.
  expect_error(inline_error(redlock_text("", "[redlock]\nquorum = 6\n")), "inline.toml", 12, "redlock.quorum",
               "must be between 1 and 5 (the number of redis nodes), or 0 for a majority (3); got 6");
  expect_error(inline_error(redlock_text("", "[redlock]\nquorum = -1\n")), "inline.toml", 12, "redlock.quorum",
               "got -1");
  expect_error(inline_error(redlock_text("", "[redlock]\nquorum = \"3\"\n")), "inline.toml", 12, "redlock.quorum",
               "expected an integer, got string \"3\"");
}

TEST(ParseRedlock, FencingNodeMustBeARedisNode) {
  // Proves fencing_node names one of redis.nodes: an unknown name gets a suggestion, a client or the resource is named
  // as such.
  const ScenarioError unknown = inline_error(redlock_text("", "[redlock]\nfencing_node = \"rr2\"\n"));
  expect_error(unknown, "inline.toml", 12, "redlock.fencing_node", "unknown redis node \"rr2\" (did you mean \"r2\"?)");
  EXPECT_NE(unknown.message.find("redis nodes: r1, r2, r3, r4, r5"), std::string::npos) << unknown.message;
  expect_error(inline_error(redlock_text("", "[redlock]\nfencing_node = \"c1\"\n")), "inline.toml", 12,
               "redlock.fencing_node", "\"c1\" is the client, not a redis node");
  expect_error(inline_error(redlock_text("", "[redlock]\nfencing_node = \"resource\"\n")), "inline.toml", 12,
               "redlock.fencing_node", "is the resource");
  expect_error(inline_error(redlock_text("", "[redlock]\nfencing_node = 1\n")), "inline.toml", 12,
               "redlock.fencing_node", "expected a redis node name");
}

TEST(ParseRedlock, BadRedlockValuesAreRefused) {
  // Proves [redlock] checks its keys' names, choices, types and signs like every other table.
  expect_error(inline_error(redlock_text("", "[redlock]\nquorom = 3\n")), "inline.toml", 12, "redlock.quorom",
               "did you mean \"redlock.quorum\"");
  expect_error(inline_error(redlock_text("", "[redlock]\nrequests = \"serial\"\n")), "inline.toml", 12,
               "redlock.requests", "expected one of \"sequential\", \"parallel\", got \"serial\"");
  expect_error(inline_error(redlock_text("", "[redlock]\nnode_timeout = \"0ms\"\n")), "inline.toml", 12,
               "redlock.node_timeout", "greater than zero");
  expect_error(inline_error(redlock_text("", "[redlock]\ncheck_validity = \"no\"\n")), "inline.toml", 12,
               "redlock.check_validity", "expected true or false");
  expect_error(inline_error(kTwoClients + "[lock]\nprotocol = \"paxos\"\n"), "inline.toml", 8, "lock.protocol",
               "expected one of \"single-node\", \"redlock\"");
}

TEST(ParseLock, WatchdogRenewsEveryThirdOfTheTtlByDefault) {
  // Proves watchdog = true resolves renew_every to ttl/3 unless it is written, and renew_every must be positive.
  const ScenarioSpec third = inline_ok(kTwoClients + "[lock]\nwatchdog = true\n");
  EXPECT_TRUE(third.lock.watchdog.enabled);
  EXPECT_EQ(third.lock.watchdog.renew_every, Duration{3'333'333'333});
  EXPECT_EQ(inline_ok(kTwoClients + "[lock]\nttl = \"30s\"\nwatchdog = true\n").lock.watchdog.renew_every, 10s);
  EXPECT_EQ(inline_ok(kTwoClients + "[lock]\nwatchdog = true\nrenew_every = \"1s\"\n").lock.watchdog.renew_every, 1s);
  const ScenarioSpec off = inline_ok(kTwoClients + "[lock]\nrenew_every = \"1s\"\n");
  EXPECT_FALSE(off.lock.watchdog.enabled);
  EXPECT_EQ(off.lock.watchdog.renew_every, 1s);
  expect_error(inline_error(kTwoClients + "[lock]\nrenew_every = \"0s\"\n"), "inline.toml", 8, "lock.renew_every",
               "greater than zero");
  expect_error(inline_error(kTwoClients + "[lock]\nwatchdog = \"yes\"\n"), "inline.toml", 8, "lock.watchdog",
               "expected true or false");
}

TEST(ParseClient, ClientInheritsTheLockRetries) {
  // Proves a client without attempts / retry_delay inherits the lock's, and one with them (0 included) keeps its own.
  const ScenarioSpec s = inline_ok(kTwoClients +
                                   "[lock]\n"
                                   "attempts = 7\n"
                                   "retry_delay = \"uniform(1ms, 2ms)\"\n"
                                   "[client.c3]\n"
                                   "attempts = 0\n"
                                   "[client.c4]\n"
                                   "retry_delay = \"3ms\"\n");
  EXPECT_EQ(s.lock.attempts, 7);
  EXPECT_EQ(s.lock.retry_delay.kind, Latency::Kind::uniform);
  ASSERT_EQ(s.clients.size(), 4u);
  EXPECT_EQ(s.clients[0].attempts, 7);  // inherited
  EXPECT_EQ(s.clients[0].retry_delay.kind, Latency::Kind::uniform);
  EXPECT_EQ(s.clients[2].attempts, 0);  // 0 = until the run ends, not "inherit"
  EXPECT_EQ(s.clients[2].retry_delay.kind, Latency::Kind::uniform);
  EXPECT_EQ(s.clients[3].attempts, 7);
  EXPECT_EQ(s.clients[3].retry_delay.kind, Latency::Kind::constant);
  EXPECT_EQ(s.clients[3].retry_delay.a, 3ms);
  expect_error(inline_error(kTwoClients + "[lock]\nattempts = -1\n"), "inline.toml", 8, "lock.attempts",
               "must be at least 0");
  expect_error(inline_error(kTwoClients + "[lock]\nretry_delay = \"100\"\n"), "inline.toml", 8, "lock.retry_delay",
               "has no unit");
  expect_error(inline_error(kTwoClients + "[client.c3]\nattempts = 1.5\n"), "inline.toml", 8, "client.c3.attempts",
               "expected an integer");
}

TEST(ParseFault, ClockSlewReadsTargetDriftAndLength) {
  // Proves a clock-slew fault reads its three keys (length may be a distribution) and requires each of them.
  const std::string slew = "[fault.ntp]\nkind = \"clock-slew\"\nat = \"1s\"\n";
  const ScenarioSpec s = inline_ok(kTwoClients + slew + "target = \"r1\"\ndrift = \"500ppm\"\nlength = \"30s\"\n");
  ASSERT_EQ(s.faults.size(), 1u);
  const auto& slew_fault = std::get<ClockSlewFault>(s.faults[0].kind);
  EXPECT_EQ(slew_fault.target, "r1");
  EXPECT_EQ(slew_fault.drift_ppm, 500);
  EXPECT_EQ(slew_fault.length.kind, Latency::Kind::constant);
  EXPECT_EQ(slew_fault.length.a, 30s);
  EXPECT_EQ(std::get<ClockSlewFault>(
                inline_ok(kTwoClients + slew + "target = \"c1\"\ndrift = \"-1%\"\nlength = \"exponential(5s)\"\n")
                    .faults[0]
                    .kind)
                .length.kind,
            Latency::Kind::exponential);
  expect_error(inline_error(kTwoClients + slew + "drift = \"1%\"\nlength = \"1s\"\n"), "inline.toml", 7,
               "fault.ntp.target", "missing required key");
  expect_error(inline_error(kTwoClients + slew + "target = \"r1\"\nlength = \"1s\"\n"), "inline.toml", 7,
               "fault.ntp.drift", "missing required key");
  expect_error(inline_error(kTwoClients + slew + "target = \"r1\"\ndrift = \"1%\"\n"), "inline.toml", 7,
               "fault.ntp.length", "missing required key");
  expect_error(inline_error(kTwoClients + slew + "target = \"r1\"\ndrift = \"1%\"\nlength = \"1s\"\nby = \"1s\"\n"),
               "inline.toml", 13, "fault.ntp.by",
               "\"by\" does not apply to a clock-slew fault (a clock-slew fault takes: target, drift, length)");
  expect_error(inline_error(kTwoClients + slew + "target = \"r1\"\ndrift = \"-100%\"\nlength = \"1s\"\n"),
               "inline.toml", 11, "fault.ntp.drift", "drift must be above -1000000ppm");
  expect_error(inline_error(kTwoClients + slew + "target = \"r1\"\ndrift = \"1%\"\nlength = \"-1s\"\n"), "inline.toml",
               12, "fault.ntp.length", "must not be negative");
}

// A pause of c1 whose `at` (line 11) is |at|; lines 7-10 are the rest of the fault.
std::string pause_at(const std::string& at, const std::string& rest = "") {
  return kTwoClients + "[fault.gc]\nkind = \"pause\"\ntarget = \"c1\"\nlength = \"1s\"\nat = " + at + "\n" + rest;
}

// A clock jump of c1 whose `by` (line 11) is |by|.
std::string jump_by(const std::string& by) {
  return kTwoClients + "[fault.ntp]\nkind = \"clock-jump\"\nat = \"1s\"\ntarget = \"c1\"\nby = " + by + "\n";
}

TEST(ParseFault, DrawnAtIsATimeTriggerDrawnPerRun) {
  // Proves at = "DIST(...)" sets at_drawn (not a phase), plain times still set at_time, and --set takes the form too.
  const TriggerSpec drawn = inline_ok(pause_at("\"uniform(0s, 5s)\"")).faults.at(0).trigger;
  EXPECT_TRUE(drawn.at_a_time());
  ASSERT_TRUE(drawn.at_drawn.has_value());
  EXPECT_EQ(drawn.at_drawn->kind, Latency::Kind::uniform);
  EXPECT_EQ(drawn.at_drawn->a, 0s);
  EXPECT_EQ(drawn.at_drawn->b, 5s);
  for (const char* form : {"exponential(2s)", "lognormal(2s, 0.5)", "pareto(1s, 1.5)", " uniform( 1s ,9s ) "}) {
    const TriggerSpec t = inline_ok(pause_at(std::string("\"") + form + "\"")).faults.at(0).trigger;
    EXPECT_TRUE(t.at_a_time()) << form;
    EXPECT_TRUE(t.at_drawn.has_value()) << form;
  }
  const TriggerSpec fixed = inline_ok(pause_at("\"5s\"")).faults.at(0).trigger;
  EXPECT_TRUE(fixed.at_a_time());
  EXPECT_EQ(fixed.at_time, 5s);
  EXPECT_FALSE(fixed.at_drawn.has_value());
  const TriggerSpec phase = inline_ok(pause_at("\"c1 read\"")).faults.at(0).trigger;
  EXPECT_EQ(phase.kind, TriggerSpec::Kind::phase);
  EXPECT_EQ(phase.process, "c1");
  EXPECT_EQ(phase.phase, Phase::read);
  EXPECT_FALSE(phase.at_drawn.has_value());
  // A pause may draw both its start and its length.
  const FaultSpec both = inline_ok(kTwoClients +
                                   "[fault.gc]\nkind = \"pause\"\ntarget = \"c1\"\n"
                                   "at = \"uniform(1s, 9s)\"\nlength = \"lognormal(2s, 0.5)\"\n")
                             .faults.at(0);
  EXPECT_EQ(both.trigger.at_drawn->kind, Latency::Kind::uniform);
  EXPECT_EQ(std::get<PauseFault>(both.kind).length.kind, Latency::Kind::lognormal);
  EXPECT_EQ(std::get<PauseFault>(both.kind).length.a, 2s);
  // From --set, unquoted; the phase trigger of the file is replaced.
  const ScenarioSpec set = resolve_ok(load_ok("variants.toml"), "base", {"fault.gc.at=uniform(1s, 9s)"});
  EXPECT_TRUE(set.faults.at(0).trigger.at_a_time());
  ASSERT_TRUE(set.faults.at(0).trigger.at_drawn.has_value());
  EXPECT_EQ(set.faults.at(0).trigger.at_drawn->b, 9s);
  // occurrence counts phases: still an error with a drawn time.
  expect_error(inline_error(pause_at("\"uniform(1s, 2s)\"", "occurrence = 2\n")), "inline.toml", 12,
               "fault.gc.occurrence", "needs a phase trigger");
}

TEST(ParseFault, DrawnJumpTakesItsDirectionFromTheSign) {
  // Proves by = "+DIST" / "-DIST" sets drawn and backwards, and plain signed durations still set by.
  const ClockJumpFault forward = std::get<ClockJumpFault>(inline_ok(jump_by("\"+uniform(5s, 20s)\"")).faults.at(0).kind);
  ASSERT_TRUE(forward.drawn.has_value());
  EXPECT_EQ(forward.drawn->kind, Latency::Kind::uniform);
  EXPECT_EQ(forward.drawn->a, 5s);
  EXPECT_EQ(forward.drawn->b, 20s);
  EXPECT_FALSE(forward.backwards);
  const ClockJumpFault back = std::get<ClockJumpFault>(inline_ok(jump_by("\"-exponential(2s)\"")).faults.at(0).kind);
  ASSERT_TRUE(back.drawn.has_value());
  EXPECT_EQ(back.drawn->kind, Latency::Kind::exponential);
  EXPECT_EQ(back.drawn->a, 2s);
  EXPECT_TRUE(back.backwards);
  const ClockJumpFault spaced = std::get<ClockJumpFault>(inline_ok(jump_by("\" - lognormal(1s, 0.5) \"")).faults.at(0).kind);
  ASSERT_TRUE(spaced.drawn.has_value());
  EXPECT_EQ(spaced.drawn->kind, Latency::Kind::lognormal);
  EXPECT_TRUE(spaced.backwards);
  const std::pair<std::string, Duration> fixed_cases[] = {{"\"-2s\"", -2s}, {"\"+15s\"", 15s}, {"\"15s\"", 15s}};
  for (const auto& [text, by] : fixed_cases) {
    const ClockJumpFault fixed = std::get<ClockJumpFault>(inline_ok(jump_by(text)).faults.at(0).kind);
    EXPECT_EQ(fixed.by, by) << text;
    EXPECT_FALSE(fixed.drawn.has_value()) << text;
  }
  ScenarioError error;
  const std::optional<ScenarioFile> file = ScenarioFile::from_string(jump_by("\"1s\""), "inline.toml", error);
  ASSERT_TRUE(file.has_value()) << error.to_string();
  const ClockJumpFault set =
      std::get<ClockJumpFault>(resolve_ok(*file, "base", {"fault.ntp.by=-pareto(1s, 1.5)"}).faults.at(0).kind);
  ASSERT_TRUE(set.drawn.has_value());
  EXPECT_EQ(set.drawn->kind, Latency::Kind::pareto);
  EXPECT_TRUE(set.backwards);
}

TEST(ParseError, DrawnJumpWithoutASignIsRefused) {
  // Proves a distribution in `by` needs "+" or "-", and the error offers both spellings.
  const ScenarioError e = inline_error(jump_by("\"uniform(5s, 20s)\""));
  expect_error(e, "inline.toml", 11, "fault.ntp.by", "a drawn jump needs a direction");
  EXPECT_NE(e.message.find("\"+uniform(5s, 20s)\" to step the clock forward"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("\"-uniform(5s, 20s)\" to step it back"), std::string::npos) << e.message;
  // The opposite mistake in `at`: a trigger time is never signed.
  expect_error(inline_error(pause_at("\"+uniform(1s, 2s)\"")), "inline.toml", 11, "fault.gc.at",
               "a drawn trigger time takes no sign");
}

TEST(ParseError, MalformedDistributionReportsTheLatencyParser) {
  // Proves a bad distribution in at, by or length reports the latency parser's message at its file, line and key.
  expect_error(inline_error(pause_at("\"uniform(5s, 1s)\"")), "inline.toml", 11, "fault.gc.at",
               "uniform(LOW, HIGH) needs LOW <= HIGH");
  expect_error(inline_error(pause_at("\"unifrom(1s, 2s)\"")), "inline.toml", 11, "fault.gc.at",
               "unknown latency distribution \"unifrom\"");
  expect_error(inline_error(pause_at("\"uniform(1s)\"")), "inline.toml", 11, "fault.gc.at",
               "expected uniform(LOW, HIGH)");
  expect_error(inline_error(jump_by("\"+exponential(2)\"")), "inline.toml", 11, "fault.ntp.by",
               "\"2\" is not a duration");
  expect_error(inline_error(jump_by("\"-uniform(1s, 2s\"")), "inline.toml", 11, "fault.ntp.by", "missing ')'");
  expect_error(inline_error(kTwoClients + "[fault.gc]\nkind = \"pause\"\nat = \"1s\"\ntarget = \"c1\"\n"
                                          "length = \"pareto(1s, -1)\"\n"),
               "inline.toml", 11, "fault.gc.length", "\"-1\" is not a positive number");
  expect_error(resolve_error(load_ok("variants.toml"), "base", {"fault.gc.at=lognormal(2s)"}), "--set", 0,
               "fault.gc.at", "expected lognormal(MEDIAN, SIGMA)");
}

TEST(ParseRedis, DelayedRestartIsADuration) {
  // Proves [redis] delayed_restart reads a non-negative duration (default 0: serve at once).
  EXPECT_EQ(inline_ok(kTwoClients + "[redis]\ndelayed_restart = \"11s\"\n").redis.node.delayed_restart, 11s);
  EXPECT_EQ(inline_ok(kTwoClients + "[redis]\ndelayed_restart = \"0\"\n").redis.node.delayed_restart, 0s);
  expect_error(inline_error(kTwoClients + "[redis]\ndelayed_restart = \"-1s\"\n"), "inline.toml", 8,
               "redis.delayed_restart", "must not be negative");
  expect_error(inline_error(kTwoClients + "[redis]\ndelayed_restart = 11\n"), "inline.toml", 8, "redis.delayed_restart",
               "expected a duration string");
}

TEST(ParseExpect, ExpiredGrantBounds) {
  // Proves expired-grants-at-least/-at-most read non-negative integers and must be in order.
  const ScenarioSpec s = inline_ok(kTwoClients + "[expect]\nexpired-grants-at-least = 1\nexpired-grants-at-most = 1\n");
  EXPECT_EQ(s.expect.expired_grants_at_least, std::optional<std::int64_t>(1));
  EXPECT_EQ(s.expect.expired_grants_at_most, std::optional<std::int64_t>(1));
  EXPECT_EQ(inline_ok(kTwoClients + "[expect]\nexpired-grants-at-most = 0\n").expect.expired_grants_at_most,
            std::optional<std::int64_t>(0));
  expect_error(inline_error(kTwoClients + "[expect]\nexpired-grants-at-least = 2\nexpired-grants-at-most = 1\n"),
               "inline.toml", 9, "expect.expired-grants-at-most", "is below expired-grants-at-least");
  expect_error(inline_error(kTwoClients + "[expect]\nexpired-grants-at-least = -1\n"), "inline.toml", 8,
               "expect.expired-grants-at-least", "must be at least 0");
  expect_error(inline_error(kTwoClients + "[expect]\nexpired-grants-at-most = \"2\"\n"), "inline.toml", 8,
               "expect.expired-grants-at-most", "expected an integer");
  expect_error(inline_error(kTwoClients + "[expect]\nexpired-grant-at-most = 2\n"), "inline.toml", 8,
               "expect.expired-grant-at-most", "did you mean \"expect.expired-grants-at-most\"");
}

// ---- Replication, failover and services (issue 4) -------------------------------

// kTwoClients and one replica: lines 7-8 are [redis] with replicas = ["R"];
// |rest| starts on line 9.
std::string replicated_text(const std::string& rest = "") {
  return kTwoClients + "[redis]\nreplicas = [\"R\"]\n" + rest;
}

TEST(ParseReplication, EveryReplicationKeyResolves) {
  // Proves every replication, sentinel, service and WAIT key of replicated.toml reaches the ScenarioSpec exactly.
  const ScenarioSpec s = resolve_ok(load_ok("replicated.toml"), "base");
  EXPECT_EQ(s.lock.protocol, LockProtocol::single_node);
  EXPECT_EQ(s.lock.wait_replicas, 2);
  EXPECT_EQ(s.lock.wait_timeout, 50ms);

  EXPECT_EQ(s.redis.nodes, std::vector<std::string>{"M"});
  EXPECT_EQ(s.redis.replicas, (std::vector<std::string>{"R1", "R2"}));
  EXPECT_EQ(s.redis.node.min_replicas_to_write, 1);
  EXPECT_EQ(s.redis.node.min_replicas_max_lag, 5s);
  EXPECT_EQ(s.redis.node.ack_every, 200ms);
  EXPECT_EQ(s.redis.node.replication_delay, 5ms);

  EXPECT_EQ(s.sentinel.names, (std::vector<std::string>{"s1", "s2", "s3"}));
  EXPECT_EQ(s.sentinel.quorum, 3u);
  EXPECT_EQ(s.sentinel.down_after, 5s);
  EXPECT_EQ(s.sentinel.ping_every, 500ms);
  EXPECT_EQ(s.sentinel.failover_timeout, 60s);
  EXPECT_EQ(s.sentinel.client_follow_delay, 2s);

  ASSERT_EQ(s.services.size(), 2u);
  EXPECT_EQ(s.services[0].name, "identity");  // file order, not alphabetical
  EXPECT_EQ(s.services[0].latency.kind, Latency::Kind::lognormal);
  EXPECT_EQ(s.services[0].latency.a, 300ms);
  EXPECT_DOUBLE_EQ(s.services[0].latency.shape, 0.5);
  EXPECT_EQ(s.services[0].pos.line, 33);
  EXPECT_EQ(s.services[1].name, "audit");
  EXPECT_EQ(s.services[1].latency.kind, Latency::Kind::constant);  // the default: 1 ms
  EXPECT_EQ(s.services[1].latency.a, 1ms);

  ASSERT_EQ(s.clients.size(), 2u);
  const std::vector<Step>& steps = s.clients[0].steps;
  ASSERT_EQ(steps.size(), 5u);
  EXPECT_EQ(steps[1].kind, StepKind::call);
  EXPECT_EQ(steps[1].service, "identity");
  EXPECT_EQ(steps[2].kind, StepKind::call);
  EXPECT_EQ(steps[2].service, "");  // a local latency
  EXPECT_EQ(steps[2].duration.a, 2s);
  EXPECT_EQ(steps[3].service, "audit");
  EXPECT_EQ(s.clients[1].steps[1].service, "");
  EXPECT_EQ(s.clients[1].steps[1].duration.kind, Latency::Kind::uniform);

  // Replicas, sentinels and services are processes like any other.
  EXPECT_EQ(s.clocks.at("s2").drift_ppm, 10'000);
  EXPECT_EQ(s.clocks.at("R1").offset, -1s);
  EXPECT_EQ(s.clocks.at("identity").offset, 2s);
  ASSERT_EQ(s.network.links.size(), 2u);
  EXPECT_EQ(s.network.links[0].from, "s1");
  EXPECT_EQ(s.network.links[0].to, "R1");
  EXPECT_EQ(s.network.links[1].to, "identity");
  ASSERT_EQ(s.faults.size(), 5u);
  EXPECT_EQ(*scenario::fault_target(s.faults[0].kind), "M");
  EXPECT_EQ(*scenario::fault_target(s.faults[1].kind), "identity");
  EXPECT_EQ(s.faults[1].trigger.phase, Phase::called);
  EXPECT_EQ(*scenario::fault_target(s.faults[2].kind), "s3");
  EXPECT_EQ(*scenario::fault_target(s.faults[3].kind), "R2");
  EXPECT_EQ(std::get<PartitionFault>(s.faults[4].kind).groups, (std::vector<std::vector<std::string>>{
                                    {"M", "c1", "identity"}, {"R1", "R2", "s1", "s2", "s3", "c2", "audit"}}));
}

TEST(ParseReplication, ReplicasNeedTheSingleNodeProtocol) {
  // Proves replicas under Redlock are an error at redis.replicas, and several masters with replicas are refused.
  expect_error(inline_error(redlock_text("", "replicas = [\"R\"]\n")), "inline.toml", 11, "redis.replicas",
               "replicas are for the single-node lock");
  expect_error(inline_error(kTwoClients + "[redis]\nnodes = [\"a\", \"b\"]\nreplicas = [\"R\"]\n"), "inline.toml", 8,
               "redis.nodes", "the single-node lock uses exactly one node");
  EXPECT_TRUE(inline_ok(redlock_text("", "replicas = []\n")).redis.replicas.empty());  // none: fine
  // Turning a replicated story into Redlock with --set names the replicas.
  expect_error(resolve_error(load_ok("replicated.toml"), "base",
                             {"lock.protocol=redlock", "redis.nodes=[\"a\", \"b\", \"c\"]", "lock.wait_replicas=0"}),
               data_path("replicated.toml"), 18, "redis.replicas", "the protocol is \"redlock\"");
}

TEST(ParseReplication, ReplicationValuesAreChecked) {
  // Proves replica names, min_replicas_to_write's range and the replication durations' signs are checked.
  expect_error(inline_error(kTwoClients + "[redis]\nreplicas = [\"R\", \"R\"]\n"), "inline.toml", 8, "redis.replicas",
               "replica \"R\" is listed twice");
  expect_error(inline_error(kTwoClients + "[redis]\nreplicas = [\"R 1\"]\n"), "inline.toml", 8, "redis.replicas",
               "bad process name \"R 1\"");
  expect_error(inline_error(kTwoClients + "[redis]\nreplicas = \"R\"\n"), "inline.toml", 8, "redis.replicas",
               "expected an array of strings");
  EXPECT_EQ(inline_ok(replicated_text("min_replicas_to_write = 1\n")).redis.node.min_replicas_to_write, 1);
  expect_error(inline_error(replicated_text("min_replicas_to_write = 2\n")), "inline.toml", 9,
               "redis.min_replicas_to_write", "must be between 0 and 1 (the number of redis.replicas); got 2");
  expect_error(inline_error(replicated_text("min_replicas_to_write = -1\n")), "inline.toml", 9,
               "redis.min_replicas_to_write", "got -1");
  expect_error(inline_error(kTwoClients + "[redis]\nmin_replicas_to_write = 1\n"), "inline.toml", 8,
               "redis.min_replicas_to_write", "must be 0 without replicas (redis.replicas is empty");
  expect_error(inline_error(replicated_text("min_replicas_max_lag = \"0s\"\n")), "inline.toml", 9,
               "redis.min_replicas_max_lag", "greater than zero");
  EXPECT_EQ(inline_ok(replicated_text("min_replicas_max_lag = \"2min\"\n")).redis.node.min_replicas_max_lag, 120s);
  expect_error(inline_error(replicated_text("min_replicas_max_lag = \"1500ms\"\n")), "inline.toml", 9,
               "redis.min_replicas_max_lag", "must be a whole number of seconds");
  expect_error(inline_error(replicated_text("ack_every = \"0\"\n")), "inline.toml", 9, "redis.ack_every",
               "greater than zero");
  expect_error(inline_error(replicated_text("replication_delay = \"-1ms\"\n")), "inline.toml", 9,
               "redis.replication_delay", "must not be negative");
  expect_error(inline_error(replicated_text("replication_delay = \"uniform(1ms, 2ms)\"\n")), "inline.toml", 9,
               "redis.replication_delay", "bad duration");
  EXPECT_EQ(inline_ok(replicated_text("replication_delay = \"0\"\n")).redis.node.replication_delay, 0s);
  expect_error(inline_error(replicated_text("replica = [\"R2\"]\n")), "inline.toml", 9, "redis.replica",
               "did you mean \"redis.replicas\"");
}

TEST(ParseReplication, WaitReplicasIsBoundedByTheReplicas) {
  // Proves lock.wait_replicas takes 0..the number of replicas (only 0 without replicas) and wait_timeout is >= 0.
  const std::string two = kTwoClients + "[redis]\nreplicas = [\"R1\", \"R2\"]\n[lock]\n";  // lock keys from line 10
  EXPECT_EQ(inline_ok(two + "wait_replicas = 2\n").lock.wait_replicas, 2);
  EXPECT_EQ(inline_ok(two + "wait_replicas = 0\n").lock.wait_replicas, 0);
  expect_error(inline_error(two + "wait_replicas = 3\n"), "inline.toml", 10, "lock.wait_replicas",
               "must be between 0 and 2 (the number of redis.replicas); got 3");
  expect_error(inline_error(two + "wait_replicas = -1\n"), "inline.toml", 10, "lock.wait_replicas",
               "must be at least 0");
  expect_error(inline_error(kTwoClients + "[lock]\nwait_replicas = 1\n"), "inline.toml", 8, "lock.wait_replicas",
               "must be 0 without replicas (redis.replicas is empty");
  EXPECT_EQ(inline_ok(kTwoClients + "[lock]\nwait_replicas = 0\n").lock.wait_replicas, 0);
  EXPECT_EQ(inline_ok(two + "wait_timeout = \"0\"\n").lock.wait_timeout, 0s);  // WAIT 0: block until the count
  expect_error(inline_error(two + "wait_timeout = \"-5ms\"\n"), "inline.toml", 10, "lock.wait_timeout",
               "must not be negative");
  // WAIT takes whole milliseconds; a finer timeout would be truncated, to 0 (wait for ever) at worst.
  EXPECT_EQ(inline_ok(two + "wait_timeout = \"1.5s\"\n").lock.wait_timeout, 1500ms);
  expect_error(inline_error(two + "wait_timeout = \"500us\"\n"), "inline.toml", 10, "lock.wait_timeout",
               "must be a whole number of milliseconds (WAIT's timeout is in milliseconds, and 0 means wait for "
               "ever), got \"500us\"");
  expect_error(inline_error(two + "wait_replicas = \"1\"\n"), "inline.toml", 10, "lock.wait_replicas",
               "expected an integer");
}

TEST(ParseSentinel, SentinelsNeedReplicas) {
  // Proves sentinels without a replica to promote are refused at sentinel.names, and [sentinel] needs its names.
  expect_error(inline_error(kTwoClients + "[sentinel]\nnames = [\"s1\", \"s2\", \"s3\"]\n"), "inline.toml", 8,
               "sentinel.names", "sentinels fail the master over to one of its replicas, and redis.replicas is empty");
  expect_error(inline_error(replicated_text("[sentinel]\ndown_after = \"5s\"\n")), "inline.toml", 10,
               "sentinel.down_after", "[sentinel] has no names");
  const ScenarioSpec none = inline_ok(kTwoClients + "[sentinel]\nnames = []\ndown_after = \"5s\"\n");
  EXPECT_TRUE(none.sentinel.names.empty());  // names = []: no sentinels, no replicas needed
  expect_error(inline_error(replicated_text("[sentinel]\nnames = [\"s1\", \"s1\"]\n")), "inline.toml", 10,
               "sentinel.names", "sentinel \"s1\" is listed twice");
  expect_error(inline_error(replicated_text("[sentinel]\nnames = [\"s1\"]\ndown_after = \"0s\"\n")), "inline.toml",
               11, "sentinel.down_after", "greater than zero");
  expect_error(inline_error(replicated_text("[sentinel]\nnames = [\"s1\"]\nping_every = \"1\"\n")), "inline.toml",
               11, "sentinel.ping_every", "has no unit");
  expect_error(inline_error(replicated_text("[sentinel]\nnames = [\"s1\"]\nfailover_timeout = \"0\"\n")),
               "inline.toml", 11, "sentinel.failover_timeout", "greater than zero");
  expect_error(inline_error(replicated_text("[sentinel]\nnames = [\"s1\"]\nclient_follow_delay = \"-1s\"\n")),
               "inline.toml", 11, "sentinel.client_follow_delay", "must not be negative");
  EXPECT_EQ(inline_ok(replicated_text("[sentinel]\nnames = [\"s1\"]\nclient_follow_delay = \"0\"\n"))
                .sentinel.client_follow_delay,
            0s);
  expect_error(inline_error(replicated_text("[sentinel]\nnames = [\"s1\"]\nqorum = 1\n")), "inline.toml", 11,
               "sentinel.qorum", "did you mean \"sentinel.quorum\"");
}

TEST(ParseSentinel, QuorumMustBeWithinTheSentinels) {
  // Proves sentinel.quorum takes 1..the number of sentinels, and its default 2 drops to 1 with a single sentinel.
  const std::string three = replicated_text("[sentinel]\nnames = [\"s1\", \"s2\", \"s3\"]\n");  // quorum on line 11
  EXPECT_EQ(inline_ok(three).sentinel.quorum, 2u);
  EXPECT_EQ(inline_ok(three + "quorum = 1\n").sentinel.quorum, 1u);
  EXPECT_EQ(inline_ok(three + "quorum = 3\n").sentinel.quorum, 3u);
  expect_error(inline_error(three + "quorum = 4\n"), "inline.toml", 11, "sentinel.quorum",
               "must be between 1 and 3 (the number of sentinel.names); got 4");
  expect_error(inline_error(three + "quorum = 0\n"), "inline.toml", 11, "sentinel.quorum", "got 0");
  expect_error(inline_error(three + "quorum = \"2\"\n"), "inline.toml", 11, "sentinel.quorum", "expected an integer");
  EXPECT_EQ(inline_ok(replicated_text("[sentinel]\nnames = [\"s1\"]\n")).sentinel.quorum, 1u);  // default, clamped
  expect_error(inline_error(replicated_text("[sentinel]\nnames = [\"s1\"]\nquorum = 2\n")), "inline.toml", 11,
               "sentinel.quorum", "must be between 1 and 1");
  // A variant or --set that removes the sentinels keeps the base's quorum without an error; one that has fewer
  // sentinels than the base's quorum is refused at the quorum.
  ScenarioError error;
  const std::optional<ScenarioFile> file = ScenarioFile::from_string(
      three + "quorum = 3\n[variant.no-sentinels]\nsentinel.names = []\n", "inline.toml", error);
  ASSERT_TRUE(file) << error.to_string();
  EXPECT_TRUE(resolve_ok(*file, "no-sentinels").sentinel.names.empty());
  EXPECT_TRUE(resolve_ok(*file, "base", {"sentinel.names=[]"}).sentinel.names.empty());
  expect_error(resolve_error(*file, "base", {"sentinel.names=[\"x\", \"y\"]"}), "inline.toml", 11, "sentinel.quorum",
               "must be between 1 and 2");
}

TEST(ParseService, CallNamesAServiceOrALatency) {
  // Proves "call identity" calls the service, "call 2s" is a local latency and "call nobody" lists services and forms.
  const std::string service = kTwoClients + "[service.identity]\nlatency = \"200ms\"\n[client.c3]\nsteps = [\n";
  const ScenarioSpec s = inline_ok(service + "\"call identity\",\n\"call 2s\",\n\"call  identity \",\n]\n");
  const std::vector<Step>& steps = s.clients[2].steps;
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].kind, StepKind::call);
  EXPECT_EQ(steps[0].service, "identity");
  EXPECT_EQ(steps[1].kind, StepKind::call);
  EXPECT_EQ(steps[1].service, "");
  EXPECT_EQ(steps[1].duration.a, 2s);
  EXPECT_EQ(steps[2].service, "identity");  // spaces around the name are trimmed
  const ScenarioError nobody = inline_error(service + "\"call 2s\",\n\"call nobody\",\n]\n");
  expect_error(nobody, "inline.toml", 12, "client.c3.steps",
               "in step \"call nobody\": unknown service \"nobody\"; services: identity");
  EXPECT_NE(nobody.message.find("a duration such as \"2s\", or constant(V), uniform(LOW, HIGH), exponential(MEAN), "
                                "lognormal(MEDIAN, SIGMA), pareto(SCALE, ALPHA)"),
            std::string::npos)
      << nobody.message;
  expect_error(inline_error(service + "\"call identiy\",\n]\n"), "inline.toml", 11, "client.c3.steps",
               "unknown service \"identiy\" (did you mean \"identity\"?)");
  expect_error(inline_error(kTwoClients + "[client.c3]\nsteps = [\"call identity\"]\n"), "inline.toml", 8,
               "client.c3.steps", "there are no services (declare one as [service.identity])");
  expect_error(inline_error(service + "\"call c1\",\n]\n"), "inline.toml", 11, "client.c3.steps",
               "\"c1\" is a client, not a service");
  expect_error(inline_error(service + "\"call r1\",\n]\n"), "inline.toml", 11, "client.c3.steps",
               "\"r1\" is a redis node, not a service");
  // Not a word: the latency's own error.
  expect_error(inline_error(service + "\"call 2 secs\",\n]\n"), "inline.toml", 11, "client.c3.steps",
               "bad duration");
  expect_error(inline_error(service + "\"call\",\n]\n"), "inline.toml", 11, "client.c3.steps",
               "needs a service or a latency, such as \"call identity\"");
  // work takes no service.
  expect_error(inline_error(service + "\"work identity\",\n]\n"), "inline.toml", 11, "client.c3.steps",
               "in step \"work identity\": bad duration");
}

TEST(ParseService, ServiceTablesAreChecked) {
  // Proves [service.NAME] checks its name, keys and latency, and keeps the tables in file order.
  const ScenarioSpec s = inline_ok(kTwoClients + "[service.zeta]\n[service.alpha]\nlatency = \"exponential(5ms)\"\n");
  ASSERT_EQ(s.services.size(), 2u);
  EXPECT_EQ(s.services[0].name, "zeta");
  EXPECT_EQ(s.services[0].latency.a, 1ms);
  EXPECT_EQ(s.services[1].name, "alpha");
  EXPECT_EQ(s.services[1].latency.kind, Latency::Kind::exponential);
  EXPECT_EQ(s.services[1].pos.line, 8);
  expect_error(inline_error(kTwoClients + "[service.identity]\nlatency = \"200\"\n"), "inline.toml", 8,
               "service.identity.latency", "has no unit");
  expect_error(inline_error(kTwoClients + "[service.identity]\nlatncy = \"2ms\"\n"), "inline.toml", 8,
               "service.identity.latncy", "did you mean \"service.identity.latency\"");
  expect_error(inline_error(kTwoClients + "[service]\nlatency = \"2ms\"\n"), "inline.toml", 8, "service.latency",
               "expected a table such as [service.NAME]");
  expect_error(inline_error(kTwoClients + "[service.\"id svc\"]\n"), "inline.toml", 7, "service.\"id svc\"",
               "bad process name \"id svc\"");
  expect_error(inline_error(kTwoClients + "[servcie.identity]\n"), "inline.toml", 7, "servcie",
               "did you mean \"service\"");
}

TEST(ParseError, ProcessNamesAreUniqueAcrossAllKinds) {
  // Proves replicas, sentinels and services share one namespace with clients, redis nodes and the resource.
  const ScenarioError sentinel = inline_error(replicated_text("[sentinel]\nnames = [\"s1\", \"c1\"]\n"));
  expect_error(sentinel, "inline.toml", 3, "client.c1", "name \"c1\" is already taken by the sentinel (line 10)");
  EXPECT_NE(sentinel.message.find("unique across clients, redis nodes, replicas, sentinels, services and the "
                                  "resource"),
            std::string::npos)
      << sentinel.message;
  expect_error(inline_error(kTwoClients + "[redis]\nreplicas = [\"r1\"]\n"), "inline.toml", 8, "redis.replicas",
               "already taken by the redis node");
  expect_error(inline_error(replicated_text("[sentinel]\nnames = [\"R\"]\n")), "inline.toml", 10, "sentinel.names",
               "already taken by the replica (line 8)");
  expect_error(inline_error(replicated_text("[sentinel]\nnames = [\"s1\"]\n[service.s1]\n")), "inline.toml", 11,
               "service.s1", "already taken by the sentinel");
  expect_error(inline_error(kTwoClients + "[service.resource]\n"), "inline.toml", 0, "resource.name",
               "already taken by the service (line 7)");
  expect_error(inline_error(kTwoClients + "[service.c2]\n"), "inline.toml", 5, "client.c2",
               "already taken by the service");
  expect_error(resolve_error(load_ok("replicated.toml"), "base", {"redis.replicas=[\"R1\", \"s2\"]"}),
               data_path("replicated.toml"), 25, "sentinel.names", "already taken by the replica (from --set)");
}

TEST(ParseReplication, NewProcessesAreTargetsButNotTriggers) {
  // Proves a replica, a sentinel and a service can be a fault target, a clock and a partition member, not a trigger.
  const std::string text = replicated_text(
      "[sentinel]\nnames = [\"s1\"]\n"
      "[service.identity]\n"
      "[clock.R]\ndrift = \"100ppm\"\n"
      "[clock.s1]\noffset = \"1s\"\n"
      "[clock.identity]\ndrift = \"-1%\"\n"
      "[fault.gc]\nkind = \"pause\"\nat = \"1s\"\ntarget = \"identity\"\nlength = \"2s\"\n"
      "[fault.boom]\nkind = \"crash\"\nat = \"2s\"\ntarget = \"R\"\n"
      "[fault.jump]\nkind = \"clock-jump\"\nat = \"3s\"\ntarget = \"s1\"\nby = \"-2s\"\n"
      "[fault.split]\nkind = \"partition\"\nat = \"4s\"\ngroups = [[\"r1\", \"c1\"], [\"R\", \"s1\", \"identity\"]]\n");
  const ScenarioSpec s = inline_ok(text);
  EXPECT_EQ(s.clocks.at("R").drift_ppm, 100);
  EXPECT_EQ(s.clocks.at("s1").offset, 1s);
  EXPECT_EQ(s.clocks.at("identity").drift_ppm, -10'000);
  ASSERT_EQ(s.faults.size(), 4u);
  EXPECT_EQ(*scenario::fault_target(s.faults[0].kind), "identity");
  EXPECT_EQ(*scenario::fault_target(s.faults[1].kind), "R");
  EXPECT_EQ(*scenario::fault_target(s.faults[2].kind), "s1");
  EXPECT_EQ(std::get<PartitionFault>(s.faults[3].kind).groups, (std::vector<std::vector<std::string>>{{"r1", "c1"}, {"R", "s1", "identity"}}));
  // The unknown-process list names every kind, in registration order.
  ScenarioError error;
  const std::optional<ScenarioFile> file = ScenarioFile::from_string(text, "inline.toml", error);
  ASSERT_TRUE(file) << error.to_string();
  const ScenarioError unknown = resolve_error(*file, "base", {"fault.boom.target=identiy"});
  expect_error(unknown, "--set", 0, "fault.boom.target", "unknown process \"identiy\" (did you mean \"identity\"?)");
  EXPECT_NE(unknown.message.find("processes: r1, R, s1, identity, resource, c1, c2"), std::string::npos)
      << unknown.message;
  const std::string pause = "[fault.gc]\nkind = \"pause\"\ntarget = \"c1\"\nlength = \"1s\"\n";
  expect_error(inline_error(replicated_text("[sentinel]\nnames = [\"s1\"]\n" + pause + "at = \"s1 acquired\"\n")),
               "inline.toml", 15, "fault.gc.at", "\"s1\" is a sentinel; phase triggers name a client");
  expect_error(inline_error(replicated_text(pause + "at = \"R acquired\"\n")), "inline.toml", 13, "fault.gc.at",
               "\"R\" is a replica");
  expect_error(inline_error(kTwoClients + "[service.identity]\n" + pause + "at = \"identity called\"\n"),
               "inline.toml", 12, "fault.gc.at", "\"identity\" is a service");
}

TEST(ParseDocs, FormatExamplesLoad) {
  // Proves every ```toml example in scenarios/FORMAT.md that is a whole scenario loads, all its variants included.
  const std::string doc = read_text(std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/FORMAT.md");
  ASSERT_FALSE(doc.empty());
  const std::string open = "```toml\n";
  std::vector<std::string> names;
  for (std::size_t at = doc.find(open); at != std::string::npos; at = doc.find(open, at)) {
    at += open.size();
    const std::size_t end = doc.find("```", at);
    ASSERT_NE(end, std::string::npos);
    const std::string example = doc.substr(at, end - at);
    if (example.find("[scenario]") == std::string::npos) continue;  // a fragment, such as the variant snippet
    ScenarioError error;
    const std::optional<ScenarioFile> file = ScenarioFile::from_string(example, "FORMAT.md example", error);
    if (!file) {
      ADD_FAILURE() << error.to_string() << "\nin:\n" << example;
      continue;
    }
    names.push_back(file->name());
  }
  EXPECT_EQ(names, (std::vector<std::string>{"single-node-gc-pause", "redlock-example", "etcd-two-clients",
                                             "failover-example", "oversell-example"}));
}

}  // namespace
}  // namespace locksim
