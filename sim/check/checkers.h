// The safety checkers: pure functions of a History, one per property of
// docs/properties.md, with the definitions written down there. Each returns
// holds or violated, how many violations it counted, and the first witness
// (who, when, which session or token) in words a design review can read.
//
// A checker reads only recorded facts — never a model's internals — so it can
// be tested on hand-written histories and trusted on any model.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <boost/container/flat_map.hpp>
#include <boost/container/small_vector.hpp>

#include "sim/check/holder.h"
#include "sim/check/property.h"
#include "sim/check/sessions.h"
#include "sim/history/history.h"

namespace locksim {

struct Witness {
  TrueTime at;       // the true instant the property first broke
  std::string text;  // e.g. "c2 (session 2) granted at 11.001s while c1's session 1 ..."
  // The same, as fields (the JSON's): what kind of break, whose act broke it,
  // and whom it collided with (kNoProcess / 0 when no one).
  std::string kind;  // second-grant, overlapping-belief, interleaved-op, op-not-from-holder, oversold, lost-update, ...
  ProcessId client = kNoProcess;
  SessionId session = 0;
  ProcessId other_client = kNoProcess;
  SessionId other_session = 0;
};

struct Verdict {
  Property property = Property::grant_exclusive;
  bool violated = false;
  std::int64_t count = 0;  // how many violations (see each checker for what one is)
  std::optional<Witness> witness;  // the first violation, when violated
};

using Verdicts = std::array<Verdict, kPropertyCount>;

// How much of the first witness to write. A sweep or a comparison keeps only
// the verdicts and the instant each property first broke, and the sentence
// costs more than the check (a third of checking a violating run), so they
// ask for the time alone: the Witness then holds only |at|, the rest empty.
enum class WitnessDetail { text, time_only };

// P1: a grant to Y while X's grant is inside its promised window (true time,
// as extended by X's extensions recorded so far, ended early only by X's
// release) — one violation per such grant.
Verdict check_grant_exclusive(const History& h);
Verdict check_grant_exclusive(const History& h, const SessionTable& table,
                              WitnessDetail detail = WitnessDetail::text);
// P2: two sessions believed at the same true instant — one per overlapping pair.
Verdict check_belief_exclusive(const History& h);
Verdict check_belief_exclusive(const History& h, const SessionTable& table,
                               WitnessDetail detail = WitnessDetail::text);
// P3: accepted ops of session X resume after another session's accepted op
// (X, Y, X) — one per resumption.
Verdict check_resource_exclusive(const History& h, WitnessDetail detail = WitnessDetail::text);
// P4: an accepted op whose session is not the service holder at that instant
// — one per such op.
Verdict check_resource_current(const History& h);
Verdict check_resource_current(const History& h, const SessionTable& table,
                               WitnessDetail detail = WitnessDetail::text);
// P5: the application invariant — stock < 0 after an op, or, at a quiescent
// point, counter != accepted increments or collection size != elements.
Verdict check_invariant(const History& h, WitnessDetail detail = WitnessDetail::text);

// P3 and P4 as consumers of one pass over the facts (fact_pass.h): each
// accepted resource op goes to the checker's accepted().
template <class Check>
class AcceptedOpCheck {
 public:
  template <class Body>
  void on(const Fact& f, const Body& body) {
    if constexpr (std::is_same_v<Body, ResourceOp>)
      if (body.accepted) static_cast<Check&>(*this).accepted(f, body);
  }

 protected:
  // Writes straight into |out| (made fresh here) as the pass goes: judge
  // gives it the run result's own verdict, and nothing is moved afterwards.
  AcceptedOpCheck(Property p, Verdict& out) : v_(out) { v_ = Verdict{.property = p}; }
  Verdict& v_;
};

class ResourceExclusiveCheck : public AcceptedOpCheck<ResourceExclusiveCheck> {
 public:
  ResourceExclusiveCheck(const History& h, WitnessDetail detail, Verdict& out);
  void accepted(const Fact& f, const ResourceOp& op);

 private:
  struct Accepted {
    SessionId session;
    ProcessId client;
    resource::Op op;
    TrueTime at;
  };
  const History& h_;
  const WitnessDetail detail_;
  // Each session's latest accepted op: inside the check for a run's first
  // few sessions (a sweep judges every run).
  boost::container::small_flat_map<SessionId, Accepted, 8> last_of_;
  std::optional<Accepted> last_;  // the latest accepted op of anyone
};

// Before |track| in the pass: the track has not applied an op when P4 reads
// the holder at it, and needs not, since an op does not touch the lock key.
// REQUIRES: |table| is SessionTable(h), |track| follows h.service.
class ResourceCurrentCheck : public AcceptedOpCheck<ResourceCurrentCheck> {
 public:
  ResourceCurrentCheck(const History& h, const SessionTable& table, HolderTrack& track, WitnessDetail detail,
                       Verdict& out);
  void accepted(const Fact& f, const ResourceOp& op);

 private:
  const History& h_;
  const SessionTable& table_;
  HolderTrack& track_;
  const WitnessDetail detail_;
};

// The checkers that read sessions share one table when given it (|table| is
// SessionTable(h)): a whole run builds it once for them and for liveness.
Verdicts check_all(const History& h);
Verdicts check_all(const History& h, const SessionTable& table, WitnessDetail detail = WitnessDetail::text);
// P1's, P2's and P5's verdicts, into |out| beside P3's and P4's, which the
// caller works out there: check_all by their functions, judge (judge.h) in
// its one pass over the facts.
void complete_verdicts(const History& h, const SessionTable& table, WitnessDetail detail, Verdicts& out);

}  // namespace locksim
