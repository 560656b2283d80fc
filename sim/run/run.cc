#include "sim/run/run.h"

#include "sim/check/judge.h"
#include "sim/run/build.h"
#include "sim/run/client_bounds_check.h"
#include "sim/run/judged_trace.h"

namespace locksim {

namespace {

// Runs |world| (just built or reset for |seed|) and judges it into |result|,
// whose history is swapped with the world's: the world keeps the buffers of
// |result|'s old history for its next reset.
// |sessions| is the caller's to keep: its memory serves the next run's table.
void run_and_judge(World& world, const ScenarioSpec& spec, std::uint64_t seed, TraceSink& trace,
                   const RunOptions& options, SessionTable& sessions, RunResult& result) {
  if (options.fresh_randomness) world.fresh_randomness_from(options.fresh_randomness->from, options.fresh_randomness->seed);
  world.run(TrueTime{spec.run_for});
  result.seed = seed;
  result.events = world.events_dispatched();
  result.clocks.clear();
  if (options.keep_clocks)
    for (ProcessId p = 0; p < world.history().processes.size(); ++p) result.clocks.push_back(world.clock(p));
  world.swap_history(result.history);
  sessions.build(result.history);
  judge(result.history, sessions, trace.enabled() ? WitnessDetail::text : options.witnesses, result);
  result.mismatches.clear();
  if (options.compare_expectation) {
    result.mismatches = compare_with_expectation(spec.expect, result.verdicts, result.liveness, result.faults);
    check_client_bounds(spec.expect.clients, result.clients, result.history, result.mismatches);
  }
  // What the checkers computed, for the analysis to draw.
  write_judged_lines(trace, result.history, result.verdicts);
}

}  // namespace

RunResult run_scenario(const ScenarioSpec& spec, std::uint64_t seed, TraceSink& trace, const RunOptions& options) {
  auto world = build_world(spec, seed, trace);
  RunResult result;
  SessionTable sessions;
  run_and_judge(*world, spec, seed, trace, options, sessions, result);
  return result;
}

RepeatedRuns::RepeatedRuns(const ScenarioSpec& spec) : spec_(spec), planner_(std::make_unique<Planner>(spec)) {}
RepeatedRuns::~RepeatedRuns() = default;

const RunResult& RepeatedRuns::run(std::uint64_t seed, const RunOptions& options) {
  planner_->faults(seed, faults_);
  return run_planned(seed, options);
}

const RunResult& RepeatedRuns::run_with_faults(std::uint64_t seed, const std::vector<FaultSpec>& faults,
                                   const RunOptions& options) {
  planner_->faults(seed, faults, faults_);
  return run_planned(seed, options);
}

const RunResult& RepeatedRuns::run_planned(std::uint64_t seed, const RunOptions& options) {
  if (world_) {
    world_->reset(seed, faults_);
  } else {
    WorldPlan plan = planner_->plan(seed, true);
    plan.faults = faults_;
    world_ = std::make_unique<World>(seed, std::move(plan), trace_);
  }
  // A run that throws leaves no world to reset: the next one is built anew.
  std::unique_ptr<World> world = std::move(world_);
  run_and_judge(*world, spec_, seed, trace_, options, sessions_, result_);
  world_ = std::move(world);
  return result_;
}

std::string describe_firing(const FaultOutcome& fault) {
  if (fault.fired == 0) return "never fired";
  const std::string times = fault.fired == 1 ? "once" : std::to_string(fault.fired) + " times";
  if (fault.effective == 0) return "fired " + times + ", never with an effect";
  std::string text = "fired at " + format_time_rounded(fault.first_effective_at);
  if (fault.fired > 1) text += " (" + times + ")";
  if (fault.effective < fault.fired) text += ", " + std::to_string(fault.fired - fault.effective) + " without effect";
  return text;
}

std::vector<Mismatch> compare_with_expectation(const Expectation& expect, const Verdicts& verdicts,
                                               const Liveness& liveness, const std::vector<FaultOutcome>& faults) {
  std::vector<Mismatch> out;
  for (const std::string& name : expect.fired) {
    for (const FaultOutcome& f : faults)
      if (f.name == name && f.effective == 0) out.push_back({"fired", name + " fires", name + " " + describe_firing(f)});
  }
  auto status = [](bool violated) { return std::string(violated ? "violated" : "holds"); };
  for (Property p : kAllProperties) {
    const auto& want = expect.violated[static_cast<std::size_t>(p)];
    const bool got = verdicts[static_cast<std::size_t>(p)].violated;
    if (want && *want != got) out.push_back({property_name(p), status(*want), status(got)});
  }
  if (expect.longest_stuck_at_least && liveness.longest_stuck < *expect.longest_stuck_at_least)
    out.push_back({"longest-stuck", ">= " + format_duration(*expect.longest_stuck_at_least),
                   format_duration_rounded(liveness.longest_stuck)});
  if (expect.longest_stuck_at_most && liveness.longest_stuck > *expect.longest_stuck_at_most)
    out.push_back({"longest-stuck", "<= " + format_duration(*expect.longest_stuck_at_most),
                   format_duration_rounded(liveness.longest_stuck)});
  const auto count_bound = [&](const std::optional<std::int64_t>& at_least, const std::optional<std::int64_t>& at_most,
                               std::int64_t actual, const char* what) {
    if (at_least && actual < *at_least) out.push_back({what, ">= " + std::to_string(*at_least), std::to_string(actual)});
    if (at_most && actual > *at_most) out.push_back({what, "<= " + std::to_string(*at_most), std::to_string(actual)});
  };
  count_bound(expect.commits_at_least, expect.commits_at_most, liveness.commits, "commits");
  count_bound(expect.rollbacks_at_least, expect.rollbacks_at_most, liveness.rollbacks, "rollbacks");
  if (expect.sessions_at_least && liveness.sessions < *expect.sessions_at_least)
    out.push_back({"sessions", ">= " + std::to_string(*expect.sessions_at_least), std::to_string(liveness.sessions)});
  if (expect.sessions_at_most && liveness.sessions > *expect.sessions_at_most)
    out.push_back({"sessions", "<= " + std::to_string(*expect.sessions_at_most), std::to_string(liveness.sessions)});
  if (expect.expired_grants_at_least && liveness.expired_grants < *expect.expired_grants_at_least)
    out.push_back({"expired-grants", ">= " + std::to_string(*expect.expired_grants_at_least),
                   std::to_string(liveness.expired_grants)});
  if (expect.expired_grants_at_most && liveness.expired_grants > *expect.expired_grants_at_most)
    out.push_back({"expired-grants", "<= " + std::to_string(*expect.expired_grants_at_most),
                   std::to_string(liveness.expired_grants)});
  return out;
}

}  // namespace locksim
