// One variant of a loaded scenario file resolved, the test failing (with the
// parser's message) when it does not resolve: for tests about what a file
// resolves to.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "sim/scenario/file.h"

namespace locksim {

inline ScenarioSpec resolve_ok(const ScenarioFile& file, const std::string& variant,
                               const std::vector<std::string>& overrides = {}) {
  ScenarioError error;
  std::optional<ScenarioSpec> spec = file.resolve(variant, overrides, error);
  if (!spec) ADD_FAILURE() << error.to_string();
  return spec.value_or(ScenarioSpec{});
}

}  // namespace locksim
