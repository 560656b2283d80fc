// Variants that compose: `extends` starts a variant from another one, `unset`
// drops inherited keys and tables, in the order inherited -> unset -> own
// keys -> --set; broken chains and unset entries that name nothing are
// refused with the file, line and key; merged_toml() writes a document that
// runs the same.
#include <gtest/gtest.h>

#include "sim/core/trace.h"
#include "sim/run/run.h"
#include "sim/scenario/file.h"
#include "tests/unit/resolve_ok.h"

namespace locksim {
namespace {

using namespace std::chrono_literals;

// A Redlock base, a chain tuned <- tuned-long, and an etcd variant that
// drops the Redlock sections (line numbers matter for the error tests).
const std::string kComposed =
    "[scenario]\n"                                   // 1
    "name = \"composed\"\n"                          // 2
    "run_for = \"20s\"\n"                            // 3
    "[lock]\n"                                       // 4
    "protocol = \"redlock\"\n"                       // 5
    "ttl = \"10s\"\n"                                // 6
    "drift_factor = 0.01\n"                          // 7
    "[redlock]\n"                                    // 8
    "node_timeout = \"50ms\"\n"                      // 9
    "[redis]\n"                                      // 10
    "nodes = [\"A\", \"B\", \"C\"]\n"                // 11
    "[client.c1]\n"                                  // 12
    "steps = [\"read\", \"write\"]\n"                // 13
    "[client.c2]\n"                                  // 14
    "start = \"1s\"\n"                               // 15
    "steps = [\"read\", \"write\"]\n"                // 16
    "[fault.gc]\n"                                   // 17
    "kind = \"pause\"\n"                             // 18
    "target = \"c1\"\n"                              // 19
    "at = \"c1 read\"\n"                             // 20
    "length = \"15s\"\n"                             // 21
    "[fault.C-jump]\n"                               // 22
    "kind = \"clock-jump\"\n"                        // 23
    "target = \"C\"\n"                               // 24
    "at = \"1s\"\n"                                  // 25
    "by = \"+5s\"\n"                                 // 26
    "[expect]\n"                                     // 27
    "belief-exclusive = \"violated\"\n"              // 28
    "[variant.tuned]\n"                              // 29
    "lock.ttl = \"30s\"\n"                           // 30
    "redis.expiry_clock = \"monotonic\"\n"           // 31
    "[variant.tuned-long]\n"                         // 32
    "extends = \"tuned\"\n"                          // 33
    "unset = [\"fault.C-jump\"]\n"                   // 34
    "fault.gc.length = \"40s\"\n"                    // 35
    "[variant.etcd]\n"                               // 36
    "unset = [\"lock\", \"redlock\", \"redis\", \"fault.C-jump\"]\n"  // 37
    "lock.protocol = \"etcd\"\n"                     // 38
    "lock.ttl = \"10s\"\n"                           // 39
    "[variant.etcd-fenced]\n"                        // 40
    "extends = \"etcd\"\n"                           // 41
    "resource.policy = \"fencing\"\n";               // 42

ScenarioFile load_ok(const std::string& text) {
  ScenarioErrors errors;
  std::optional<ScenarioFile> file = ScenarioFile::from_string(text, "composed.toml", errors);
  for (const ScenarioError& e : errors) ADD_FAILURE() << e.to_string();
  return *file;
}

// Every error of loading |text|; fails the test if it loads.
ScenarioErrors load_errors(const std::string& text) {
  ScenarioErrors errors;
  if (ScenarioFile::from_string(text, "composed.toml", errors)) ADD_FAILURE() << "loaded without error";
  return errors;
}

void expect_one_error(const ScenarioErrors& errors, int line, const std::string& key, const std::string& fragment) {
  ASSERT_EQ(errors.size(), 1u) << (errors.empty() ? "" : errors.front().to_string() + " ...");
  const ScenarioError& e = errors.front();
  EXPECT_EQ(e.file, "composed.toml") << e.to_string();
  EXPECT_EQ(e.line, line) << e.to_string();
  EXPECT_EQ(e.key, key) << e.to_string();
  EXPECT_NE(e.message.find(fragment), std::string::npos) << "no \"" << fragment << "\" in: " << e.to_string();
}

std::vector<std::string> fault_names(const ScenarioSpec& spec) {
  std::vector<std::string> out;
  for (const FaultSpec& f : spec.faults) out.push_back(f.name);
  return out;
}

TEST(VariantExtends, AChainInheritsEachLinkThenItsOwnKeys) {
  // Proves tuned-long starts from tuned as tuned resolves (TTL, expiry clock), then applies its own keys.
  const ScenarioFile file = load_ok(kComposed);
  const ScenarioSpec tuned = resolve_ok(file, "tuned");
  const ScenarioSpec chained = resolve_ok(file, "tuned-long");
  EXPECT_EQ(tuned.lock.ttl, 30s);
  EXPECT_EQ(chained.lock.ttl, 30s);                                             // from tuned
  EXPECT_EQ(chained.redis.node.expiry_clock, tuned.redis.node.expiry_clock);              // from tuned
  EXPECT_NE(chained.redis.node.expiry_clock, resolve_ok(file, "base").redis.node.expiry_clock);
  ASSERT_EQ(fault_names(chained), std::vector<std::string>{"gc"});              // C-jump unset
  EXPECT_EQ(std::get<PauseFault>(chained.faults[0].kind).length.a, 40s);        // its own key
  EXPECT_EQ(fault_names(tuned), (std::vector<std::string>{"gc", "C-jump"}));   // tuned is untouched
  EXPECT_EQ(chained.lock.protocol, LockProtocol::redlock);
}

TEST(VariantExtends, AChainThroughAnUnsetKeepsTheRemoval) {
  // Proves etcd-fenced inherits etcd with the Redlock sections already dropped, and adds its own key.
  const ScenarioFile file = load_ok(kComposed);
  const ScenarioSpec etcd = resolve_ok(file, "etcd-fenced");
  EXPECT_EQ(etcd.lock.protocol, LockProtocol::etcd);
  EXPECT_EQ(etcd.lock.ttl, 10s);
  EXPECT_TRUE(etcd.redis.nodes.empty());
  EXPECT_EQ(etcd.store.members, (std::vector<std::string>{"s1", "s2", "s3"}));
  EXPECT_EQ(etcd.resource.policy, WritePolicy::fencing);
  EXPECT_EQ(fault_names(etcd), std::vector<std::string>{"gc"});
  EXPECT_EQ(etcd.expect.violated[static_cast<std::size_t>(Property::belief_exclusive)], std::optional<bool>(true));
}

TEST(VariantUnset, AWholeTableGoesBeforeTheVariantsOwnKeysApply) {
  // Proves unset = ["lock"] drops drift_factor with the table, and lock.protocol/ttl come back from the variant.
  const ScenarioFile file = load_ok(kComposed);
  const ScenarioSpec etcd = resolve_ok(file, "etcd");
  EXPECT_EQ(etcd.lock.protocol, LockProtocol::etcd);  // a Redlock key left over would be an error under etcd
  EXPECT_EQ(etcd.lock.ttl, 10s);
  EXPECT_TRUE(etcd.redis.nodes.empty());
}

TEST(VariantUnset, SetOverridesComeAfterUnset) {
  // Proves --set applies last: it can give back a key the variant dropped, and beats the variant's own value.
  const ScenarioFile file = load_ok(kComposed);
  const ScenarioSpec etcd = resolve_ok(file, "etcd", {"lock.ttl=20s", "fault.C-jump={kind=\"clock-jump\", "
                                                      "target=\"s1\", at=\"1s\", by=\"+5s\"}"});
  EXPECT_EQ(etcd.lock.ttl, 20s);
  EXPECT_EQ(fault_names(etcd), (std::vector<std::string>{"gc", "C-jump"}));
  const ScenarioSpec tuned_long = resolve_ok(file, "tuned-long", {"fault.gc.length=2s"});
  EXPECT_EQ(std::get<PauseFault>(tuned_long.faults[0].kind).length.a, 2s);
}

TEST(VariantUnset, MergedTomlRunsLikeTheVariant) {
  // Proves merged_toml() of a variant built with extends and unset reads back as a document that runs the same:
  // the same trace byte for byte, for every variant of the file.
  const ScenarioFile file = load_ok(kComposed);
  for (const std::string& variant : file.variants()) {
    ScenarioErrors errors;
    const std::optional<std::string> text = file.merged_toml(variant, {"lock.ttl=12s"}, errors);
    ASSERT_TRUE(text) << variant << ": " << (errors.empty() ? "" : errors.front().to_string());
    EXPECT_EQ(text->find("unset"), std::string::npos) << *text;
    EXPECT_EQ(text->find("extends"), std::string::npos) << *text;
    const ScenarioFile standalone = load_ok(*text);
    const ScenarioSpec original = resolve_ok(file, variant, {"lock.ttl=12s"});
    const ScenarioSpec reread = resolve_ok(standalone, "base");
    StringTrace a, b;
    run_scenario(original, 3, a);
    run_scenario(reread, 3, b);
    EXPECT_EQ(a.text(), b.text()) << variant << "\n" << *text;
  }
}

TEST(VariantExtends, UnknownNameSuggestsTheClosest) {
  // Proves extends naming no variant is refused at its line, with a did-you-mean and the list.
  const ScenarioErrors errors = load_errors(kComposed + "[variant.x]\nextends = \"tunde\"\n");
  expect_one_error(errors, 44, "variant.x.extends", "unknown variant \"tunde\" (did you mean \"tuned\"?)");
  EXPECT_NE(errors.front().message.find("variants: base, tuned, tuned-long, etcd, etcd-fenced, x"), std::string::npos)
      << errors.front().message;
}

TEST(VariantExtends, ItselfAndCyclesAreRefusedOnce) {
  // Proves a self-extends is refused, and a cycle is reported once, at its first member, naming the chain.
  expect_one_error(load_errors(kComposed + "[variant.x]\nextends = \"x\"\n"), 44, "variant.x.extends",
                   "a variant cannot extend itself");
  const ScenarioErrors cycle = load_errors(kComposed +
                                           "[variant.a]\n"            // 43
                                           "extends = \"b\"\n"        // 44
                                           "[variant.b]\n"            // 45
                                           "extends = \"c\"\n"        // 46
                                           "[variant.c]\n"            // 47
                                           "extends = \"a\"\n"        // 48
                                           "[variant.d]\n"            // 49
                                           "extends = \"b\"\n");      // 50: leads into the cycle
  expect_one_error(cycle, 44, "variant.a.extends", "variants extend each other in a cycle: a -> b -> c -> a");
}

TEST(VariantExtends, ANonStringIsRefused) {
  // Proves extends takes a variant's name, not a number or a table.
  expect_one_error(load_errors(kComposed + "[variant.x]\nextends = 3\n"), 44, "variant.x.extends",
                   "expected the name of another variant, such as \"tuned\", got integer 3");
}

TEST(VariantUnset, AnEntryNamingNothingInheritedIsRefused) {
  // Proves a typo in unset is an error at the unset key, naming the entry and what it starts from.
  expect_one_error(load_errors(kComposed + "[variant.x]\nunset = [\"redlok\"]\n"), 44, "variant.x.unset",
                   "\"redlok\" names nothing that variant \"x\" inherits from the base (did you mean \"redlock\"?)");
  expect_one_error(load_errors(kComposed + "[variant.x]\nunset = [\"fault.gc-pause\"]\n"), 44, "variant.x.unset",
                   "\"fault.gc-pause\" names nothing");
  // C-jump is already gone in tuned-long: dropping it again names nothing it inherits.
  expect_one_error(load_errors(kComposed + "[variant.x]\nextends = \"tuned-long\"\nunset = [\"fault.C-jump\"]\n"),
                   45, "variant.x.unset",
                   "\"fault.C-jump\" names nothing that variant \"x\" inherits from variant \"tuned-long\"");
  // A key the variant sets itself is not inherited: unset runs before it.
  expect_one_error(load_errors(kComposed + "[variant.x]\nunset = [\"lock.watchdog\"]\nlock.watchdog = true\n"), 44,
                   "variant.x.unset", "\"lock.watchdog\" names nothing");
  // A path through a value.
  expect_one_error(load_errors(kComposed + "[variant.x]\nunset = [\"lock.ttl.x\"]\n"), 44, "variant.x.unset",
                   "\"lock.ttl.x\" names nothing");
}

TEST(VariantUnset, EveryBadEntryOfAMultiLineArrayIsReportedAtItsLine) {
  // Proves each entry is checked, and named at the line it is written on.
  const ScenarioErrors errors = load_errors(kComposed +
                                            "[variant.x]\n"              // 43
                                            "unset = [\"lock\",\n"       // 44
                                            "  \"redlok\",\n"            // 45
                                            "  \"fault.gcc\"]\n");       // 46
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].line, 45);
  EXPECT_EQ(errors[1].line, 46);
  EXPECT_NE(errors[1].message.find("did you mean \"fault.gc\""), std::string::npos) << errors[1].message;
}

