// Server-event triggers in the world (world/trigger.h): a fault or a client's
// start waits for the n-th time a server records the fact an event is read
// off — a key dropped or expired, a replica promoted, a member elected — and
// comes at that true instant (plus its delay), once the recording handler is
// done. Scripted processes record the facts, so each rule is seen alone; one
// test uses a real Redis node to show "key-expired" is the expiry instant.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/core/trace.h"
#include "sim/redis/redis_node.h"
#include "sim/world/world.h"

namespace locksim {
namespace {

using namespace std::chrono_literals;

TrueTime T(Duration d) { return kTrueStart + d; }

// A process of a chosen kind that runs a script at chosen instants and logs
// its lifecycle as "<true time> <name> <what>".
class Scripted final : public Process {
 public:
  // |world| is made once the plan holding this process is complete.
  Scripted(std::string name, const std::unique_ptr<World>& world, std::vector<std::string>& log)
      : Process(std::move(name)), w_(world), log_(log) {}

  // At |at|, |act| runs inside a timer handler of this process.
  void at(Duration when, std::function<void(Scripted&)> act) { acts_.push_back({when, std::move(act)}); }

  void on_start() override {
    for (std::uint64_t i = 0; i < acts_.size(); ++i) set_timer(acts_[i].first, i);
  }
  void on_message(const Message&) override {}
  void on_timer(std::uint64_t tag) override { acts_[tag].second(*this); }
  void on_crash() override { note("crash"); }
  void on_triggered() override { note("triggered"); }
  void note(const std::string& what) { log_.push_back(format_time(w_->true_now()) + " " + name() + " " + what); }

 private:
  const std::unique_ptr<World>& w_;
  std::vector<std::string>& log_;
  std::vector<std::pair<Duration, std::function<void(Scripted&)>>> acts_;
};

// Processes are added to the plan; the world is made from it the first time
// a test asks for it, and no process may come after.
struct Rig {
  Scripted& add(const std::string& name, ProcessKind kind) {
    auto p = std::make_unique<Scripted>(name, made, log);
    Scripted& ref = *p;
    add(std::move(p), kind);
    return ref;
  }
  ProcessId add(std::unique_ptr<Process> p, ProcessKind kind, Clock clock = Clock{}) {
    if (made) throw std::logic_error("a process added after the world was made");
    return plan.add(std::move(p), kind, clock);
  }
  World& world() {
    if (!made) made = std::make_unique<World>(1, std::move(plan), trace);
    return *made;
  }
  // The instants at which faults of |kind| were applied, in order.
  std::vector<TrueTime> applied(FaultKind kind) const {
    std::vector<TrueTime> out;
    for (const Fact& f : made->history().facts)
      if (const auto* a = std::get_if<FaultApplied>(&f.body); a != nullptr && a->kind == kind) out.push_back(f.at);
    return out;
  }
  template <typename F>
  std::vector<TrueTime> times_of() const {
    std::vector<TrueTime> out;
    for (const Fact& f : made->history().facts)
      if (std::holds_alternative<F>(f.body)) out.push_back(f.at);
    return out;
  }

