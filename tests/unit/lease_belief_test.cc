// The lease-belief helper every lock client shares: which belief facts each
// step records, in what order, and that belief ends at most once per session.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "sim/core/trace.h"
#include "sim/lock/lease_belief.h"
#include "sim/world/world.h"

namespace locksim {
namespace {

using namespace std::chrono_literals;
using Lines = std::vector<std::string>;

// A client that owns one LeaseBelief and runs the test's steps on it, each at
// its own delay after the start (on its monotonic clock). A crash forgets the
// lease as every lock client's on_crash does.
class BeliefHost final : public Process {
 public:
  using Step = std::function<void(BeliefHost&)>;
  BeliefHost() : Process("c1"), belief(*this) {}

  void at(Duration after_start, Step step) { steps_.emplace_back(after_start, std::move(step)); }
  // A grant whose lease ends |lasting| from now on |clock|.
  void grant(Duration lasting, ClockKind clock = ClockKind::monotonic) {
    belief.grant(0xbe11ef, 34, clock, clock_now(clock) + lasting, lasting);
  }

  void on_start() override {
    for (std::size_t i = 0; i < steps_.size(); ++i) set_timer(steps_[i].first, i);
  }
  void on_message(const Message& /*m*/) override {}
  void on_timer(std::uint64_t tag) override { steps_[tag].second(*this); }
  void on_crash() override { belief.crash(); }
  void on_restart() override {
    if (restarted) restarted(*this);
  }

  LeaseBelief belief;
  Step restarted;

