// Turns a ScenarioSpec into a WorldPlan for one run, and the plan into a
// World. The builder lays out every process first — Redis nodes, replicas,
// the resource, services, clients, sentinels, in that order, so start-up ties
// break the same way every time — and owns the name table that gives each
// its id; then it makes the models, which may name each other by id, the
// links and the fault schedule (each fault resolved by its kind, with its
// draws for this run's seed).
//
// Planner splits that in two for whoever runs one scenario many times (a
// sweep's cell, seed after seed): the layout, which no seed changes, is
// worked out once; plan(seed) makes a whole plan from it, faults(seed) only
// the part a seed changes, for a world reset in place (World::reset).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "sim/core/trace.h"
#include "sim/scenario/spec.h"
#include "sim/world/plan.h"
#include "sim/world/world.h"

namespace locksim {

// REQUIRES (all three): |spec| came from the reader (names resolve, values
// in range). A Planner keeps a reference to |spec|: it must outlive it.
class Planner {
 public:
  explicit Planner(const ScenarioSpec& spec);
  ~Planner();
  Planner(const Planner&) = delete;
  Planner& operator=(const Planner&) = delete;

  // |resettable|: keep each process's maker, for a world that will be reset
  // (World::reset); a world built once has no use for them.
  WorldPlan plan(std::uint64_t seed, bool resettable) const;
  // What plan(seed).faults would be.
  std::vector<PlannedFault> faults(std::uint64_t seed) const;
  // The same, written over |out|: a sweep's worker keeps one list for all
  // its seeds, whose memory (the faults' names included) serves every run.
  void faults(std::uint64_t seed, std::vector<PlannedFault>& out) const;
  // Other faults against the same layout (a search's candidate), written over |out|.
  void faults(std::uint64_t seed, const std::vector<FaultSpec>& specs, std::vector<PlannedFault>& out) const;

  struct Layout;  // every process's id (build.cc)

 private:
  const ScenarioSpec& spec_;
  std::unique_ptr<const Layout> layout_;
  // Per fault of the spec: as planned for any seed, once faults() found
  // nothing in it drawn. Filled by a const call: a Planner serves one thread.
  mutable std::vector<std::optional<PlannedFault>> seed_free_faults_;
};

WorldPlan plan_world(const ScenarioSpec& spec, std::uint64_t seed);
std::unique_ptr<World> build_world(const ScenarioSpec& spec, std::uint64_t seed, TraceSink& trace);

}  // namespace locksim
