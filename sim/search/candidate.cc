#include "sim/search/candidate.h"

#include <algorithm>

#include "sim/scenario/phase_reach.h"

namespace locksim::search {

namespace {

// Phase triggers name the n-th time a phase is reached; past a few, the
// site is as good as a time trigger.
constexpr int kMostOccurrences = 8;

TriggerSpec trigger_of(const SearchBase& base, const Gene& g) {
  TriggerSpec t;
  if (g.at_phase) {
    const PhaseSite& site = base.sites[g.site];
    t.kind = TriggerSpec::Kind::phase;
    t.process = site.client;
    t.phase = site.phase;
    t.occurrence = g.occurrence;
    t.delay = g.delay;
  } else {
    t.at_time = g.at;
  }
  return t;
}

}  // namespace

std::vector<PhaseSite> phase_sites(const ScenarioSpec& spec) {
  std::vector<PhaseSite> sites;
  for (const std::string& name : spec.search.phase_clients) {
    const auto client = std::find_if(spec.clients.begin(), spec.clients.end(),
                                     [&](const ClientSpec& c) { return c.name == name; });
    if (client == spec.clients.end()) continue;
    const auto reach = scenario::phase_reach(spec, *client);
    for (Phase p : spec.search.phases) {
      const std::int64_t most = reach[static_cast<std::size_t>(p)];
      if (most > 0) sites.push_back({name, p, static_cast<int>(std::min<std::int64_t>(most, kMostOccurrences))});
    }
  }
  return sites;
}

FaultKindSpec gene_kind(const SearchBase& base, const Gene& g) {
  const SearchKindSpec& space = base.spec.search.kinds[g.space];
  return space.kind->make({.target = &space.targets[std::min(g.target, space.targets.size() - 1)],
                           .targets = &space.targets,
                           .values = g.values});
}

std::vector<FaultSpec> candidate_faults(const SearchBase& base, const Candidate& candidate) {
  const ScenarioSpec& spec = base.spec;
  std::vector<FaultSpec> faults;
  switch (spec.search.story_faults) {
    case StoryFaults::keep: faults = spec.faults; break;
    case StoryFaults::remove: break;
    case StoryFaults::search:
      for (std::size_t i = 0; i < spec.faults.size() && i < candidate.story.size(); ++i) {
        if (!candidate.story[i]) continue;
        FaultSpec f = spec.faults[i];
        f.trigger = TriggerSpec{};
        f.trigger.at_time = *candidate.story[i];
        faults.push_back(std::move(f));
      }
      break;
  }
  for (std::size_t i = 0; i < candidate.genes.size(); ++i) {
    const Gene& g = candidate.genes[i];
    FaultSpec f;
    f.name = "search-" + std::to_string(i + 1);
    f.trigger = trigger_of(base, g);
    f.kind = gene_kind(base, g);
    faults.push_back(std::move(f));
  }
  return faults;
}

ScenarioSpec with_latency(const ScenarioSpec& base, std::optional<std::size_t> index) {
  ScenarioSpec spec = base;
  if (!index) return spec;
  const Latency chosen = spec.search.latencies[*index];
  // Links that inherited [network]'s latency follow it; links written
  // with their own keep it.
  const Latency before = spec.network.default_link.latency;
  for (LinkOverride& l : spec.network.links)
    if (l.spec.latency.kind == before.kind && l.spec.latency.a == before.a && l.spec.latency.b == before.b &&
        l.spec.latency.shape == before.shape)
      l.spec.latency = chosen;
  spec.network.default_link.latency = chosen;
  return spec;
}

ScenarioSpec apply_candidate(const SearchBase& base, const Candidate& candidate) {
  ScenarioSpec spec = with_latency(base.spec, candidate.latency);
  spec.expect = Expectation{};
  spec.faults = candidate_faults(base, candidate);
  return spec;
}

std::string describe_gene(const SearchBase& base, const Gene& g) {
  const std::string what = scenario::describe_fault(gene_kind(base, g));
  if (g.at_phase) {
    const PhaseSite& site = base.sites[g.site];
    return what + " " + (g.delay > Duration{0} ? format_duration(g.delay) + " after " : "at ") + site.client + " " +
           phase_name(site.phase) + (g.occurrence > 1 ? " #" + std::to_string(g.occurrence) : "");
  }
  return what + " at " + format_duration(g.at);
}

std::optional<MagnitudeDim> magnitude_dim(const SearchKindSpec& k, std::size_t value) {
  const scenario::SearchedValue& v = (*k.kind->values)[value];
  if (!scenario::has_range(v.type) || !k.values[value].present) return std::nullopt;
  return MagnitudeDim{v.key, k.values[value].range.low, k.values[value].range.high,
                      v.type == scenario::Searched::duration, value};
}

std::vector<MagnitudeDim> magnitude_dims(const SearchKindSpec& k) {
  std::vector<MagnitudeDim> dims;
  for (std::size_t i = 0; i < k.values.size(); ++i)
    if (const std::optional<MagnitudeDim> dim = magnitude_dim(k, i)) dims.push_back(*dim);
  return dims;
}

std::size_t magnitude_bin(const MagnitudeDim& dim, std::int64_t value) {
  if (dim.high <= dim.low || value <= dim.low) return 0;
  const auto span = static_cast<unsigned __int128>(dim.high - dim.low) + 1;
  const auto offset = static_cast<unsigned __int128>(std::min(value, dim.high) - dim.low);
  return static_cast<std::size_t>(offset * kMagnitudeBins / span);
}

std::string magnitude_bin_text(const MagnitudeDim& dim, std::size_t b) {
  const auto edge = [&](std::size_t i) {
    const auto span = static_cast<__int128>(dim.high - dim.low) + 1;
    return static_cast<std::int64_t>(dim.low + span * static_cast<__int128>(i) / kMagnitudeBins);
  };
  const std::int64_t low = edge(b), high = b + 1 == kMagnitudeBins ? dim.high : edge(b + 1) - 1;
  const auto text = [&](std::int64_t v) {
    const std::string sign = dim.low < 0 && v >= 0 ? "+" : "";
    return dim.duration ? sign + format_duration_rounded(Duration{v}) : (v >= 0 ? "+" : "") + std::to_string(v) + "ppm";
  };
  return text(low) + ".." + text(high);
}

}  // namespace locksim::search
