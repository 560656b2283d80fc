// A run that cannot go on.
//
// Three kinds of trouble, kept apart: a simulated fault is an outcome in the
// history (never an error); a programmer's mistake is an always-on assertion
// (check.h); and a run whose input asks for more than the engine can give —
// more events or facts than its budget, a clock driven past the range a
// clock can read — stops with a RunError. It is bad input found late (a
// drawn value, a loop with no delay), so the CLI reports it like bad input:
// the message, the run's scenario, variant and seed, exit 2.
#pragma once

#include <stdexcept>
#include <string>

namespace locksim {

class RunError : public std::runtime_error {
 public:
  explicit RunError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace locksim
