#include "sim/recorded/orderings.h"

#include <algorithm>
#include <limits>

namespace locksim {

namespace {

constexpr std::int64_t kUnbounded = std::numeric_limits<std::int64_t>::max() / 4;

// Offsets' differences as a graph: bound[p][q] limits offset(q) - offset(p)
// from above. Feasible when no cycle is negative (Floyd–Warshall on the
// closure); a solution is each recorder's shortest distance from them all.
class Constraints {
 public:
  Constraints(std::size_t n, std::int64_t bound) : n_(n), bound_(n * n, bound) {
    for (std::size_t i = 0; i < n; ++i) at(i, i) = 0;
  }
  std::int64_t& at(std::size_t p, std::size_t q) { return bound_[p * n_ + q]; }
  bool close() {
    for (std::size_t k = 0; k < n_; ++k)
      for (std::size_t i = 0; i < n_; ++i)
        for (std::size_t j = 0; j < n_; ++j)
          if (at(i, k) < kUnbounded && at(k, j) < kUnbounded) at(i, j) = std::min(at(i, j), at(i, k) + at(k, j));
    for (std::size_t i = 0; i < n_; ++i)
      if (at(i, i) < 0) return false;
    return true;
  }
  // On a closed system: adds offset(q) - offset(p) <= hi and keeps it
  // closed, in n^2 rather than close()'s n^3 (every shortest path either
  // avoids the new edge or uses it once). False when it cannot hold.
  bool tighten(std::size_t p, std::size_t q, std::int64_t hi) {
    if (hi >= at(p, q)) return true;
    if (at(q, p) < kUnbounded && hi + at(q, p) < 0) return false;
    std::vector<std::int64_t> to_p(n_), from_q(n_);
    for (std::size_t i = 0; i < n_; ++i) to_p[i] = at(i, p), from_q[i] = at(q, i);
    for (std::size_t i = 0; i < n_; ++i) {
      if (to_p[i] >= kUnbounded) continue;
      for (std::size_t j = 0; j < n_; ++j)
        if (from_q[j] < kUnbounded) at(i, j) = std::min(at(i, j), to_p[i] + hi + from_q[j]);
    }
    return true;
  }
  // offset(q) = min over p of bound[p][q] from a virtual source at 0 for all:
  // on a closed, feasible system, min_p at(p, q) satisfies every bound.
  std::vector<std::int64_t> solution() {
    std::vector<std::int64_t> out(n_, 0);
    for (std::size_t q = 0; q < n_; ++q)
      for (std::size_t p = 0; p < n_; ++p) out[q] = std::min(out[q], at(p, q));
    return out;
  }

 private:
  std::size_t n_;
  std::vector<std::int64_t> bound_;
};

// One pair of recorders whose events' order the offsets can change, and
// the pieces its offset difference can lie in.
struct Pair {
  std::size_t p, q;
  std::vector<std::pair<std::int64_t, std::int64_t>> pieces;  // [lo, hi], scaled
};

struct Search {
  std::size_t n;
  const std::vector<Pair>& pairs;
  std::size_t limit;
  Orderings& out;
  bool over = false;

  void walk(std::size_t i, const Constraints& so_far) {
    if (over) return;
    if (i == pairs.size()) {
      if (out.offsets.size() == limit) {
        over = true;
        return;
      }
      Constraints c = so_far;
      out.offsets.push_back(c.solution());
      return;
    }
    for (const auto& [lo, hi] : pairs[i].pieces) {
      Constraints next = so_far;
      if (next.tighten(pairs[i].p, pairs[i].q, hi) && next.tighten(pairs[i].q, pairs[i].p, -lo)) walk(i + 1, next);
      if (over) return;
    }
  }
};

}  // namespace

OffsetBounds::OffsetBounds(std::size_t count, std::int64_t within) : n(count), most(count * count, within) {
  for (std::size_t i = 0; i < n; ++i) most[i * n + i] = 0;
}

void OffsetBounds::between(std::size_t p, std::size_t q, std::int64_t lo, std::int64_t hi) {
  most[p * n + q] = std::min(most[p * n + q], hi);
  most[q * n + p] = std::min(most[q * n + p], -lo);
}

std::optional<Orderings> orderings_within(const std::vector<std::vector<std::int64_t>>& readings, Duration uncertainty,
                                          std::size_t limit) {
  return orderings_within(readings, OffsetBounds(readings.size(), uncertainty.count()), limit);
}

std::optional<Orderings> orderings_within(const std::vector<std::vector<std::int64_t>>& readings,
                                          const OffsetBounds& bounds, std::size_t limit) {
  const std::size_t n = readings.size();
  Orderings out;
  out.scale = static_cast<std::int64_t>(n) + 1;
  // The bounds as given, scaled, then closed: each pair's own range follows
  // from all of them (two ranged events are apart by at most their ranges).
  Constraints start(n, kUnbounded);
  for (std::size_t p = 0; p < n; ++p)
    for (std::size_t q = 0; q < n; ++q)
      if (p != q && bounds.most[p * n + q] < kOffsetUnbounded) start.at(p, q) = out.scale * bounds.most[p * n + q];
  if (!start.close()) return out;
  std::vector<std::vector<std::int64_t>> sorted = readings;
  for (auto& r : sorted) {
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
  }
  std::vector<Pair> pairs;
  for (std::size_t p = 0; p < n; ++p) {
    for (std::size_t q = p + 1; q < n; ++q) {
      // offset(q) - offset(p) lies in [low, high] (scaled); unbounded pairs
      // have no events on one side, or nothing to order.
      const std::int64_t high = start.at(p, q), low = -start.at(q, p);
      if (high >= kUnbounded || low <= -kUnbounded) continue;
      // Every y - x in that range: where the order of an event of p and one of q flips.
      std::vector<std::int64_t> cuts;
      for (const std::int64_t x : sorted[p]) {
        auto y = std::lower_bound(sorted[q].begin(), sorted[q].end(), x + low / out.scale);
        for (; y != sorted[q].end() && *y <= x + high / out.scale; ++y) cuts.push_back(*y - x);
        if (cuts.size() > 4 * limit) return std::nullopt;  // more pieces than orders allowed
      }
      if (cuts.empty()) continue;
      std::sort(cuts.begin(), cuts.end());
      cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
      Pair pair{p, q, {}};
      std::int64_t lo = low;
      for (const std::int64_t c : cuts) {
        if (lo <= out.scale * c - 1) pair.pieces.push_back({lo, out.scale * c - 1});
        lo = out.scale * c + 1;
      }
      if (lo <= high) pair.pieces.push_back({lo, high});
      pairs.push_back(std::move(pair));
    }
  }
  Search search{n, pairs, limit, out};
  search.walk(0, start);
  if (search.over) return std::nullopt;
  return out;
}

}  // namespace locksim
