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
//            quorum service first on the quorum shortfall (Closeness):
//            mutate the closest candidate so far for one hunted property
//            (the properties take turns) — one value, or a compound step:
//            climbing P3-P5, a fault stacked right after one it has (a
//            second pause where the first ended; with no room for one more,
//            in another fault's place); climbing P1 or P2, a fault copied
//            onto another target (a second master's clock steps) — and draw
//            afresh one time in eight. When 2,048 runs in a row come no
//            closer, the climb starts again (ClimbState): a single climb
//            otherwise sits on a local optimum for the rest of the search.
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

// How close one run came to breaking a property, for the climb (and for
// choosing the near miss): first the quorum shortfall (fewer nodes missing
// is closer; none known counts as farthest); then, for P3, P4 and P5, the
// lead: the least lease left at an accepted op while it is positive; then
// the property's own signed margin.
//
// The lead composes faults. Ops race (P3), come from a non-holder (P4) or
// lose an update (P5) once some op lands outside its session's lease — and
// every pause, step or delay inside the critical section uses that lease up,
// so several faults add up on it. The properties' own margins are flat
// there: P3's (the gap between two sessions' ops) and P4's (which counts the
// holder's release, right after its last op) stay a few ms under contention
// however the faults fall, a plateau on which a climb has nothing to follow.
// Three pauses that together outlast the lease are found by closing the
// lease left first.
struct Closeness {
  int shortfall = 0;
  Duration lead{};
  Duration margin{};
  friend auto operator<=>(const Closeness&, const Closeness&) = default;
};

// nullopt when |property|'s margin is unknown (the run never came near it).
std::optional<Closeness> closeness(Property property, const Margins& margins, std::optional<Duration> lease_left,
                                   std::optional<int> shortfall);

// What the margin climb has learned: per hunted property (in the order of
// SearchSpec::hunt), the closest candidate so far — since the climb last
// started again: learn() forgets a best that 2,048 runs in a row did not
// come closer than, and the next run starts the climb anew.
struct ClimbState {
  struct Best {
    Candidate candidate;
    Closeness closeness;
    std::uint64_t stale = 0;  // runs folded since |closeness| was last improved on
  };
  std::vector<std::optional<Best>> best;
};

// The candidate for run |index|.
Candidate propose(const SearchBase& base, Strategy strategy, std::uint64_t index, Rng& rng, const ClimbState& climb);

// Folds one run's margins, lease left and quorum shortfall (check/margins.h)
// into the climb (the hunted properties' only): a closer run becomes the
// best, a tie moves it (a plateau is walked), and a best 2,048 runs could
// not improve on is forgotten (ClimbState).
void learn(const SearchBase& base, const Candidate& candidate, const Margins& margins,
           std::optional<Duration> lease_left, std::optional<int> shortfall, ClimbState& climb);

}  // namespace locksim::search
