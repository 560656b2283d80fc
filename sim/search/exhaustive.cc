#include "sim/search/exhaustive.h"

#include <algorithm>
#include <limits>
#include <set>
#include <sstream>

#include "sim/check/margins.h"
#include "sim/core/trace.h"
#include "sim/run/run.h"
#include "sim/world/latency.h"

namespace locksim::search {

namespace {

using namespace std::chrono_literals;
using Count = unsigned __int128;

constexpr Count kSaturated = ~Count{0} >> 1;
constexpr Duration kEither = 1ms;  // a class sits this far either side of a boundary
// Boundaries closer than this are one: 1.997 s, 1.999 s and 2.001 s (2 s
// with a 2 ms drift allowance either way) give the classes 1.996 s and 2.002 s.
constexpr Duration kCluster = 5ms;

// C(n + s - 1, s): multisets of size s from n things; saturates.
Count multisets(std::uint64_t n, std::uint64_t s) {
  if (s == 0) return 1;
  if (n == 0) return 0;
  Count r = 1;
  const Count m = static_cast<Count>(n) + s - 1;
  for (std::uint64_t i = 1; i <= s; ++i) {
    const Count factor = m - s + i;
    if (r > kSaturated / factor) return kSaturated;
    r = r * factor / i;  // exact: a product of i consecutive integers is divisible by i!
  }
  return r;
}

// Every duration the story writes, outside [search], [expect] and the
// variants: TTLs, timeouts, delays, starts — and per steps list each
// "work D" and the work's running total (how long a holder is busy).
void written_durations(const toml::node& node, std::string_view key, std::set<Duration>& out) {
  if (key == "search" || key == "expect" || key == "variant") return;
  if (const toml::table* t = node.as_table()) {
    for (const auto& [k, v] : *t) written_durations(v, k.str(), out);
  } else if (const toml::array* a = node.as_array()) {
    Duration work{0};
    for (const toml::node& v : *a) {
      const std::optional<std::string> s = v.value<std::string>();
      if (s && s->rfind("work ", 0) == 0)
        if (const auto d = parse_duration(s->substr(5))) {
          out.insert(*d);
          work += *d;
          out.insert(work);
        }
      written_durations(v, key, out);
    }
  } else if (const std::optional<std::string> s = node.value<std::string>()) {
    if (const auto d = parse_duration(*s); d && *d > Duration{0}) out.insert(*d);
  }
}

// The fault-free run's margins for the hunted properties (where they are at stake).
std::vector<Duration> baseline_margins(const SearchBase& base) {
  std::vector<Duration> out;
  NullTrace none;
  try {
    const ScenarioSpec spec = apply_candidate(base, Candidate{});
    const RunResult r = run_scenario(spec, spec.seed, none);
    const Margins m = safety_margins(r.history, r.verdicts);
    for (Property p : base.spec.search.hunt)
      if (const auto& margin = m[static_cast<std::size_t>(p)]; margin && *margin > Duration{0}) out.push_back(*margin);
  } catch (const std::exception&) {
    // A story that cannot run without faults has no margins to offer; the other classes stand.
  }
  return out;
}

struct Boundaries {
  std::vector<Duration> durations;  // written ones, their differences, and the margins with their k-ths
};

Boundaries boundaries(const SearchBase& base, const toml::table& merged) {
  std::set<Duration> written;
  written_durations(merged, "", written);
  std::set<Duration> all(written.begin(), written.end());
  for (Duration a : written)
    for (Duration b : written)
      if (a > b) all.insert(a - b);
  for (Duration m : baseline_margins(base))
    for (int k = 1; k <= base.spec.search.max_faults; ++k) all.insert(m / k);
  return {std::vector<Duration>(all.begin(), all.end())};
}

// The classes of a duration range: its ends and each cluster of boundaries
// (both signs for a signed range) 1 ms either side, inside the range.
std::vector<Duration> duration_classes(const SearchRange<Duration>& r, const Boundaries& b) {
  std::set<Duration> points;
  for (Duration d : b.durations) points.insert({d, -d});
  std::set<Duration> out{r.low, r.high};
  const auto add = [&](Duration v) {
    if (v > r.low && v < r.high) out.insert(v);
  };
  for (auto it = points.begin(); it != points.end();) {
    const Duration first = *it;
    Duration last = first;
    while (++it != points.end() && *it - last < kCluster) last = *it;
    add(first - kEither);
    add(last + kEither);
  }
  return {out.begin(), out.end()};
}

std::vector<std::int64_t> rate_classes(const SearchRange<std::int64_t>& r) {
  std::set<std::int64_t> out{r.low, r.high};
  if (r.low < 0 && r.high > 0) out.insert(0);
  return {out.begin(), out.end()};
}

std::string durations_text(const std::vector<Duration>& v) {
  std::string out;
  for (Duration d : v) out += (out.empty() ? "" : " ") + format_duration_rounded(d);
  return out;
}

// The classes of one searched value, said as the discretisation's line.
std::vector<std::optional<std::int64_t>> value_classes(const SearchKindSpec& k, std::size_t i, const Boundaries& b,
                                                       std::vector<std::string>& said) {
  const scenario::SearchedValue& v = (*k.kind->values)[i];
  const SearchedRange& r = k.values[i];
  if (!r.present) return {std::nullopt};
  std::vector<std::optional<std::int64_t>> out;
  std::string text;
  switch (v.type) {
    case scenario::Searched::duration: {
      const auto classes = duration_classes({Duration{r.range.low}, Duration{r.range.high}}, b);
      for (Duration d : classes) out.emplace_back(d.count());
      text = durations_text(classes);
      break;
    }
    case scenario::Searched::rate:
      for (std::int64_t rate : rate_classes(r.range)) {
        out.emplace_back(rate);
        text += (text.empty() ? "" : " ") + std::to_string(rate) + "ppm";
      }
      break;
    case scenario::Searched::split: {
      // One side holds the first target: a split and its mirror cut the same.
      const std::uint64_t sides = std::uint64_t{1} << (k.targets.size() - 1);
      for (std::uint64_t half = 1; half < sides; ++half) out.emplace_back(static_cast<std::int64_t>(half << 1));
      text = std::to_string(sides - 1) + " splits of " + std::to_string(k.targets.size()) + " targets";
      break;
    }
    case scenario::Searched::choice: {
      const auto& options = std::get<scenario::ChoiceRule>(k.kind->key(v.key).rule).options;
      for (std::int64_t o : r.options) {
        out.emplace_back(o);
        for (const auto& [value, option] : options)
          if (value == o) text += (text.empty() ? "" : " ") + std::string(option);
      }
      break;
    }
  }
  said.push_back("  " + std::string(k.kind->name) + " " + std::string(v.key) + ": " + text);
  return out;
}

// Every magnitude of one kind's fault: each combination of its values'
// classes, the first value outermost.
std::vector<Gene> magnitudes(const SearchKindSpec& k, const Boundaries& b, std::vector<std::string>& said) {
  std::vector<Gene> out{Gene{}};
  for (std::size_t i = 0; i < k.values.size(); ++i) {
    const auto classes = value_classes(k, i, b, said);
    std::vector<Gene> next;
    next.reserve(out.size() * classes.size());
    for (const Gene& g : out)
      for (const auto& c : classes) {
        next.push_back(g);
        next.back().values[i] = c;
      }
    out = std::move(next);
  }
  return out;
}

// The triggers: the time grid, then each phase site at each occurrence.
std::vector<Gene> triggers(const SearchBase& base, const ExhaustiveOptions& options, std::vector<std::string>& said) {
  const SearchSpec& s = base.spec.search;
  std::vector<Gene> out;
  std::string times;
  for (std::size_t i = 0; i < options.grid; ++i) {
    Gene g;
    g.at = s.from + (s.until - s.from) * static_cast<std::int64_t>(i) / static_cast<std::int64_t>(options.grid);
    if (!out.empty() && g.at == out.back().at) continue;
    times += (times.empty() ? "" : " ") + format_duration_rounded(g.at);
    out.push_back(g);
  }
  said.push_back("triggers: at " + times);
  std::string sites;
  for (std::size_t site = 0; site < base.sites.size(); ++site) {
    for (int n = 1; n <= base.sites[site].most; ++n) {
      Gene g;
      g.at_phase = true;
      g.site = site;
      g.occurrence = n;
      out.push_back(g);
    }
    sites += (sites.empty() ? "" : ", ") + base.sites[site].client + " " + phase_name(base.sites[site].phase) +
             (base.sites[site].most > 1 ? " #1-" + std::to_string(base.sites[site].most) : "");
  }
  if (!sites.empty()) said.push_back("  and at each phase site, at once: " + sites);
  return out;
}

Gene combined(const Gene& where, const Gene& how_much, std::size_t space, std::size_t target) {
  Gene g = how_much;
  g.space = space;
  g.target = target;
  g.at_phase = where.at_phase;
  g.at = where.at;
  g.site = where.site;
  g.occurrence = where.occurrence;
  g.delay = Duration{0};
  return g;
}

}  // namespace

std::string case_count_text(Count cases) {
  if (cases >= kSaturated || cases > std::numeric_limits<std::uint64_t>::max()) return "more than 2^64";
  std::string digits = std::to_string(static_cast<std::uint64_t>(cases)), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

Discretisation discretise(const SearchBase& base, const toml::table& merged, const ExhaustiveOptions& options) {
  const SearchSpec& s = base.spec.search;
  Discretisation d;
  d.max_faults = s.max_faults;
  const Boundaries b = boundaries(base, merged);
  const std::vector<Gene> when = triggers(base, options, d.description);
  d.description.push_back("magnitude classes (range ends; the story's durations, their differences and the "
                          "fault-free run's margins, 1 ms either side of each, boundaries closer than 5 ms as one):");
  for (std::size_t k = 0; k < s.kinds.size(); ++k) {
    const SearchKindSpec& kind = s.kinds[k];
    const std::vector<Gene> how_much = magnitudes(kind, b, d.description);
    const std::size_t targets = kind.kind->one_target ? kind.targets.size() : 1;
    for (std::size_t t = 0; t < targets; ++t)
      for (const Gene& w : when)
        for (const Gene& m : how_much) d.placements.push_back(combined(w, m, k, t));
  }
  for (std::size_t i = 0; i < s.latencies.size(); ++i) d.latencies.push_back(i);
  const Count per_latency = [&] {
    Count total = 0;
    for (int k = 1; k <= d.max_faults; ++k) {
      const Count m = multisets(d.placements.size(), static_cast<std::uint64_t>(k));
      total = m >= kSaturated - total ? kSaturated : total + m;
    }
    return total;
  }();
  const Count latencies = std::max<std::size_t>(1, d.latencies.size());
  d.cases = per_latency > kSaturated / latencies ? kSaturated : per_latency * latencies;
  d.description.push_back("placements: " + std::to_string(d.placements.size()) + " (targets x triggers x classes); " +
                          "1 to " + std::to_string(d.max_faults) + " faults a run" +
                          (d.latencies.empty() ? "" : " x " + std::to_string(d.latencies.size()) + " latencies") +
                          "; no process treated as interchangeable");
  return d;
}

Candidate exhaustive_case(const Discretisation& d, std::uint64_t index) {
  Candidate c;
  c.strategy = "exhaustive";
  Count rest = index;
  if (!d.latencies.empty()) {
    c.latency = d.latencies[static_cast<std::size_t>(rest % d.latencies.size())];
    rest /= d.latencies.size();
  }
  const std::uint64_t n = d.placements.size();
  // Cases with fewer faults come first; within a size, multisets in
  // lexicographic order of placement indices.
  std::uint64_t size = 1;
  for (; size < static_cast<std::uint64_t>(d.max_faults); ++size) {
    const Count m = multisets(n, size);
    if (rest < m) break;
    rest -= m;
  }
  std::uint64_t low = 0;
  for (std::uint64_t left = size; left > 0; --left) {
    // The next placement is the largest x >= low with fewer than |rest|+1
    // multisets of size |left| that start below x.
    const Count from_low = multisets(n - low, left);
    std::uint64_t lo = low, hi = n - 1;
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo + 1) / 2;
      if (from_low - multisets(n - mid, left) <= rest) lo = mid;
      else hi = mid - 1;
    }
    rest -= from_low - multisets(n - lo, left);
    c.genes.push_back(d.placements[lo]);
    low = lo;
  }
  return c;
}

}  // namespace locksim::search
