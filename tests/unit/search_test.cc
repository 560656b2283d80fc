// locksim search (search/search.h) end to end on real scenario files: the
// canary is always found, safe configurations never are, the outcome does
// not depend on the thread count, shards merge in order, and a shrunk
// finding still breaks the property it was found for.
#include "sim/search/search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "sim/scenario/file.h"
#include "sim/check/margins.h"
#include "sim/search/finding_file.h"
#include "sim/search/run_summary.h"
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
  for (const Coverage::Kind& k : o.coverage.kinds)
    for (const MagnitudeCoverage& m : k.magnitudes)
      for (std::uint64_t n : m.fired) s += std::to_string(n) + " ";
  for (const Tally& t : o.coverage.sites) s += "site " + std::to_string(t.fired) + " ";
  for (std::uint64_t n : o.coverage.runs_by_faults_fired) s += "faults " + std::to_string(n) + " ";
  for (const auto& n : o.near_misses)
    if (n) s += "\nnear " + std::to_string(n->run) + " " + std::to_string(n->margin.count());
  for (const Crash& c : o.crashes) s += "\ncrash " + std::to_string(c.run) + " " + c.what;
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
           {"scenarios/search/redlock-crash-restart.toml", "delayed-restart"},
           {"scenarios/search/redlock-compound-pauses.toml", "fenced"},
           {"scenarios/search/pause-plus-clock-step.toml", "fenced"}}) {
    const Loaded safe = load(file, variant);
    const SearchOutcome o = run_search(safe.base, options(Strategy::portfolio, 1, 1000, 2));
    EXPECT_TRUE(o.findings.empty()) << file << " " << variant << ": " << o.findings.front().witness;
    EXPECT_EQ(o.runs, 1000u) << file << " " << variant;
    EXPECT_EQ(o.coverage.failures, 0u);
  }
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

