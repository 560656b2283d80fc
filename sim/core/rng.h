// Seeded random streams.
//
// Like FoundationDB's DeterministicRandom, locksim pins its own generator and
// its own distributions: the standard library's engines are portable but its
// distributions are not (libstdc++ and libc++ draw differently), and a global
// generator would let one component's draws shift another's. Every component
// derives its own stream from (run seed, component, purpose), so adding a
// client or a fault never changes what the network's latency stream draws.
//
// Generator: xoshiro256** (Blackman & Vigna), seeded through SplitMix64.
#pragma once

#include <cstdint>
#include <string_view>

#include "sim/core/time.h"

namespace locksim {

// SplitMix64 step: also the mixing function used to derive stream seeds.
std::uint64_t splitmix64(std::uint64_t& state);
// FNV-1a, 64-bit: a stable hash of component and purpose names.
std::uint64_t stable_hash(std::string_view text, std::uint64_t basis = 0xcbf29ce484222325ULL);

class Rng {
 public:
  // A stream's (component, purpose), hashed: what derive takes from the
  // names before the seed. A world reset for seed after seed derives the
  // same streams each time, and hashes their names once.
  struct StreamName {
    std::uint64_t component_hash;
    std::uint64_t purpose_hash;
  };

  explicit Rng(std::uint64_t seed);
  // The stream for |purpose| of |component| in the run seeded with |run_seed|.
  static Rng derive(std::uint64_t run_seed, std::string_view component, std::string_view purpose) {
    return derive(run_seed, stream_name(component, purpose));
  }
  static StreamName stream_name(std::string_view component, std::string_view purpose);
  // derive(run_seed, component, purpose), its names hashed beforehand.
  static Rng derive(std::uint64_t run_seed, StreamName name);

  std::uint64_t next_u64();
  // Uniform in [0, bound); bound > 0. Lemire's multiply-shift with rejection: no modulo bias.
  std::uint64_t below(std::uint64_t bound);
  // Uniform in [lo, hi] inclusive.
  std::int64_t between(std::int64_t lo, std::int64_t hi);
  Duration between(Duration lo, Duration hi) { return Duration{between(lo.count(), hi.count())}; }
  // True with probability ppm / 1e6: probabilities stay integers in decisions.
  bool chance_ppm(std::int64_t ppm);
  // Uniform in [0, 1) with 53 random bits.
  double unit();
  // Our own transforms (not <random>'s), so every platform draws the same.
  Duration exponential(Duration mean);
  Duration lognormal(Duration median, double sigma);
  Duration pareto(Duration scale, double alpha);
  double standard_normal();

 private:
  std::uint64_t s_[4];
};

}  // namespace locksim
