// Test doubles for lock clients: a Redis node that answers from a script and
// a client process that hosts a lock and records what it heard.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "sim/lock/lease.h"
#include "sim/world/process.h"
#include "sim/world/world.h"

namespace locksim::testing {

// A node that records requests and answers each with the next scripted reply
// after a delay — or never, for an answer without a reply.
class ScriptedNode final : public Process {
 public:
  struct Answer {
    std::optional<redis::Reply> reply;
    Duration delay = std::chrono::milliseconds(1);
  };
  explicit ScriptedNode(std::string name = "r1") : Process(std::move(name)) {}

  std::deque<Answer> script;
  std::vector<redis::Request> received;

  void on_message(const Message& m) override {
    const auto& request = std::get<redis::Request>(m.payload);
    received.push_back(request);
    if (script.empty()) return;
    Answer a = script.front();
    script.pop_front();
    if (!a.reply) return;
    a.reply->request_id = request.request_id;
    pending_.push_back({m.from, *a.reply});
    set_timer(a.delay, pending_.size() - 1);
  }
  void on_timer(std::uint64_t tag) override { send(pending_[tag].first, pending_[tag].second); }

 private:
  std::vector<std::pair<ProcessId, redis::Reply>> pending_;
};

// Hosts one lock client; acquires at start (or as |on_start| says), releases
// |release_after| after a grant when that is set, and counts what it heard.
class LockHost final : public Process, public LockListener {
 public:
  using Make = std::function<std::unique_ptr<LockClient>(Process&, LockListener&, std::uint64_t tag_base)>;
  LockHost(Make make, std::function<void(LockHost&)> on_start = {})
      : Process("c1"), make_(std::move(make)), start_(std::move(on_start)) {}

  void on_start() override {
    lock = make_(*this, *this, kLockTags);
    if (start_) return start_(*this);
    lock->acquire(true);
  }
  void on_message(const Message& m) override {
    if (const auto* reply = std::get_if<redis::Reply>(&m.payload)) return lock->on_reply(*reply);
    lock->on_notice(m.payload);  // sentinel announcements and answers
  }
  void on_timer(std::uint64_t tag) override {
    if (tag >= kLockTags) return lock->on_timer(tag);
    if (tag == kRelease && lock->held()) lock->release();
    if (tag == kExtend) lock->extend();
    if (tag == kRetry) lock->acquire(false);
  }
  void on_acquired(const Lease& lease) override {
    ++acquired;
    last = lease;
    if (after_acquired) after_acquired(*this);
    if (release_after >= Duration{0}) set_timer(release_after, kRelease);
    if (extend_after >= Duration{0}) set_timer(extend_after, kExtend);
  }
  void on_acquire_failed() override {
    ++failed;
    if (retries_left > 0) {
      --retries_left;
      set_timer(retry_delay, kRetry);
    } else {
      lock->give_up();  // as the workload does when its attempts are used up
    }
  }
  void on_extended(bool ok) override { extended.push_back(ok); }
  void on_resource_reply(const resource::Reply& reply) override { resource_replies.push_back(reply); }

  static constexpr std::uint64_t kRelease = 1, kExtend = 2, kRetry = 3;
  static constexpr std::uint64_t kLockTags = 1ULL << 32;

  std::unique_ptr<LockClient> lock;
  int acquired = 0;
  int failed = 0;
  std::vector<bool> extended;
  std::vector<resource::Reply> resource_replies;
  std::function<void(LockHost&)> after_acquired;  // runs inside on_acquired
  Lease last;
  Duration release_after{-1};
  Duration extend_after{-1};
  int retries_left = 0;
  Duration retry_delay = std::chrono::milliseconds(100);

 private:
  Make make_;
  std::function<void(LockHost&)> start_;
};

// The facts of one kind in a history, in order.
template <class T>
std::vector<T> facts_of(const History& h) {
  std::vector<T> out;
  for (const Fact& f : h.facts)
    if (const auto* x = std::get_if<T>(&f.body)) out.push_back(*x);
  return out;
}

}  // namespace locksim::testing
