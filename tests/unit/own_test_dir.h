// The running test's own temporary directory, by name (nothing is made or
// removed here): ctest runs a suite's tests side by side, and tests sharing
// one directory empty it under each other.
#pragma once

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace locksim {

inline std::filesystem::path own_test_dir(const std::string& suite) {
  return std::filesystem::temp_directory_path() /
         ("locksim_" + suite + "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
}

}  // namespace locksim
