// What one search run leaves for the fold (search.cc): its verdicts on the
// hunted properties, margins, quorum shortfall and which faults fired —
// nothing of its history — or why it did not finish.
//
// A summary crosses a process boundary when the runs go in a forked worker
// (forked_batches.h), so it has a byte encoding; the candidate that made it
// does not travel, since both processes propose the same one.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/check/faults.h"
#include "sim/check/margins.h"
#include "sim/search/candidate.h"

namespace locksim::search {

struct RunSummary {
  // Set when the run did not finish: "run error: ...", "killed by signal 11
  // (SIGSEGV)", ... The rest is then empty.
  std::optional<std::string> failure;
  std::array<bool, kPropertyCount> violated{};
  std::array<std::string, kPropertyCount> witness;  // the first witness's text, where violated
  Margins margins{};
  std::optional<Duration> lease_left;  // the least lease left at an accepted op (check/margins.h)
  std::optional<int> shortfall;
  std::vector<FaultOutcome> faults;  // name, fired and effective only
};

// Runs |candidate| with |seed| in this process. A RunError is a failure; a
// crash is not caught here (forked_batches.h is what survives one).
RunSummary summarise_run(const SearchBase& base, const Candidate& candidate, std::uint64_t seed);

// Runs candidates on one thread at a sweep's speed: one world per [search]
// latency, planned once and reset in place for each candidate with its
// faults re-armed (RepeatedRuns), instead of built from the spec each run.
// Its summaries are summarise_run's, byte for byte.
class CandidateRunner {
 public:
  explicit CandidateRunner(const SearchBase& base);
  ~CandidateRunner();
  CandidateRunner(const CandidateRunner&) = delete;
  CandidateRunner& operator=(const CandidateRunner&) = delete;

  RunSummary run(const Candidate& candidate, std::uint64_t seed);

 private:
  struct Reused;
  const SearchBase& base_;
  std::vector<std::unique_ptr<Reused>> by_latency_;  // [0]: as written; [1 + i]: [search] latency i
};

void encode(const RunSummary& s, std::string& out);
// Reads one summary from |in| at |at| and moves |at| past it; false when
// |in| ends first.
bool decode(std::string_view in, std::size_t& at, RunSummary& s);

}  // namespace locksim::search
