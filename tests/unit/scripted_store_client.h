// Test doubles for the consensus store: a client process that sends planned
// requests to store members and records what came back, with the (true)
// time it came — test clocks read true time.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/consensus/store_member.h"
#include "sim/world/world.h"

namespace locksim::testing {

class StoreTestClient final : public Process {
 public:
  struct Planned {
    Duration at;
    ProcessId to;
    consensus::Request request;
  };
  struct Heard {
    LocalTime at;
    ProcessId from;
    consensus::Reply reply;
  };
  struct Seen {
    LocalTime at;
    consensus::Event event;
  };

  explicit StoreTestClient(std::string name = "c1") : Process(std::move(name)) {}

  std::vector<Planned> plan;
  std::vector<Heard> replies;
  std::vector<Seen> events;

  void on_start() override {
    for (std::size_t i = 0; i < plan.size(); ++i) set_timer(plan[i].at, i);
  }
  void on_timer(std::uint64_t tag) override {
    consensus::Request r = plan[tag].request;
    r.request_id = static_cast<std::uint32_t>(tag + 1);
    send(plan[tag].to, r);
  }
  void on_message(const Message& m) override {
    if (const auto* r = std::get_if<consensus::Reply>(&m.payload)) replies.push_back({monotonic_now(), m.from, *r});
    if (const auto* e = std::get_if<consensus::Event>(&m.payload)) events.push_back({monotonic_now(), *e});
  }
  // The reply to the |n|-th planned request (0-based), if any came.
  const Heard* reply_to(std::size_t n) const {
    for (const Heard& h : replies)
      if (h.reply.request_id == n + 1) return &h;
    return nullptr;
  }
};

inline consensus::Request store_request(consensus::Op op, consensus::Key key = {}, consensus::StoreSessionId session = 0) {
  consensus::Request r;
  r.op = op;
  r.key = key;
  r.session = session;
  return r;
}

// A store of |n| members named s1..sn (ids 0..n-1), led by s1 from the start
// unless |settled| is false; every member gets |config| with the members filled in.
inline std::vector<ProcessId> add_store(WorldPlan& plan, std::size_t n, consensus::StoreConfig config, bool settled = true) {
  std::vector<ProcessId> ids;
  for (std::size_t i = 0; i < n; ++i) ids.push_back(static_cast<ProcessId>(plan.processes.size() + i));
  config.members = ids;
  config.initial_leader = settled ? ids.front() : kNoProcess;
  for (std::size_t i = 0; i < n; ++i)
    plan.add(std::make_unique<consensus::StoreMember>("s" + std::to_string(i + 1), config), ProcessKind::store_member);
  return ids;
}

}  // namespace locksim::testing
