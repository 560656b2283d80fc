#include "sim/core/limits.h"
#include "sim/lock/single_node_lock.h"

#include "sim/core/check.h"
#include "sim/lock/fencing.h"
#include "sim/lock/release.h"

namespace locksim {

namespace {
constexpr std::uint64_t kTimeoutTag = 0;
constexpr std::uint64_t kExtendTimeoutTag = 1;
}

SingleNodeLock::SingleNodeLock(Process& self, LockListener& listener, SingleNodeLockConfig config,
                               std::uint64_t tag_base)
    : self_(self), listener_(listener), config_(config), tag_base_(tag_base), belief_(self) {}

redis::Request SingleNodeLock::request(redis::Command command) const {
  redis::Request r;
  r.command = command;
  r.key = config_.key;
  r.value = redis::Value::token(attempt_value_);
  return r;
}

void SingleNodeLock::send_request(redis::Request r, State next) {
  r.request_id = next_request_id_++;
  awaited_request_ = r.request_id;
  state_ = next;
  self_.cancel_timer(timeout_);
  timeout_ = self_.set_timer(config_.request_timeout, tag_base_ + kTimeoutTag);
  self_.send(config_.node, r);
}

void SingleNodeLock::complete(RequestKind kind, std::uint64_t op, Outcome outcome) {
  self_.record(RequestCompleted{self_.id(), op, kind, outcome});
}

void SingleNodeLock::acquire(bool /*first_of_cycle*/) {
  LOCKSIM_CHECK(state_ == State::idle && !belief_.held(), "acquire while a lock attempt or lease is active");
  attempt_start_ = self_.clock_now(config_.clock);
  // A fresh random value per attempt: it is what makes compare-and-delete
  // safe, and it names the session in the history.
  attempt_value_ = self_.rng().next_u64();
  acquire_op_ = next_request_id_;
  self_.record(RequestInvoked{self_.id(), acquire_op_, RequestKind::acquire});
  if (config_.acquire == AcquireStyle::set_nx_px && config_.fencing == FencingStyle::incr_in_script) {
    redis::Request r = request(redis::Command::eval);
    r.script = redis::Script::lock_and_incr;
    r.counter_key = config_.fencing_key;
    r.expire_amount = to_ms(config_.validity.ttl);
    send_request(r, State::awaiting_lock_and_token);
  } else if (config_.acquire == AcquireStyle::set_nx_px) {
    redis::Request r = request(redis::Command::set);
    r.nx = true;
    r.expire_unit = redis::ExpireUnit::ms;
    r.expire_amount = to_ms(config_.validity.ttl);
    send_request(r, State::awaiting_set);
  } else {
    send_request(request(redis::Command::setnx), State::awaiting_setnx);
  }
  self_.reach(Phase::acquire_sent);
}

void SingleNodeLock::on_reply(const redis::Reply& reply) {
  if (reply.request_id != 0 && reply.request_id == release_request_) {
    // The release already took effect for the client; its reply only tells
    // whether the node still had our value.
    release_request_ = 0;
    const bool ok = reply.kind == redis::Reply::Kind::integer && reply.integer >= 1;
    return complete(RequestKind::release, reply.request_id, ok ? Outcome::ok : Outcome::fail);
  }
  if (reply.request_id != 0 && reply.request_id == extend_request_) {
    extend_request_ = 0;
    self_.cancel_timer(extend_timeout_);
    return finish_extend(reply.kind == redis::Reply::Kind::integer && reply.integer == 1);
  }
  if (reply.request_id != awaited_request_ || awaited_request_ == 0) return;  // an abandoned request
  awaited_request_ = 0;
  self_.cancel_timer(timeout_);
  switch (state_) {
    case State::awaiting_lock_and_token: {
      // 0: the lock was taken; an error: the INCR failed after the SET, so
      // the key may be ours and is given back.
      if (reply.kind == redis::Reply::Kind::error) {
        fail_attempt(Outcome::fail);
        return release_value(attempt_value_);
      }
      if (reply.kind != redis::Reply::Kind::integer || reply.integer < 1) return fail_attempt(Outcome::fail);
      script_token_ = reply.integer;
      if (config_.wait_replicas > 0) return send_wait();
      return after_key_set();
    }
    case State::awaiting_set:
    case State::awaiting_expire: {
      const bool ok = state_ == State::awaiting_set ? reply.kind == redis::Reply::Kind::ok
                                                    : reply.kind == redis::Reply::Kind::integer && reply.integer == 1;
      if (!ok) return fail_attempt(Outcome::fail);
      if (config_.wait_replicas > 0) return send_wait();
      return after_key_set();
    }
    case State::awaiting_wait: {
      // WAIT only says how many replicas have the key; too few and the lock
      // could vanish in a failover, so give it back.
      if (reply.kind == redis::Reply::Kind::integer && reply.integer >= config_.wait_replicas) return after_key_set();
      fail_attempt(Outcome::fail);
      release_value(attempt_value_);
      return;
    }
    case State::awaiting_setnx: {
      if (reply.kind != redis::Reply::Kind::integer || reply.integer != 1) return fail_attempt(Outcome::fail);
      // The window of the SETNX-then-EXPIRE mistake: the key exists with no
      // TTL. A crash triggered here leaves it forever.
      self_.reach(Phase::setnx_ok);
      redis::Request r = request(redis::Command::expire);
      r.expire_amount = std::chrono::duration_cast<std::chrono::seconds>(config_.validity.ttl).count();
      return send_request(r, State::awaiting_expire);
    }
    case State::awaiting_token: {
      const auto token = fencing_token_from(reply);
      if (!token) return fail_attempt(Outcome::fail);
      return grant(*token);
    }
    case State::idle: return;
  }
}

void SingleNodeLock::send_wait() {
  redis::Request r = request(redis::Command::wait);
  r.numreplicas = config_.wait_replicas;
  r.expire_amount = to_ms(config_.wait_timeout);
  send_request(r, State::awaiting_wait);
}

void SingleNodeLock::after_key_set() {
  switch (config_.fencing) {
    case FencingStyle::incr: return send_request(fencing_token_request(0, config_.fencing_key), State::awaiting_token);
    case FencingStyle::incr_in_script: return grant(script_token_);
    case FencingStyle::none: return grant(resource::kNoToken);
  }
}

void SingleNodeLock::release_value(std::uint64_t value) {
  redis::Request r = compare_and_delete_request(config_.key, value);
  r.request_id = next_request_id_++;
  self_.send(config_.node, r);
}

void SingleNodeLock::grant(std::int64_t fencing_token) {
  const LocalTime now = self_.clock_now(config_.clock);
  const Duration validity = config_.validity.validity(now - attempt_start_);
  if (validity <= Duration{0}) {
    // Granted too late to be of use: give it back at once (the algorithm's
    // step 3-4). The key still sits on the node until this release lands.
    fail_attempt(Outcome::fail);
    release_value(attempt_value_);
    return;
  }
  state_ = State::idle;  // the attempt is over; the lease is belief_'s
  complete(RequestKind::acquire, acquire_op_, Outcome::ok);
  const LocalTime end = saturating_add(attempt_start_, config_.validity.ttl - config_.validity.drift());
  listener_.on_acquired(belief_.grant(attempt_value_, fencing_token, config_.clock, end, validity));
}

void SingleNodeLock::fail_attempt(Outcome outcome) {
  state_ = State::idle;
  awaited_request_ = 0;
  complete(RequestKind::acquire, acquire_op_, outcome);
  listener_.on_acquire_failed();
}

void SingleNodeLock::extend() {
  if (!belief_.held() || extend_request_ != 0) return;
  extend_start_ = self_.clock_now(config_.clock);
  redis::Request r = request(redis::Command::eval);
  r.value = redis::Value::token(belief_.lease().value);
  r.script = redis::Script::compare_and_pexpire;
  r.expire_amount = to_ms(config_.validity.ttl);
  r.request_id = next_request_id_++;
  extend_request_ = r.request_id;
  extend_op_ = r.request_id;
  self_.record(RequestInvoked{self_.id(), r.request_id, RequestKind::extend});
  extend_timeout_ = self_.set_timer(config_.request_timeout, tag_base_ + kExtendTimeoutTag);
  self_.send(config_.node, r);
}

void SingleNodeLock::finish_extend(bool ok) {
  const std::uint64_t op = extend_op_;
  // Only a lease we still hold can grow; the extension must land within it.
  const LocalTime now = self_.clock_now(config_.clock);
  ok = ok && belief_.held() && config_.validity.validity(now - extend_start_) > Duration{0};
  complete(RequestKind::extend, op, ok ? Outcome::ok : Outcome::fail);
  if (ok) belief_.extend(saturating_add(extend_start_, config_.validity.ttl - config_.validity.drift()));
  listener_.on_extended(ok);
}

void SingleNodeLock::on_timer(std::uint64_t tag) {
  if (tag == tag_base_ + kExtendTimeoutTag) {
    if (extend_request_ == 0) return;
    extend_request_ = 0;
    return finish_extend(false);
  }
  if (tag != tag_base_ + kTimeoutTag || awaited_request_ == 0) return;
  // No reply in time: the outcome is unknown — the command may have run.
  fail_attempt(Outcome::info);
}

void SingleNodeLock::release() {
  belief_.release();
  redis::Request r = request(config_.release == ReleaseStyle::del ? redis::Command::del : redis::Command::eval);
  r.value = redis::Value::token(belief_.lease().value);
  if (config_.release == ReleaseStyle::compare_and_delete) r.script = redis::Script::compare_and_delete;
  r.request_id = next_request_id_++;
  release_request_ = r.request_id;
  self_.record(RequestInvoked{self_.id(), r.request_id, RequestKind::release});
  // Releases are fire-and-forget for the state machine: their replies are
  // recorded (see on_reply) but nothing waits for them.
  self_.send(config_.node, r);
}

void SingleNodeLock::lose() { belief_.lose(); }

void SingleNodeLock::abandon() {
  belief_.abandon();
  extend_request_ = 0;  // an extension in flight no longer matters
}

bool SingleNodeLock::lease_valid() const { return belief_.lease_valid(); }

void SingleNodeLock::on_crash() {
  state_ = State::idle;
  belief_.crash();
  awaited_request_ = 0;
  release_request_ = 0;
  extend_request_ = 0;
}

}  // namespace locksim
