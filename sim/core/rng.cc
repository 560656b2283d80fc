#include "sim/core/rng.h"

#include <cmath>
#include <numbers>

#include "sim/core/limits.h"

namespace locksim {

namespace {

constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

Duration from_ns_double(double ns) {
  // Draws are clamped to [0, kMaxDuration]: a heavy tail must not overflow
  // int64 or run the simulation backwards, and nothing longer than the
  // longest run can matter to one. (A lower cap would silently shorten what
  // a user asked for: a pause of lognormal(2 days, 0.5).)
  constexpr auto kMaxNs = static_cast<double>(kMaxDuration.count());
  if (!(ns > 0)) return Duration{0};
  if (ns > kMaxNs) ns = kMaxNs;
  return Duration{static_cast<std::int64_t>(std::llround(ns))};
}

}  // namespace

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t stable_hash(std::string_view text, std::uint64_t basis) {
  std::uint64_t h = basis;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

Rng::Rng(std::uint64_t seed) {
  std::uint64_t state = seed;
  for (auto& word : s_) word = splitmix64(state);
}

Rng::StreamName Rng::stream_name(std::string_view component, std::string_view purpose) {
  return StreamName{stable_hash(component), stable_hash(purpose, 0x84222325cbf29ce4ULL)};
}

Rng Rng::derive(std::uint64_t run_seed, StreamName name) {
  std::uint64_t state = run_seed;
  std::uint64_t mixed = splitmix64(state);
  mixed ^= name.component_hash;
  std::uint64_t state2 = mixed;
  mixed = splitmix64(state2) ^ name.purpose_hash;
  return Rng(mixed);
}

std::uint64_t Rng::next_u64() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

std::uint64_t Rng::below(std::uint64_t bound) {
  // Lemire, "Fast Random Integer Generation in an Interval" (2019).
  unsigned __int128 m = static_cast<unsigned __int128>(next_u64()) * bound;
  auto low = static_cast<std::uint64_t>(m);
  if (low < bound) {
    const std::uint64_t threshold = (0 - bound) % bound;
    while (low < threshold) {
      m = static_cast<unsigned __int128>(next_u64()) * bound;
      low = static_cast<std::uint64_t>(m);
    }
  }
  return static_cast<std::uint64_t>(m >> 64);
}

std::int64_t Rng::between(std::int64_t lo, std::int64_t hi) {
  if (hi <= lo) return lo;
  const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  if (span == UINT64_MAX) return static_cast<std::int64_t>(next_u64());
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + below(span + 1));
}

bool Rng::chance_ppm(std::int64_t ppm) {
  if (ppm <= 0) return false;
  if (ppm >= 1'000'000) return true;
  return static_cast<std::int64_t>(below(1'000'000)) < ppm;
}

double Rng::unit() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

double Rng::standard_normal() {
  // Box-Muller; 1 - unit() lies in (0, 1] so the log is finite.
  const double u1 = 1.0 - unit();
  const double u2 = unit();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

Duration Rng::exponential(Duration mean) {
  return from_ns_double(-std::log(1.0 - unit()) * static_cast<double>(mean.count()));
}

Duration Rng::lognormal(Duration median, double sigma) {
  return from_ns_double(static_cast<double>(median.count()) * std::exp(sigma * standard_normal()));
}

Duration Rng::pareto(Duration scale, double alpha) {
  return from_ns_double(static_cast<double>(scale.count()) / std::pow(1.0 - unit(), 1.0 / alpha));
}

}  // namespace locksim
