// The rule for when a fault that did not fire changes what a cell says
// (sweep/story_gap.h) on the shared cases of tests/data/story_gap_cases.csv,
// which analysis/provenance.py is held to as well, and which faults a story
// needs.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/sweep/story_gap.h"

namespace locksim::sweep {
namespace {

struct Case {
  std::uint64_t runs = 0, violated = 0, fired = 0;
  bool matters = false;
  std::string why;
};

std::vector<Case> shared_cases() {
  std::ifstream in(std::string(LOCKSIM_SOURCE_DIR) + "/tests/data/story_gap_cases.csv");
  std::vector<Case> cases;
  std::string line;
  std::getline(in, line);  // the header
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string runs, violated, fired, matters;
    Case c;
    std::getline(fields, runs, ',');
    std::getline(fields, violated, ',');
    std::getline(fields, fired, ',');
    std::getline(fields, matters, ',');
    std::getline(fields, c.why);
    c.runs = std::stoull(runs);
    c.violated = std::stoull(violated);
    c.fired = std::stoull(fired);
    c.matters = matters == "1";
    cases.push_back(c);
  }
  return cases;
}

TEST(StoryGap, SharedCases) {
  const std::vector<Case> cases = shared_cases();
  ASSERT_GE(cases.size(), 10u);
  for (const Case& c : cases)
    EXPECT_EQ(gap_matters(c.runs, c.violated, c.fired), c.matters)
        << c.violated << " of " << c.runs << " violated, fired in " << c.fired << ": " << c.why;
}

TEST(StoryGap, TheStoryNeedsTheFaultsExpectFiredLists) {
  ScenarioSpec spec;
  for (const char* name : {"pause", "background-drops", "crash"}) spec.faults.push_back(FaultSpec{.name = name});
  EXPECT_EQ(story_needs(spec), (std::vector<bool>{true, true, true}));  // none listed: every fault counts
  spec.expect.fired = {"crash", "pause"};
  EXPECT_EQ(story_needs(spec), (std::vector<bool>{true, false, true}));
}

}  // namespace
}  // namespace locksim::sweep
