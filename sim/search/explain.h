// Why a finding breaks: what each of its faults contributes, and when the
// violation became likely.
//
//  - necessity: the violation rate over fresh seeds with the document as it
//    is, and with each fault removed, its magnitude halved and doubled. A
//    fault whose removal keeps the rate is not part of the explanation; one
//    whose halving drops it to 0 shows how much margin the story has.
//  - likelihood over the run's time: the run is replayed up to the instant
//    each fault fired, then continued with fresh randomness
//    (World::fresh_randomness_from) — the rate says how likely the violation
//    was once that fault had happened. Antithesis reports a bug's
//    likelihood the same way.
//  - the margins of the finding's own run, and the story in one sentence.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "sim/check/margins.h"

namespace locksim::search {

struct Rate {
  std::uint64_t broke = 0;
  std::uint64_t runs = 0;  // 0 = not applicable (the edited document does not read)
};

struct FaultNecessity {
  std::string fault;        // "search-1"
  std::string description;  // "pause of c1 for 11s at c1 acquired"
  Rate removed;
  Rate halved;
  Rate doubled;
};

struct AfterFault {
  std::string fault;  // "" = from the start of the run
  Duration at{};      // true time it fired
  Rate rate;
};

struct Explanation {
  Property property = Property::grant_exclusive;
  std::uint64_t seed = 0;  // the document's own
  Rate as_is;              // over fresh seeds
  std::vector<FaultNecessity> faults;
  std::vector<AfterFault> after;
  Margins margins{};
  std::string witness;
  std::string story;  // one sentence
  std::vector<std::string> fired;  // faults that took effect in the document's run
};

// REQUIRES: |doc| reads and breaks |property| with its own seed.
Explanation explain(const toml::table& doc, Property property, std::uint64_t seeds);

// "42/100 (42%)", "n/a".
std::string rate_text(const Rate& r);
// The explanation as Markdown, for found-N.md and the review report.
std::string explanation_markdown(const Explanation& e, const std::string& title);

// One line per [fault.NAME] of |doc|: "pause of c1 for 11s at c1 acquired".
std::string describe_fault_table(const std::string& name, const toml::table& fault);

}  // namespace locksim::search
