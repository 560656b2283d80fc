#include "sim/sweep/summary.h"

#include <algorithm>
#include <cmath>

namespace locksim::sweep {

namespace {

constexpr std::int64_t kRateFixed = 1'000'000'000'000;  // per-run rates in 1e-12
constexpr double kZ95 = 1.959963984540054;               // the 97.5th percentile of the standard normal

double ratio(__int128 sum, std::int64_t n) { return n == 0 ? 0.0 : static_cast<double>(sum) / static_cast<double>(n); }

}  // namespace

RunSummary summarise(const RunResult& result, const ColumnLayout& layout) {
  RunSummary s;
  s.fault_effective.assign(layout.faults.size(), -1);
  for (std::size_t f = 0; f < layout.faults.size(); ++f)
    for (const FaultOutcome& o : result.faults)
      if (o.name == layout.faults[f]) s.fault_effective[f] = o.effective > 0 ? 1 : 0;
  s.clients.assign(layout.clients.size(), ClientFigures{});
  for (std::size_t c = 0; c < layout.clients.size(); ++c) {
    for (const ClientOutcome& o : result.clients) {
      if (result.history.name_of(o.client) != layout.clients[c]) continue;
      s.clients[c] = ClientFigures{true, o.sessions, o.ops_accepted, o.ops_rejected, o.releases_failed, o.longest_wait};
    }
  }
  for (std::size_t i = 0; i < kPropertyCount; ++i) {
    const Verdict& v = result.verdicts[i];
    s.violated[i] = v.violated;
    if (v.violated && v.witness) s.first_witness[i] = v.witness->at;
  }
  const Liveness& l = result.liveness;
  s.sessions = l.sessions;
  s.acquire_attempts = l.acquire_attempts;
  s.acquire_ok = l.acquire_ok;
  s.mean_acquire_latency = l.mean_acquire_latency;
  s.longest_stuck = l.longest_stuck;
  s.unheld_time = l.unheld_time;
  s.expired_grants = l.expired_grants;
  s.commits = l.commits;
  s.rollbacks = l.rollbacks;
  s.wasted_work = l.wasted_work;
  // Integers, so that sums do not depend on the order runs are added in.
  if (l.run_length > Duration{0})
    s.committed_per_s_micro = static_cast<std::int64_t>(static_cast<__int128>(l.commits) * 1'000'000'000'000'000 /
                                                        l.run_length.count());
  return s;
}

void CellAccumulator::add(const RunSummary& run, std::uint64_t replica) {
  ++runs_;
  for (std::size_t i = 0; i < kPropertyCount; ++i) {
    violated_[i] += run.violated[i] ? 1 : 0;
    if (run.violated[i] && (!first_[i] || replica < *first_[i])) first_[i] = replica;
  }
  if (faults_.size() < run.fault_effective.size()) faults_.resize(run.fault_effective.size());
  for (std::size_t f = 0; f < run.fault_effective.size(); ++f) {
    if (run.fault_effective[f] < 0) continue;
    ++faults_[f].runs;
    faults_[f].fired += run.fault_effective[f];
  }
  if (clients_.size() < run.clients.size()) clients_.resize(run.clients.size());
  for (std::size_t c = 0; c < run.clients.size(); ++c) {
    const ClientFigures& figures = run.clients[c];
    if (!figures.present) continue;
    ClientSums& sums = clients_[c];
    ++sums.runs;
    sums.sessions += figures.sessions;
    sums.ops_accepted += figures.ops_accepted;
    sums.ops_rejected += figures.ops_rejected;
    sums.releases_failed += figures.releases_failed;
    sums.wait_ns += figures.longest_wait.count();
    sums.wait_max_ns = std::max(sums.wait_max_ns, figures.longest_wait.count());
  }
  sessions_ += run.sessions;
  acquire_attempts_ += run.acquire_attempts;
  if (run.acquire_attempts > 0) {
    // Rounded to nearest in fixed point: the same integer on every machine.
    const __int128 num = static_cast<__int128>(run.acquire_ok) * kRateFixed;
    ok_rate_fixed_ += (2 * num + run.acquire_attempts) / (2 * static_cast<__int128>(run.acquire_attempts));
    ++ok_rate_runs_;
  }
  if (run.sessions > 0) {
    latency_ns_ += run.mean_acquire_latency.count();
    ++latency_runs_;
  }
  longest_stuck_ns_ += run.longest_stuck.count();
  unheld_ns_ += run.unheld_time.count();
  expired_grants_ += run.expired_grants;
  commits_ += run.commits;
  rollbacks_ += run.rollbacks;
  wasted_ns_ += run.wasted_work.count();
  committed_per_s_micro_ += run.committed_per_s_micro;
}

void CellAccumulator::merge(const CellAccumulator& other) {
  runs_ += other.runs_;
  for (std::size_t i = 0; i < kPropertyCount; ++i) violated_[i] += other.violated_[i];
  sessions_ += other.sessions_;
  acquire_attempts_ += other.acquire_attempts_;
  ok_rate_fixed_ += other.ok_rate_fixed_;
  ok_rate_runs_ += other.ok_rate_runs_;
  latency_ns_ += other.latency_ns_;
  latency_runs_ += other.latency_runs_;
  longest_stuck_ns_ += other.longest_stuck_ns_;
  unheld_ns_ += other.unheld_ns_;
  expired_grants_ += other.expired_grants_;
  commits_ += other.commits_;
  rollbacks_ += other.rollbacks_;
  wasted_ns_ += other.wasted_ns_;
  committed_per_s_micro_ += other.committed_per_s_micro_;
  for (std::size_t i = 0; i < kPropertyCount; ++i)
    if (other.first_[i] && (!first_[i] || *other.first_[i] < *first_[i])) first_[i] = other.first_[i];
  if (faults_.size() < other.faults_.size()) faults_.resize(other.faults_.size());
  for (std::size_t f = 0; f < other.faults_.size(); ++f) {
    faults_[f].runs += other.faults_[f].runs;
    faults_[f].fired += other.faults_[f].fired;
  }
  if (clients_.size() < other.clients_.size()) clients_.resize(other.clients_.size());
  for (std::size_t c = 0; c < other.clients_.size(); ++c) {
    ClientSums& a = clients_[c];
    const ClientSums& b = other.clients_[c];
    a.runs += b.runs;
    a.sessions += b.sessions;
    a.ops_accepted += b.ops_accepted;
    a.ops_rejected += b.ops_rejected;
    a.releases_failed += b.releases_failed;
    a.wait_ns += b.wait_ns;
    a.wait_max_ns = std::max(a.wait_max_ns, b.wait_max_ns);
  }
}

std::optional<double> CellAccumulator::fault_fired_rate(std::size_t f) const {
  if (f >= faults_.size() || faults_[f].runs == 0) return std::nullopt;
  return ratio(faults_[f].fired, faults_[f].runs);
}

std::optional<double> CellAccumulator::client_mean(std::size_t c, std::int64_t ClientFigures::* figure) const {
  if (c >= clients_.size() || clients_[c].runs == 0) return std::nullopt;
  const ClientSums& s = clients_[c];
  if (figure == &ClientFigures::sessions) return ratio(s.sessions, s.runs);
  if (figure == &ClientFigures::ops_accepted) return ratio(s.ops_accepted, s.runs);
  if (figure == &ClientFigures::ops_rejected) return ratio(s.ops_rejected, s.runs);
  return ratio(s.releases_failed, s.runs);
}

std::optional<double> CellAccumulator::client_wait_ms_mean(std::size_t c) const {
  if (c >= clients_.size() || clients_[c].runs == 0) return std::nullopt;
  return ratio(clients_[c].wait_ns, clients_[c].runs) / 1e6;
}

std::optional<double> CellAccumulator::client_wait_ms_max(std::size_t c) const {
  if (c >= clients_.size() || clients_[c].runs == 0) return std::nullopt;
  return static_cast<double>(clients_[c].wait_max_ns) / 1e6;
}

double CellAccumulator::sessions_mean() const { return ratio(sessions_, runs_); }
double CellAccumulator::acquire_attempts_mean() const { return ratio(acquire_attempts_, runs_); }
std::optional<double> CellAccumulator::acquire_ok_rate_mean() const {
  if (ok_rate_runs_ == 0) return std::nullopt;
  return ratio(ok_rate_fixed_, ok_rate_runs_) / static_cast<double>(kRateFixed);
}
std::optional<double> CellAccumulator::acquire_latency_ms_mean() const {
  if (latency_runs_ == 0) return std::nullopt;
  return ratio(latency_ns_, latency_runs_) / 1e6;
}
double CellAccumulator::longest_stuck_ms_mean() const { return ratio(longest_stuck_ns_, runs_) / 1e6; }
double CellAccumulator::unheld_ms_mean() const { return ratio(unheld_ns_, runs_) / 1e6; }
double CellAccumulator::expired_grants_mean() const { return ratio(expired_grants_, runs_); }
double CellAccumulator::commits_mean() const { return ratio(commits_, runs_); }
double CellAccumulator::rollbacks_mean() const { return ratio(rollbacks_, runs_); }
double CellAccumulator::wasted_ms_mean() const { return ratio(wasted_ns_, runs_) / 1e6; }
double CellAccumulator::committed_per_s_mean() const { return ratio(committed_per_s_micro_, runs_) / 1e6; }

WilsonInterval wilson_interval(std::int64_t successes, std::int64_t trials) {
  if (trials <= 0) return {};
  const double n = static_cast<double>(trials);
  const double p = static_cast<double>(successes) / n;
  const double z2 = kZ95 * kZ95;
  const double denominator = 1.0 + z2 / n;
  const double centre = (p + z2 / (2.0 * n)) / denominator;
  const double half = kZ95 * std::sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / denominator;
  // At 0 and N the bound is exactly 0 or 1; say so rather than print 1e-17.
  const double low = successes == 0 ? 0.0 : std::max(0.0, centre - half);
  const double high = successes == trials ? 1.0 : std::min(1.0, centre + half);
  return {low, high};
}

}  // namespace locksim::sweep
