// Proves the fuzz dictionary (tests/fuzz/scenario.dict) holds the tokens the
// declarations generate — every section header, key, fault kind, listed
// choice, phase and server event (sim/scenario/fuzz_dictionary.h) — so a key
// added to a section reaches the fuzzer with no list to remember (a hand list
// once lacked [store], [store_lock] and [search]).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/scenario/fuzz_dictionary.h"
#include "tests/fuzz/dictionary.h"

namespace locksim::scenario {
namespace {

const std::string kDictPath = std::string(LOCKSIM_SOURCE_DIR) + "/tests/fuzz/scenario.dict";

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> tokens_of(const std::string& text) {
  std::istringstream in(text);
  return fuzz::dictionary_tokens(in);
}

bool has(const std::vector<std::string>& tokens, const std::string& token) {
  return std::find(tokens.begin(), tokens.end(), token) != tokens.end();
}

TEST(FuzzDictionary, HoldsTheTokensTheDeclarationsGenerate) {
  // Proves scenario.dict's generated region is what the declarations give now
  // (run: locksim keys --update tests/fuzz/scenario.dict), and that it holds
  // what the fuzzer needs to reach the consensus store and the search space.
  const std::string text = read_file(kDictPath);
  ASSERT_NE(text.find("# <!-- fuzz: tokens -->"), std::string::npos) << kDictPath;
  std::vector<std::string> problems;
  EXPECT_EQ(regenerate_fuzz_dictionary(text, problems), text) << "run: locksim keys --update tests/fuzz/scenario.dict";
  EXPECT_TRUE(problems.empty());
  const std::vector<std::string> tokens = tokens_of(text);
  for (const char* word : {"store_lock", "heartbeat", "hunt", "phase_clients", "clock-jump", "key-expired", "acquired"})
    EXPECT_TRUE(has(tokens, word)) << word;
  EXPECT_TRUE(has(tokens, "\n[store]\n"));
  EXPECT_TRUE(has(tokens, "\n[client.x]\n"));
  EXPECT_GT(tokens.size(), 400u);  // the hand-written values and tables are still there
}

TEST(FuzzDictionary, AStaleRegionIsRewritten) {
  // Proves the check can fail: a region missing a token, or holding one no
  // declaration has, is regenerated to the declared tokens and nothing else.
  std::vector<std::string> problems;
  const std::string stale = "# head\n# <!-- fuzz: tokens -->\n\"not-a-key\"\n# <!-- /fuzz -->\n\"1ms\"\n";
  const std::string fresh = regenerate_fuzz_dictionary(stale, problems);
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(fresh, "# head\n# <!-- fuzz: tokens -->\n" + fuzz_dictionary_region("tokens") + "# <!-- /fuzz -->\n\"1ms\"\n");
  EXPECT_FALSE(has(tokens_of(fresh), "not-a-key"));
  EXPECT_TRUE(has(tokens_of(fresh), "1ms"));
}

}  // namespace
}  // namespace locksim::scenario
