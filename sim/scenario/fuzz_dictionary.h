// The fuzz dictionary's tokens (tests/fuzz/scenario.dict, libFuzzer's
// format), drawn from the declarations: each section header as a line of its
// own, and each key, fault kind, listed choice, phase and server event as a
// word — the tokens the mutation driver and libFuzzer splice in to reach the
// code behind a key. The dictionary keeps them between
//
//   # <!-- fuzz: tokens -->
//   # <!-- /fuzz -->
//
// and `locksim keys --update tests/fuzz/scenario.dict` rewrites them; values,
// limits and whole tables stay written by hand around the region.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace locksim::scenario {

// The dictionary lines of the region called |name| ("tokens"); "" otherwise.
std::string fuzz_dictionary_region(std::string_view name);

// |text| with its fuzz regions regenerated (marked_regions.h).
std::string regenerate_fuzz_dictionary(std::string_view text, std::vector<std::string>& problems);

}  // namespace locksim::scenario
