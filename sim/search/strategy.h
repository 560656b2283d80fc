// How a search picks the next candidate (candidate.h).
//
//  uniform   every value uniform in its range: the number of faults, each
//            one's kind, target, true time and magnitude. The baseline.
//  swarm     swarm testing (Groce et al., 2012): each run first drops each
//            fault kind, and each target of a kind, with probability ½, then
//            draws as uniform does from what is left. Runs that leave out
//            the faults that mask a bug find it more often than runs that mix
//            everything.
//  phase     FoundationDB's BUGGIFY, applied to triggers: each run enables
//            each phase site (a client reaching a phase: acquired, checked,
//            read, ...) with probability ¼; a fault fires at an enabled site,
//            at the n-th time it is reached with n geometric (each visit
//            fires with probability ½), at once or after a short delay. Lock
//            bugs live at protocol boundaries; uniform times rarely hit them.
//  margin    a hill climb on the safety margins (check/margins.h), and on a
//            quorum service first on the quorum shortfall: mutate the
//            closest candidate so far for one hunted
//            property (the properties take turns), and restart from a fresh
//            draw one time in eight.
//  portfolio the four in turn, run by run, sharing what the climb learns.
//  exhaustive every case of a stated discretisation, once (exhaustive.h):
//            proposed by search.cc from its case number, not here.
//
// Every proposal is a function of the search seed, the run's index and the
// climb's state after the previous batch (search.h), never of the thread
// that runs it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/check/margins.h"
#include "sim/core/rng.h"
#include "sim/search/candidate.h"

namespace locksim::search {

enum class Strategy : std::uint8_t { uniform, swarm, phase, margin, portfolio, exhaustive };
inline constexpr std::size_t kStrategyCount = 6;
const char* strategy_name(Strategy s);
bool parse_strategy(const std::string& text, Strategy& out);
const std::vector<std::string>& strategy_names();

// How close one run came to breaking a property, for the climb: first the
// quorum shortfall (fewer nodes missing is closer; none known counts as
// farthest), then the signed margin. On a single node the shortfall is never
// known, so the margin alone decides.
struct Closeness {
  int shortfall = 0;
  Duration margin{};
  friend auto operator<=>(const Closeness&, const Closeness&) = default;
};

// What the margin climb has learned: per hunted property (in the order of
// SearchSpec::hunt), the closest candidate so far.
struct ClimbState {
  struct Best {
    Candidate candidate;
    Closeness closeness;
  };
  std::vector<std::optional<Best>> best;
};

// The candidate for run |index|.
Candidate propose(const SearchBase& base, Strategy strategy, std::uint64_t index, Rng& rng, const ClimbState& climb);

// Folds one run's margins and quorum shortfall (check/margins.h) into the
// climb (the hunted properties' only).
void learn(const SearchBase& base, const Candidate& candidate, const Margins& margins, std::optional<int> shortfall,
           ClimbState& climb);

}  // namespace locksim::search
