#include "sim/search/search.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

#include "sim/search/batch_pool.h"
#include "sim/search/forked_batches.h"
#include "sim/search/run_summary.h"

namespace locksim::search {

namespace {

// Shard K's runs are [first, end) of the budget's K-th block.
std::uint64_t shard_block(std::uint64_t budget, Shard shard, std::uint64_t k) {
  return static_cast<std::uint64_t>(static_cast<unsigned __int128>(budget) * k / shard.count);
}

std::uint64_t shard_budget(std::uint64_t budget, Shard shard) {
  return shard_block(budget, shard, shard.index) - shard_block(budget, shard, shard.index - 1);
}

std::uint64_t shard_stream(std::uint64_t seed, Shard shard) {
  if (shard.count == 1) return seed;
  return Rng::derive(seed, "search shard", std::to_string(shard.index)).next_u64();
}

// The faults of |candidate| that fired in the run, by gene.
std::vector<const FaultOutcome*> gene_outcomes(const Candidate& candidate, const RunSummary& run) {
  std::vector<const FaultOutcome*> out(candidate.genes.size(), nullptr);
  for (std::size_t g = 0; g < candidate.genes.size(); ++g) {
    const std::string name = "search-" + std::to_string(g + 1);
    for (const FaultOutcome& f : run.faults)
      if (f.name == name) out[g] = &f;
  }
  return out;
}

void cover(const SearchBase& base, const Candidate& candidate, const RunSummary& run, Coverage& cov) {
  const std::vector<const FaultOutcome*> outcomes = gene_outcomes(candidate, run);
  std::size_t fired = 0;
  for (std::size_t g = 0; g < candidate.genes.size(); ++g) {
    const Gene& gene = candidate.genes[g];
    const SearchKindSpec& space = base.spec.search.kinds[gene.space];
    Tally t{1, outcomes[g] && outcomes[g]->fired > 0, outcomes[g] && outcomes[g]->effective > 0};
    fired += t.fired;
    Coverage::Kind& kind = cov.kinds[gene.space];
    kind.add(t);
    if (gene.target < kind.targets.size()) kind.targets[gene.target].add(t);
    (gene.at_phase ? cov.sites[gene.site] : cov.at_time).add(t);
    if (!t.fired) continue;
    // Per run, on the hot path: the dimensions one at a time, no list built.
    for (std::size_t i = 0, d = 0; i < space.values.size(); ++i)
      if (const std::optional<MagnitudeDim> dim = magnitude_dim(space, i))
        ++kind.magnitudes[d++].fired[magnitude_bin(*dim, gene.values[i].value_or(0))];
  }
  if (cov.runs_by_faults_fired.size() <= fired) cov.runs_by_faults_fired.resize(fired + 1, 0);
  ++cov.runs_by_faults_fired[fired];
}

void fold(const SearchBase& base, const Candidate& candidate, const RunSummary& run, std::uint64_t index,
          Shard shard, std::uint64_t seed, SearchOutcome& out, ClimbState& climb) {
  const SearchSpec& space = base.spec.search;
  Coverage& cov = out.coverage;
  ++out.runs;
  for (std::size_t s = 0; s < kStrategyCount; ++s)
    if (candidate.strategy == strategy_name(static_cast<Strategy>(s))) ++cov.runs_by_strategy[s];
  if (run.failure) {
    ++cov.failures;
    if (out.crashes.size() < kCrashesKept) out.crashes.push_back({shard.index, index, seed, *run.failure, candidate});
    return;
  }
  cover(base, candidate, run, cov);
  std::vector<Property> broken;
  for (std::size_t i = 0; i < space.hunt.size(); ++i) {
    const auto p = static_cast<std::size_t>(space.hunt[i]);
    const std::optional<Duration>& m = run.margins[p];
    if (run.violated[p]) {
      ++cov.violations[i];
      broken.push_back(space.hunt[i]);
    } else if (const auto c = closeness(space.hunt[i], run.margins, run.lease_left, run.shortfall);
               c && (!out.near_misses[i] || *c < out.near_misses[i]->closeness)) {
      out.near_misses[i] = NearMiss{shard.index, index, seed, space.hunt[i], *m, candidate, run.margins, *c};
    }
    if (m && (!cov.closest[i] || *m < *cov.closest[i])) cov.closest[i] = m;
  }
  learn(base, candidate, run.margins, run.lease_left, run.shortfall, climb);
  // A finding for each property not found before; one run may be one finding for several.
  std::optional<Property> fresh;
  for (Property p : broken) {
    const bool known = std::any_of(out.findings.begin(), out.findings.end(), [&](const Finding& f) {
      return std::find(f.broken.begin(), f.broken.end(), p) != f.broken.end();
    });
    if (!known && !fresh) fresh = p;
  }
  if (!fresh) return;
  Finding f;
  f.shard = shard.index;
  f.run = index;
  f.seed = seed;
  f.property = *fresh;
  f.broken = broken;
  f.candidate = candidate;
  f.margins = run.margins;
  f.witness = run.witness[static_cast<std::size_t>(*fresh)];
  out.findings.push_back(std::move(f));
}

bool satisfied(const SearchBase& base, const SearchOptions& options, const SearchOutcome& out) {
  if (out.findings.empty()) return false;
  if (!options.every_property) return true;
  for (Property p : base.spec.search.hunt) {
    const bool found = std::any_of(out.findings.begin(), out.findings.end(), [&](const Finding& f) {
      return std::find(f.broken.begin(), f.broken.end(), p) != f.broken.end();
    });
    if (!found) return false;
  }
  return true;
}

SearchOutcome empty_outcome(const SearchBase& base) {
  const SearchSpec& space = base.spec.search;
  SearchOutcome out;
  Coverage& c = out.coverage;
  for (const SearchKindSpec& k : space.kinds) {
    Coverage::Kind kind;
    if (k.kind->one_target) kind.targets.resize(k.targets.size());
    kind.magnitudes.assign(magnitude_dims(k).size(), MagnitudeCoverage{std::vector<std::uint64_t>(kMagnitudeBins, 0)});
    c.kinds.push_back(std::move(kind));
  }
  c.sites.resize(base.sites.size());
  c.runs_by_faults_fired.assign(static_cast<std::size_t>(space.max_faults) + 1, 0);
  c.violations.assign(space.hunt.size(), 0);
  c.closest.resize(space.hunt.size());
  c.runs_by_strategy.assign(kStrategyCount, 0);
  out.near_misses.resize(space.hunt.size());
  return out;
}

// One batch's runs, however they are run: the summaries in slot order.
using BatchRunner = std::function<std::vector<RunSummary>(std::uint64_t first, const std::vector<Candidate>&)>;

// Each thread's runner: its reused worlds live as long as the search.
using Runners = std::vector<std::unique_ptr<CandidateRunner>>;

Runners runners_for(const SearchBase& base, const BatchPool& pool) {
  Runners out;
  for (unsigned t = 0; t < pool.threads(); ++t) out.push_back(std::make_unique<CandidateRunner>(base));
  return out;
}

std::vector<RunSummary> run_on_threads(BatchPool& pool, Runners& runners, const SearchOptions& options,
                                       std::uint64_t first, const std::vector<Candidate>& candidates) {
  std::vector<RunSummary> done(candidates.size());
  pool.run(candidates.size(), [&](std::size_t slot, unsigned thread) {
    done[slot] = runners[thread]->run(candidates[slot], run_seed(options.seed, options.shard, first + slot));
  });
  return done;
}

// The search from run |from| on: propose a batch from the climb as the last
// batch left it, run it, fold it in index order.
void search_loop(const SearchBase& base, const SearchOptions& options, std::uint64_t from, const BatchRunner& run,
                 SearchOutcome& out, ClimbState& climb) {
  const std::uint64_t budget = shard_budget(options.budget, options.shard);
  const std::uint64_t stream = shard_stream(options.seed, options.shard);
  const std::uint64_t case_base = shard_block(options.budget, options.shard, options.shard.index - 1);
  for (std::uint64_t first = from; first < budget; first += kBatch) {
    std::vector<Candidate> candidates(std::min(kBatch, budget - first));
    for (std::uint64_t i = 0; i < candidates.size(); ++i) {
      if (options.exhaustive != nullptr) {
        // Case numbers run on from the shard's block, so shards split the cases.
        candidates[i] = exhaustive_case(*options.exhaustive, case_base + first + i);
        continue;
      }
      Rng rng = Rng::derive(stream, "search propose", std::to_string(first + i));
      candidates[i] = propose(base, options.strategy, first + i, rng, climb);
    }
    const std::vector<RunSummary> done = run(first, candidates);
    for (std::uint64_t i = 0; i < candidates.size(); ++i)
      fold(base, candidates[i], done[i], first + i, options.shard, run_seed(options.seed, options.shard, first + i),
           out, climb);
    if (options.progress) options.progress(out);
    if (satisfied(base, options, out)) break;
    if (options.stop && options.stop()) break;
  }
}

}  // namespace

std::uint64_t runs_in_shard(std::uint64_t budget, Shard shard) { return shard_budget(budget, shard); }

std::uint64_t run_seed(std::uint64_t search_seed, Shard shard, std::uint64_t index) {
  // 63 bits: a finding pins its seed in [scenario].seed, a TOML integer.
  return Rng::derive(shard_stream(search_seed, shard), "search run", std::to_string(index)).next_u64() >> 1;
}

SearchOutcome run_search(const SearchBase& base, const SearchOptions& options) {
  SearchOutcome out = empty_outcome(base);
  ClimbState climb;
  climb.best.resize(base.spec.search.hunt.size());
  if (!options.isolate) {
    BatchPool pool(options.threads);
    Runners runners = runners_for(base, pool);
    search_loop(base, options, 0, [&](std::uint64_t first, const std::vector<Candidate>& candidates) {
      return run_on_threads(pool, runners, options, first, candidates);
    }, out, climb);
    return out;
  }
  // The worker is forked from inside the parent's loop, so it starts with
  // |out| and |climb| as the parent has them and carries on with its copy.
  ForkedBatches forked([&](std::uint64_t from, const auto& send) {
    SearchOptions quiet = options;
    quiet.progress = nullptr;
    quiet.stop = nullptr;
    BatchPool pool(options.threads);
    Runners runners = runners_for(base, pool);
    search_loop(base, quiet, from, [&](std::uint64_t first, const std::vector<Candidate>& candidates) {
      std::vector<RunSummary> done = run_on_threads(pool, runners, options, first, candidates);
      send(done);
      return done;
    }, out, climb);
  });
  search_loop(base, options, 0, [&](std::uint64_t first, const std::vector<Candidate>& candidates) {
    return forked.batch(first, candidates.size(), [&](std::size_t slot) {
      return summarise_run(base, candidates[slot], run_seed(options.seed, options.shard, first + slot));
    });
  }, out, climb);
  return out;
}

std::string exhaustive_statement(std::uint64_t cases, std::uint64_t runs, const std::vector<Property>& hunt) {
  std::string properties;
  for (std::size_t i = 0; i < hunt.size(); ++i)
    properties += std::string(i == 0 ? "" : i + 1 == hunt.size() ? " or " : ", ") + property_id(hunt[i]) + " " +
                  property_name(hunt[i]);
  if (runs < cases)
    return "incomplete: " + case_count_text(runs) + " of " + case_count_text(cases) +
           " cases of the discretisation were run, none violates " + properties +
           "; the rest were not run, so this is no certificate.";
  return "exhaustive over this discretisation: " + case_count_text(cases) + " cases, none violates " + properties +
         ". It covers the placements, triggers and magnitude classes listed, not the values between them.";
}

std::string none_found_statement(std::uint64_t runs, const std::string& strategy) {
  if (runs == 0) return "not found: no runs were made";
  // The rule of three: with 0 events in n trials, the 95 % upper bound on
  // the rate is about 3/n — of runs drawn as this sampler draws them, which
  // says nothing of the faults it never drew.
  char bound[64];
  std::snprintf(bound, sizeof bound, "%.3g%%", 300.0 / static_cast<double>(runs));
  return "not found in " + std::to_string(runs) + " runs (" + strategy +
         "). Not a proof of safety: only what the coverage lists was tried. Of runs drawn as this sampler draws "
         "them, fewer than 3/" + std::to_string(runs) + " (" + bound + ") break a hunted property, at 95 % confidence.";
}

}  // namespace locksim::search
