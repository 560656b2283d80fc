// locksim's version, set once in the top-level CMakeLists.txt: sweep
// manifests record it, so results from two versions are never mixed unseen.
#pragma once

#include <string_view>

namespace locksim {

inline constexpr std::string_view kVersion = LOCKSIM_VERSION;

}  // namespace locksim
