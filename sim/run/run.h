// One run of one scenario variant with one seed: build, run, check, and
// compare with what the scenario expects.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/check/checkers.h"
#include "sim/check/client_outcomes.h"
#include "sim/check/faults.h"
#include "sim/check/judge.h"
#include "sim/check/liveness.h"
#include "sim/check/sessions.h"
#include "sim/core/trace.h"
#include "sim/history/history.h"
#include "sim/run/build.h"
#include "sim/scenario/spec.h"

namespace locksim {

// One way a run disagreed with [expect].
struct Mismatch {
  std::string what;      // "belief-exclusive", "longest-stuck"
  std::string expected;  // "holds", ">= 50s"
  std::string actual;    // "violated", "10s"
};

// The judgement (verdicts, liveness, faults per [fault.NAME] in file order,
// clients in process order) is the run's history's, judged where it stays:
// RepeatedRuns judges every seed into one RunResult.
struct RunResult : Judgement {
  std::uint64_t seed = 0;
  History history;
  std::vector<Mismatch> mismatches;
  std::uint64_t events = 0;
  // Every process's clocks as they were at the end, when RunOptions asked
  // (a history records each process's own readings: docs/history.md).
  std::vector<Clock> clocks;
  bool matches() const { return mismatches.empty(); }
};

// What a run may do besides the scenario: a search's "what if the dice fell
// differently from here on" (World::fresh_randomness_from).
struct RunOptions {
  struct Fresh {
    TrueTime from;
    std::uint64_t seed = 0;
  };
  std::optional<Fresh> fresh_randomness;
  // A sweep or a comparison keeps the verdicts and the first witnesses'
  // instants only (WitnessDetail::time_only); a run that is shown, traced or
  // explained needs the witness in words. A trace always gets the words.
  WitnessDetail witnesses = WitnessDetail::text;
  // A sweep or a comparison reads no mismatches: false leaves
  // RunResult::mismatches empty (so matches() means nothing) instead of
  // holding the run to the scenario's expectation, which costs strings in
  // every run of a cell whose swept value breaks the expectation.
  bool compare_expectation = true;
  // Keep the clocks in RunResult::clocks (run --history).
  bool keep_clocks = false;
};

RunResult run_scenario(const ScenarioSpec& spec, std::uint64_t seed, TraceSink& trace,
                       const RunOptions& options = {});

// One scenario run seed after seed without a trace (a sweep's cell on one
// worker): the layout is planned once and the world of the last run is reset
// for the next (World::reset) instead of built anew. The results are
// run_scenario's, byte for byte. Holds a reference to |spec|.
//
// run() returns a result that stays valid until the next run(): its history's
// buffers go back to the world for the next seed, so a warmed-up run
// allocates no history.
class RepeatedRuns {
 public:
  explicit RepeatedRuns(const ScenarioSpec& spec);
  ~RepeatedRuns();
  RepeatedRuns(const RepeatedRuns&) = delete;
  RepeatedRuns& operator=(const RepeatedRuns&) = delete;

  const RunResult& run(std::uint64_t seed, const RunOptions& options = {});
  // The same with |faults| in place of the spec's (a search's candidate; the
  // layout, network and everything else stay the spec's): run_scenario of
  // the spec with these faults, byte for byte.
  const RunResult& run_with_faults(std::uint64_t seed, const std::vector<FaultSpec>& faults, const RunOptions& options = {});

 private:
  const RunResult& run_planned(std::uint64_t seed, const RunOptions& options);

  const ScenarioSpec& spec_;
  RunResult result_;
  SessionTable sessions_;  // rebuilt in place for every run's judging
  std::unique_ptr<Planner> planner_;
  std::vector<PlannedFault> faults_;  // each seed's, written over the last's
  NullTrace trace_;
  std::unique_ptr<World> world_;  // after a run that stopped with an error: rebuilt, not reset
};

std::vector<Mismatch> compare_with_expectation(const Expectation& expect, const Verdicts& verdicts,
                                               const Liveness& liveness, const std::vector<FaultOutcome>& faults);

// "never fired", "fired 2 times, never with an effect", "fired at 3ms": how a
// fault's story went, for tables and mismatches.
std::string describe_firing(const FaultOutcome& fault);

}  // namespace locksim
