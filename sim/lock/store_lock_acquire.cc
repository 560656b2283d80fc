// StoreLock's acquire recipes: the queue (etcd's Mutex, Curator's
// InterProcessMutex), the single key (Chubby, Consul) and the observed
// record (Kubernetes Lease, DynamoDB lock client).
#include "sim/core/check.h"
#include "sim/core/limits.h"
#include "sim/lock/store_lock.h"

namespace locksim {

void StoreLock::acquire(bool /*first_of_cycle*/) {
  LOCKSIM_CHECK(step_ == Step::idle && !belief_.held(), "acquire while a lock attempt or lease is active");
  acquire_op_ = next_request_id_++;
  self_.record(RequestInvoked{self_.id(), acquire_op_, RequestKind::acquire});
  if (uses_session() && (session_ == consensus::kNoStoreSession || session_done_)) {
    step_ = Step::opening;
    open_session();
  } else {
    start_recipe();
  }
  self_.reach(Phase::acquire_sent);
}

void StoreLock::start_recipe() {
  my_key_ = consensus::Key{config_.key, 0};
  switch (config_.recipe) {
    case StoreRecipe::etcd_mutex: {
      // etcd's key: prefix/<lease id>, created only if absent, so a retry
      // under the same lease finds its own key.
      my_key_.suffix = session_;
      step_ = Step::creating;
      send(request(consensus::Op::create_if_absent), Purpose::attempt);
      return;
    }
    case StoreRecipe::curator_mutex:
      step_ = Step::creating;
      send(request(consensus::Op::create_sequential), Purpose::attempt);
      return;
    case StoreRecipe::chubby_lock:
    case StoreRecipe::consul_lock: return single_key_acquire();
    case StoreRecipe::observation_lease:
      do {
        my_value_ = self_.rng().next_u64();
      } while (my_value_ == 0);
      observed_revision_ = -1;
      record_lost_ = false;
      return observe();
  }
}

// --- the queue ---------------------------------------------------------------------

// The key just below ours, if any: etcd's waitDeletes, Curator's predecessor.
void StoreLock::find_lower() {
  step_ = Step::finding_lower;
  consensus::Request r = request(consensus::Op::last_created_below);
  r.revision = my_revision_;
  send(r, Purpose::attempt);
}

void StoreLock::restart_wait() {
  if (config_.recipe == StoreRecipe::etcd_mutex || config_.recipe == StoreRecipe::curator_mutex) return find_lower();
  single_key_acquire();
}

void StoreLock::single_key_acquire() {
  step_ = Step::acquiring;
  consensus::Request r = request(consensus::Op::acquire);
  r.number = to_ms(config_.knobs.lock_delay);
  send(r, Purpose::attempt);
}

void StoreLock::on_event(const consensus::Event& event) {
  if (step_ != Step::watching || !(event.key == watched_)) return;
  restart_wait();
}

void StoreLock::on_attempt_reply(const consensus::Reply& reply, const Outstanding& sent) {
  using consensus::Status;
  if (reply.status == Status::session_gone) {
    session_lost();
    // Without its session the recipe cannot go on, etcd's included: its key
    // cannot be created.
    if (step_ != Step::idle) fail_attempt(Outcome::fail);
    return;
  }
  switch (step_) {
    case Step::creating:
      my_key_ = reply.key;
      my_revision_ = reply.create_revision;
      // etcd's uncontended path: the create's transaction also read the
      // owner; if it is our key, Lock returns at once, with no wait and no
      // re-check in any release.
      if (config_.recipe == StoreRecipe::etcd_mutex && reply.number == my_revision_)
        return grant(consensus::lock_value(my_key_, my_revision_), my_revision_, belief_end());
      return find_lower();
    case Step::finding_lower:
      if (reply.status == Status::ok) {
        step_ = Step::watching;
        watched_ = reply.key;
        watch_member_ = target();
        consensus::Request w = request(consensus::Op::watch_delete);
        w.key = watched_;
        w.revision = my_revision_;
        send(w, Purpose::attempt);
        return;
      }
      if (config_.recipe == StoreRecipe::etcd_mutex && config_.knobs.recheck_after_wait) {
        step_ = Step::rechecking;
        send(request(consensus::Op::get), Purpose::attempt);
        return;
      }
      return grant(consensus::lock_value(my_key_, my_revision_), my_revision_, belief_end());
    case Step::rechecking:
      // ErrSessionExpired: the key went with the lease while we waited.
      if (reply.status != Status::ok) return fail_attempt(Outcome::fail);
      return grant(consensus::lock_value(my_key_, my_revision_), my_revision_, belief_end());
    case Step::acquiring:
      if (reply.status == Status::ok) {
        my_revision_ = reply.create_revision;
        return grant(consensus::lock_value(my_key_, my_revision_), my_revision_, belief_end());
      }
      if (reply.status == Status::delayed) {
        step_ = Step::delayed;
        retry_timer_ = self_.set_timer(std::chrono::milliseconds(reply.number), tag_base_ + kRetryTag);
        return;
      }
      step_ = Step::watching;  // held by another session: wait for its key to go
      watched_ = my_key_;
      watch_member_ = target();
      {
        consensus::Request w = request(consensus::Op::watch_delete);
        w.revision = reply.create_revision;
        send(w, Purpose::attempt);
      }
      return;
    case Step::observing: return on_observed(reply);
    case Step::claiming:
      if (reply.status == Status::ok) {
        my_revision_ = reply.mod_revision;
        renew_sent_ = sent.sent;
        renew_timer_ = self_.set_timer(config_.knobs.keepalive_every, tag_base_ + kRenewTag);
        return grant(my_value_, my_revision_, saturating_add(sent.sent, config_.knobs.renew_deadline));
      }
      // Someone wrote the record first: watch it from its new version.
      observed_revision_ = reply.mod_revision;
      observed_since_ = self_.clock_now(config_.clock);
      step_ = Step::observing;
      retry_timer_ = self_.set_timer(config_.knobs.keepalive_every, tag_base_ + kRetryTag);
      return;
    default: return;  // a reply for a step already left
  }
}

void StoreLock::on_attempt_timeout(const Outstanding& sent) {
  // A write whose outcome is unknown ends the attempt as Jepsen's *info*: the
  // key may be there (a retry under the same session finds it).
  if (step_ == Step::creating || step_ == Step::acquiring || step_ == Step::claiming) {
    (void)sent;
    fail_attempt(Outcome::info);
  }
}

// --- the observed record -------------------------------------------------------------

void StoreLock::observe() {
  step_ = Step::observing;
  send(request(consensus::Op::get), Purpose::attempt);
}

void StoreLock::claim(std::int64_t revision) {
  step_ = Step::claiming;
  consensus::Request r = request(consensus::Op::cas_put);
  r.revision = revision;
  r.value = my_value_;
  send(r, Purpose::attempt);
}

// A contender takes over only once the record has stayed the same for a
// whole lease duration on its own clock: a clock that runs fast shortens it.
void StoreLock::on_observed(const consensus::Reply& reply) {
  if (reply.status == consensus::Status::not_found) return claim(0);
  const LocalTime now = self_.clock_now(config_.clock);
  if (reply.mod_revision != observed_revision_) {
    observed_revision_ = reply.mod_revision;
    observed_since_ = now;
  }
  if (now - observed_since_ >= config_.ttl) return claim(observed_revision_);
  retry_timer_ = self_.set_timer(config_.knobs.keepalive_every, tag_base_ + kRetryTag);
}

void StoreLock::renew() {
  if (!belief_.held() || record_lost_) return;
  if (!renewing_) {
    renewing_ = true;
    consensus::Request r = request(consensus::Op::cas_put);
    r.revision = my_revision_;
    r.value = my_value_;
    send(r, Purpose::renew);
  }
  renew_timer_ = self_.set_timer(config_.knobs.keepalive_every, tag_base_ + kRenewTag);
}

void StoreLock::on_renewed(const consensus::Reply& reply, const Outstanding& sent) {
  renewing_ = false;
  if (!belief_.held()) return;
  if (reply.status == consensus::Status::failed && reply.value == my_value_) {
    my_revision_ = reply.mod_revision;  // an earlier renewal landed after all
    return;
  }
  if (reply.status != consensus::Status::ok) {
    // Another client holds the record now.
    record_lost_ = true;
    self_.cancel_timer(renew_timer_);
    renew_timer_ = {};
    return belief_.lose();
  }
  my_revision_ = reply.mod_revision;
  renew_sent_ = sent.sent;
  belief_.extend(saturating_add(renew_sent_, config_.knobs.renew_deadline));
}

// --- ending an attempt -----------------------------------------------------------------

void StoreLock::grant(std::uint64_t value, std::int64_t token, LocalTime end) {
  step_ = Step::idle;
  key_session_ = uses_session() ? session_ : consensus::kNoStoreSession;
  self_.record(RequestCompleted{self_.id(), acquire_op_, RequestKind::acquire, Outcome::ok});
  const LocalTime now = self_.clock_now(config_.clock);
  listener_.on_acquired(belief_.grant(value, token, config_.clock, end, end - now));
}

void StoreLock::fail_attempt(Outcome outcome) {
  step_ = Step::idle;
  self_.cancel_timer(retry_timer_);
  retry_timer_ = {};
  self_.record(RequestCompleted{self_.id(), acquire_op_, RequestKind::acquire, outcome});
  listener_.on_acquire_failed();
}

}  // namespace locksim