// Shards are independent searches that split the budget, each with its own
// stream (merging them is search-merge's: tests/cli/test_search.py).
TEST(SearchShards, SplitTheBudget) {
  const Loaded safe = load("scenarios/search/gc-pause.toml", "fenced");
  std::vector<SearchOutcome> shards;
  for (std::uint64_t k = 1; k <= 3; ++k) {
    SearchOptions o = options(Strategy::portfolio, 5, 900);
    o.shard = {k, 3};
    shards.push_back(run_search(safe.base, o));
    EXPECT_EQ(shards.back().runs, 300u);
  }
  EXPECT_NE(fingerprint(safe.base, shards[0]), fingerprint(safe.base, shards[1]));
  EXPECT_NE(run_seed(5, {1, 3}, 0), run_seed(5, {2, 3}, 0)) << "each shard draws from its own stream";
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

// Nothing found is never worded as safety: the statement says "not found",
// "not a proof", and puts the rule of three on the sampler's own runs.
TEST(SearchClaims, NothingFoundIsNotAProof) {
  const std::string said = none_found_statement(10000, "portfolio");
  EXPECT_EQ(said.rfind("not found in 10000 runs (portfolio).", 0), 0u) << said;
  EXPECT_NE(said.find("Not a proof of safety"), std::string::npos);
  EXPECT_NE(said.find("runs drawn as this sampler draws them, fewer than 3/10000 (0.03%)"), std::string::npos);
  EXPECT_EQ(said.find("safe."), std::string::npos);
}

// Coverage adds up: every fired fault is in one tenth of each of its
// magnitudes and at one trigger, and every finished run is counted once by
// how many of its searched faults fired.
TEST(SearchClaims, CoverageAccountsForEveryFault) {
  const Loaded safe = load("scenarios/search/redlock-clock-jump.toml", "monotonic-expiry");
  const SearchOutcome o = run_search(safe.base, options(Strategy::portfolio, 3, 1000, 2));
  std::uint64_t fired = 0, runs = 0, placed_at = o.coverage.at_time.placed;
  for (std::size_t k = 0; k < o.coverage.kinds.size(); ++k) {
    const Coverage::Kind& kind = o.coverage.kinds[k];
    fired += kind.fired;
    for (const MagnitudeCoverage& m : kind.magnitudes) {
      std::uint64_t in_tenths = 0;
      for (std::uint64_t n : m.fired) in_tenths += n;
      EXPECT_EQ(in_tenths, kind.fired) << safe.base.spec.search.kinds[k].kind->name;
    }
    std::uint64_t by_target = 0;
    for (const Tally& t : kind.targets) by_target += t.placed;
    if (!kind.targets.empty()) EXPECT_EQ(by_target, kind.placed);
  }
  std::uint64_t fired_at = o.coverage.at_time.fired;
  for (const Tally& t : o.coverage.sites) fired_at += t.fired, placed_at += t.placed;
  EXPECT_EQ(fired_at, fired);
  std::uint64_t placed = 0;
  for (const Coverage::Kind& kind : o.coverage.kinds) placed += kind.placed;
  EXPECT_EQ(placed_at, placed);
  for (std::uint64_t n : o.coverage.runs_by_faults_fired) runs += n;
  EXPECT_EQ(runs, o.runs - o.coverage.failures);
  EXPECT_GT(o.coverage.runs_by_faults_fired.at(2), 0u) << "compound placements were tried";
}

// Each bin of a magnitude is a tenth of its range, ends included.
TEST(SearchClaims, MagnitudeTenths) {
  const MagnitudeDim d{"length", 0, 999, true, 0};
  EXPECT_EQ(magnitude_bin(d, 0), 0u);
  EXPECT_EQ(magnitude_bin(d, 99), 0u);
  EXPECT_EQ(magnitude_bin(d, 100), 1u);
  EXPECT_EQ(magnitude_bin(d, 999), kMagnitudeBins - 1);
  const MagnitudeDim signed_jump{"by", -20'000'000'000, 20'000'000'000, true, 0};
  EXPECT_EQ(magnitude_bin(signed_jump, -20'000'000'000), 0u);
  EXPECT_EQ(magnitude_bin(signed_jump, 20'000'000'000), kMagnitudeBins - 1);
  EXPECT_EQ(magnitude_bin_text(signed_jump, 0), "-20s..-16s");
  const MagnitudeDim point{"length", 5, 5, true, 0};
  EXPECT_EQ(magnitude_bin(point, 5), 0u);
}

// The near miss is the closest run that held: its candidate, replayed with
// its seed, holds with exactly the margin the search recorded, and no other
// run of the search came closer.
TEST(SearchClaims, TheNearMissReplaysWithItsMargin) {
  const Loaded safe = load("tests/data/search-canary.toml", "fenced");
  const SearchOutcome o = run_search(safe.base, options(Strategy::portfolio, 1, 512, 2));
  ASSERT_TRUE(o.findings.empty());
  ASSERT_EQ(o.near_misses.size(), 1u);
  ASSERT_TRUE(o.near_misses[0]);
  const NearMiss& near = *o.near_misses[0];
  EXPECT_EQ(near.property, Property::invariant);
  EXPECT_GE(near.margin, Duration{0});
  EXPECT_EQ(o.coverage.closest[0], near.margin);
  std::string error;
  const auto run = run_document(near_miss_document(safe.merged, safe.base, near), error);
  ASSERT_TRUE(run) << error;
  EXPECT_TRUE(run->matches()) << "its [expect] says the property holds";
  EXPECT_EQ(safety_margins(run->history, run->verdicts)[static_cast<std::size_t>(Property::invariant)], near.margin);
}

// A run that crashes the simulator (the hidden planted-crash fault aborts it)
// costs a forked worker, not the search: it is kept as a Crash with what
// killed it, every other run is folded as usual, and the outcome is the same
// whatever the threads.
TEST(SearchClaims, ACrashingRunDoesNotEndTheSearch) {
  const Loaded space = load("tests/planted/search-planted-crash.toml");
  SearchOptions o = options(Strategy::portfolio, 1, 64);
  o.isolate = true;
  const SearchOutcome one = run_search(space.base, o);
  EXPECT_EQ(one.runs, 64u);
  EXPECT_GT(one.coverage.failures, 0u);
  EXPECT_LT(one.coverage.failures, 64u) << "the runs the fault missed still finish";
  ASSERT_FALSE(one.crashes.empty());
  EXPECT_LE(one.crashes.size(), kCrashesKept);
  EXPECT_NE(one.crashes.front().what.find("signal 6"), std::string::npos) << one.crashes.front().what;
  o.threads = 2;
  EXPECT_EQ(fingerprint(space.base, run_search(space.base, o)), fingerprint(space.base, one));
  // A crash-free search is the same forked or not.
  const Loaded safe = load("scenarios/search/gc-pause.toml", "fenced");
  SearchOptions plain = options(Strategy::portfolio, 4, 256, 2);
  const std::string in_process = fingerprint(safe.base, run_search(safe.base, plain));
  plain.isolate = true;
  EXPECT_EQ(fingerprint(safe.base, run_search(safe.base, plain)), in_process);
}

// Case numbers name every multiset of placements exactly once: fewer faults
// first, and within a size in lexicographic order.
TEST(SearchExhaustive, CasesAreEveryMultisetOnce) {
  Discretisation d;
  for (int i = 0; i < 5; ++i) {
    Gene g;
    g.at = Duration{i};
    d.placements.push_back(g);
  }
  d.max_faults = 3;
  std::set<std::vector<std::int64_t>> seen;
  std::vector<std::int64_t> previous;
  for (std::uint64_t i = 0; i < 5 + 15 + 35; ++i) {
    std::vector<std::int64_t> picked;
    for (const Gene& g : exhaustive_case(d, i).genes) picked.push_back(g.at.count());
    EXPECT_TRUE(std::is_sorted(picked.begin(), picked.end()));
    if (picked.size() == previous.size()) EXPECT_LT(previous, picked) << "case " << i;
    EXPECT_GE(picked.size(), previous.size());
    EXPECT_TRUE(seen.insert(picked).second) << "case " << i << " repeats";
    previous = picked;
  }
  EXPECT_EQ(seen.size(), 55u);
  EXPECT_EQ(case_count_text(static_cast<unsigned __int128>(1234567)), "1,234,567");
  EXPECT_EQ(case_count_text(~static_cast<unsigned __int128>(0)), "more than 2^64");
}

// The classes sit 1 ms either side of what the story writes (gc-pause: the
// 10 s TTL, the 1 s retry delay); one fault a run is one case per
// placement; running every case of the canary certifies the fenced variant
// and finds the base's counterexample.
TEST(SearchExhaustive, CertifiesTheFencedCanaryAndBreaksTheBase) {
  for (const char* variant : {"fenced", "base"}) {
    const Loaded canary = load("tests/data/search-canary.toml", variant);
    const Discretisation d = discretise(canary.base, canary.merged, {.grid = 4});
    std::string lines;
    for (const std::string& l : d.description) lines += l + "\n";
    EXPECT_NE(lines.find("pause length: 15s 30s"), std::string::npos) << lines;
    EXPECT_EQ(d.cases, d.placements.size()) << "max_faults = 1";
    SearchOptions o = options(Strategy::exhaustive, 1, static_cast<std::uint64_t>(d.cases), 2);
    o.exhaustive = &d;
    const SearchOutcome out = run_search(canary.base, o);
    if (std::string(variant) == "fenced") {
      EXPECT_TRUE(out.findings.empty());
      EXPECT_EQ(out.runs, d.cases);
      EXPECT_EQ(out.coverage.runs_by_strategy[static_cast<std::size_t>(Strategy::exhaustive)], out.runs);
    } else {
      ASSERT_FALSE(out.findings.empty());
      EXPECT_EQ(out.findings.front().candidate.strategy, "exhaustive");
    }
  }
  const Loaded story = load("scenarios/search/gc-pause.toml", "fenced");
  std::string lines;
  for (const std::string& l : discretise(story.base, story.merged, {}).description) lines += l + "\n";
  EXPECT_NE(lines.find("pause length: 100ms 999ms 1.001s 8.999s 9.001s 9.999s 10.001s 29.999s 30s"), std::string::npos)
      << lines;
  EXPECT_EQ(exhaustive_statement(576, 576, {Property::invariant}),
            "exhaustive over this discretisation: 576 cases, none violates P5 invariant. It covers the placements, "
            "triggers and magnitude classes listed, not the values between them.");
  EXPECT_EQ(exhaustive_statement(576, 100, {Property::invariant}).rfind("incomplete: 100 of 576 cases", 0), 0u);
}

// Shards split the case numbers: together they run every case once.
TEST(SearchExhaustive, ShardsSplitTheCases) {
  const Loaded space = load("scenarios/search/gc-pause.toml", "fenced");
  ScenarioSpec one_fault = space.base.spec;
  one_fault.search.max_faults = 1;
  const SearchBase base{one_fault, space.base.sites};
  const Discretisation d = discretise(base, space.merged, {});
  const auto cases = static_cast<std::uint64_t>(d.cases);
  std::vector<SearchOutcome> shards;
  for (std::uint64_t k = 1; k <= 3; ++k) {
    SearchOptions o = options(Strategy::exhaustive, 1, cases);
    o.exhaustive = &d;
    o.shard = {k, 3};
    shards.push_back(run_search(base, o));
  }
  SearchOptions whole = options(Strategy::exhaustive, 1, cases, 2);
  whole.exhaustive = &d;
  const SearchOutcome all = run_search(base, whole);
  std::uint64_t runs = 0, placed = 0;
  std::vector<std::uint64_t> by_faults(all.coverage.runs_by_faults_fired.size());
  for (const SearchOutcome& s : shards) {
    runs += s.runs;
    placed += s.coverage.kinds.at(0).placed;
    for (std::size_t i = 0; i < by_faults.size() && i < s.coverage.runs_by_faults_fired.size(); ++i)
      by_faults[i] += s.coverage.runs_by_faults_fired[i];
  }
  EXPECT_EQ(runs, cases);
  EXPECT_EQ(placed, all.coverage.kinds.at(0).placed);
  EXPECT_EQ(by_faults, all.coverage.runs_by_faults_fired);
}

// A search's runs reuse one world per thread (reset in place, the
// candidate's faults re-armed): every summary is the one a world built from
// the candidate's spec gives, byte for byte, on every search space.
TEST(SearchSpeed, AReusedWorldGivesTheFreshRunsSummaries) {
  for (const char* file : {"scenarios/search/gc-pause.toml", "scenarios/search/redlock-clock-jump.toml",
                           "scenarios/search/redlock-crash-restart.toml", "scenarios/search/redlock-delayed-replies.toml",
                           "scenarios/search/sentinel-failover.toml", "scenarios/search/redlock-compound-pauses.toml",
                           "scenarios/search/pause-plus-clock-step.toml", "tests/data/search-canary.toml"}) {
    const Loaded space = load(file);
    CandidateRunner reused(space.base);
    ClimbState climb;
    for (std::uint64_t i = 0; i < 64; ++i) {
      Rng rng = Rng::derive(7, "reuse", std::to_string(i));
      const Candidate c = propose(space.base, static_cast<Strategy>(i % 3), i, rng, climb);
      std::string fresh, again;
      encode(summarise_run(space.base, c, 1000 + i), fresh);
      encode(reused.run(c, 1000 + i), again);
      ASSERT_EQ(again, fresh) << file << " candidate " << i;
    }
  }
}

// Compound faults: three pauses of at most 3 s inside one Redlock critical
// section with 6.4 s to spare. No strategy that draws faults independently
// finds it in thousands of runs; the climb does, by closing the lease left at
// c1's write (Closeness's lead) and stacking a pause where one ended. Seeds
// 17 and 18 pin a local optimum: two 3 s pauses of c1 and a third fault spent
// on c2, which 100,000 runs never left until a stacked pause could take that
// fault's place and a stuck climb started again.
TEST(SearchCompound, TheClimbAddsPausesUpOnTheLeaseLeft) {
  const Loaded space = load("scenarios/search/redlock-compound-pauses.toml");
  for (std::uint64_t seed : {1, 2, 17, 18}) {
    const SearchOutcome o = run_search(space.base, options(Strategy::portfolio, seed, 5000, 2));
    ASSERT_FALSE(o.findings.empty()) << "seed " << seed;
    EXPECT_GE(o.findings.front().candidate.genes.size(), 3u) << "no fewer than three faults break it";
  }
  // The lead orders runs the property's own margin cannot tell apart.
  Margins flat{};
  flat[static_cast<std::size_t>(Property::invariant)] = Duration{1'000'000};
  const auto far = closeness(Property::invariant, flat, Duration{6'400'000'000}, std::nullopt);
  const auto near = closeness(Property::invariant, flat, Duration{400'000'000}, std::nullopt);
  ASSERT_TRUE(far && near);
  EXPECT_LT(*near, *far);
  EXPECT_EQ(closeness(Property::grant_exclusive, flat, Duration{1}, std::nullopt), std::nullopt)
      << "no margin for P1 in this run";
}

// A climb no run came closer than in 2,048 runs in a row is forgotten, so the
// next run starts it again; a tie moves it meanwhile, a closer run resets the
// count.
TEST(SearchClimb, ABestNoRunImprovesOnIsForgotten) {
  const Loaded space = load("scenarios/search/gc-pause.toml");
  ClimbState climb;
  Margins margins{};
  const auto at = [](Property p) { return static_cast<std::size_t>(p); };
  margins[at(Property::invariant)] = Duration{5'000'000};
  Candidate first, tie, closer;
  first.strategy = "first";
  tie.strategy = "tie";
  closer.strategy = "closer";
  learn(space.base, first, margins, Duration{1'000'000'000}, std::nullopt, climb);
  ASSERT_TRUE(climb.best.at(0));
  learn(space.base, tie, margins, Duration{1'000'000'000}, std::nullopt, climb);
  EXPECT_EQ(climb.best[0]->candidate.strategy, "tie") << "a tie moves the climb";
  learn(space.base, closer, margins, Duration{999'000'000}, std::nullopt, climb);
  EXPECT_EQ(climb.best[0]->candidate.strategy, "closer");
  EXPECT_EQ(climb.best[0]->stale, 0u);
  for (int i = 0; i < 2047; ++i) learn(space.base, first, margins, Duration{2'000'000'000}, std::nullopt, climb);
  ASSERT_TRUE(climb.best[0]) << "2,047 runs that came no closer";
  EXPECT_EQ(climb.best[0]->candidate.strategy, "closer");
  learn(space.base, first, margins, Duration{2'000'000'000}, std::nullopt, climb);
  EXPECT_FALSE(climb.best[0]) << "the 2,048th: the climb starts again";
  learn(space.base, first, margins, Duration{2'000'000'000}, std::nullopt, climb);
  ASSERT_TRUE(climb.best[0]);
  EXPECT_EQ(climb.best[0]->candidate.strategy, "first") << "from the next run, however far it was";
}

}  // namespace
}  // namespace locksim::search
