// What one run is made of, decided before the world exists: the processes
// (a process's id is its index here, so whoever writes the plan knows every
// id before any model is made), their clocks, the keys, the links and the
// fault schedule and the triggers clients start on. The scenario builder writes one from a spec; World is
// constructed from it in one step.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "sim/core/limits.h"
#include "sim/history/history.h"
#include "sim/world/clock.h"
#include "sim/world/fault.h"
#include "sim/world/network.h"
#include "sim/world/process.h"
#include "sim/world/trigger.h"

namespace locksim {

struct PlannedProcess {
  // Given the model a reset drops (or null), makes the new one in its memory.
  using Maker = std::function<std::unique_ptr<Process>(std::unique_ptr<Process> old)>;
  std::unique_ptr<Process> model;
  ProcessKind kind;
  Clock clock;
  // Makes a fresh model equal to |model| as it was made: what a world reset
  // for another seed starts from (World::reset), made where the last run's
  // model was (it is destroyed first). Set when the plan is resettable.
  Maker make;
};

struct PlannedLink {
  ProcessId from;
  ProcessId to;
  LinkSpec spec;
};

// A fault of the scenario, named in the history by its index in the plan.
struct PlannedFault {
  // At a true time.
  struct AtTime {
    TrueTime at;
  };
  std::string name;
  FaultAction action;
  std::variant<AtTime, Trigger> when;
};

// A client that begins its first cycle when a trigger fires, not at a time.
struct PlannedStart {
  ProcessId client;
  Trigger trigger;
};

struct WorldPlan {
  // Every process has its maker (PlannedProcess::make): the world keeps what
  // World::reset needs. A world built for one run keeps nothing.
  bool resettable = false;
  std::uint64_t max_events = kDefaultMaxEvents;
  std::uint64_t max_facts = kDefaultMaxFacts;
  std::vector<PlannedProcess> processes;  // in id order
  std::vector<std::string> keys;          // a key's id is its index
  LinkSpec default_link;
  std::vector<PlannedLink> links;         // each one way
  ServiceLayout service;
  AppKind app = AppKind::none;
  std::vector<PlannedFault> faults;
  std::vector<PlannedStart> starts;

  // Appends a process made once (no maker: the plan cannot be resettable)
  // and returns its id, so that the next process's config can name it.
  ProcessId add(std::unique_ptr<Process> model, ProcessKind kind, Clock clock = Clock{}) {
    processes.push_back({std::move(model), kind, clock, {}});
    return static_cast<ProcessId>(processes.size() - 1);
  }
  // The id of the key called |name|, appended when new.
  std::uint32_t key(const std::string& name) {
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (keys[i] == name) return static_cast<std::uint32_t>(i);
    keys.push_back(name);
    return static_cast<std::uint32_t>(keys.size() - 1);
  }
};

}  // namespace locksim
