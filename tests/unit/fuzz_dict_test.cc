// Proves the fuzz dictionary (tests/fuzz/scenario.dict) holds every section
// header, every key, every fault kind, every named choice, phase and server
// event the scenario reader declares: the dictionary is how the mutation
// driver and libFuzzer reach the code behind a key, and a hand list drifts
// as keys are added (it once lacked [store], [store_lock] and [search]).
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "sim/history/history.h"
#include "sim/history/server_event.h"
#include "sim/scenario/faults/fault_kinds.h"
#include "sim/scenario/read/sections.h"
#include "tests/fuzz/dictionary.h"

namespace locksim::scenario {
namespace {

const std::string kDictPath = std::string(LOCKSIM_SOURCE_DIR) + "/tests/fuzz/scenario.dict";

std::vector<std::string> dictionary_tokens(const std::string& path) {
  std::ifstream in(path);
  return fuzz::dictionary_tokens(in);
}

// The keys of [search.KIND] tables: the first cell of each row of the
// table FORMAT.md prints from their declarations ("| `targets` | ...").
std::vector<std::string> search_kind_keys() {
  std::vector<std::string> keys;
  std::istringstream rows(search_kinds_markdown());
  std::string row;
  while (std::getline(rows, row)) {
    if (row.rfind("| `", 0) != 0) continue;
    const std::size_t end = row.find('`', 3);
    if (end != std::string::npos) keys.push_back(row.substr(3, end - 3));
  }
  return keys;
}

struct Wanted {
  std::vector<std::string> headers;  // "[store]", "[client." (a named section: any name)
  std::set<std::string> words;        // bare tokens: keys, kinds, choices, phases, events
};

Wanted declared() {
  Wanted w;
  for (const SectionDecl& s : sections()) {
    w.headers.push_back("[" + std::string(s.name) + (s.named ? "." : "]"));
    w.words.insert(std::string(s.name));
    for (const KeyDecl& k : s.keys) {
      w.words.insert(std::string(k.name));
      // Listed choices only: a hidden, test-only one (the planted crash) would
      // have the fuzzer report the abort it exists to cause.
      if (const auto* choice = std::get_if<ChoiceRule>(&k.rule))
        for (std::size_t i = 0; i < choice->options.size() && i < choice->listed; ++i)
          w.words.insert(std::string(choice->options[i].second));
    }
  }
  for (const std::string& k : all_fault_kind_keys()) w.words.insert(k);
  for (const std::string& k : search_kind_keys()) w.words.insert(k);
  for (const std::string& k : fault_kind_names()) w.words.insert(k);
  for (const std::string& p : phase_names()) w.words.insert(p);
  for (const std::string& e : server_event_names()) w.words.insert(e);
  return w;
}

// What |tokens| lack of the declared ones, one dictionary line each.
std::string missing_from(const std::vector<std::string>& tokens) {
  const std::set<std::string> bare(tokens.begin(), tokens.end());
  const Wanted w = declared();
  std::string missing;
  for (const std::string& header : w.headers) {
    bool found = false;
    for (const std::string& t : tokens) found = found || t.find("\n" + header) != std::string::npos;
    if (!found) missing += "\"\\x0a" + header + (header.back() == '.' ? "x]" : "") + "\\x0a\"\n";
  }
  for (const std::string& word : w.words)
    if (bare.count(word) == 0) missing += "\"" + word + "\"\n";
  return missing;
}

TEST(FuzzDictionary, HoldsEveryDeclaredSectionKeyAndName) {
  // Proves scenario.dict has a token for each section header (a line "[name]", or "[name.X]" for a named one), each
  // declared key, fault kind, choice, phase and server event; a failure lists every one missing, ready to paste.
  const std::vector<std::string> tokens = dictionary_tokens(kDictPath);
  ASSERT_GT(tokens.size(), 100u) << "cannot read " << kDictPath;
  ASSERT_GT(declared().words.size(), 150u);
  const std::string missing = missing_from(tokens);
  EXPECT_TRUE(missing.empty()) << "tests/fuzz/scenario.dict lacks these declared tokens:\n" << missing;
}

TEST(FuzzDictionary, AGapIsListed) {
  // Proves the check can fail: the dictionary without its [store] header and "store_lock", "heartbeat" (a [store]
  // key) and "hunt" (a [search] key) tokens is reported missing exactly those.
  std::vector<std::string> tokens;
  for (const std::string& t : dictionary_tokens(kDictPath))
    if (t.find("[store]") == std::string::npos && t != "store_lock" && t != "heartbeat" && t != "hunt")
      tokens.push_back(t);
  EXPECT_EQ(missing_from(tokens), "\"\\x0a[store]\\x0a\"\n\"heartbeat\"\n\"hunt\"\n\"store_lock\"\n");
}

}  // namespace
}  // namespace locksim::scenario
