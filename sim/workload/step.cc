#include "sim/workload/step.h"

namespace locksim {

const char* step_name(StepKind k) {
  switch (k) {
    case StepKind::work: return "work";
    case StepKind::call: return "call";
    case StepKind::check: return "check";
    case StepKind::read: return "read";
    case StepKind::write: return "write";
    case StepKind::mark: return "mark";
    case StepKind::add: return "add";
    case StepKind::increment_size: return "increment-size";
    case StepKind::decrement: return "decrement";
    case StepKind::check_and_decrement: return "check-and-decrement";
    case StepKind::increment: return "increment";
    case StepKind::add_and_increment: return "add-and-increment";
    case StepKind::commit: return "commit";
  }
  return "?";
}

Phase phase_reached(StepKind k) {
  switch (k) {
    case StepKind::read: return Phase::read;
    case StepKind::write:
    case StepKind::increment: return Phase::wrote;
    case StepKind::mark: return Phase::marked;
    case StepKind::add:
    case StepKind::add_and_increment: return Phase::added;
    case StepKind::commit: return Phase::committed;
    case StepKind::increment_size: return Phase::incremented_size;
    case StepKind::decrement:
    case StepKind::check_and_decrement: return Phase::decremented;
    case StepKind::work: return Phase::worked;
    case StepKind::call: return Phase::called;
    case StepKind::check: return Phase::checked;
  }
  return Phase::done;
}

}  // namespace locksim
