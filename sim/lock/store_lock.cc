#include "sim/lock/store_lock.h"

#include <algorithm>

#include "sim/core/check.h"
#include "sim/core/limits.h"

namespace locksim {

namespace {

// How long a client waits before asking again when a member knows no leader
// (an election is under way).
constexpr Duration kNoLeaderPause = std::chrono::milliseconds(50);

// Asking again elsewhere cannot do harm: reads, keepalives, watches, and a
// delete of the client's own key (it names the session, so a late second one
// never frees someone else's lock).
bool safe_to_resend(consensus::Op op) {
  switch (op) {
    case consensus::Op::del:
    case consensus::Op::first_created:
    case consensus::Op::last_created_below:
    case consensus::Op::get:
    case consensus::Op::read_stock:
    case consensus::Op::keep_alive:
    case consensus::Op::watch_delete: return true;
    default: return false;
  }
}

}  // namespace

StoreLock::StoreLock(Process& self, LockListener& listener, StoreLockConfig config, std::uint64_t tag_base)
    : self_(self), listener_(listener), config_(std::move(config)), tag_base_(tag_base), belief_(self) {
  LOCKSIM_CHECK(!config_.members.empty(), "a store lock needs the store's members");
  if (config_.clientv3)
    clientv3_.emplace(self_, config_.members, config_.knobs.clientv3_timing, tag_base_ + kClientV3Tags);
}

// A check: an etcd client reads Session.Done(); a Curator application its
// connection state (the policy's SUSPENDED or LOST, by its own clock); the
// others their own deadline.
bool StoreLock::lease_valid() const {
  if (clientv3_) return belief_.held() && clientv3_->open();
  return belief_.lease_valid();
}

void StoreLock::lose() {
  const bool library_said = clientv3_ || config_.recipe == StoreRecipe::curator_mutex;
  belief_.lose(library_said ? BeliefEnd::session_lost : BeliefEnd::validity_check);
}

std::unique_ptr<LockClient> make_store_lock(Process& self, LockListener& listener, const StoreLockConfig& config,
                                            std::uint64_t tag_base) {
  return std::make_unique<StoreLock>(self, listener, config, tag_base);
}

consensus::Request StoreLock::request(consensus::Op op) const {
  consensus::Request r;
  r.op = op;
  r.key = my_key_;
  r.session = session_;
  return r;
}

// --- requests --------------------------------------------------------------------

std::uint32_t StoreLock::send(consensus::Request request, Purpose purpose) {
  request.request_id = next_request_id_++;
  Outstanding o;
  o.request = request;
  o.purpose = purpose;
  o.sent = self_.clock_now(config_.clock);
  // A watch has no reply: the event may take any time.
  if (request.op != consensus::Op::watch_delete)
    o.timeout = self_.set_timer(config_.request_timeout, tag_base_ + kRequestTimeoutTags + request.request_id);
  outstanding_[request.request_id] = o;
  self_.send(target(), request);
  return request.request_id;
}

// Sends |request_id| again (to the next member when |move_on|), as a new request.
void StoreLock::resend(std::uint32_t request_id, bool move_on) {
  const auto it = outstanding_.find(request_id);
  if (it == outstanding_.end()) return;
  const Outstanding o = it->second;
  self_.cancel_timer(o.timeout);
  outstanding_.erase(it);
  if (move_on) target_ = (target_ + 1) % config_.members.size();
  const std::uint32_t id = send(o.request, o.purpose);
  outstanding_[id].resource_request = o.resource_request;
  outstanding_[id].op = o.op;
}

void StoreLock::retarget(ProcessId hint) {
  const auto it = std::find(config_.members.begin(), config_.members.end(), hint);
  if (it != config_.members.end()) target_ = static_cast<std::size_t>(it - config_.members.begin());
}

void StoreLock::on_notice(const Payload& payload) {
  if (const auto* reply = std::get_if<consensus::Reply>(&payload)) return on_store_reply(*reply);
  if (const auto* event = std::get_if<consensus::Event>(&payload)) return on_event(*event);
}

void StoreLock::on_store_reply(const consensus::Reply& reply) {
  if (clientv3_ && reply.request_id == kKeepaliveStreamRequest) return on_keepalive_stream(clientv3_->on_reply(reply));
  const auto it = outstanding_.find(reply.request_id);
  if (it == outstanding_.end()) return;  // answered already, or abandoned
  if (reply.status == consensus::Status::refused) {
    // Never delivered: any request may go to the next member at once (the
    // balancer's next connection).
    target_ = (target_ + 1) % config_.members.size();
    return resend(reply.request_id, false);
  }
  if (reply.status == consensus::Status::not_leader) {
    // Follow the member's guess; without one, try the next member shortly.
    const ProcessId before = target();
    retarget(reply.leader);
    if (target() != before) return resend(reply.request_id, false);
    target_ = (target_ + 1) % config_.members.size();
    self_.cancel_timer(it->second.timeout);
    it->second.timeout = self_.set_timer(kNoLeaderPause, tag_base_ + kRequestTimeoutTags + reply.request_id);
    it->second.parked = true;  // resent when that timer fires
    return;
  }
  const Outstanding sent = it->second;
  self_.cancel_timer(sent.timeout);
  outstanding_.erase(it);
  // ZooKeeper's client hears the ensemble in every packet, not only in ping
  // replies (ClientCnxnSocket.lastHeard): SUSPENDED moves on with each.
  if (config_.recipe == StoreRecipe::curator_mutex && sent.purpose != Purpose::open_session &&
      sent.purpose != Purpose::keep_alive && session_ != consensus::kNoStoreSession) {
    last_heard_ = self_.clock_now(config_.clock);
    if (belief_.held()) belief_.extend(belief_end());
  }
  switch (sent.purpose) {
    case Purpose::open_session:
    case Purpose::keep_alive: return on_session_reply(reply, sent);
    case Purpose::attempt: return on_attempt_reply(reply, sent);
    case Purpose::renew: return on_renewed(reply, sent);
    case Purpose::release:
      return self_.record(RequestCompleted{self_.id(), sent.op, RequestKind::release,
                                           reply.status == consensus::Status::ok ? Outcome::ok : Outcome::fail});
    case Purpose::stock: {
      const bool ok = reply.status == consensus::Status::ok;
      return listener_.on_resource_reply(resource::Reply{sent.resource_request, ok,
                                                         ok ? resource::Reject::none : resource::Reject::stale_token,
                                                         reply.number});
    }
  }
}

void StoreLock::on_timeout(std::uint32_t request_id) {
  const auto it = outstanding_.find(request_id);
  if (it == outstanding_.end()) return;
  const Outstanding sent = it->second;
  // A request parked after a not_leader answer is simply sent again. What is
  // safe to resend is asked elsewhere; another write may have been applied,
  // so its outcome is unknown.
  if (sent.parked) return resend(request_id, false);
  if (safe_to_resend(sent.request.op)) return resend(request_id, true);
  outstanding_.erase(it);
  target_ = (target_ + 1) % config_.members.size();
  switch (sent.purpose) {
    case Purpose::open_session:
      opening_ = false;
      return open_session();
    case Purpose::keep_alive: return;
    case Purpose::attempt: return on_attempt_timeout(sent);
    case Purpose::renew:
      renewing_ = false;  // unknown; the next renewal finds out
      return;
    case Purpose::release:
      return self_.record(RequestCompleted{self_.id(), sent.op, RequestKind::release, Outcome::info});
    case Purpose::stock: return;  // the workload's own op timeout ends the step
  }
}

void StoreLock::on_timer(std::uint64_t tag) {
  const std::uint64_t t = tag - tag_base_;
  if (t >= kRequestTimeoutTags) return on_timeout(static_cast<std::uint32_t>(t - kRequestTimeoutTags));
  if (clientv3_ && t >= kClientV3Tags) return on_keepalive_stream(clientv3_->on_timer(tag));
  switch (t) {
    case kKeepaliveTag:
      keepalive_timer_ = {};
      return keep_alive();
    case kRetryTag:
      retry_timer_ = {};
      if (step_ == Step::delayed) return single_key_acquire();
      if (step_ == Step::observing) return observe();
      return;
    case kRenewTag:
      renew_timer_ = {};
      return renew();
    default: LOCKSIM_CHECK(false, "unknown store lock timer");
  }
}

// --- the session -------------------------------------------------------------------

void StoreLock::open_session() {
  if (opening_) return;
  opening_ = true;
  consensus::Request r = request(consensus::Op::open_session);
  r.number = to_ms(config_.ttl);
  send(r, Purpose::open_session);
}

void StoreLock::keep_alive() {
  if (clientv3_) return clientv3_->send_now();
  if (session_ == consensus::kNoStoreSession) return;
  consensus::Request r = request(consensus::Op::keep_alive);
  send(r, Purpose::keep_alive);
  keepalive_timer_ = self_.set_timer(config_.knobs.keepalive_every, tag_base_ + kKeepaliveTag);
}

LocalTime StoreLock::belief_end() const {
  if (clientv3_) return clientv3_->deadline();
  switch (config_.knobs.policy) {
    case SessionPolicy::deadline: return deadline_;
    case SessionPolicy::obey_suspended: return saturating_add(last_heard_, config_.knobs.suspended_after);
    case SessionPolicy::obey_lost:
      return saturating_add(last_heard_, saturating_add(config_.knobs.suspended_after, config_.knobs.lost_after));
    case SessionPolicy::ignore: return saturating_add(last_heard_, kMaxDuration);
  }
  return deadline_;
}

void StoreLock::on_session_reply(const consensus::Reply& reply, const Outstanding& sent) {
  if (sent.purpose == Purpose::open_session) opening_ = false;
  if (reply.status == consensus::Status::session_gone) return session_lost();
  if (reply.status != consensus::Status::ok) return;
  const LocalTime now = self_.clock_now(config_.clock);
  if (sent.purpose == Purpose::open_session && clientv3_) {
    // NewSession: Grant, then KeepAlive — the deadline is clientv3's.
    session_ = reply.session;
    session_done_ = false;
    clientv3_->keep(session_, target());
    if (step_ == Step::opening) start_recipe();
    return;
  }
  if (sent.purpose == Purpose::open_session) {
    session_ = reply.session;
    self_.cancel_timer(keepalive_timer_);
    keepalive_timer_ = self_.set_timer(config_.knobs.keepalive_every, tag_base_ + kKeepaliveTag);
  } else if (sent.request.session != session_) {
    return;  // a keepalive of a session already given up
  }
  // The client's deadline counts from the reply's arrival, not from when the
  // leader renewed: it outlives the server's lease by the reply's latency.
  ttl_ms_ = reply.number;
  deadline_ = saturating_add(now, std::chrono::milliseconds(ttl_ms_));
  last_heard_ = now;
  if (belief_.held() && config_.recipe != StoreRecipe::observation_lease) {
    belief_.extend(belief_end());
    self_.reach(Phase::extended);
  }
  if (step_ == Step::opening) return start_recipe();
  // The member that took our watch is no longer the one we talk to (it
  // crashed, or lost the lead): wait again from here, which sets a new one.
  if (step_ == Step::watching && target() != watch_member_) restart_wait();
}

// clientv3's lessor changed the lease: a reply extended it (the belief's
// promise moves; a watch set on a member the stream no longer talks to is set
// again), or the session is over (Done() closed; checks fail from now, and
// the next acquire opens a new session — the Mutex itself goes on waiting).
void StoreLock::on_keepalive_stream(ClientV3Keepalive::Change change) {
  if (change == ClientV3Keepalive::Change::none) return;
  if (change == ClientV3Keepalive::Change::closed) {
    session_done_ = true;
    return self_.reach(Phase::session_lost);
  }
  retarget(clientv3_->member());
  if (belief_.held()) {
    belief_.extend(clientv3_->deadline());
    self_.reach(Phase::extended);
  }
  if (step_ == Step::watching && target() != watch_member_) restart_wait();
}

// The store says the session is over: its keys are gone. A holder stops
// believing; a waiter's attempt fails — except etcd's Mutex, which waits on
// its context, not on the session (that is the bug the re-check closes).
void StoreLock::session_lost() {
  session_ = consensus::kNoStoreSession;
  self_.cancel_timer(keepalive_timer_);
  keepalive_timer_ = {};
  if (belief_.held()) return belief_.lose();
  const bool waiting = step_ != Step::idle && step_ != Step::opening;
  if (waiting && config_.recipe != StoreRecipe::etcd_mutex) fail_attempt(Outcome::fail);
}

// --- releasing, extending, crashing ---------------------------------------------

void StoreLock::release() {
  LOCKSIM_CHECK(belief_.held(), "release without a lease");
  belief_.release();
  self_.cancel_timer(renew_timer_);
  renew_timer_ = {};
  renewing_ = false;
  // A record someone else has taken is theirs now: deleting it would free
  // their lock (the store's del of a session's key checks the session).
  if (config_.recipe == StoreRecipe::observation_lease && record_lost_) return;
  consensus::Request r = request(consensus::Op::del);
  r.session = key_session_;
  const std::uint32_t id = send(r, Purpose::release);
  outstanding_[id].op = id;
  self_.record(RequestInvoked{self_.id(), id, RequestKind::release});
}

void StoreLock::abandon() {
  belief_.abandon();
  self_.cancel_timer(renew_timer_);
  renew_timer_ = {};
}

// Keepalives run on their own; an explicit extension is one keepalive now.
void StoreLock::extend() {
  if (!belief_.held()) return;
  if (config_.recipe == StoreRecipe::observation_lease) return renew();
  keep_alive();
}

void StoreLock::on_crash() {
  // Everything is volatile: the session and the keys are the store's to expire.
  belief_.crash();
  outstanding_.clear();
  if (clientv3_) clientv3_->crash();
  session_done_ = false;
  session_ = consensus::kNoStoreSession;
  opening_ = false;
  step_ = Step::idle;
  renewing_ = false;
  keepalive_timer_ = retry_timer_ = renew_timer_ = {};
}

// --- the store-resident stock ------------------------------------------------------

void StoreLock::resource_op(const resource::Request& r) {
  consensus::Request q = request(r.op == resource::Op::read ? consensus::Op::read_stock
                                                            : consensus::Op::guarded_decrement);
  q.value = r.session;
  q.revision = my_revision_;
  q.number = 1;
  const std::uint32_t id = send(q, Purpose::stock);
  outstanding_[id].resource_request = r.request_id;
}

}  // namespace locksim
