// The five safety checkers on hand-written histories: for each property a
// history that holds and one that breaks it, plus the edge cases the
// definitions of docs/properties.md turn on (equal instants, release, extensions,
// Y-then-X, quorum, pause versus crash).
#include "sim/check/checkers.h"

#include <gtest/gtest.h>

#include <chrono>

#include "tests/unit/history_story.h"

namespace locksim {
namespace {

using namespace std::chrono_literals;
using namespace test_story;

void expect_holds(const Verdict& v) {
  EXPECT_FALSE(v.violated);
  EXPECT_EQ(v.count, 0);
  EXPECT_FALSE(v.witness.has_value());
}

// ---- P1 grant-exclusive ----------------------------------------------------

// A grant after the previous session's promised window has closed is fine.
TEST(CheckGrantExclusive, HoldsWhenGrantsFollowPromisedWindows) {
  Story s;
  s.grant(1ms, 1, c1, 10001ms).grant(11s, 2, c2, 21s).end(30s);
  const Verdict v = check_grant_exclusive(s.history());
  EXPECT_EQ(v.property, Property::grant_exclusive);
  expect_holds(v);
}

// A grant inside another unreleased session's promised window is a violation, and the witness names both.
TEST(CheckGrantExclusive, ViolatedByGrantInsidePromisedWindow) {
  Story s;
  s.grant(10002ms, 2, c2, 20001ms).grant(12001ms, 3, c3, 22001ms).end(30s);
  const Verdict v = check_grant_exclusive(s.history());
  EXPECT_TRUE(v.violated);
  EXPECT_EQ(v.count, 1);
  ASSERT_TRUE(v.witness.has_value());
  EXPECT_EQ(v.witness->at, TrueTime{12001ms});
  EXPECT_EQ(v.witness->text,
            "c3 (session 3) granted at 12.001s while c2's session 2, granted at 10.002s, was promised until "
            "20.001s and not released");
}

// A release before the next grant closes the window early.
TEST(CheckGrantExclusive, ReleaseBeforeNextGrantEndsWindow) {
  Story s;
  s.grant(0s, 1, c1, 10s).release(2s, 1, c1).grant(3s, 2, c2, 13s).end(30s);
  expect_holds(check_grant_exclusive(s.history()));
}

// Equal instants: a release at the very instant of the next grant, or a grant exactly at the promised end, is fine.
TEST(CheckGrantExclusive, EqualTimeBoundariesHold) {
  Story at_release;
  at_release.grant(0s, 1, c1, 10s).release(3s, 1, c1).grant(3s, 2, c2, 13s).end(30s);
  expect_holds(check_grant_exclusive(at_release.history()));

  Story at_promised_end;
  at_promised_end.grant(0s, 1, c1, 10s).grant(10s, 2, c2, 20s).end(30s);
  expect_holds(check_grant_exclusive(at_promised_end.history()));
}

// One nanosecond before the promised end is still inside the window.
TEST(CheckGrantExclusive, ViolatedOneNanosecondBeforePromisedEnd) {
  Story s;
  s.grant(0s, 1, c1, 10s).grant(10s - 1ns, 2, c2, 20s).end(30s);
  EXPECT_TRUE(check_grant_exclusive(s.history()).violated);
}

// A release that comes only after the second grant does not excuse it.
TEST(CheckGrantExclusive, LateReleaseDoesNotExcuse) {
  Story s;
  s.grant(0s, 1, c1, 10s).grant(5s, 2, c2, 15s).release(6s, 1, c1).end(30s);
  EXPECT_EQ(check_grant_exclusive(s.history()).count, 1);
}

// Each offending grant counts once, however many windows it falls into; an unending window reads as such.
TEST(CheckGrantExclusive, CountsOffendingGrants) {
  Story s;
  s.grant(0s, 1, c1, kTrueNever).grant(5s, 2, c2, 15s).grant(6s, 3, c3, 16s).end(30s);
  const Verdict v = check_grant_exclusive(s.history());
  EXPECT_EQ(v.count, 2);
  ASSERT_TRUE(v.witness.has_value());
  EXPECT_EQ(v.witness->at, TrueTime{5s});
  EXPECT_EQ(v.witness->text,
            "c2 (session 2) granted at 5s while c1's session 1, granted at 0s, was promised beyond the end of the "
            "run and not released");
}

// An extension recorded before Y's grant moves X's window end; the witness says which extension set it.
TEST(CheckGrantExclusive, ExtensionMovesThePromisedEnd) {
  Story s;
  s.grant(0s, 1, c1, 10s).extend(8s, 1, c1, 18s).grant(12s, 2, c2, 22s).end(30s);
  const Verdict v = check_grant_exclusive(s.history());
  EXPECT_EQ(v.count, 1);
  ASSERT_TRUE(v.witness.has_value());
  EXPECT_EQ(v.witness->at, TrueTime{12s});
  EXPECT_EQ(v.witness->text,
            "c2 (session 2) granted at 12s while c1's session 1, granted at 0s, extended at 8s, was promised until "
            "18s and not released");
}

// Y's grant after the extended end holds; so does one after a release that cut the extended window short.
TEST(CheckGrantExclusive, ExtendedWindowStillEndsAndIsCutByRelease) {
  Story after_end;
  after_end.grant(0s, 1, c1, 10s).extend(8s, 1, c1, 18s).grant(18s, 2, c2, 28s).end(30s);
  expect_holds(check_grant_exclusive(after_end.history()));

  Story released;
  released.grant(0s, 1, c1, 10s).extend(8s, 1, c1, 18s).release(12s, 1, c1).grant(13s, 2, c2, 23s).end(30s);
  expect_holds(check_grant_exclusive(released.history()));
}

// An extension recorded after Y's grant does not count retroactively, but it does reopen X's window for later grants.
TEST(CheckGrantExclusive, LaterExtensionDoesNotCountRetroactively) {
  Story s;
  s.grant(0s, 1, c1, 10s).grant(11s, 2, c2, 12s).extend(12s, 1, c1, 22s).grant(13s, 3, c3, 23s).end(30s);
  const Verdict v = check_grant_exclusive(s.history());
  EXPECT_EQ(v.count, 1) << "only c3's grant, inside c1's reopened window";
  ASSERT_TRUE(v.witness.has_value());
  EXPECT_EQ(v.witness->at, TrueTime{13s});
  EXPECT_EQ(v.witness->text,
            "c3 (session 3) granted at 13s while c1's session 1, granted at 0s, extended at 12s, was promised until "
            "22s and not released");
}

// The latest extension at or before Y's grant sets the end: even one at the grant's instant, even a shorter one.
TEST(CheckGrantExclusive, LatestExtensionAtOrBeforeTheGrantCounts) {
  Story same_instant;
  same_instant.grant(0s, 1, c1, 10s).extend(10s, 1, c1, 20s).grant(10s, 2, c2, 20s).end(30s);
  EXPECT_TRUE(check_grant_exclusive(same_instant.history()).violated);

  Story shortened;
  shortened.grant(0s, 1, c1, 10s).extend(2s, 1, c1, 30s).extend(4s, 1, c1, 5s).grant(6s, 2, c2, 16s).end(40s);
  expect_holds(check_grant_exclusive(shortened.history()));
}

// ---- P2 belief-exclusive ---------------------------------------------------

// Beliefs one after the other, including one ending exactly when the next begins, hold.
TEST(CheckBeliefExclusive, HoldsForSuccessiveBeliefs) {
  Story s;
  s.grant(0s, 1, c1, 10s).release(5s, 1, c1).grant(6s, 2, c2, 16s).believe_end(16s, 2, c2).grant(16s, 3, c3, 26s)
      .end(30s);
  const Verdict v = check_belief_exclusive(s.history());
  EXPECT_EQ(v.property, Property::belief_exclusive);
  expect_holds(v);
}

// A paused client that never re-checks keeps believing until the run ends, overlapping the next holder.
TEST(CheckBeliefExclusive, PausedClientKeepsBelieving) {
  Story s;
  s.grant(0s, 1, c1, 10s).fault(1s, FaultKind::pause, c1).grant(11s, 2, c2, 21s).release(12s, 2, c2).end(30s);
  const Verdict v = check_belief_exclusive(s.history());
  EXPECT_TRUE(v.violated);
  EXPECT_EQ(v.count, 1);
  ASSERT_TRUE(v.witness.has_value());
  EXPECT_EQ(v.witness->at, TrueTime{11s});
  EXPECT_EQ(v.witness->text,
            "c2 (session 2) began believing it held the lock at 11s while c1 (session 1) had believed so since 0s "
            "and went on until the run ended at 30s");
}

// A crashed client stops believing: a later grant overlaps nothing.
TEST(CheckBeliefExclusive, CrashedClientStopsBelieving) {
  Story s;
  s.grant(0s, 1, c1, 10s).fault(5s, FaultKind::crash, c1).grant(11s, 2, c2, 21s).end(30s);
  expect_holds(check_belief_exclusive(s.history()));
}

// A crash after the second grant leaves a positive overlap, and the witness says the belief ended in the crash.
TEST(CheckBeliefExclusive, CrashAfterOverlapStillViolates) {
  Story s;
  s.grant(0s, 1, c1, 10s).grant(11s, 2, c2, 21s).fault(12s, FaultKind::crash, c1).end(30s);
  const Verdict v = check_belief_exclusive(s.history());
  ASSERT_TRUE(v.witness.has_value());
  EXPECT_EQ(v.witness->text,
            "c2 (session 2) began believing it held the lock at 11s while c1 (session 1) had believed so since 0s "
            "and went on until c1 crashed at 12s");
}

// Only a crash of the session's own client ends its belief; a node crash or another client's does not.
TEST(CheckBeliefExclusive, OtherProcessCrashDoesNotEndBelief) {
  Story s;
  s.grant(0s, 1, c1, 10s).fault(1s, FaultKind::crash, r1).fault(2s, FaultKind::crash, c3).grant(11s, 2, c2, 21s)
      .end(30s);
  EXPECT_TRUE(check_belief_exclusive(s.history()).violated);
}

// A belief that ends at the instant of its own grant never overlaps anything.
TEST(CheckBeliefExclusive, ZeroLengthBeliefOverlapsNothing) {
  Story s;
  s.grant(0s, 1, c1, 10s).grant(5s, 2, c2, 15s).believe_end(5s, 2, c2).release(6s, 1, c1).end(30s);
  expect_holds(check_belief_exclusive(s.history()));
}

// Three beliefs overlapping at once are three pairs.
TEST(CheckBeliefExclusive, CountsOverlappingPairs) {
  Story s;
  s.grant(0s, 1, c1, 10s).grant(1s, 2, c2, 11s).grant(2s, 3, c3, 12s).end(30s);
  const Verdict v = check_belief_exclusive(s.history());
  EXPECT_EQ(v.count, 3);
  EXPECT_EQ(v.witness->at, TrueTime{1s});
}

// ---- P3 resource-exclusive -------------------------------------------------

// Each session's ops in one block (X, X, Y, Y) hold.
TEST(CheckResourceExclusive, HoldsForContiguousBlocks) {
  Story s;
  s.grant(0s, 1, c1, 10s)
      .op(1s, 1, c1, resource::Op::read)
      .op(2s, 1, c1, resource::Op::write)
      .release(3s, 1, c1)
      .grant(4s, 2, c2, 14s)
      .op(5s, 2, c2, resource::Op::read)
      .op(6s, 2, c2, resource::Op::write)
      .end(30s);
  const Verdict v = check_resource_exclusive(s.history());
  EXPECT_EQ(v.property, Property::resource_exclusive);
  expect_holds(v);
}

// X, Y, X: the op that resumes X is the violation (single-node GC pause, unfenced).
TEST(CheckResourceExclusive, ViolatedByInterleaving) {
  Story s;
  s.grant(0s, 1, c1, 10s)
      .op(2ms, 1, c1, resource::Op::read)
      .grant(10001ms, 2, c2, 20001ms)
      .op(10002ms, 2, c2, resource::Op::read)
      .op(11001ms, 2, c2, resource::Op::write)
      .op(15s, 1, c1, resource::Op::write)
      .end(30s);
  const Verdict v = check_resource_exclusive(s.history());
  EXPECT_TRUE(v.violated);
  EXPECT_EQ(v.count, 1);
  ASSERT_TRUE(v.witness.has_value());
  EXPECT_EQ(v.witness->at, TrueTime{15s});
  EXPECT_EQ(v.witness->text,
            "c1 (session 1) write accepted at 15s resumed session 1 (its read was accepted at 2ms) after c2's "
            "session 2 write was accepted at 11.001s");
}

// Y then a stale X that had no op before Y is P4's business, not P3's.
TEST(CheckResourceExclusive, NewerThenStaleIsNotInterleaving) {
  Story s;
  s.grant(0s, 1, c1, 10s)
      .grant(10s, 2, c2, 20s)
      .op(11s, 2, c2, resource::Op::write)
      .op(15s, 1, c1, resource::Op::write)
      .end(30s);
  expect_holds(check_resource_exclusive(s.history()));
}

// A rejected op is not part of the sequence: X, Y rejected, X holds (fenced GC pause).
TEST(CheckResourceExclusive, RejectedOpsDoNotCount) {
  Story s;
  s.op(1s, 1, c1, resource::Op::read)
      .op(11s, 2, c2, resource::Op::write, /*accepted=*/false)
      .op(15s, 1, c1, resource::Op::write)
      .end(30s);
  expect_holds(check_resource_exclusive(s.history()));
}

// Every resumption counts: X, Y, X, Y is two.
TEST(CheckResourceExclusive, CountsResumptions) {
  Story s;
  s.op(1s, 1, c1, resource::Op::write)
      .op(2s, 2, c2, resource::Op::write)
      .op(3s, 1, c1, resource::Op::write)
      .op(4s, 2, c2, resource::Op::write)
      .end(30s);
  const Verdict v = check_resource_exclusive(s.history());
  EXPECT_EQ(v.count, 2);
  EXPECT_EQ(v.witness->at, TrueTime{3s});
}

// ---- P4 resource-current ---------------------------------------------------

// Ops of the session whose value the node holds are current; the node holds it before the client hears.
TEST(CheckResourceCurrent, HoldsForTheHolder) {
  Story s;
  s.held(1ms, r1, 1).grant(2ms, 1, c1, 10s).op(3ms, 1, c1, resource::Op::write).end(30s);
  const Verdict v = check_resource_current(s.history());
  EXPECT_EQ(v.property, Property::resource_current);
  expect_holds(v);
}

// After the key expired, an op is accepted while no one holds the lock.
TEST(CheckResourceCurrent, ViolatedWhenNoOneHolds) {
  Story s;
  s.held(0s, r1, 1).grant(0s, 1, c1, 10s).dropped(10s, r1, 1).op(15s, 1, c1, resource::Op::write).end(30s);
  const Verdict v = check_resource_current(s.history());
  EXPECT_TRUE(v.violated);
  EXPECT_EQ(v.count, 1);
  ASSERT_TRUE(v.witness.has_value());
  EXPECT_EQ(v.witness->at, TrueTime{15s});
  EXPECT_EQ(v.witness->text,
            "c1 (session 1) write accepted at 15s while no one held the lock: the lock's key on r1 expired at 10s");
  // The same as fields.
  EXPECT_EQ(v.witness->kind, "op-not-from-holder");
  EXPECT_EQ(v.witness->client, c1);
  EXPECT_EQ(v.witness->session, 1u);
  EXPECT_EQ(v.witness->other_client, kNoProcess);
}

TEST(WitnessText, TimesAreRoundedToWhatMatters) {
  // Below one second to the microsecond, from one second on to the millisecond; the instant itself stays exact.
  EXPECT_EQ(format_duration_rounded(25'902'059ns), "25.902ms");
  EXPECT_EQ(format_duration_rounded(999'999'600ns), "1s");
  EXPECT_EQ(format_duration_rounded(10'021'500'000ns), "10.022s");
  EXPECT_EQ(format_duration_rounded(10'021'499'999ns), "10.021s");
  EXPECT_EQ(format_duration_rounded(-1'500'400ns), "-1.5ms");
  EXPECT_EQ(format_duration_rounded(Duration{0}), "0s");
  EXPECT_EQ(format_duration_rounded(kTrueNever.time_since_epoch()), "never");
}

// A stale session writing while another holds (fencing-newer-holder-not-yet-written) names the holder.
TEST(CheckResourceCurrent, ViolatedWhenAnotherHolds) {
  Story s;
  s.held(0s, r1, 1)
      .grant(0s, 1, c1, 10s)
      .dropped(10s, r1, 1)
      .held(10001ms, r1, 2)
      .grant(10002ms, 2, c2, 20002ms)
      .op(15s, 1, c1, resource::Op::write)
      .op(16s, 2, c2, resource::Op::write)
      .end(30s);
  const Verdict v = check_resource_current(s.history());
  EXPECT_EQ(v.count, 1);
  ASSERT_TRUE(v.witness.has_value());
  EXPECT_EQ(v.witness->text, "c1 (session 1) write accepted at 15s while the service holder was c2's session 2");
}

// With 5 nodes and quorum 3, three nodes make the holder; losing one (clock jump) leaves no holder.
TEST(CheckResourceCurrent, QuorumThreeOfFive) {
  Story s;
  s.nodes({r1, r2, r3, r4, r5}, 3)
      .held(1ms, r1, 1)
      .held(2ms, r2, 1)
      .held(3ms, r3, 1)
      .grant(4ms, 1, c1, 10s)
      .op(5ms, 1, c1, resource::Op::write)  // 3 of 5: current
      .dropped(1s, r3, 1)
      .op(1500ms, 1, c1, resource::Op::write)  // 2 of 5: no holder
      .held(2001ms, r3, 2)
      .held(2002ms, r4, 2)
      .held(2003ms, r5, 2)
      .grant(2004ms, 2, c2, 12s)
      .op(3s, 2, c2, resource::Op::write)  // c2 on 3 of 5: current
      .op(4s, 1, c1, resource::Op::write)  // c1 on 2 of 5: stale
      .end(30s);
  const Verdict v = check_resource_current(s.history());
  EXPECT_EQ(v.count, 2);
  ASSERT_TRUE(v.witness.has_value());
  EXPECT_EQ(v.witness->text, "c1 (session 1) write accepted at 1.5s while no one held the lock: c1's session 1 on 2 of 5 nodes (r1, r2), "
            "quorum 3");
}

// Two of five nodes are not a quorum even before anything expires.
TEST(CheckResourceCurrent, MinorityIsNoHolder) {
  Story s;
  s.nodes({r1, r2, r3, r4, r5}, 3).held(1ms, r1, 1).held(2ms, r2, 1).op(5ms, 1, c1, resource::Op::write).end(30s);
  EXPECT_TRUE(check_resource_current(s.history()).violated);
}

// Rejected ops are never judged; other keys and nodes outside the service are ignored.
TEST(CheckResourceCurrent, IgnoresRejectedOpsOtherKeysAndNodes) {
  Story s;
  s.held(0s, r1, 1)
      .grant(0s, 1, c1, 10s)
      .held(1s, r1, 2, kOther)  // another key on the service node
      .held(1s, r2, 2)          // the lock key on a node outside the service
      .op(2s, 2, c2, resource::Op::write, /*accepted=*/false)
      .op(3s, 1, c1, resource::Op::write)
      .end(30s);
  expect_holds(check_resource_current(s.history()));
}

// An overwrite recorded as the new KeyHeld before the old value's KeyDropped leaves the new value held.
TEST(CheckResourceCurrent, OverwriteInEitherOrder) {
  Story s;
  s.held(0s, r1, 1)
      .grant(0s, 1, c1, 10s)
      .held(11s, r1, 2)
      .dropped(11s, r1, 1, KeyGone::overwritten)
      .grant(11s, 2, c2, 21s)
      .op(12s, 2, c2, resource::Op::write)
      .end(30s);
  expect_holds(check_resource_current(s.history()));
}

// ---- P5 invariant ----------------------------------------------------------

// Stock that stays at or above zero holds.
TEST(CheckInvariant, StockAtZeroHolds) {
  Story s;
  s.app(0s, stock(1, true)).op(1s, 1, c1, resource::Op::decrement).app(1s, stock(0)).app(30s, stock(0, true)).end(30s);
  const Verdict v = check_invariant(s.history());
  EXPECT_EQ(v.property, Property::invariant);
  expect_holds(v);
}

// Stock below zero is an oversell at every state that shows it; the starting stock is named when recorded.
TEST(CheckInvariant, NegativeStockIsOversold) {
  Story s;
  s.app(0s, stock(1, true))
      .op(30002ms, 1, c1, resource::Op::decrement)
      .app(30002ms, stock(0))
      .op(30003ms, 2, c2, resource::Op::decrement)
      .app(30003ms, stock(-1))
      .op(30004ms, 3, c3, resource::Op::decrement)
      .app(30004ms, stock(-2))
      .app(40s, stock(-2, true))
      .end(40s);
  const Verdict v = check_invariant(s.history());
  EXPECT_EQ(v.count, 3);
  ASSERT_TRUE(v.witness.has_value());
  EXPECT_EQ(v.witness->at, TrueTime{30003ms});
  // The witness is the first negative stock; it also names the lowest the stock reached.
  EXPECT_EQ(v.witness->text,
            "stock is -1 at 30.003s (started at 1, 2 decrements accepted): oversold by 1; it went on down to -2: "
            "oversold by 2 in all");
}

// Without a state recorded before the first op the witness still counts the decrements.
TEST(CheckInvariant, NegativeStockWithoutStartingState) {
  Story s;
  s.op(1s, 1, c1, resource::Op::check_and_decrement).app(1s, stock(-1)).end(30s);
  const Verdict v = check_invariant(s.history());
  ASSERT_TRUE(v.witness.has_value());
  EXPECT_EQ(v.witness->text, "stock is -1 at 1s (1 decrement accepted): oversold by 1");
}

// A counter behind its increments at a quiescent point is a lost update, witnessed at the op
// that left it so; mid-step it is not judged.
TEST(CheckInvariant, CounterLostUpdateAtQuiescence) {
  Story holds;
  holds.app(1s, counter(0, 1, false)).app(2s, counter(1, 1, false)).app(30s, counter(1, 1, true)).end(30s);
  expect_holds(check_invariant(holds.history()));

  Story lost;
  lost.app(11s, counter(1, 1, false)).app(15s, counter(1, 2, false)).app(30s, counter(1, 2, true)).end(30s);
  const Verdict v = check_invariant(lost.history());
  EXPECT_EQ(v.count, 1);
  ASSERT_TRUE(v.witness.has_value());
  EXPECT_EQ(v.witness->at, TrueTime{15s});
  EXPECT_EQ(v.witness->text, "the op before the state recorded at 15s lost 1 update: the counter is 1 after 2 accepted "
                             "increments when checked at 30s");
}

// With the ops recorded, the witness names the write that lost the update —
// not the last change — and its client and session; more losses later are
// counted in all.
TEST(CheckInvariant, LostUpdateNamesTheStaleWrite) {
  Story s;
  s.op(1s, 1, c1, resource::Op::read)
      .op(2s, 2, c2, resource::Op::read)
      .op(3s, 2, c2, resource::Op::write)
      .app(3s, counter(1, 1, false))
      .op(4s, 1, c1, resource::Op::write)  // computed from the read at 1s
      .app(4s, counter(1, 2, false))
      .op(9s, 3, c2, resource::Op::write)
      .app(9s, counter(1, 3, false))
      .app(30s, counter(1, 3, true))
      .end(30s);
  const Verdict v = check_invariant(s.history());
  ASSERT_TRUE(v.witness.has_value());
  EXPECT_EQ(v.witness->at, TrueTime{4s});
  EXPECT_EQ(v.witness->client, c1);
  EXPECT_EQ(v.witness->session, 1u);
  EXPECT_EQ(v.witness->kind, "lost-update");
  EXPECT_EQ(v.witness->text, "c1 (session 1) write accepted at 4s lost 1 update: the counter is 1 after 3 accepted "
                             "increments when checked at 30s (2 updates lost in all)");
}

// A collection's add whose size increment never came is the witness, though
// other sessions added and counted after it.
TEST(CheckInvariant, SizeMismatchNamesTheUnmatchedAdd) {
  Story s;
  s.op(1s, 1, c2, resource::Op::add)
      .app(1s, collection(0, 1, false))
      .op(2s, 2, c1, resource::Op::add)
      .app(2s, collection(0, 2, false))
      .op(3s, 1, c2, resource::Op::increment_size)
      .app(3s, collection(1, 2, false))
      .app(30s, collection(1, 2, true))
      .end(30s);
  const Verdict v = check_invariant(s.history());
  ASSERT_TRUE(v.witness.has_value());
  EXPECT_EQ(v.witness->at, TrueTime{2s});
  EXPECT_EQ(v.witness->client, c1);
  EXPECT_EQ(v.witness->text, "c1 (session 2) add accepted at 2s left the size behind: the collection's size is 1 but it "
                             "holds 2 elements when checked at 30s");
}

// A collection whose size disagrees with its elements at a quiescent point breaks the invariant.
TEST(CheckInvariant, CollectionSizeMismatch) {
  Story holds;
  holds.app(1s, collection(0, 1, false)).app(2s, collection(1, 1, false)).app(30s, collection(1, 1, true)).end(30s);
  expect_holds(check_invariant(holds.history()));

  Story broken;
  broken.app(1s, collection(0, 1, false)).app(12s, collection(1, 2, false)).app(30s, collection(1, 2, true)).end(30s);
  const Verdict v = check_invariant(broken.history());
  EXPECT_EQ(v.count, 1);
  ASSERT_TRUE(v.witness.has_value());
  EXPECT_EQ(v.witness->at, TrueTime{12s});
  EXPECT_EQ(v.witness->text, "the op before the state recorded at 12s left the size behind: the collection's size is 1 "
                             "but it holds 2 elements when checked at 30s");
}

// A register (and an app of kind none) has no invariant to break.
TEST(CheckInvariant, RegisterAlwaysHolds) {
  Story s;
  s.app(1s, AppState{AppKind::register_value, 3, 0, 0, 0, -5, true})
      .app(2s, AppState{AppKind::none, 0, 9, 0, 0, -1, true})
      .end(30s);
  expect_holds(check_invariant(s.history()));
}

// ---- all together ----------------------------------------------------------

// check_all answers in kAllProperties order, and a witness is present exactly when violated.
TEST(CheckAll, OrderAndWitnesses) {
  Story s;
  s.held(0s, r1, 1)
      .grant(0s, 1, c1, 10s)
      .op(1s, 1, c1, resource::Op::read)
      .fault(2s, FaultKind::pause, c1)
      .dropped(10s, r1, 1)
      .held(10001ms, r1, 2)
      .grant(10002ms, 2, c2, 20002ms)
      .op(10003ms, 2, c2, resource::Op::read)
      .op(11s, 2, c2, resource::Op::write)
      .app(11s, counter(1, 1, false))
      .release(12s, 2, c2)
      .dropped(12001ms, r1, 2, KeyGone::deleted)
      .fault(17s, FaultKind::resume, c1)
      .op(17s, 1, c1, resource::Op::write)
      .app(17s, counter(1, 2, false))
      .app(30s, counter(1, 2, true))
      .end(30s);
  const Verdicts all = check_all(s.history());
  // single-node-gc-pause: H V V V V
  const bool expected[] = {false, true, true, true, true};
  for (std::size_t i = 0; i < kPropertyCount; ++i) {
    EXPECT_EQ(all[i].property, kAllProperties[i]);
    EXPECT_EQ(all[i].violated, expected[i]) << property_name(all[i].property);
    EXPECT_EQ(all[i].witness.has_value(), all[i].violated) << property_name(all[i].property);
  }
}

// An empty history holds everything.
TEST(CheckAll, EmptyHistoryHolds) {
  const History h;
  for (const Verdict& v : check_all(h)) expect_holds(v);
}

}  // namespace
}  // namespace locksim
