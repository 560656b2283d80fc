// What `locksim search` and `locksim shrink` print and write: the progress
// line, the report, search.json, each finding's files (found-N.toml,
// found-N.md, found-N.trace.jsonl), and when nothing is found for a property
// its near miss (near-miss-PROPERTY.toml); each run that crashed the model
// as crash-N.toml.
#pragma once

#include <ostream>
#include <optional>
#include <string>
#include <vector>

#include "sim/search/finalize.h"
#include "sim/search/near_miss.h"
#include "sim/search/search.h"

namespace locksim::cli {

struct FindingOutput {
  search::Finding finding;
  search::Finalized final;
  std::string path;  // found-N.toml, once written
};

// A finding as the report and search.json show it, rendered where it was
// shrunk and explained (a forked process, so a crash there loses only it).
struct RenderedFinding {
  std::string json;   // search.json's entry
  std::string block;  // the report's lines
  std::string text;   // found-N.toml's text, printed when there is no --out
  bool written = true;  // its files were written (false: a message went to standard error)
};
RenderedFinding render_finding(const std::string& program, std::size_t n, const FindingOutput& f);
std::string pack(const RenderedFinding& r);
bool unpack(const std::string& bytes, RenderedFinding& r);

struct NearMissOutput {
  search::NearMiss near;
  search::NearMissFile file;
  std::string path;  // near-miss-PROPERTY.toml, once written
};

struct CrashOutput {
  search::Crash crash;
  std::string text;  // crash-N.toml's
  std::string path;  // once written
};

// Everything a search leaves a reader.
struct SearchResults {
  std::vector<RenderedFinding> findings;
  std::vector<NearMissOutput> near_misses;  // hunted properties with no finding, that some run put at stake
  std::vector<CrashOutput> crashes;
  std::uint64_t failures = 0;  // runs that did not finish, kept or not
};

// What the search's progress adds to runs done, runs/s and ETA
// (sweep/progress.h): "best margin: P1 -2.1s P2 340ms  findings 1".
std::string progress_detail(const search::SearchBase& base, const search::SearchOutcome& outcome);

// The search's size, said before it starts: "up to 10000 runs (--budget) on
// 2 threads; it stops at the first finding" (a shard's part, --time, --all).
std::string search_size_text(const search::SearchOptions& options, const std::optional<double>& time_limit_s);

// What a search that found nothing may say: the sampler's bound, or for an
// exhaustive search the certificate over its discretisation (or that it is incomplete).
std::string nothing_found_statement(const search::SearchBase& base, const search::SearchOptions& options,
                                    std::uint64_t runs);

// The command that reproduces a search (what the finding's header cites).
std::string search_command_line(const std::string& program, const std::string& path, const std::string& variant,
                                const search::SearchOptions& options);

// Writes found-N.toml, found-N.md and found-N.trace.jsonl in |dir|; false
// (with a message on |err|) when a file cannot be written.
bool write_finding(const std::string& dir, std::size_t n, FindingOutput& out, std::ostream& err);

// Writes |text| to |dir|/|name| and sets |path|; false (with a message on
// |err|) when it cannot.
bool write_file(const std::string& dir, const std::string& name, const std::string& text, std::string& path,
                std::ostream& err);

// What one search's outcome leaves a reader as "result": "found", "not found", "crashed".
std::string result_word(const SearchResults& results);

// Everything deterministic about the search, as one JSON object (search.json).
std::string summary_json(const search::SearchBase& base, const std::string& path, const std::string& variant,
                         const search::SearchOptions& options, const search::SearchOutcome& outcome,
                         const SearchResults& results);

// |program| is locksim as the user invoked it (argv[0]): the replay lines name it so.
void print_search_report(std::ostream& out, const std::string& program, const search::SearchBase& base,
                         const std::string& path, const std::string& variant, const search::SearchOptions& options,
                         const search::SearchOutcome& outcome, const SearchResults& results,
                         const std::string& out_dir, double seconds);

// A finding's text block (story, file, necessity, likelihood), shared with `locksim shrink`.
void print_finding(std::ostream& out, const std::string& program, std::size_t n, const FindingOutput& f);

}  // namespace locksim::cli