TEST(VariantUnset, MalformedEntriesAndTypesAreRefused) {
  // Proves unset takes an array of dotted keys and nothing else.
  for (const char* bad : {"lock..ttl", "", ".lock", "lock.", "lock = 1 #", "lock ttl"})
    expect_one_error(load_errors(kComposed + "[variant.x]\nunset = [\"" + bad + "\"]\n"), 44, "variant.x.unset",
                     "is not a key or table such as \"redlock\", \"lock.preset\" or \"fault.gc\"");
  expect_one_error(load_errors(kComposed + "[variant.x]\nunset = \"redlock\"\n"), 44, "variant.x.unset",
                   "expected an array of strings, got string \"redlock\"");
  expect_one_error(load_errors(kComposed + "[variant.x]\nunset = [\"redlock\", 2]\n"), 44, "variant.x.unset",
                   "expected an array of strings, but one element is integer 2");
}

TEST(VariantUnset, QuotedPartsNameNonBareKeys) {
  // Proves an entry may quote a part as TOML does: fault."c2 pause".
  const ScenarioFile file = load_ok(kComposed +
                                    "[fault.\"c2 pause\"]\n"
                                    "kind = \"pause\"\n"
                                    "target = \"c2\"\n"
                                    "at = \"2s\"\n"
                                    "length = \"1s\"\n"
                                    "[variant.x]\n"
                                    "unset = ['fault.\"c2 pause\"']\n");
  EXPECT_EQ(fault_names(resolve_ok(file, "x")), (std::vector<std::string>{"gc", "C-jump"}));
}

}  // namespace
}  // namespace locksim
