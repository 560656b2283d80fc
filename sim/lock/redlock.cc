#include "sim/lock/redlock.h"

#include <algorithm>

#include "sim/core/check.h"
#include "sim/core/limits.h"
#include "sim/lock/fencing.h"
#include "sim/lock/release.h"

namespace locksim {

namespace {

// Timer tags relative to tag_base: one per node for its request timeout, then
// the fencing-token timeout, then one per node for its release's reply.
constexpr std::uint64_t kNodeTimeoutTags = 0;
constexpr std::uint64_t kTokenTimeoutTag = 1 << 16;
constexpr std::uint64_t kReleaseTimeoutTags = 1 << 17;
}  // namespace

RedlockClient::RedlockClient(Process& self, LockListener& listener, RedlockConfig config, std::uint64_t tag_base)
    : self_(self), listener_(listener), config_(std::move(config)), tag_base_(tag_base), belief_(self) {
  LOCKSIM_CHECK(!config_.nodes.empty(), "Redlock needs nodes");
  round_.request.assign(config_.nodes.size(), 0);
  round_.timeout.assign(config_.nodes.size(), TimerId{});
  release_.request.assign(config_.nodes.size(), 0);
  release_.timeout.assign(config_.nodes.size(), TimerId{});
}

std::uint32_t RedlockClient::quorum() const {
  return config_.quorum != 0 ? config_.quorum : static_cast<std::uint32_t>(config_.nodes.size() / 2 + 1);
}

void RedlockClient::acquire(bool first_of_cycle) {
  LOCKSIM_CHECK(state_ == State::idle && !belief_.held(), "acquire while a lock attempt or lease is active");
  state_ = State::acquiring;
  // One random value per attempt, the same on every node — or, when the
  // attempts keep their keys until acquire gives up, one per acquire call, as
  // node-redlock draws it, so that the final release removes them all.
  if (first_of_cycle || config_.knobs.cleanup != FailedAttemptCleanup::at_give_up) attempt_value_ = self_.rng().next_u64();
  acquire_op_ = next_request_id_;
  self_.record(RequestInvoked{self_.id(), acquire_op_, RequestKind::acquire});
  start_round(false);
  if (first_of_cycle) cycle_start_ = round_.start;
  self_.reach(Phase::acquire_sent);
}

void RedlockClient::extend() {
  if (!belief_.held() || round_.active) return;
  extend_op_ = next_request_id_;
  self_.record(RequestInvoked{self_.id(), extend_op_, RequestKind::extend});
  start_round(true);
}

void RedlockClient::start_round(bool extending, bool cleaning) {
  round_.active = true;
  round_.extending = extending;
  round_.cleaning = cleaning;
  round_.start = self_.clock_now(config_.clock);
  round_.next_to_send = 0;
  round_.open = 0;
  round_.ok = 0;
  if (config_.knobs.parallel) {
    while (round_.next_to_send < config_.nodes.size()) send_to(round_.next_to_send++);
  } else {
    send_to(round_.next_to_send++);
  }
}

void RedlockClient::make_request(redis::Request& r) const {
  r.key = config_.key;
  if (round_.cleaning) return make_compare_and_delete(r, config_.key, attempt_value_);
  if (round_.extending) {
    r.command = redis::Command::eval;
    r.script = redis::Script::compare_and_pexpire;
    r.value = redis::Value::token(belief_.lease().value);
    r.expire_amount = to_ms(config_.validity.ttl);
  } else {
    r.command = redis::Command::set;
    r.value = redis::Value::token(attempt_value_);
    r.nx = true;
    r.expire_unit = redis::ExpireUnit::ms;
    r.expire_amount = to_ms(config_.validity.ttl);
  }
}

void RedlockClient::send_to(std::size_t node) {
  const std::uint64_t id = next_request_id_++;
  round_.request[node] = id;
  ++round_.open;
  round_.timeout[node] = self_.set_timer(config_.knobs.node_timeout, tag_base_ + kNodeTimeoutTags + node);
  self_.send_built<redis::Request>(config_.nodes[node], [&](redis::Request& r) {
    make_request(r);
    r.request_id = id;
  });
}

void RedlockClient::on_reply(const redis::Reply& reply) {
  if (reply.request_id == 0) return;
  if (reply.request_id == token_request_) {
    token_request_ = 0;
    self_.cancel_timer(token_timeout_);
    if (state_ != State::fencing) return;
    const auto token = fencing_token_from(reply);
    if (!token) return undo_attempt(Outcome::fail);
    return grant(*token);
  }
  if (release_.op != 0) {
    for (std::size_t node = 0; node < config_.nodes.size(); ++node) {
      if (release_.request[node] != reply.request_id) continue;
      self_.cancel_timer(release_.timeout[node]);
      return release_reply(node, reply.kind == redis::Reply::Kind::integer && reply.integer >= 1);
    }
  }
  if (!round_.active) return;
  for (std::size_t node = 0; node < config_.nodes.size(); ++node) {
    if (round_.request[node] != reply.request_id) continue;
    self_.cancel_timer(round_.timeout[node]);
    // (A cleanup release is done whatever it answers: finish_round ignores ok.)
    const bool ok = round_.extending || round_.cleaning ? reply.kind == redis::Reply::Kind::integer && reply.integer == 1
                                                        : reply.kind == redis::Reply::Kind::ok;
    return node_done(node, ok);
  }
  // Anything else answers an abandoned request (timed out) or a cleanup release.
}

void RedlockClient::on_timer(std::uint64_t tag) {
  const std::uint64_t local = tag - tag_base_;
  if (local == kTokenTimeoutTag) {
    if (token_request_ == 0 || state_ != State::fencing) return;
    token_request_ = 0;
    return undo_attempt(Outcome::info);
  }
  if (local >= kReleaseTimeoutTags) {
    const std::size_t node = local - kReleaseTimeoutTags;
    if (release_.op == 0 || node >= config_.nodes.size() || release_.request[node] == 0) return;
    release_.request[node] = 0;
    // No reply: this node may or may not have deleted our value. Once no
    // node is left to hear from, an undecided release is unknown.
    if (std::none_of(release_.request.begin(), release_.request.end(), [](std::uint64_t id) { return id != 0; }))
      finish_release(Outcome::info);
    return;
  }
  const std::size_t node = local - kNodeTimeoutTags;
  if (!round_.active || node >= config_.nodes.size() || round_.request[node] == 0) return;
  node_done(node, false);  // too slow counts as a refusal: move on
}

void RedlockClient::node_done(std::size_t node, bool ok) {
  round_.request[node] = 0;
  --round_.open;
  if (ok) ++round_.ok;
  if (!config_.knobs.parallel && round_.next_to_send < config_.nodes.size()) return send_to(round_.next_to_send++);
  if (round_.open == 0) return finish_round();
  if (config_.knobs.return_early && !round_.cleaning && decided()) {
    // The nodes still out are abandoned: their replies, when they come,
    // answer no open request, and their timeouts must not count against the
    // next round.
    for (std::size_t n = 0; n < config_.nodes.size(); ++n) {
      if (round_.request[n] == 0) continue;
      self_.cancel_timer(round_.timeout[n]);
      round_.request[n] = 0;
    }
    round_.open = 0;
    finish_round();
  }
}

bool RedlockClient::decided() const {
  const std::size_t answered_no = config_.nodes.size() - round_.open - round_.ok;
  return round_.ok >= quorum() || config_.nodes.size() - answered_no < quorum();
}

void RedlockClient::finish_round() {
  round_.active = false;
  if (round_.cleaning) return fail_attempt(undone_outcome_);
  const LocalTime now = self_.clock_now(config_.clock);
  const Duration validity = config_.validity.validity(now - round_.start);
  const bool quorum_ok = round_.ok >= quorum();
  if (round_.extending) {
    const bool ok = belief_.held() && quorum_ok && validity > Duration{0};
    self_.record(RequestCompleted{self_.id(), extend_op_, RequestKind::extend, ok ? Outcome::ok : Outcome::fail});
    if (ok) belief_.extend(saturating_add(round_.start, config_.validity.ttl - config_.validity.drift()));
    listener_.on_extended(ok);
    return;
  }
  if (!quorum_ok || (config_.knobs.check_validity && validity <= Duration{0})) return undo_attempt(Outcome::fail);
  if (config_.fencing == FencingStyle::incr) {
    state_ = State::fencing;
    redis::Request r = fencing_token_request(next_request_id_++, config_.fencing_key);
    token_request_ = r.request_id;
    token_timeout_ = self_.set_timer(config_.knobs.node_timeout, tag_base_ + kTokenTimeoutTag);
    self_.send(config_.fencing_node, r);
    return;
  }
  grant(resource::kNoToken);
}

void RedlockClient::grant(std::int64_t fencing_token) {
  state_ = State::idle;  // the attempt is over; the lease is belief_'s
  // The lease ends at T1 + ttl - drift, T1 being this attempt's start — or,
  // with node-redlock's bug, the first attempt's, which may lie in the past.
  const LocalTime t1 = config_.knobs.first_attempt_expiry ? cycle_start_ : round_.start;
  const LocalTime end = saturating_add(t1, config_.validity.ttl - config_.validity.drift());
  self_.record(RequestCompleted{self_.id(), acquire_op_, RequestKind::acquire, Outcome::ok});
  const Duration validity = end - self_.clock_now(config_.clock);
  listener_.on_acquired(belief_.grant(attempt_value_, fencing_token, config_.clock, end, validity));
}

void RedlockClient::fail_attempt(Outcome outcome) {
  state_ = State::idle;
  self_.record(RequestCompleted{self_.id(), acquire_op_, RequestKind::acquire, outcome});
  listener_.on_acquire_failed();
}

void RedlockClient::undo_attempt(Outcome outcome) {
  // Step 4: undo whatever was taken, on every node (a node may have taken the
  // key even if its reply was lost).
  switch (config_.knobs.cleanup) {
    case FailedAttemptCleanup::send: release_everywhere(attempt_value_); break;
    case FailedAttemptCleanup::at_give_up: break;
    case FailedAttemptCleanup::await:
      state_ = State::cleaning;
      undone_outcome_ = outcome;
      start_round(/*extending=*/false, /*cleaning=*/true);
      return;
  }
  fail_attempt(outcome);
}

void RedlockClient::give_up() {
  if (config_.knobs.cleanup == FailedAttemptCleanup::at_give_up) release_everywhere(attempt_value_);
}

void RedlockClient::release_everywhere(std::uint64_t value, std::uint64_t op) {
  for (std::size_t node = 0; node < config_.nodes.size(); ++node) {
    const std::uint64_t id = next_request_id_++;
    if (op != 0) {
      release_.request[node] = id;
      release_.timeout[node] = self_.set_timer(config_.knobs.node_timeout, tag_base_ + kReleaseTimeoutTags + node);
    }
    self_.send_built<redis::Request>(config_.nodes[node], [&](redis::Request& r) {
      make_compare_and_delete(r, config_.key, value);
      r.request_id = id;
    });
  }
}

void RedlockClient::release_reply(std::size_t node, bool deleted) {
  release_.request[node] = 0;
  ++(deleted ? release_.deleted : release_.refused);
  if (release_.deleted >= quorum()) return finish_release(Outcome::ok);
  if (config_.nodes.size() - release_.refused < quorum()) return finish_release(Outcome::fail);
  if (std::none_of(release_.request.begin(), release_.request.end(), [](std::uint64_t id) { return id != 0; }))
    finish_release(Outcome::info);
}

void RedlockClient::finish_release(Outcome outcome) {
  self_.record(RequestCompleted{self_.id(), release_.op, RequestKind::release, outcome});
  drop_release();
}

void RedlockClient::drop_release() {
  for (std::size_t node = 0; node < config_.nodes.size(); ++node) {
    if (release_.request[node] != 0) self_.cancel_timer(release_.timeout[node]);
    release_.request[node] = 0;
  }
  release_.op = 0;
  release_.deleted = 0;
  release_.refused = 0;
}

void RedlockClient::release() {
  abandon_round();  // an extension in flight no longer matters
  belief_.release();
  drop_release();  // one still undecided stays unknown
  release_.op = next_request_id_;
  self_.record(RequestInvoked{self_.id(), release_.op, RequestKind::release});
  release_everywhere(belief_.lease().value, release_.op);
}

void RedlockClient::lose() { belief_.lose(); }

void RedlockClient::abandon() {
  abandon_round();  // an extension in flight no longer matters
  belief_.abandon();
}

bool RedlockClient::lease_valid() const { return belief_.lease_valid(); }

void RedlockClient::abandon_round() {
  // Stale timeouts must not count against the next round for the same node.
  for (std::size_t node = 0; node < config_.nodes.size(); ++node) {
    if (round_.request[node] != 0) self_.cancel_timer(round_.timeout[node]);
    round_.request[node] = 0;
  }
  round_.active = false;
  round_.open = 0;
}

void RedlockClient::on_crash() {
  state_ = State::idle;
  belief_.crash();
  abandon_round();
  drop_release();  // its replies will not be heard: unknown
  token_request_ = 0;
}

}  // namespace locksim
