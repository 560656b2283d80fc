#include "sim/search/search.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

#include "sim/core/run_error.h"
#include "sim/search/batch_pool.h"
#include "sim/core/trace.h"
#include "sim/scenario/run.h"

namespace locksim::search {

namespace {

// What one run left for the fold: nothing of its history is kept.
struct RunSummary {
  Candidate candidate;
  std::uint64_t seed = 0;
  bool error = false;
  Verdicts verdicts{};
  Margins margins{};
  std::optional<int> shortfall;
  std::vector<FaultOutcome> faults;
};

std::uint64_t shard_budget(std::uint64_t budget, Shard shard) {
  const auto block = [&](std::uint64_t k) {
    return static_cast<std::uint64_t>(static_cast<unsigned __int128>(budget) * k / shard.count);
  };
  return block(shard.index) - block(shard.index - 1);
}

std::uint64_t shard_stream(std::uint64_t seed, Shard shard) {
  if (shard.count == 1) return seed;
  return Rng::derive(seed, "search shard", std::to_string(shard.index)).next_u64();
}

RunSummary run_one(const SearchBase& base, const Candidate& candidate, std::uint64_t seed) {
  RunSummary out;
  out.candidate = candidate;
  out.seed = seed;
  NullTrace trace;
  try {
    const RunResult r = run_scenario(apply_candidate(base, candidate), seed, trace);
    out.verdicts = r.verdicts;
    out.margins = safety_margins(r.history, r.verdicts);
    out.shortfall = quorum_shortfall(r.history);
    out.faults = r.faults;
  } catch (const RunError&) {
    out.error = true;
  }
  return out;
}

void fold(const SearchBase& base, const RunSummary& run, std::uint64_t index, Shard shard, SearchOutcome& out,
          ClimbState& climb) {
  const SearchSpec& space = base.spec.search;
  Coverage& cov = out.coverage;
  ++out.runs;
  for (std::size_t s = 0; s < 4; ++s)
    if (run.candidate.strategy == strategy_name(static_cast<Strategy>(s))) ++cov.runs_by_strategy[s];
  if (run.error) {
    ++cov.run_errors;
    return;
  }
  for (std::size_t g = 0; g < run.candidate.genes.size(); ++g) {
    Coverage::Kind& k = cov.kinds[run.candidate.genes[g].space];
    ++k.placed;
    const std::string name = "search-" + std::to_string(g + 1);
    for (const FaultOutcome& f : run.faults)
      if (f.name == name) {
        k.fired += f.fired > 0;
        k.effective += f.effective > 0;
      }
  }
  std::vector<Property> broken;
  for (std::size_t i = 0; i < space.hunt.size(); ++i) {
    const auto p = static_cast<std::size_t>(space.hunt[i]);
    if (run.verdicts[p].violated) {
      ++cov.violations[i];
      broken.push_back(space.hunt[i]);
    }
    if (const auto& m = run.margins[p]; m && (!cov.closest[i] || *m < *cov.closest[i])) cov.closest[i] = m;
  }
  learn(base, run.candidate, run.margins, run.shortfall, climb);
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
  f.seed = run.seed;
  f.property = *fresh;
  f.broken = broken;
  f.candidate = run.candidate;
  f.margins = run.margins;
  const Verdict& v = run.verdicts[static_cast<std::size_t>(*fresh)];
  f.witness = v.witness ? v.witness->text : "";
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

Coverage empty_coverage(const SearchBase& base) {
  Coverage c;
  c.kinds.resize(base.spec.search.kinds.size());
  c.violations.assign(base.spec.search.hunt.size(), 0);
  c.closest.resize(base.spec.search.hunt.size());
  c.runs_by_strategy.assign(4, 0);
  return c;
}

}  // namespace

std::uint64_t run_seed(std::uint64_t search_seed, Shard shard, std::uint64_t index) {
  // 63 bits: a finding pins its seed in [scenario].seed, a TOML integer.
  return Rng::derive(shard_stream(search_seed, shard), "search run", std::to_string(index)).next_u64() >> 1;
}

SearchOutcome run_search(const SearchBase& base, const SearchOptions& options) {
  SearchOutcome out;
  out.coverage = empty_coverage(base);
  ClimbState climb;
  climb.best.resize(base.spec.search.hunt.size());
  const std::uint64_t budget = shard_budget(options.budget, options.shard);
  const std::uint64_t stream = shard_stream(options.seed, options.shard);
  BatchPool pool(options.threads);
  std::vector<RunSummary> done(kBatch);
  for (std::uint64_t first = 0; first < budget; first += kBatch) {
    const std::uint64_t n = std::min(kBatch, budget - first);
    // Proposing reads the climb as the last batch left it, so it runs on the
    // threads with the runs; each slot writes only its own summary.
    pool.run(n, [&](std::size_t slot) {
      const std::uint64_t i = first + slot;
      Rng rng = Rng::derive(stream, "search propose", std::to_string(i));
      done[slot] = run_one(base, propose(base, options.strategy, i, rng, climb),
                           run_seed(options.seed, options.shard, i));
    });
    for (std::uint64_t i = 0; i < n; ++i) fold(base, done[i], first + i, options.shard, out, climb);
    if (options.progress) options.progress(out);
    if (satisfied(base, options, out)) break;
    if (options.stop && options.stop()) break;
  }
  return out;
}

SearchOutcome merge(const std::vector<SearchOutcome>& shards) {
  SearchOutcome out;
  for (const SearchOutcome& s : shards) {
    out.runs += s.runs;
    Coverage& c = out.coverage;
    if (c.kinds.empty()) {
      c = s.coverage;
    } else {
      for (std::size_t k = 0; k < c.kinds.size() && k < s.coverage.kinds.size(); ++k) {
        c.kinds[k].placed += s.coverage.kinds[k].placed;
        c.kinds[k].fired += s.coverage.kinds[k].fired;
        c.kinds[k].effective += s.coverage.kinds[k].effective;
      }
      for (std::size_t p = 0; p < c.violations.size() && p < s.coverage.violations.size(); ++p) {
        c.violations[p] += s.coverage.violations[p];
        const auto& m = s.coverage.closest[p];
        if (m && (!c.closest[p] || *m < *c.closest[p])) c.closest[p] = m;
      }
      for (std::size_t i = 0; i < c.runs_by_strategy.size() && i < s.coverage.runs_by_strategy.size(); ++i)
        c.runs_by_strategy[i] += s.coverage.runs_by_strategy[i];
      c.run_errors += s.coverage.run_errors;
    }
  }
  // Per property, the finding of the lowest shard (then run): the shards'
  // order on the command line, or which finished first, changes nothing.
  std::vector<const Finding*> all;
  for (const SearchOutcome& s : shards)
    for (const Finding& f : s.findings) all.push_back(&f);
  std::stable_sort(all.begin(), all.end(), [](const Finding* a, const Finding* b) {
    return std::tie(a->shard, a->run) < std::tie(b->shard, b->run);
  });
  for (const Finding* f : all) {
    const bool known = std::any_of(out.findings.begin(), out.findings.end(),
                                   [&](const Finding& g) { return g.property == f->property; });
    if (!known) out.findings.push_back(*f);
  }
  return out;
}

std::string none_found_statement(std::uint64_t runs) {
  if (runs == 0) return "no runs";
  // The rule of three: with 0 events in n trials, the 95 % upper bound on
  // the rate is about 3/n.
  char bound[64];
  std::snprintf(bound, sizeof bound, "%.3g%%", 300.0 / static_cast<double>(runs));
  return "0 violations in " + std::to_string(runs) + " runs: rate < 3/" + std::to_string(runs) + " (" + bound +
         ") at 95 % confidence";
}

}  // namespace locksim::search
