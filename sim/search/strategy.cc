#include "sim/search/strategy.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace locksim::search {

namespace {

using scenario::Searched;

using namespace std::chrono_literals;

constexpr std::pair<Strategy, const char*> kNames[] = {{Strategy::uniform, "uniform"},
                                                      {Strategy::swarm, "swarm"},
                                                      {Strategy::phase, "phase"},
                                                      {Strategy::margin, "margin"},
                                                      {Strategy::portfolio, "portfolio"},
                                                      {Strategy::exhaustive, "exhaustive"}};
constexpr std::int64_t kSiteEnabledPpm = 250'000;  // a phase site is live in a run with probability ¼
constexpr std::int64_t kSiteFiresPpm = 500'000;    // ... and fires with probability ½ each visit
constexpr std::uint64_t kRestartOneIn = 8;         // the climb starts afresh one run in eight
constexpr std::uint64_t kStaleRuns = 2048;         // ... and forgets a best no run improved on in this many

// What a draw may use: per kind space, whether it is on and which targets are.
struct Mask {
  std::vector<bool> kinds;
  std::vector<std::vector<bool>> targets;
};

Mask everything(const SearchSpec& s) {
  Mask m;
  for (const SearchKindSpec& k : s.kinds) {
    m.kinds.push_back(true);
    m.targets.emplace_back(k.targets.size(), true);
  }
  return m;
}

// Each entry kept with probability ½; at least one always is.
std::vector<bool> coin_flips(std::size_t n, Rng& rng) {
  std::vector<bool> keep(n);
  bool any = false;
  for (std::size_t i = 0; i < n; ++i) any |= keep[i] = rng.chance_ppm(500'000);
  if (!any && n > 0) keep[rng.below(n)] = true;
  return keep;
}

// One of the entries that are on, uniformly.
std::size_t pick(const std::vector<bool>& on, Rng& rng) {
  std::vector<std::size_t> live;
  for (std::size_t i = 0; i < on.size(); ++i)
    if (on[i]) live.push_back(i);
  return live[rng.below(live.size())];
}

Duration in_window(const SearchSpec& s, Rng& rng) { return rng.between(s.from, s.until - Duration{1}); }

// A delay after a phase: none half the time, else log-uniform from 1 ms to a
// tenth of the window (a fault "just after" and "a while after" the phase
// are both common in the published stories).
Duration phase_delay(const SearchSpec& s, Rng& rng) {
  if (rng.chance_ppm(500'000)) return Duration{0};
  const double low = 1e6;
  const double high = std::max(low * 2, static_cast<double>((s.until - s.from).count()) / 10.0);
  return Duration{static_cast<std::int64_t>(low * std::exp(rng.unit() * std::log(high / low)))};
}

// Each of the kind's values, in the order it declares them, within what
// the space allows; an optional value the space leaves out stays unset.
void draw_magnitudes(const SearchKindSpec& k, Gene& g, Rng& rng) {
  for (std::size_t i = 0; i < k.values.size(); ++i) {
    const SearchedRange& r = k.values[i];
    std::optional<std::int64_t>& value = g.values[i];
    value.reset();
    if (!r.present) continue;
    switch ((*k.kind->values)[i].type) {
      case Searched::duration:
      case Searched::rate: value = rng.between(r.range.low, r.range.high); break;
      case Searched::split: {
        const std::uint64_t sides = std::uint64_t{1} << k.targets.size();
        value = static_cast<std::int64_t>(1 + rng.below(sides - 2));  // neither side empty
        break;
      }
      case Searched::choice: value = r.options[rng.below(r.options.size())]; break;
    }
  }
}

// The value |g| lasts for (a pause's length, a jump's step), or nothing.
Duration span_of(const SearchKindSpec& k, const Gene& g) {
  for (std::size_t i = 0; i < k.values.size(); ++i)
    if ((*k.kind->values)[i].span && g.values[i]) return Duration{*g.values[i]};
  return Duration{0};
}

Gene draw_gene(const SearchBase& base, const Mask& mask, Rng& rng) {
  const SearchSpec& s = base.spec.search;
  Gene g;
  g.space = pick(mask.kinds, rng);
  g.target = pick(mask.targets[g.space], rng);
  g.at = in_window(s, rng);
  draw_magnitudes(s.kinds[g.space], g, rng);
  return g;
}

void phase_trigger(const SearchBase& base, const std::vector<bool>& sites, Gene& g, Rng& rng) {
  g.at_phase = true;
  g.site = pick(sites, rng);
  g.occurrence = 1;
  while (g.occurrence < base.sites[g.site].most && !rng.chance_ppm(kSiteFiresPpm)) ++g.occurrence;
  g.delay = phase_delay(base.spec.search, rng);
}

void draw_rest(const SearchBase& base, Candidate& c, Rng& rng) {
  const SearchSpec& s = base.spec.search;
  if (s.story_faults == StoryFaults::search)
    for (std::size_t i = 0; i < base.spec.faults.size(); ++i)
      c.story.push_back(rng.chance_ppm(500'000) ? std::optional<Duration>(in_window(s, rng)) : std::nullopt);
  if (!s.latencies.empty()) c.latency = rng.below(s.latencies.size());
}

std::size_t fault_count(const SearchSpec& s, Rng& rng) {
  return s.kinds.empty() ? 0 : static_cast<std::size_t>(rng.between(1, s.max_faults));
}

Candidate draw(const SearchBase& base, const Mask& mask, Rng& rng, const char* strategy) {
  Candidate c;
  c.strategy = strategy;
  const std::size_t n = fault_count(base.spec.search, rng);
  for (std::size_t i = 0; i < n; ++i) c.genes.push_back(draw_gene(base, mask, rng));
  draw_rest(base, c, rng);
  return c;
}

Candidate draw_swarm(const SearchBase& base, Rng& rng) {
  const SearchSpec& s = base.spec.search;
  Mask m;
  m.kinds = coin_flips(s.kinds.size(), rng);
  for (const SearchKindSpec& k : s.kinds) m.targets.push_back(coin_flips(k.targets.size(), rng));
  return draw(base, m, rng, "swarm");
}

Candidate draw_phase(const SearchBase& base, Rng& rng) {
  Candidate c = draw(base, everything(base.spec.search), rng, "phase");
  if (base.sites.empty()) return c;
  std::vector<bool> live(base.sites.size());
  bool any = false;
  for (std::size_t i = 0; i < live.size(); ++i) any |= live[i] = rng.chance_ppm(kSiteEnabledPpm);
  if (!any) live[rng.below(live.size())] = true;
  for (Gene& g : c.genes) phase_trigger(base, live, g, rng);
  return c;
}

// A step of |span| scaled by a factor drawn from ½, ⅛, 1/32, 1/128: big
// moves to get near, small ones to settle.
Duration nudge(Duration span, Rng& rng) {
  const int shift = 1 + 2 * static_cast<int>(rng.below(4));
  const std::int64_t step = std::max<std::int64_t>(1, span.count() >> shift);
  return Duration{static_cast<std::int64_t>(rng.standard_normal() * static_cast<double>(step))};
}

Duration clamp(Duration d, Duration low, Duration high) { return std::clamp(d, low, high); }

void mutate_gene(const SearchBase& base, Gene& g, Rng& rng) {
  const SearchSpec& s = base.spec.search;
  const SearchKindSpec& k = s.kinds[g.space];
  switch (rng.below(6)) {
    case 0:  // when
      if (g.at_phase)
        g.delay = clamp(g.delay + nudge(s.until - s.from, rng), Duration{0}, s.until - s.from);
      else
        g.at = clamp(g.at + nudge(s.until - s.from, rng), s.from, s.until - Duration{1});
      break;
    case 1:  // how much: each value that has a range, by a step of its span
      for (std::size_t i = 0; i < k.values.size(); ++i) {
        const SearchRange<std::int64_t>& r = k.values[i].range;
        if (scenario::has_range((*k.kind->values)[i].type) && g.values[i])
          g.values[i] = std::clamp(*g.values[i] + nudge(Duration{r.high - r.low}, rng).count(), r.low, r.high);
      }
      break;
    case 2: g.target = rng.below(k.targets.size()); break;
    case 3:  // a phase trigger instead of a time, or the other way round
      if (!g.at_phase && !base.sites.empty()) {
        phase_trigger(base, std::vector<bool>(base.sites.size(), true), g, rng);
      } else {
        g.at_phase = false;
        g.at = in_window(s, rng);
      }
      break;
    case 4:
      if (g.at_phase) g.occurrence = 1 + static_cast<int>(rng.below(base.sites[g.site].most));
      break;
    default: {
      Gene fresh = g;
      draw_magnitudes(k, fresh, rng);
      g = fresh;
    }
  }
}

// A copy of |g| that fires as |g| ends: at the same phase visit after its
// length, or at its time plus its length (+1 ms, so the two never tie). A
// pause where a pause ended is a longer pause that two smaller draws can
// make; a step after a step, a bigger step.
Gene stacked_after(const SearchBase& base, const Gene& g, Rng& rng) {
  const SearchSpec& s = base.spec.search;
  Gene next = g;
  const Duration after = std::max(span_of(s.kinds[g.space], g), Duration{0}) + std::chrono::milliseconds(1);
  if (g.at_phase) {
    next.delay = std::min(g.delay + after, s.until - s.from);
  } else {
    next.at = std::min(g.at + after, s.until - Duration{1});
  }
  if (rng.chance_ppm(500'000)) draw_magnitudes(s.kinds[g.space], next, rng);
  return next;
}

// Whether faults add up on |p|'s climb: the lease left at an op (the lead
// of P3, P4 and P5, Closeness) is what consecutive pauses and steps use up.
bool compounds(Property p) {
  return p == Property::resource_exclusive || p == Property::resource_current || p == Property::invariant;
}

// |compound|: the climb is on a property whose faults add up (compounds()).
Candidate mutate(const SearchBase& base, Candidate c, Rng& rng, bool compound) {
  const SearchSpec& s = base.spec.search;
  c.strategy = "margin";
  const std::uint64_t what = rng.below(8);
  const bool room = c.genes.size() < static_cast<std::size_t>(s.max_faults) && !s.kinds.empty();
  if (what == 0 && room) {
    c.genes.push_back(draw_gene(base, everything(s), rng));
  } else if (what == 3 && compound && room && !c.genes.empty()) {
    // Compound faults: where one fault used the lease up, a second adds to it.
    c.genes.push_back(stacked_after(base, c.genes[rng.below(c.genes.size())], rng));
  } else if (what == 3 && compound && c.genes.size() > 1) {
    // No room for one more: the stacked copy takes another fault's place.
    // A climb that spent its last fault elsewhere (a pause of the other
    // client, which only moved a phase) is otherwise stuck: the moves back
    // to a third pause in the critical section each leave the lease as it is.
    const std::size_t from = rng.below(c.genes.size());
    std::size_t out = rng.below(c.genes.size() - 1);
    if (out >= from) ++out;
    c.genes[out] = stacked_after(base, c.genes[from], rng);
  } else if (what == 3 && !compound && room && !c.genes.empty()) {
    // Compound faults across processes: the same fault on another target
    // (a second master's clock steps, a second master crashes) — what a
    // quorum needs to lose, one node at a time.
    Gene copy = c.genes[rng.below(c.genes.size())];
    const std::size_t targets = s.kinds[copy.space].targets.size();
    if (s.kinds[copy.space].kind->one_target && targets > 1) {
      copy.target = (copy.target + 1 + rng.below(targets - 1)) % targets;
      c.genes.push_back(copy);
    } else {
      mutate_gene(base, c.genes[rng.below(c.genes.size())], rng);
    }
  } else if (what == 1 && c.genes.size() > 1) {
    c.genes.erase(c.genes.begin() + static_cast<std::ptrdiff_t>(rng.below(c.genes.size())));
  } else if (what == 2 && (!c.story.empty() || !s.latencies.empty())) {
    if (!c.story.empty()) {
      auto& story = c.story[rng.below(c.story.size())];
      story = story ? std::nullopt : std::optional<Duration>(in_window(s, rng));
    }
    if (!s.latencies.empty()) c.latency = rng.below(s.latencies.size());
  } else if (!c.genes.empty()) {
    mutate_gene(base, c.genes[rng.below(c.genes.size())], rng);
  } else {
    draw_rest(base, c, rng);
  }
  return c;
}

Candidate climb_step(const SearchBase& base, std::uint64_t index, Rng& rng, const ClimbState& climb) {
  std::vector<std::size_t> known;
  for (std::size_t i = 0; i < climb.best.size(); ++i)
    if (climb.best[i]) known.push_back(i);
  if (known.empty() || rng.below(kRestartOneIn) == 0) {
    Candidate c = draw(base, everything(base.spec.search), rng, "margin");
    return c;
  }
  const std::size_t property = known[index % known.size()];
  return mutate(base, climb.best[property]->candidate, rng, compounds(base.spec.search.hunt[property]));
}

}  // namespace

const char* strategy_name(Strategy s) {
  for (const auto& [strategy, name] : kNames)
    if (strategy == s) return name;
  return "?";
}

bool parse_strategy(const std::string& text, Strategy& out) {
  for (const auto& [strategy, name] : kNames)
    if (text == name) {
      out = strategy;
      return true;
    }
  return false;
}

Candidate propose(const SearchBase& base, Strategy strategy, std::uint64_t index, Rng& rng, const ClimbState& climb) {
  if (strategy == Strategy::portfolio) strategy = static_cast<Strategy>(index % 4);
  switch (strategy) {
    case Strategy::uniform: return draw(base, everything(base.spec.search), rng, "uniform");
    case Strategy::swarm: return draw_swarm(base, rng);
    case Strategy::phase: return draw_phase(base, rng);
    case Strategy::margin:
    case Strategy::portfolio: return climb_step(base, index, rng, climb);
    case Strategy::exhaustive: break;  // numbered cases, search.cc
  }
  return draw(base, everything(base.spec.search), rng, "uniform");
}

std::optional<Closeness> closeness(Property property, const Margins& margins, std::optional<Duration> lease_left,
                                   std::optional<int> shortfall) {
  const std::optional<Duration>& m = margins[static_cast<std::size_t>(property)];
  if (!m) return std::nullopt;
  Duration lead{0};
  if (compounds(property)) lead = lease_left ? std::max(*lease_left, Duration{0}) : Duration::max();
  return Closeness{shortfall.value_or(std::numeric_limits<int>::max()), lead, *m};
}

void learn(const SearchBase& base, const Candidate& candidate, const Margins& margins,
           std::optional<Duration> lease_left, std::optional<int> shortfall, ClimbState& climb) {
  const std::vector<Property>& hunt = base.spec.search.hunt;
  climb.best.resize(hunt.size());
  for (std::size_t i = 0; i < hunt.size(); ++i) {
    const std::optional<Closeness> c = closeness(hunt[i], margins, lease_left, shortfall);
    if (!c) continue;
    std::optional<ClimbState::Best>& best = climb.best[i];
    if (!best || *c < best->closeness) {
      best = ClimbState::Best{candidate, *c, 0};
    } else if (++best->stale >= kStaleRuns) {
      // A climb that came no closer in this many runs sits on a local
      // optimum (a plateau where the measure is used up without breaking
      // the property, or faults spent where no one move helps): it starts
      // again from the next run.
      best.reset();
    } else if (*c == best->closeness) {
      // Ties move the climb: a plateau is walked, not waited on.
      best->candidate = candidate;
    }
  }
}

}  // namespace locksim::search
