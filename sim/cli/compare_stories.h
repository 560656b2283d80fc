// What `locksim compare` runs, read and checked before anything runs: each
// FILE's variants — all of them, or those --variant names that it has (a
// story may lack a service) — each resolved with every --set, as `run
// --set` resolves them. A --variant that no FILE has is a typo, not a
// service every story lacks, and is refused.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "sim/scenario/spec.h"

namespace locksim::cli {

struct CompareStories {
  std::vector<std::string> paths;                 // per FILE, as found (a catalogue name becomes its path)
  std::vector<std::vector<ScenarioSpec>> specs;  // per FILE, its variants in order
  std::size_t cells() const;                      // (story, variant) pairs
  // "5 stories, 33 cells (story × variant) × 2000 seeds = 66000 runs on 2 threads".
  std::string size_text(std::uint64_t seeds, unsigned threads) const;
};

// False after writing why to |err| ("locksim compare: ...").
bool load_stories(const std::vector<std::string>& files, const std::vector<std::string>& variants,
                  const std::vector<std::string>& sets, CompareStories& out, std::ostream& err);

// --out (when given) is none of the stories' files; false after saying which.
bool out_spares_stories(const std::string& out_path, const CompareStories& stories, std::ostream& err);

}  // namespace locksim::cli
