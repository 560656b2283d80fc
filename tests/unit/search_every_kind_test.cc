// Every searchable fault kind, present and future, works in a search from
// its declaration alone: a [search.KIND] table built from what the kind
// declares reads, its drawn and enumerated faults run, and each one written
// into a finding file reads back as the fault that ran (same verdicts, same
// history). A kind whose search side, writer or reader disagree fails here
// without anyone writing a test for it.
#include <gtest/gtest.h>

#include <toml++/toml.h>

#include <set>
#include <string>

#include "sim/core/trace.h"
#include "sim/run/run.h"
#include "sim/scenario/faults/fault_kinds.h"
#include "sim/scenario/file.h"
#include "sim/search/exhaustive.h"
#include "sim/search/finding_file.h"
#include "sim/search/strategy.h"

namespace locksim::search {
namespace {

using scenario::Searched;
using scenario::Sign;
using scenario::SearchedValue;
using scenario::SearchableKind;

constexpr const char* kStory =
    "[scenario]\n"
    "name = \"every-kind\"\n"
    "run_for = \"20s\"\n"
    "[redis]\n"
    "nodes = [\"r1\"]\n"
    "[client.c1]\n"
    "steps = [\"read\", \"work 2s\", \"write\"]\n"
    "[client.c2]\n"
    "steps = [\"read\", \"work 2s\", \"write\"]\n"
    "[search]\n"
    "max_faults = 2\n";

// A range for |v| of the kind its declaration says, both signs where it may have them.
std::string range_for(const SearchedValue& v) {
  switch (v.type) {
    case Searched::duration:
      return v.sign == Sign::any ? "\"-2s..+2s\"" : v.sign == Sign::positive ? "\"100ms..2s\"" : "\"0s..2s\"";
    case Searched::rate: return "\"-1%..+1%\"";
    case Searched::choice: return "\"either\"";
    case Searched::split: break;
  }
  return "";
}

// The [search.KIND] table for |kind|: every value it declares, the optional ones too.
std::string space_for(const SearchableKind& kind) {
  bool servers_only = false;
  for (const SearchedValue& v : *kind.values) servers_only |= !v.not_for_clients.empty();
  std::string t = "[search." + std::string(kind.name) + "]\n";
  t += !kind.one_target ? "targets = [\"r1\", \"c1\", \"c2\"]\n"
                        : servers_only ? "targets = [\"r1\"]\n" : "targets = [\"r1\", \"c2\"]\n";
  for (const SearchedValue& v : *kind.values)
    if (v.type != Searched::split) t += std::string(v.key) + " = " + range_for(v) + "\n";
  return t;
}

struct Space {
  SearchBase base;
  toml::table merged;
};

std::optional<Space> load(const std::string& text) {
  ScenarioErrors errors;
  const std::optional<ScenarioFile> file = ScenarioFile::from_string(text, "every-kind.toml", errors);
  std::optional<ScenarioSpec> spec;
  std::optional<std::string> merged;
  if (file) {
    spec = file->resolve("base", {}, errors);
    merged = file->merged_toml("base", {}, errors);
  }
  for (const auto& e : errors) ADD_FAILURE() << e.message << "\n" << text;
  if (!spec || !merged) return std::nullopt;
  return Space{SearchBase{*spec, phase_sites(*spec)}, toml::parse(*merged)};
}

// What a run shows of its faults: each fault applied (when, what, on whom,
// how much), the history's size and the verdicts.
std::string outcome(const RunResult& r) {
  std::string s = std::to_string(r.history.facts.size());
  for (const Fact& f : r.history.facts)
    if (const auto* a = std::get_if<FaultApplied>(&f.body))
      s += "\n" + std::to_string(f.at.time_since_epoch().count()) + " " + std::to_string(static_cast<int>(a->kind)) +
           " " + std::to_string(a->target) + " " + std::to_string(a->length.count()) + " " +
           std::to_string(a->down_for.count()) + " " + std::to_string(a->by.count()) + " " +
           std::to_string(a->drift_ppm) + " " + std::to_string(a->partition) + (a->hold ? " hold " : " drop ") +
           std::to_string(a->until.time_since_epoch().count());
  for (const auto& v : r.verdicts) s += v.violated ? " V" : " h";
  return s;
}

// |c| run as the search runs it, and read back from its finding file.
void expect_reads_back(const Space& space, const Candidate& c, std::uint64_t seed, const std::string& what) {
  NullTrace none;
  const ScenarioSpec spec = apply_candidate(space.base, c);
  const RunResult direct = run_scenario(spec, seed, none);
  std::string error;
  const std::optional<RunResult> written = run_document(candidate_document(space.merged, space.base, c, seed), error);
  ASSERT_TRUE(written) << what << ": " << error;
  EXPECT_EQ(outcome(*written), outcome(direct)) << what;
}

TEST(SearchEveryKind, DrawnAndEnumeratedFaultsReadBackFromTheirFindingFiles) {
  ASSERT_FALSE(scenario::searchable_kinds().empty());
  for (const SearchableKind& kind : scenario::searchable_kinds()) {
    const std::optional<Space> space = load(std::string(kStory) + space_for(kind));
    ASSERT_TRUE(space) << kind.name;
    ASSERT_EQ(space->base.spec.search.kinds.size(), 1u);
    std::vector<std::set<std::int64_t>> seen(kind.values->size());
    ClimbState climb;
    for (std::uint64_t i = 0; i < 48; ++i) {
      Rng rng = Rng::derive(1, "every kind", std::to_string(i));
      const Candidate c = propose(space->base, Strategy::uniform, i, rng, climb);
      for (const Gene& g : c.genes)
        for (std::size_t v = 0; v < kind.values->size(); ++v)
          if (g.values[v]) seen[v].insert(*g.values[v]);
      expect_reads_back(*space, c, 100 + i, std::string(kind.name) + " draw " + std::to_string(i));
    }
    for (std::size_t v = 0; v < kind.values->size(); ++v) {
      const SearchedValue& value = (*kind.values)[v];
      // A split of three targets has three ways; a choice of "either", every option.
      EXPECT_GT(seen[v].size(), 1u) << kind.name << "." << value.key << " was drawn as one value only";
    }
    const Discretisation d = discretise(space->base, space->merged, ExhaustiveOptions{.grid = 2});
    ASSERT_GT(d.cases, 0u) << kind.name;
    for (std::uint64_t i = 0; i < 24 && i < d.cases; ++i)
      expect_reads_back(*space, exhaustive_case(d, i), 7, std::string(kind.name) + " case " + std::to_string(i));
  }
}

}  // namespace
}  // namespace locksim::search
