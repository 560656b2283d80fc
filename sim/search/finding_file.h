// A finding as a standalone scenario file: the story's document with the
// search's faults written as [fault.NAME] tables, every value inlined, the
// run's seed pinned in [scenario] and [expect] saying what breaks — so
// `locksim run found-1.toml` reproduces it with no option and no search.
//
// Documents are toml++ tables: the shrinker edits them (shrink.h) and every
// edit is checked by reading the text back through the ordinary reader, so a
// file that shrinking produced is a file the reader accepts.
#pragma once

#include <optional>
#include <string>

#include <toml++/toml.h>

#include "sim/run/run.h"
#include "sim/search/search.h"

namespace locksim::search {

// |merged| is the variant's document (ScenarioFile::merged_toml). The run
// |candidate| made with |seed|, as a scenario with no [expect]: a crash's
// reproducer (crash-N.toml).
toml::table candidate_document(const toml::table& merged, const SearchBase& base, const Candidate& candidate,
                               std::uint64_t seed);
// The same, with [expect] saying which properties it breaks.
toml::table finding_document(const toml::table& merged, const SearchBase& base, const Finding& finding);
// The same, with [expect] saying the near miss's property holds.
toml::table near_miss_document(const toml::table& merged, const SearchBase& base, const NearMiss& near);

// |text| as comment lines: "# " before each line.
std::string commented(const std::string& text);

// The document as TOML text, after |header| (comment lines, each "# ...").
std::string document_text(const toml::table& doc, const std::string& header = "");

// Reads |doc| back and runs it with its own seed (or |seed| when given);
// nullopt when the reader refuses it, with |error| set.
std::optional<RunResult> run_document(const toml::table& doc, std::string& error,
                                      std::optional<std::uint64_t> seed = std::nullopt,
                                      const RunOptions& options = {}, TraceSink* trace = nullptr);

// [scenario].seed of |doc| (1 when absent, as the reader defaults it).
std::uint64_t document_seed(const toml::table& doc);

}  // namespace locksim::search
