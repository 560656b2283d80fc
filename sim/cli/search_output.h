// What `locksim search` and `locksim shrink` print and write: the progress
// line, the report, search.json, and each finding's files (found-N.toml,
// found-N.md, found-N.trace.jsonl).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sim/search/finalize.h"
#include "sim/search/search.h"

namespace locksim::cli {

struct FindingOutput {
  search::Finding finding;
  search::Finalized final;
  std::string path;  // found-N.toml, once written
};

// "runs 12800  1650 runs/s  best margin: P1 -2.1s P2 340ms  findings 1".
std::string progress_line(const search::SearchBase& base, const search::SearchOutcome& outcome, double seconds);

// The command that reproduces a search (what the finding's header cites).
std::string search_command_line(const std::string& program, const std::string& path, const std::string& variant,
                                const search::SearchOptions& options);

// Writes found-N.toml, found-N.md and found-N.trace.jsonl in |dir|; false
// (with a message on |err|) when a file cannot be written.
bool write_finding(const std::string& dir, std::size_t n, FindingOutput& out, std::ostream& err);

// Everything deterministic about the search, as one JSON object (search.json).
std::string summary_json(const search::SearchBase& base, const std::string& path, const std::string& variant,
                         const search::SearchOptions& options, const search::SearchOutcome& outcome,
                         const std::vector<FindingOutput>& findings);

// |program| is locksim as the user invoked it (argv[0]): the replay lines name it so.
void print_search_report(std::ostream& out, const std::string& program, const search::SearchBase& base,
                         const std::string& path, const std::string& variant, const search::SearchOutcome& outcome,
                         const std::vector<FindingOutput>& findings, const std::string& out_dir, double seconds);

// A finding's text block (story, file, necessity, likelihood), shared with `locksim shrink`.
void print_finding(std::ostream& out, const std::string& program, std::size_t n, const FindingOutput& f);

}  // namespace locksim::cli
