// Scenario files: what a valid file resolves to, how variants and --set merge,
// and what each kind of broken input reports (file, line, key, message).
#include "sim/scenario/parse.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

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

ScenarioSpec resolve_ok(const ScenarioFile& file, const std::string& variant,
                        const std::vector<std::string>& overrides = {}) {
  ScenarioError error;
  std::optional<ScenarioSpec> spec = file.resolve(variant, overrides, error);
  if (!spec) ADD_FAILURE() << error.to_string();
  return spec.value_or(ScenarioSpec{});
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

  EXPECT_EQ(s.lock.protocol, LockProtocol::single_node);
  EXPECT_EQ(s.lock.key, "orders-lock");
  EXPECT_EQ(s.lock.ttl, 8s);
  EXPECT_EQ(s.lock.acquire, AcquireStyle::setnx_then_expire);
  EXPECT_EQ(s.lock.release, ReleaseStyle::del);
  EXPECT_EQ(s.lock.fencing, FencingStyle::incr);
  EXPECT_EQ(s.lock.fencing_key, "orders-fence");
  EXPECT_EQ(s.lock.request_timeout, 250ms);
  EXPECT_EQ(s.lock.clock, ClockKind::wall);
  EXPECT_EQ(s.lock.drift_factor_ppm, 10'000);
  EXPECT_EQ(s.lock.drift_fixed, 2ms);

  EXPECT_EQ(s.redis.nodes, (std::vector<std::string>{"ra", "rb", "rc"}));
  EXPECT_EQ(s.redis.node.expiry_clock, ClockKind::monotonic);
  EXPECT_EQ(s.redis.node.persistence, redis::Persistence::aof_everysec);
  EXPECT_EQ(s.redis.node.fsync_every, 500ms);

  EXPECT_EQ(s.resource.name, "db");
  EXPECT_EQ(s.resource.policy, WritePolicy::fencing);
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
  ASSERT_TRUE(c2.retry_delay.has_value());
  EXPECT_EQ(c2.retry_delay->kind, Latency::Kind::uniform);
  EXPECT_EQ(c2.retry_delay->a, 50ms);
  EXPECT_EQ(c2.retry_delay->b, 150ms);
  EXPECT_EQ(c2.think, 40us);
  EXPECT_FALSE(c2.release);
  EXPECT_EQ(c2.pos.line, 37);
  const ClientSpec& c1 = s.clients[1];
  EXPECT_EQ(c1.name, "c1");
  EXPECT_EQ(c1.start, 0s);
  std::vector<StepKind> kinds;
  for (const Step& step : c1.steps) kinds.push_back(step.kind);
  EXPECT_EQ(kinds, (std::vector<StepKind>{StepKind::mark, StepKind::add, StepKind::increment_size, StepKind::write,
                                          StepKind::check_and_decrement}));
  EXPECT_EQ(c1.iterations, 1);
  EXPECT_FALSE(c1.attempts.has_value());  // inherits lock.attempts
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

  ASSERT_EQ(s.faults.size(), 6u);
  const FaultSpec& gc = s.faults[0];
  EXPECT_EQ(gc.name, "gc");
  EXPECT_EQ(gc.kind, FaultSpecKind::pause);
  EXPECT_TRUE(gc.trigger.at_phase);
  EXPECT_EQ(gc.trigger.process, "c1");
  EXPECT_EQ(gc.trigger.phase, Phase::acquired);
  EXPECT_EQ(gc.trigger.delay, 10ms);
  EXPECT_EQ(gc.trigger.occurrence, 2);
  EXPECT_EQ(gc.target, "c1");
  EXPECT_EQ(gc.length.a, 15s);
  EXPECT_EQ(gc.pos.line, 71);
  const FaultSpec& boom = s.faults[1];
  EXPECT_EQ(boom.kind, FaultSpecKind::crash);
  EXPECT_FALSE(boom.trigger.at_phase);
  EXPECT_EQ(boom.trigger.at_time, 5s);
  EXPECT_EQ(boom.target, "rb");
  EXPECT_EQ(boom.restart_after, 1500ms);
  EXPECT_EQ(s.faults[2].kind, FaultSpecKind::restart);
  EXPECT_EQ(s.faults[2].trigger.at_time, 20s);
  const FaultSpec& jump = s.faults[3];
  EXPECT_EQ(jump.kind, FaultSpecKind::clock_jump);
  EXPECT_EQ(jump.by, -15s);
  const FaultSpec& fast = s.faults[4];
  EXPECT_EQ(fast.kind, FaultSpecKind::clock_drift);
  EXPECT_EQ(fast.trigger.at_time, 0s);
  EXPECT_EQ(fast.drift_ppm, 5'000);
  const FaultSpec& split = s.faults[5];
  EXPECT_EQ(split.kind, FaultSpecKind::partition);
  EXPECT_EQ(split.trigger.process, "c2");
  EXPECT_EQ(split.trigger.phase, Phase::read);
  EXPECT_EQ(split.groups, (std::vector<std::vector<std::string>>{{"c1", "ra"}, {"c2", "rb", "rc"}}));
  EXPECT_EQ(split.mode, PartitionMode::hold);
  EXPECT_EQ(split.heal_after, 12s);

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
  EXPECT_EQ(s.redis.nodes, std::vector<std::string>{"r1"});
  EXPECT_EQ(s.redis.node.expiry_clock, ClockKind::wall);
  EXPECT_EQ(s.resource.name, "resource");
  EXPECT_EQ(s.resource.app, AppKind::counter);
  EXPECT_EQ(s.network.default_link.latency.a, 1ms);
  EXPECT_EQ(s.network.default_link.loss_ppm, 0);
  ASSERT_EQ(s.clients.size(), 1u);
  EXPECT_TRUE(s.clients[0].steps.empty());
  EXPECT_FALSE(s.clients[0].retry_delay.has_value());  // inherits lock.retry_delay
  EXPECT_EQ(s.lock.retry_delay.a, 100ms);
  EXPECT_TRUE(s.faults.empty());
  for (const auto& v : s.expect.violated) EXPECT_FALSE(v.has_value());
}

TEST(ParseValid, StepNamesAreTheOnesFilesUse) {
  // Proves step_name() gives the spelling the parser accepts, for every step kind.
  EXPECT_STREQ(step_name(StepKind::increment_size), "increment-size");
  EXPECT_STREQ(step_name(StepKind::check_and_decrement), "check-and-decrement");
  std::string text = kTwoClients + "[client.c3]\nsteps = [";
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
  EXPECT_EQ(s.faults[0].length.a, 15s);
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
  EXPECT_EQ(s.clients[0].steps[0].kind, StepKind::write);
  EXPECT_EQ(s.faults[0].length.a, 30s);
  EXPECT_EQ(s.faults[0].target, "c1");  // inherited from [fault.gc]
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
                                       "redis.nodes = [\"r1\"]\n");
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
  const ScenarioSpec s =
      resolve_ok(file, "zeta",
                 {"client.c2.iterations=4", "client.c1.release=false", "fault.gc.at=c2 read",
                  "redis.nodes=[\"a\", \"b\", \"c\"]", "network={ latency = \"3ms\" }", "scenario.seed=7"});
  EXPECT_EQ(s.clients[1].iterations, 4);
  EXPECT_EQ(s.clients[1].start, 10s);  // the rest of [client.c2] stays
  EXPECT_FALSE(s.clients[0].release);
  EXPECT_EQ(s.faults[0].trigger.process, "c2");
  EXPECT_EQ(s.faults[0].target, "c1");
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
               "[lock] takes: protocol, key, ttl");
}

TEST(ParseError, WrongTypeSaysWhatWasExpectedAndWhatCame) {
  // Proves a value of the wrong TOML type names the expected form and the value found.
  expect_error(file_error("bad-type.toml"), data_path("bad-type.toml"), 6, "lock.ttl",
               "expected a duration string such as \"10s\", got integer 10");
  expect_error(inline_error(kTwoClients + "[client.c3]\niterations = \"2\"\n"), "inline.toml", 8,
               "client.c3.iterations", "expected an integer, got string \"2\"");
  expect_error(inline_error(kTwoClients + "[lock]\nttl = { s = 1 }\n"), "inline.toml", 8, "lock.ttl", "got a table");
  expect_error(inline_error(kTwoClients + "[lock]\nfencing = \"inc\"\n"), "inline.toml", 8, "lock.fencing",
               "expected one of \"none\", \"incr\", got \"inc\" (did you mean \"incr\"?)");
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
               "\"length\" does not apply to a crash fault (a crash fault takes: target, restart_after)");
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

}  // namespace
}  // namespace locksim