  NullTrace trace;
  std::vector<std::string> log;
  WorldPlan plan;
  std::unique_ptr<World> made;
};

using Lines = std::vector<std::string>;

KeyDropped dropped(ProcessId node, KeyGone reason) { return KeyDropped{node, 0, 7, reason}; }

TEST(EventTrigger, KeyExpiredFiresAtTheInstantARealRedisNodeExpiresTheKey) {
  // Proves "r1 key-expired" fires when the node's expiry alarm drops the key (deadline + 1 ms on its clock), and
  // "after" counts from there.
  Rig rig;
  redis::NodeConfig config;
  config.initial.push_back(redis::InitialKey{0, redis::Value::token(42), 5s});
  auto node = std::make_unique<redis::RedisNode>("r1", config);
  const ProcessId r1 = rig.add(std::move(node), ProcessKind::redis_node, Clock{0ns, 20'000});  // 2 % fast
  rig.plan.key("lock");
  Scripted& c = rig.add("c", ProcessKind::client);
  rig.world().on_trigger(Trigger{r1, ServerEvent::key_expired}, fault::Pause{c.id(), 1s});
  rig.world().on_trigger(Trigger{r1, ServerEvent::key_expired, 250ms}, fault::ClockJump{c.id(), 1s});
  rig.world().run(T(20s));
  const std::vector<TrueTime> drops = rig.times_of<KeyDropped>();
  ASSERT_EQ(drops.size(), 1u);
  // 5.001 s on a clock 2 % fast is 5.001 / 1.02 s of true time.
  EXPECT_GT(drops[0], T(4900ms));
  EXPECT_LT(drops[0], T(4910ms));
  EXPECT_EQ(rig.applied(FaultKind::pause), std::vector<TrueTime>{drops[0]});
  EXPECT_EQ(rig.applied(FaultKind::clock_jump), std::vector<TrueTime>{drops[0] + 250ms});
}

TEST(EventTrigger, KeyDroppedCountsEveryReasonAndKeyExpiredOnlyExpiry) {
  // Proves key-dropped counts a drop of any reason, key-expired only reason `expired`, each with its own
  // occurrence count; a drop on another node counts for neither.
  Rig rig;
  Scripted& r1 = rig.add("r1", ProcessKind::redis_node);
  Scripted& r2 = rig.add("r2", ProcessKind::redis_node);
  Scripted& c = rig.add("c", ProcessKind::client);
  r1.at(1s, [&](Scripted& self) { self.record(dropped(self.id(), KeyGone::deleted)); });
  r2.at(2s, [&](Scripted& self) { self.record(dropped(self.id(), KeyGone::expired)); });
  r1.at(3s, [&](Scripted& self) { self.record(dropped(self.id(), KeyGone::overwritten)); });
  r1.at(4s, [&](Scripted& self) { self.record(dropped(self.id(), KeyGone::expired)); });
  r1.at(5s, [&](Scripted& self) { self.record(dropped(self.id(), KeyGone::expired)); });
  rig.world().on_trigger(Trigger{r1.id(), ServerEvent::key_dropped, 0ns, 3}, fault::ClockDrift{c.id(), 3});
  rig.world().on_trigger(Trigger{r1.id(), ServerEvent::key_expired, 0ns, 1}, fault::ClockDrift{c.id(), 11});
  rig.world().on_trigger(Trigger{r1.id(), ServerEvent::key_expired, 100ms, 2}, fault::ClockDrift{c.id(), 12});
  rig.world().on_trigger(Trigger{r1.id(), ServerEvent::key_expired, 0ns, 3}, fault::ClockDrift{c.id(), 13});
  rig.world().run(T(10s));
  EXPECT_EQ(rig.applied(FaultKind::clock_drift), (std::vector<TrueTime>{T(4s), T(4s), T(5100ms)}));
  EXPECT_EQ(rig.world().clock(c.id()).drift_ppm(T(4s)), 11);  // key-dropped #3 and key-expired #1, in arming order
  EXPECT_EQ(rig.world().clock(c.id()).drift_ppm(T(6s)), 12);  // key-expired #3 never came
}

TEST(EventTrigger, AFaultComesOnceTheHandlerThatRecordedTheEventIsDone) {
  // Proves a server event fires at the same true instant but after the recording handler: a crash on the event
  // does not cut the node's own handler in half, unlike a fault at a client's phase.
  Rig rig;
  Scripted& r1 = rig.add("r1", ProcessKind::redis_node);
  r1.at(2s, [&](Scripted& self) {
    self.record(dropped(self.id(), KeyGone::expired));
    self.note("still handling");
  });
  rig.world().on_trigger(Trigger{r1.id(), ServerEvent::key_expired}, fault::Crash{r1.id()});
  rig.world().run(T(5s));
  EXPECT_EQ(rig.log, (Lines{"2s r1 still handling", "2s r1 crash"}));
}

TEST(EventTrigger, PromotedIsARedisNodeTurningMaster) {
  // Proves "promoted" fires at a Redis node's RoleChanged to master, with occurrence and after; a demotion, or a
  // store member's leadership, is not a promotion.
  Rig rig;
  Scripted& r2 = rig.add("r2", ProcessKind::redis_node);
  Scripted& r1 = rig.add("r1", ProcessKind::redis_node);
  Scripted& s1 = rig.add("s1", ProcessKind::store_member);
  Scripted& c = rig.add("c", ProcessKind::client);
  r2.at(1s, [&](Scripted& self) { self.record(RoleChanged{self.id(), kNoProcess, 1}); });
  r2.at(2s, [&](Scripted& self) { self.record(RoleChanged{self.id(), r1.id(), 2}); });
  r2.at(3s, [&](Scripted& self) { self.record(RoleChanged{self.id(), kNoProcess, 3}); });
  s1.at(1s, [&](Scripted& self) { self.record(RoleChanged{self.id(), kNoProcess, 1}); });
  rig.world().on_trigger(Trigger{r2.id(), ServerEvent::promoted}, fault::Pause{c.id(), 10ms});
  rig.world().on_trigger(Trigger{r2.id(), ServerEvent::promoted, 500ms, 2}, fault::Pause{c.id(), 20ms});
  rig.world().on_trigger(Trigger{s1.id(), ServerEvent::promoted}, fault::Pause{c.id(), 30ms});  // never: not Redis
  rig.world().run(T(5s));
  EXPECT_EQ(rig.applied(FaultKind::pause), (std::vector<TrueTime>{T(1s), T(3500ms)}));
}

TEST(EventTrigger, ElectedIsAStoreMemberWinningAnElection) {
  // Proves "elected" fires when a member that stood as a candidate becomes leader, and not for a leader that never
  // stood (the initial leader of a settled cluster) nor for a candidate that lost.
  Rig rig;
  Scripted& s1 = rig.add("s1", ProcessKind::store_member);
  Scripted& s2 = rig.add("s2", ProcessKind::store_member);
  Scripted& c = rig.add("c", ProcessKind::client);
  s1.at(0s, [&](Scripted& self) { self.record(RoleChanged{self.id(), kNoProcess, 1}); });  // leads term 1 unelected
  s2.at(1s, [&](Scripted& self) { self.record(RoleChanged{self.id(), self.id(), 2}); });    // stands
  s2.at(2s, [&](Scripted& self) { self.record(RoleChanged{self.id(), s1.id(), 2}); });      // loses
  s2.at(3s, [&](Scripted& self) { self.record(RoleChanged{self.id(), self.id(), 3}); });    // stands again
  s2.at(4s, [&](Scripted& self) { self.record(RoleChanged{self.id(), kNoProcess, 3}); });   // wins
  s1.at(5s, [&](Scripted& self) { self.record(RoleChanged{self.id(), self.id(), 4}); });
  s1.at(6s, [&](Scripted& self) { self.record(RoleChanged{self.id(), kNoProcess, 4}); });
  rig.world().on_trigger(Trigger{s1.id(), ServerEvent::elected}, fault::Pause{c.id(), 10ms});
  rig.world().on_trigger(Trigger{s2.id(), ServerEvent::elected}, fault::Pause{c.id(), 20ms});
  rig.world().on_trigger(Trigger{s2.id(), ServerEvent::elected, 0ns, 2}, fault::Pause{c.id(), 30ms});  // one win only
  rig.world().run(T(10s));
  EXPECT_EQ(rig.applied(FaultKind::pause), (std::vector<TrueTime>{T(4s), T(6s)}));
}

TEST(EventTrigger, AClientStartsOnAnEventAfterItsDelayAndWaitsThroughAPause) {
  // Proves start_on tells the client at the event's instant plus the delay; a paused client hears it when it
  // resumes; a crashed client never does.
  Rig rig;
  Scripted& r1 = rig.add("r1", ProcessKind::redis_node);
  Scripted& c1 = rig.add("c1", ProcessKind::client);
  Scripted& c2 = rig.add("c2", ProcessKind::client);
  Scripted& c3 = rig.add("c3", ProcessKind::client);
  r1.at(1s, [&](Scripted& self) { self.record(dropped(self.id(), KeyGone::expired)); });
  rig.world().start_on(Trigger{r1.id(), ServerEvent::key_expired, 300ms}, c1.id());
  rig.world().start_on(Trigger{r1.id(), ServerEvent::key_dropped}, c2.id());
  rig.world().start_on(Trigger{r1.id(), ServerEvent::key_dropped}, c3.id());
  rig.world().schedule_fault(T(500ms), fault::Pause{c2.id(), 2s});
  rig.world().schedule_fault(T(500ms), fault::Crash{c3.id()});
  rig.world().run(T(5s));
  EXPECT_EQ(rig.log, (Lines{"500ms c3 crash", "1.3s c1 triggered", "2.5s c2 triggered"}));
}

TEST(EventTrigger, AClientStartsOnAnotherClientsPhase) {
  // Proves start_on works with a phase too, as a control event after the phase's handler.
  Rig rig;
  Scripted& c1 = rig.add("c1", ProcessKind::client);
  Scripted& c2 = rig.add("c2", ProcessKind::client);
  c1.at(1s, [&](Scripted& self) {
    self.reach(Phase::acquired);
    self.note("acquired");
  });
  rig.world().start_on(Trigger{c1.id(), Phase::acquired}, c2.id());
  rig.world().run(T(5s));
  EXPECT_EQ(rig.log, (Lines{"1s c1 acquired", "1s c2 triggered"}));
}

}  // namespace
}  // namespace locksim
