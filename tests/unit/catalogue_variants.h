// Every variant of every catalogue scenario (scenarios/*.toml), resolved, in
// file-name order: for tests that hold a property over the whole catalogue.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/scenario/file.h"
#include "sim/scenario/spec.h"

namespace locksim {

struct CatalogueVariant {
  std::string scenario;  // the file's [scenario] name
  std::string variant;
  ScenarioSpec spec;
};

inline std::vector<CatalogueVariant> catalogue_variants() {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(LOCKSIM_SOURCE_DIR) / "scenarios"))
    if (e.path().extension() == ".toml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<CatalogueVariant> out;
  for (const auto& path : files) {
    ScenarioError error;
    auto file = ScenarioFile::load(path.string(), error);
    EXPECT_TRUE(file) << error.to_string();
    if (!file) continue;
    for (const std::string& variant : file->variants()) {
      auto spec = file->resolve(variant, {}, error);
      EXPECT_TRUE(spec) << error.to_string();
      if (spec) out.push_back({file->name(), variant, std::move(*spec)});
    }
  }
  return out;
}

}  // namespace locksim
