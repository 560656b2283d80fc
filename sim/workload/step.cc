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

}  // namespace locksim