 private:
  std::vector<std::pair<Duration, Step>> steps_;
};

struct Rig {
  Rig() {
    WorldPlan plan;
    auto h = std::make_unique<BeliefHost>();
    host = h.get();
    plan.add(std::move(h), ProcessKind::client);
    world.emplace(1, std::move(plan), trace);
  }
  // The belief facts (and faults) of the run, in order, as "<ms> <what>".
  Lines facts() const {
    Lines out;
    for (const Fact& f : world->history().facts) {
      const std::string at = std::to_string((f.at - kTrueStart) / 1ms) + "ms ";
      if (const auto* g = std::get_if<LockGranted>(&f.body)) {
        out.push_back(at + "granted s" + std::to_string(g->session));
      } else if (const auto* e = std::get_if<LockExtended>(&f.body)) {
        out.push_back(at + "extended s" + std::to_string(e->session));
      } else if (const auto* r = std::get_if<LockReleased>(&f.body)) {
        out.push_back(at + "released s" + std::to_string(r->session));
      } else if (const auto* b = std::get_if<BeliefEnded>(&f.body)) {
        out.push_back(at + "belief-end s" + std::to_string(b->session) + " " + belief_end_name(b->reason));
      } else if (const auto* a = std::get_if<FaultApplied>(&f.body)) {
        out.push_back(at + "fault " + fault_kind_name(a->kind));
      }
    }
    return out;
  }
  // The first fact of kind T.
  template <class T>
  T first() const {
    for (const Fact& f : world->history().facts)
      if (const auto* x = std::get_if<T>(&f.body)) return *x;
    ADD_FAILURE() << "no such fact";
    return T{};
  }
  NullTrace trace;
  std::optional<World> world;  // made at the end of the constructor, from its plan
  BeliefHost* host;
};

// Grant then release: LockGranted with the lease as given, then LockReleased
// and BeliefEnded{released}; the lease is no longer held.
TEST(LeaseBelief, GrantThenRelease) {
  Rig rig;
  bool held_between = false;
  rig.host->at(1ms, [](BeliefHost& h) { h.grant(10ms); });
  rig.host->at(5ms, [&](BeliefHost& h) {
    held_between = h.belief.held() && h.belief.believing() && h.belief.lease_valid();
    h.belief.release();
  });
  rig.world->run(kTrueStart + 1s);
  EXPECT_TRUE(held_between);
  EXPECT_EQ(rig.facts(), (Lines{"1ms granted s1", "5ms released s1", "5ms belief-end s1 released"}));
  const auto grant = rig.first<LockGranted>();
  EXPECT_EQ(grant.value, 0xbe11efu);
  EXPECT_EQ(grant.fencing_token, 34);
  EXPECT_EQ(grant.validity, 10ms);
  EXPECT_EQ(grant.clock, ClockKind::monotonic);
  EXPECT_EQ(grant.lease_end_local, LocalTime{11ms});
  EXPECT_FALSE(rig.host->belief.held());
  EXPECT_FALSE(rig.host->belief.believing());
  EXPECT_FALSE(rig.host->belief.lease_valid());
  EXPECT_EQ(rig.host->belief.lease().value, 0xbe11efu);  // the lease outlives its holding
}

// Grant, lose, release: the validity check ends the belief; the release that
// follows records LockReleased but no second BeliefEnded.
TEST(LeaseBelief, LoseThenReleaseEndsBeliefOnce) {
  Rig rig;
  bool held_after_lose = false, believing_after_lose = true;
  rig.host->at(1ms, [](BeliefHost& h) { h.grant(10ms); });
  rig.host->at(20ms, [&](BeliefHost& h) {
    h.belief.lose();
    h.belief.lose();  // a second check changes nothing
    held_after_lose = h.belief.held();
    believing_after_lose = h.belief.believing();
  });
  rig.host->at(30ms, [](BeliefHost& h) { h.belief.release(); });
  rig.world->run(kTrueStart + 1s);
  EXPECT_TRUE(held_after_lose);
  EXPECT_FALSE(believing_after_lose);
  EXPECT_EQ(rig.facts(), (Lines{"1ms granted s1", "20ms belief-end s1 validity-check", "30ms released s1"}));
}

// A crash forgets the lease without a fact of its own (the world records the
// crash); a grant after the restart is a new session.
TEST(LeaseBelief, CrashRecordsNothing) {
  Rig rig;
  bool held_after_crash = true;
  rig.host->at(1ms, [](BeliefHost& h) { h.grant(10ms); });
  rig.host->restarted = [&](BeliefHost& h) {
    held_after_crash = h.belief.held();
    h.grant(10ms);  // REQUIRES !held(): the crash forgot the lease
  };
  rig.world->schedule_fault(kTrueStart + 5ms, fault::Crash{rig.host->id(), 1ms});
  rig.world->run(kTrueStart + 1s);
  EXPECT_FALSE(held_after_crash);
  EXPECT_EQ(rig.facts(), (Lines{"1ms granted s1", "5ms fault crash", "6ms fault restart", "6ms granted s2"}));
}

// Abandon: BeliefEnded{abandoned} and the lease is no longer held; after a
// lost lease, abandoning records nothing more.
TEST(LeaseBelief, Abandon) {
  Rig rig;
  rig.host->at(1ms, [](BeliefHost& h) { h.grant(10ms); });
  rig.host->at(5ms, [](BeliefHost& h) { h.belief.abandon(); });
  rig.host->at(6ms, [](BeliefHost& h) { h.grant(10ms); });
  rig.host->at(20ms, [](BeliefHost& h) { h.belief.lose(); });
  rig.host->at(21ms, [](BeliefHost& h) { h.belief.abandon(); });
  rig.world->run(kTrueStart + 1s);
  EXPECT_EQ(rig.facts(), (Lines{"1ms granted s1", "5ms belief-end s1 abandoned", "6ms granted s2",
                                "20ms belief-end s2 validity-check"}));
  EXPECT_FALSE(rig.host->belief.held());
}

// Extension moves the lease end (LockExtended on the lease's clock), and
// lease_valid() reads that clock: a wall-clock lease dies with a forward jump.
TEST(LeaseBelief, ExtendAndValidityOnTheLeaseClock) {
  Rig rig;
  bool valid_before_end = false, valid_after_end = true, valid_after_extend = false, valid_after_jump = true;
  rig.host->at(1ms, [](BeliefHost& h) { h.grant(10ms, ClockKind::wall); });
  rig.host->at(10ms, [&](BeliefHost& h) { valid_before_end = h.belief.lease_valid(); });
  rig.host->at(12ms, [&](BeliefHost& h) {
    valid_after_end = h.belief.lease_valid();
    h.belief.extend(h.wall_now() + 100ms);
    valid_after_extend = h.belief.lease_valid();
  });
  rig.world->schedule_fault(kTrueStart + 20ms, fault::ClockJump{rig.host->id(), 1s});
  rig.host->at(30ms, [&](BeliefHost& h) { valid_after_jump = h.belief.lease_valid(); });
  rig.world->run(kTrueStart + 1s);
  EXPECT_TRUE(valid_before_end);
  EXPECT_FALSE(valid_after_end);
  EXPECT_TRUE(valid_after_extend);
  EXPECT_FALSE(valid_after_jump);
  EXPECT_EQ(rig.facts(), (Lines{"1ms granted s1", "12ms extended s1", "20ms fault clock-jump"}));
  const auto ext = rig.first<LockExtended>();
  EXPECT_EQ(ext.clock, ClockKind::wall);
  EXPECT_EQ(ext.lease_end_local, LocalTime{112ms});
  EXPECT_EQ(rig.host->belief.lease().end_local, LocalTime{112ms});
  EXPECT_TRUE(rig.host->belief.believing());  // an expired lease is believed until a check says otherwise
}

}  // namespace
}  // namespace locksim
