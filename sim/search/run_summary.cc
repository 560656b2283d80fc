#include "sim/search/run_summary.h"

#include "sim/core/run_error.h"
#include "sim/core/trace.h"
#include "sim/run/run.h"
#include "sim/scenario/spec.h"
#include "sim/search/byte_codec.h"

namespace locksim::search {

namespace {

using bytes::get;
using bytes::put;

// An optional signed value as a presence word and the value.
template <typename T>
void put_optional(std::string& out, const std::optional<T>& v, std::int64_t (*raw)(const T&)) {
  put(out, v.has_value());
  put(out, static_cast<std::uint64_t>(v ? raw(*v) : 0));
}

template <typename T>
bool get_optional(std::string_view in, std::size_t& at, std::optional<T>& v, T (*make)(std::int64_t)) {
  std::uint64_t present = 0, raw = 0;
  if (!get(in, at, present) || !get(in, at, raw)) return false;
  v = present ? std::optional<T>(make(static_cast<std::int64_t>(raw))) : std::nullopt;
  return true;
}

std::int64_t duration_raw(const Duration& d) { return d.count(); }
Duration duration_of(std::int64_t raw) { return Duration{raw}; }
std::int64_t int_raw(const int& i) { return i; }
int int_of(std::int64_t raw) { return static_cast<int>(raw); }

RunSummary summary_of(const RunResult& r) {
  RunSummary out;
  for (std::size_t p = 0; p < kPropertyCount; ++p) {
    out.violated[p] = r.verdicts[p].violated;
    if (r.verdicts[p].violated && r.verdicts[p].witness) out.witness[p] = r.verdicts[p].witness->text;
  }
  out.margins = safety_margins(r.history, r.verdicts, &out.lease_left);
  out.shortfall = quorum_shortfall(r.history);
  for (const FaultOutcome& f : r.faults) out.faults.push_back({f.name, f.fired, f.effective});
  return out;
}

RunSummary failed(const RunError& e) {
  RunSummary out;
  out.failure = std::string("run error: ") + e.what();
  return out;
}

}  // namespace

RunSummary summarise_run(const SearchBase& base, const Candidate& candidate, std::uint64_t seed) {
  NullTrace trace;
  try {
    return summary_of(run_scenario(apply_candidate(base, candidate), seed, trace));
  } catch (const RunError& e) {
    return failed(e);
  }
}

struct CandidateRunner::Reused {
  explicit Reused(ScenarioSpec s) : spec(std::move(s)), runs(spec) {}
  ScenarioSpec spec;  // the story with the latency applied and no [expect]; |runs| holds a reference to it
  RepeatedRuns runs;
};

CandidateRunner::CandidateRunner(const SearchBase& base) : base_(base) {}
CandidateRunner::~CandidateRunner() = default;

RunSummary CandidateRunner::run(const Candidate& candidate, std::uint64_t seed) {
  const std::size_t slot = candidate.latency ? 1 + *candidate.latency : 0;
  if (by_latency_.size() <= slot) by_latency_.resize(slot + 1);
  if (!by_latency_[slot]) {
    ScenarioSpec spec = with_latency(base_.spec, candidate.latency);
    spec.expect = Expectation{};
    by_latency_[slot] = std::make_unique<Reused>(std::move(spec));
  }
  RunOptions options;
  options.compare_expectation = false;  // a search judges only the properties it hunts
  try {
    return summary_of(by_latency_[slot]->runs.run_with_faults(seed, candidate_faults(base_, candidate), options));
  } catch (const RunError& e) {
    return failed(e);
  }
}

void encode(const RunSummary& s, std::string& out) {
  put(out, s.failure.has_value());
  if (s.failure) return put(out, *s.failure);
  for (std::size_t p = 0; p < kPropertyCount; ++p) {
    put(out, s.violated[p]);
    put(out, s.witness[p]);
    put_optional(out, s.margins[p], duration_raw);
  }
  put_optional(out, s.lease_left, duration_raw);
  put_optional(out, s.shortfall, int_raw);
  put(out, static_cast<std::uint64_t>(s.faults.size()));
  for (const FaultOutcome& f : s.faults) {
    put(out, f.name);
    put(out, static_cast<std::uint64_t>(f.fired));
    put(out, static_cast<std::uint64_t>(f.effective));
  }
}

bool decode(std::string_view in, std::size_t& at, RunSummary& s) {
  s = RunSummary{};
  std::uint64_t failed = 0;
  if (!get(in, at, failed)) return false;
  if (failed) return get(in, at, s.failure.emplace());
  for (std::size_t p = 0; p < kPropertyCount; ++p) {
    std::uint64_t violated = 0;
    if (!get(in, at, violated) || !get(in, at, s.witness[p]) || !get_optional(in, at, s.margins[p], duration_of))
      return false;
    s.violated[p] = violated != 0;
  }
  std::uint64_t faults = 0;
  if (!get_optional(in, at, s.lease_left, duration_of) || !get_optional(in, at, s.shortfall, int_of) ||
      !get(in, at, faults))
    return false;
  for (std::uint64_t i = 0; i < faults; ++i) {
    FaultOutcome f;
    std::uint64_t fired = 0, effective = 0;
    if (!get(in, at, f.name) || !get(in, at, fired) || !get(in, at, effective)) return false;
    f.fired = static_cast<std::int64_t>(fired);
    f.effective = static_cast<std::int64_t>(effective);
    s.faults.push_back(std::move(f));
  }
  return true;
}

}  // namespace locksim::search
