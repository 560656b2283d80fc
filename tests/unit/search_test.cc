// locksim search (search/search.h) end to end on real scenario files: the
// canary is always found, safe configurations never are, the outcome does
// not depend on the thread count, shards merge in order, and a shrunk
// finding still breaks the property it was found for.
#include "sim/search/search.h"

#include <gtest/gtest.h>

#include "sim/scenario/file.h"
#include "sim/search/finding_file.h"
#include "sim/search/shrink.h"

namespace locksim::search {
namespace {

struct Loaded {
  SearchBase base;
  toml::table merged;
};

Loaded load(const std::string& relative, const std::string& variant = "base") {
  const std::string path = std::string(LOCKSIM_SOURCE_DIR) + "/" + relative;
  ScenarioErrors errors;
  const auto file = ScenarioFile::load(path, errors);
  EXPECT_TRUE(file) << path;
  if (!file) return {};
  auto spec = file->resolve(variant, {}, errors);
  auto text = file->merged_toml(variant, {}, errors);
  EXPECT_TRUE(spec && text) << path << " " << variant;
  if (!spec || !text) return {};
  Loaded l{SearchBase{*spec, phase_sites(*spec)}, toml::parse(*text)};
  return l;
}

SearchOptions options(Strategy strategy, std::uint64_t seed, std::uint64_t budget, unsigned threads = 1) {
  SearchOptions o;
  o.strategy = strategy;
  o.seed = seed;
  o.budget = budget;
  o.threads = threads;
  return o;
}

std::size_t fault_tables(const toml::table& doc) {
  const toml::table* faults = doc["fault"].as_table();
  return faults == nullptr ? 0 : faults->size();
}

// Everything a user sees of an outcome, as text: equal text, equal outcome.
std::string fingerprint(const SearchBase& base, const SearchOutcome& o) {
  std::string s = "runs " + std::to_string(o.runs) + "\n";
  for (const Finding& f : o.findings) {
    s += "finding shard " + std::to_string(f.shard) + " run " + std::to_string(f.run) + " seed " +
         std::to_string(f.seed) + " " + property_name(f.property) + " by " + f.candidate.strategy + ": " + f.witness + "\n";
    for (const Gene& g : f.candidate.genes) s += "  " + describe_gene(base, g) + "\n";
  }
  for (const Coverage::Kind& k : o.coverage.kinds)
    s += "kind " + std::to_string(k.placed) + "/" + std::to_string(k.fired) + "/" + std::to_string(k.effective) + "\n";
  for (std::size_t i = 0; i < o.coverage.violations.size(); ++i)
    s += "hunt " + std::to_string(o.coverage.violations[i]) + " closest " +
         (o.coverage.closest[i] ? std::to_string(o.coverage.closest[i]->count()) : "none") + "\n";
  return s;
}

// A deliberately broken space: every strategy finds it with every seed, in
// the first batch, and the finding names the hunted property.
TEST(SearchCanary, EveryStrategyFindsItWithEverySeed) {
  const Loaded canary = load("tests/data/search-canary.toml");
  for (Strategy strategy : {Strategy::uniform, Strategy::swarm, Strategy::phase, Strategy::margin, Strategy::portfolio})
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      const SearchOutcome o = run_search(canary.base, options(strategy, seed, 256));
      ASSERT_EQ(o.findings.size(), 1u) << strategy_name(strategy) << " seed " << seed;
      EXPECT_EQ(o.findings[0].property, Property::invariant);
      EXPECT_LE(o.runs, kBatch) << strategy_name(strategy) << " seed " << seed;
    }
}

// No false alarms: the remedies of the catalogue, searched with the spaces
// that break their unprotected versions, yield nothing in the whole budget.
TEST(SearchSafeConfigurations, FindNothingAndSpendTheWholeBudget) {
  for (const auto& [file, variant] : std::vector<std::pair<std::string, std::string>>{
           {"tests/data/search-canary.toml", "fenced"},
           {"scenarios/search/gc-pause.toml", "fenced"},
           {"scenarios/search/redlock-clock-jump.toml", "monotonic-expiry"},
           {"scenarios/search/redlock-crash-restart.toml", "aof-always"},
           {"scenarios/search/redlock-crash-restart.toml", "delayed-restart"}}) {
    const Loaded safe = load(file, variant);
    const SearchOutcome o = run_search(safe.base, options(Strategy::portfolio, 1, 1000, 2));
    EXPECT_TRUE(o.findings.empty()) << file << " " << variant << ": " << o.findings.front().witness;
    EXPECT_EQ(o.runs, 1000u) << file << " " << variant;
    EXPECT_EQ(o.coverage.run_errors, 0u);
  }
  EXPECT_EQ(none_found_statement(10000), "0 violations in 10000 runs: rate < 3/10000 (0.03%) at 95 % confidence");
}

// The thread count decides only how fast: findings, the runs they were made
// at, coverage and margins are the same on one thread and on two.
TEST(SearchDeterminism, SameOutcomeWhateverTheThreads) {
  const Loaded story = load("scenarios/search/gc-pause.toml");
  for (Strategy strategy : {Strategy::uniform, Strategy::portfolio}) {
    SearchOptions o = options(strategy, 7, 2000);
    o.every_property = true;
    const std::string one = fingerprint(story.base, run_search(story.base, o));
    o.threads = 2;
    EXPECT_EQ(fingerprint(story.base, run_search(story.base, o)), one) << strategy_name(strategy);
    o.seed = 8;
    EXPECT_NE(fingerprint(story.base, run_search(story.base, o)), one) << "another seed, another search";
  }
}

// Shards are independent searches that split the budget; merging them is
// in shard order, so it does not matter which finished first.
TEST(SearchShards, SplitTheBudgetAndMergeInOrder) {
  const Loaded safe = load("scenarios/search/gc-pause.toml", "fenced");
  std::vector<SearchOutcome> shards;
  for (std::uint64_t k = 1; k <= 3; ++k) {
    SearchOptions o = options(Strategy::portfolio, 5, 900);
    o.shard = {k, 3};
    shards.push_back(run_search(safe.base, o));
    EXPECT_EQ(shards.back().runs, 300u);
  }
  const SearchOutcome merged = merge(shards);
  EXPECT_EQ(merged.runs, 900u);
  std::uint64_t placed = 0;
  for (const SearchOutcome& s : shards) placed += s.coverage.kinds.at(0).placed;
  EXPECT_EQ(merged.coverage.kinds.at(0).placed, placed);
  EXPECT_NE(run_seed(5, {1, 3}, 0), run_seed(5, {2, 3}, 0)) << "each shard draws from its own stream";

  const Loaded canary = load("tests/data/search-canary.toml");
  std::vector<SearchOutcome> found;
  for (std::uint64_t k = 1; k <= 2; ++k) {
    SearchOptions o = options(Strategy::uniform, 1, 256);
    o.shard = {k, 2};
    found.push_back(run_search(canary.base, o));
  }
  const SearchOutcome one = merge(found);
  std::vector<SearchOutcome> reversed(found.rbegin(), found.rend());
  EXPECT_EQ(one.findings.front().shard, 1u);
  EXPECT_EQ(fingerprint(canary.base, merge(reversed)), fingerprint(canary.base, one));
}

// The finding as a document breaks the property with its own seed; shrunk, it
// still does, with no more faults than it had.
TEST(SearchShrink, KeepsThePropertyBrokenAndNeverAddsFaults) {
  const Loaded story = load("scenarios/search/gc-pause.toml");
  SearchOptions o = options(Strategy::portfolio, 2, 2000);
  const SearchOutcome outcome = run_search(story.base, o);
  ASSERT_FALSE(outcome.findings.empty());
  const Finding& f = outcome.findings.front();
  const toml::table doc = finding_document(story.merged, story.base, f);
  ASSERT_TRUE(breaks(doc, f.property));
  const ShrinkResult shrunk = shrink(doc, f.property);
  EXPECT_TRUE(breaks(shrunk.doc, f.property));
  EXPECT_GE(fault_tables(shrunk.doc), 1u) << "the counter needs a pause";
  EXPECT_LE(fault_tables(shrunk.doc), fault_tables(doc));
  EXPECT_FALSE(shrunk.steps.empty());
  // Shrinking is a function of the document: the same input, the same output.
  EXPECT_EQ(document_text(shrink(doc, f.property).doc), document_text(shrunk.doc));
}

}  // namespace
}  // namespace locksim::search
