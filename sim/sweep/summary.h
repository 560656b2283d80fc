// What a sweep keeps of each run, and how a cell's runs add up.
//
// A run is summarised the moment it ends (RunSummary: a few integers), and
// its History is dropped; a cell keeps only a CellAccumulator of sums. All
// sums are integers — counts, nanoseconds, and per-run rates in fixed point
// (1e-12) — so adding runs in any order, or merging chunks of a cell that
// different threads ran, gives the same bits. Floating point appears only
// when a row is printed.
//
// Rates come with a 95 % Wilson score interval (Wilson 1927; Agresti & Coull
// 1998): unlike the normal approximation it stays inside [0, 1] and is not
// zero-width at 0 or N violations, which is the common case in a sweep.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/check/property.h"
#include "sim/core/time.h"
#include "sim/run/run.h"
#include "sim/sweep/columns.h"

namespace locksim::sweep {

// One client's figures in one run (columns.h).
struct ClientFigures {
  bool present = false;  // the run had this client
  std::int64_t sessions = 0;
  std::int64_t ops_accepted = 0;
  std::int64_t ops_rejected = 0;
  std::int64_t releases_failed = 0;
  Duration longest_wait{0};
};

struct RunSummary {
  std::array<bool, kPropertyCount> violated{};
  std::array<std::optional<TrueTime>, kPropertyCount> first_witness{};  // set when violated
  std::int64_t sessions = 0;
  std::int64_t acquire_attempts = 0;
  std::int64_t acquire_ok = 0;
  Duration mean_acquire_latency{0};  // meaningful only when sessions > 0
  Duration longest_stuck{0};
  Duration unheld_time{0};
  std::int64_t expired_grants = 0;
  std::int64_t commits = 0;  // transactional resources (Liveness)
  std::int64_t rollbacks = 0;
  Duration wasted_work{0};
  std::int64_t committed_per_s_micro = 0;  // committed sessions per second, in millionths
  std::vector<std::int8_t> fault_effective;  // per layout fault: 1 fired with an effect, 0 not, -1 no such fault
  std::vector<ClientFigures> clients;        // per layout client
};

// The summary of |result|, its faults and clients matched by name to |layout|'s.
RunSummary summarise(const RunResult& result, const ColumnLayout& layout);

// Sums over a cell's runs (or a chunk of them).
class CellAccumulator {
 public:
  // |replica| is the run's index in its cell: the first violation of each
  // property is kept by the lowest index, whatever order runs are added in.
  void add(const RunSummary& run, std::uint64_t replica = 0);
  void merge(const CellAccumulator& other);

  std::int64_t runs() const { return runs_; }
  std::int64_t violated(Property p) const { return violated_[static_cast<std::size_t>(p)]; }
  // The lowest replica index that violated |p|, if any did.
  std::optional<std::uint64_t> first_violation(Property p) const { return first_[static_cast<std::size_t>(p)]; }
  // Share of runs in which fault |f| fired with an effect; nullopt when no run had it.
  std::optional<double> fault_fired_rate(std::size_t f) const;
  // Per client |c|: means over the runs that had it (nullopt when none), and the longest wait.
  std::optional<double> client_mean(std::size_t c, std::int64_t ClientFigures::* figure) const;
  std::optional<double> client_wait_ms_mean(std::size_t c) const;
  std::optional<double> client_wait_ms_max(std::size_t c) const;

  // Means over the cell's runs, in the CSV's units. Rates and latency are
  // averaged over the runs where they exist (a run with no acquire attempt
  // has no success rate; one with no session has no latency): nullopt when
  // no run had one.
  double sessions_mean() const;
  double acquire_attempts_mean() const;
  std::optional<double> acquire_ok_rate_mean() const;
  std::optional<double> acquire_latency_ms_mean() const;
  double longest_stuck_ms_mean() const;
  double unheld_ms_mean() const;
  double expired_grants_mean() const;
  double commits_mean() const;
  double rollbacks_mean() const;
  double wasted_ms_mean() const;
  double committed_per_s_mean() const;

 private:
  std::int64_t runs_ = 0;
  std::array<std::int64_t, kPropertyCount> violated_{};
  __int128 sessions_ = 0;
  __int128 acquire_attempts_ = 0;
  __int128 ok_rate_fixed_ = 0;  // sum of per-run acquire_ok / attempts, in 1e-12
  std::int64_t ok_rate_runs_ = 0;
  __int128 latency_ns_ = 0;     // sum of per-run mean latencies
  std::int64_t latency_runs_ = 0;
  __int128 longest_stuck_ns_ = 0;
  __int128 unheld_ns_ = 0;
  __int128 expired_grants_ = 0;
  __int128 commits_ = 0;
  __int128 rollbacks_ = 0;
  __int128 wasted_ns_ = 0;
  __int128 committed_per_s_micro_ = 0;
  std::array<std::optional<std::uint64_t>, kPropertyCount> first_{};
  struct FaultSums {
    std::int64_t runs = 0;  // runs that had the fault
    std::int64_t fired = 0;
  };
  std::vector<FaultSums> faults_;
  struct ClientSums {
    std::int64_t runs = 0;  // runs that had the client
    __int128 sessions = 0, ops_accepted = 0, ops_rejected = 0, releases_failed = 0, wait_ns = 0;
    std::int64_t wait_max_ns = 0;
  };
  std::vector<ClientSums> clients_;
};

struct WilsonInterval {
  double low = 0.0;
  double high = 1.0;
};

// The two-sided 95 % Wilson score interval for |successes| out of |trials|;
// [0, 1] when trials == 0.
WilsonInterval wilson_interval(std::int64_t successes, std::int64_t trials);

}  // namespace locksim::sweep
