#include "sim/scenario/fuzz_dictionary.h"

#include <set>
#include <variant>

#include "sim/core/marked_regions.h"
#include "sim/history/history.h"
#include "sim/history/server_event.h"
#include "sim/scenario/faults/fault_kinds.h"
#include "sim/scenario/read/sections.h"

namespace locksim::scenario {

namespace {

// Every declared word, each once, sorted: the region reads the same whatever
// order the declarations come in.
std::set<std::string> declared_words() {
  std::set<std::string> words;
  for (const SectionDecl& s : sections()) {
    words.insert(std::string(s.name));
    for (const KeyDecl& k : s.keys) {
      words.insert(std::string(k.name));
      // Listed choices only: a hidden, test-only one (the planted crash)
      // would have the fuzzer report the abort it exists to cause.
      if (const auto* choice = std::get_if<ChoiceRule>(&k.rule))
        for (std::size_t i = 0; i < choice->options.size() && i < choice->listed; ++i)
          words.insert(std::string(choice->options[i].second));
    }
  }
  for (const std::vector<std::string>& more :
       {all_fault_kind_keys(), search_kind_keys(), fault_kind_names(), phase_names(), server_event_names()})
    words.insert(more.begin(), more.end());
  return words;
}

}  // namespace

std::string fuzz_dictionary_region(std::string_view name) {
  if (name != "tokens") return "";
  std::string out;
  // Headers as lines of their own ("\x0a" each side); a named section with a name.
  for (const SectionDecl& s : sections())
    out += "\"\\x0a[" + std::string(s.name) + (s.named ? ".x]" : "]") + "\\x0a\"\n";
  for (const std::string& word : declared_words()) out += "\"" + word + "\"\n";
  return out;
}

std::string regenerate_fuzz_dictionary(std::string_view text, std::vector<std::string>& problems) {
  return regenerate_marked_regions(text, "fuzz", fuzz_dictionary_region, problems);
}

}  // namespace locksim::scenario
