#include "sim/consensus/store_member.h"

#include <algorithm>

#include "sim/core/check.h"

namespace locksim::consensus {

namespace {

enum Tag : std::uint64_t { kElection = 1, kHeartbeat = 2, kLessor = 3, kCheckQuorum = 4 };

}  // namespace

StoreMember::StoreMember(std::string name, StoreConfig config)
    : Process(std::move(name)),
      config_(std::move(config)),
      state_(config_.initial_stock),
      lessor_(config_.lessor) {
  reset_peer_state();
}

// Sized here, not in on_start: a member crashed before its start event never
// runs on_start, and must still stand for election when it restarts.
void StoreMember::reset_peer_state() {
  const std::size_t n = config_.members.size();
  votes_.assign(n, false);
  next_index_.assign(n, 1);
  match_index_.assign(n, 0);
  in_flight_.assign(n, false);
  last_ack_.assign(n, std::nullopt);
  recent_active_.assign(n, false);
}

std::size_t StoreMember::index_of(ProcessId member) const {
  const auto it = std::find(config_.members.begin(), config_.members.end(), member);
  LOCKSIM_CHECK(it != config_.members.end(), "a store message from a process that is not a member");
  return static_cast<std::size_t>(it - config_.members.begin());
}

void StoreMember::on_start() {
  start_lessor_loop();
  if (config_.app == AppKind::stock && config_.initial_leader == id())
    record(AppState{AppKind::stock, 0, 0, 0, 0, state_.stock(), true});
  if (config_.initial_leader == kNoProcess) return reset_election_timer();
  // A settled cluster: term 1, everyone already voted for the initial leader.
  term_ = 1;
  voted_for_ = config_.initial_leader;
  if (config_.initial_leader == id()) return become_leader();
  become_follower(1, config_.initial_leader);
}

// --- roles ---------------------------------------------------------------------

void StoreMember::set_role(Role role, ProcessId leader) {
  const bool changed = role != role_ || leader != leader_;
  role_ = role;
  leader_ = leader;
  if (!changed) return;
  switch (role) {
    case Role::leader: record(RoleChanged{id(), kNoProcess, term_}); break;
    case Role::candidate: record(RoleChanged{id(), id(), term_}); break;
    case Role::follower:
      // A follower that does not know its leader yet says so when it learns.
      if (leader != kNoProcess) record(RoleChanged{id(), leader, term_});
      break;
  }
}

void StoreMember::become_follower(std::uint32_t term, ProcessId leader) {
  if (term > term_) {
    term_ = term;
    voted_for_ = kNoProcess;
  }
  const bool was_leader = role_ == Role::leader;
  set_role(Role::follower, leader);
  if (was_leader) {
    // Replies it owed are the client's to time out; sessions wait for the
    // next leader's lessor. What it told of the owner stays true: it was the
    // committed state, which the next leader carries on.
    pending_.clear();
    lessor_.clear();  // etcd's Demote: every lease "forever", the queue emptied
    answer_waiting_renewals(kNoStoreSession);
    cancel_timer(heartbeat_timer_);
    cancel_timer(check_quorum_timer_);
    cancel_timer(lessor_timer_);
  }
  reset_election_timer();
}

void StoreMember::reset_election_timer() {
  cancel_timer(election_timer_);
  const Duration t = config_.election_timeout;
  election_timer_ = set_timer(rng().between(t, 2 * t - Duration{1}), kElection);
}

void StoreMember::stand_for_election() {
  ++term_;
  voted_for_ = id();
  std::fill(votes_.begin(), votes_.end(), false);
  votes_[index_of(id())] = true;
  set_role(Role::candidate, kNoProcess);
  if (majority() == 1) return become_leader();
  reset_election_timer();
  const RequestVote ask{term_, last_index(), term_at(last_index())};
  for (const ProcessId m : config_.members)
    if (m != id()) send(m, ask);
}

void StoreMember::become_leader() {
  cancel_timer(election_timer_);
  set_role(Role::leader, kNoProcess);
  if (owner_) record(KeyHeld{id(), config_.lock_key, *owner_});
  std::fill(next_index_.begin(), next_index_.end(), last_index() + 1);
  std::fill(match_index_.begin(), match_index_.end(), 0);
  std::fill(in_flight_.begin(), in_flight_.end(), false);
  std::fill(last_ack_.begin(), last_ack_.end(), std::nullopt);
  std::fill(recent_active_.begin(), recent_active_.end(), false);
  // etcd's Promote: every lease gets its TTL (a checkpointed remainder, if
  // one was recorded) plus the extension from now: whatever the old leader's
  // lessor had counted, nothing expires early.
  lessor_.clear();
  const LessorNow now = lessor_now();
  for (const auto& [session, record] : state_.sessions()) {
    const std::int64_t ttl_ms = record.remaining_ttl_ms > 0 ? record.remaining_ttl_ms : record.ttl_ms;
    lessor_.refresh(session, ttl_ms, now, config_.promotion_extension);
    lessor_.schedule_checkpoint(session, ttl_ms, now);
  }
  propose(Command{});  // the noop that commits the previous terms' entries
  heartbeat_timer_ = set_timer(config_.heartbeat, kHeartbeat);
  check_quorum_timer_ = set_timer(config_.election_timeout, kCheckQuorum);
  resume_lessor_loop();
}

// Raft's CheckQuorum (etcd sets it): every election timeout a leader that
// heard from no majority since the last look steps down, so a leader cut off
// from the others stops serving within two election timeouts.
void StoreMember::step_down_if_out_of_touch() {
  std::size_t active = 1;  // itself
  for (std::size_t f = 0; f < recent_active_.size(); ++f)
    if (config_.members[f] != id() && recent_active_[f]) ++active;
  std::fill(recent_active_.begin(), recent_active_.end(), false);
  if (active < majority()) return become_follower(term_, kNoProcess);
  check_quorum_timer_ = set_timer(config_.election_timeout, kCheckQuorum);
}

// --- Raft messages -------------------------------------------------------------

void StoreMember::on_request_vote(ProcessId from, const RequestVote& m) {
  if (m.term > term_) become_follower(m.term, kNoProcess);
  const std::uint32_t my_last_term = term_at(last_index());
  const bool up_to_date =
      m.last_log_term > my_last_term || (m.last_log_term == my_last_term && m.last_log_index >= last_index());
  const bool grant = m.term == term_ && (voted_for_ == kNoProcess || voted_for_ == from) && up_to_date;
  if (grant) {
    voted_for_ = from;
    reset_election_timer();
  }
  send(from, Vote{term_, grant});
}

void StoreMember::on_vote(ProcessId from, const Vote& m) {
  if (m.term > term_) return become_follower(m.term, kNoProcess);
  if (role_ != Role::candidate || m.term != term_ || !m.granted) return;
  votes_[index_of(from)] = true;
  if (static_cast<std::size_t>(std::count(votes_.begin(), votes_.end(), true)) >= majority()) become_leader();
}

void StoreMember::on_append(ProcessId from, const Append& m) {
  if (m.term < term_) return send(from, AppendReply{term_, false, 0});
  become_follower(m.term, from);
  // The entries before this one must match ours; otherwise say how far our
  // log goes (or where it diverges) so the leader backs up at once.
  if (m.prev_index > last_index() || term_at(m.prev_index) != m.prev_term)
    return send(from, AppendReply{term_, false, std::min(last_index(), m.prev_index - 1)});
  std::uint32_t match = m.prev_index;
  if (m.entry_term != 0) {
    match = m.prev_index + 1;
    if (match <= last_index() && term_at(match) != m.entry_term) log_.resize(match - 1);
    if (match > last_index()) log_.push_back(Entry{m.entry_term, m.entry});
  }
  // Only what is known to match the leader's log may be committed here.
  commit_ = std::max(commit_, std::min(m.commit, match));
  apply_committed();
  send(from, AppendReply{term_, true, match});
}

void StoreMember::on_append_reply(ProcessId from, const AppendReply& m) {
  if (m.term > term_) return become_follower(m.term, kNoProcess);
  if (role_ != Role::leader || m.term != term_) return;
  const std::size_t f = index_of(from);
  in_flight_[f] = false;
  last_ack_[f] = monotonic_now();
  recent_active_[f] = true;
  if (!unconfirmed_renewals_.empty()) confirm_leadership();
  if (m.success) {
    match_index_[f] = std::max(match_index_[f], m.match_index);
    next_index_[f] = std::max(next_index_[f], match_index_[f] + 1);
    advance_commit();
  } else {
    next_index_[f] = std::max(match_index_[f] + 1, std::min(next_index_[f], m.match_index + 1));
  }
  if (next_index_[f] <= last_index()) send_append(f);
}

void StoreMember::send_append(std::size_t f) {
  const std::uint32_t next = next_index_[f];
  Append a{term_, next - 1, term_at(next - 1), commit_, 0, Command{}};
  if (next <= last_index()) {
    a.entry_term = log_[next - 1].term;
    a.entry = log_[next - 1].command;
  }
  in_flight_[f] = true;
  send(config_.members[f], a);
}

void StoreMember::propose(const Command& command, std::optional<Pending> pending) {
  log_.push_back(Entry{term_, command});
  const std::uint32_t index = last_index();
  if (pending) pending_[index] = *pending;
  const std::size_t self = index_of(id());
  match_index_[self] = index;
  next_index_[self] = index + 1;
  for (std::size_t f = 0; f < config_.members.size(); ++f)
    if (f != self && !in_flight_[f] && next_index_[f] <= index) send_append(f);
  advance_commit();  // a one-member store commits at once
}

void StoreMember::advance_commit() {
  for (std::uint32_t n = last_index(); n > commit_; --n) {
    if (term_at(n) != term_) break;  // only the leader's own term's entries count replicas
    const auto stored = std::count_if(match_index_.begin(), match_index_.end(), [&](std::uint32_t m) { return m >= n; });
    if (static_cast<std::size_t>(stored) >= majority()) {
      commit_ = n;
      break;
    }
  }
  apply_committed();
}

void StoreMember::apply_committed() {
  while (applied_ < commit_) apply_entry(++applied_);
}

// --- timers, lifecycle -----------------------------------------------------------

void StoreMember::on_timer(std::uint64_t tag) {
  switch (tag) {
    case kElection:
      election_timer_ = {};
      if (role_ != Role::leader) stand_for_election();
      return;
    case kHeartbeat:
      if (role_ != Role::leader) return;
      // Resends a lost entry too: whatever is in flight is sent again.
      for (std::size_t f = 0; f < config_.members.size(); ++f)
        if (config_.members[f] != id()) send_append(f);
      heartbeat_timer_ = set_timer(config_.heartbeat, kHeartbeat);
      return;
    case kLessor:
      if (role_ != Role::leader) return;
      on_lessor_tick();
      lessor_timer_ = set_timer(config_.lessor_tick, kLessor);
      return;
    case kCheckQuorum:
      check_quorum_timer_ = {};
      if (role_ == Role::leader) step_down_if_out_of_touch();
      return;
    default: LOCKSIM_CHECK(false, "unknown store member timer");
  }
}

// The loop's first tick comes |lessor_tick_phase| after the member starts
// (drawn when the story leaves it open), and it ticks on that grid for the
// process's life; ZooKeeper's buckets lie on the same grid, since its
// tracker wakes exactly at each bucket's boundary. Only a leader's ticks do
// anything, so only a leader sets the timer (resume_lessor_loop), at the
// grid's next point.
void StoreMember::start_lessor_loop() {
  const Duration tick = config_.lessor_tick;
  const Duration phase = config_.lessor_tick_phase ? *config_.lessor_tick_phase : rng().between(Duration{0}, tick - Duration{1});
  lessor_origin_ = monotonic_now() + phase;
  LessorRules rules = config_.lessor;
  if (config_.expiry_in_buckets) {
    rules.bucket = tick;
    rules.bucket_origin = lessor_origin_;
  }
  lessor_ = Lessor(rules);
}

void StoreMember::resume_lessor_loop() {
  const Duration tick = config_.lessor_tick;
  const Duration since = monotonic_now() - lessor_origin_;
  Duration wait = since < Duration{0} ? -since : (tick - since % tick) % tick;
  lessor_timer_ = set_timer(wait, kLessor);
}

void StoreMember::on_lessor_tick() {
  const LessorNow now = lessor_now();
  for (const StoreSessionId session : lessor_.take_expired(now)) {
    Command c;
    c.kind = Command::Kind::expire_session;
    c.session = session;
    propose(c);
  }
  for (const auto& [session, remaining_ms] : lessor_.take_checkpoints(now)) {
    Command c;
    c.kind = Command::Kind::checkpoint;
    c.session = session;
    c.arg = static_cast<std::uint64_t>(remaining_ms);
    propose(c);
  }
}

void StoreMember::on_crash() {
  // Its applied state goes; the committed state, and the owner it told as
  // leader, live on in the majority.
  owner_.reset();
}

void StoreMember::on_restart() {
  role_ = Role::follower;
  leader_ = kNoProcess;
  commit_ = 0;
  applied_ = 0;
  state_ = StoreState(config_.initial_stock);
  pending_.clear();
  waiting_renewals_.clear();
  unconfirmed_renewals_.clear();
  watches_.clear();
  lock_delay_until_.clear();
  reset_peer_state();
  election_timer_ = heartbeat_timer_ = lessor_timer_ = check_quorum_timer_ = {};
  start_lessor_loop();  // a new process: a new loop, on a new phase
  reset_election_timer();
}

void StoreMember::on_run_end() {
  // The store's stock is recorded once more by the leader, as the resource
  // records its state when the run ends.
  if (config_.app == AppKind::stock && role_ == Role::leader)
    record(AppState{AppKind::stock, 0, 0, 0, 0, state_.stock(), true});
}

// --- clients ----------------------------------------------------------------------

void StoreMember::on_message(const Message& message) {
  std::visit(
      [&](const auto& m) {
        using M = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<M, RequestVote>) {
          on_request_vote(message.from, m);
        } else if constexpr (std::is_same_v<M, Vote>) {
          on_vote(message.from, m);
        } else if constexpr (std::is_same_v<M, Append>) {
          on_append(message.from, m);
        } else if constexpr (std::is_same_v<M, AppendReply>) {
          on_append_reply(message.from, m);
        } else if constexpr (std::is_same_v<M, Request>) {
          on_request(message.from, m);
        }
      },
      message.payload);
}

Reply StoreMember::reply_to(const Request& request, Status status) const {
  Reply r;
  r.request_id = request.request_id;
  r.status = status;
  r.leader = leader_;
  r.key = request.key;
  r.session = request.session;
  return r;
}

void StoreMember::on_request(ProcessId from, const Request& request) {
  if (role_ != Role::leader) return send(from, reply_to(request, Status::not_leader));
  if (config_.every_request_touches && request.op != Op::keep_alive) touch(request.session);
  Command c;
  c.client = from;
  c.key = request.key;
  c.session = request.session;
  c.revision = static_cast<std::uint32_t>(request.revision);
  switch (request.op) {
    case Op::keep_alive: return keep_alive(from, request);
    case Op::watch_delete: return watch(from, request);
    case Op::open_session:
      c.kind = Command::Kind::open_session;
      c.arg = static_cast<std::uint64_t>(std::max(request.number, to_ms(config_.min_ttl)));
      break;
    case Op::close_session: c.kind = Command::Kind::close_session; break;
    case Op::create_if_absent: c.kind = Command::Kind::create_if_absent; break;
    case Op::create_sequential: c.kind = Command::Kind::create_sequential; break;
    case Op::acquire: {
      // A lock-delay is the leader's to judge, on its own clock, before it
      // proposes anything: the log stays free of clock readings.
      const auto delay = lock_delay_until_.find(request.key);
      if (delay != lock_delay_until_.end() && delay->second > monotonic_now()) {
        Reply r = reply_to(request, Status::delayed);
        r.number = std::max<std::int64_t>(1, to_ms(delay->second - monotonic_now()));
        return send(from, r);
      }
      c.kind = Command::Kind::acquire;
      c.arg = static_cast<std::uint64_t>(request.number);
      break;
    }
    case Op::del: c.kind = Command::Kind::del; break;
    case Op::guarded_decrement:
      c.kind = Command::Kind::guarded_decrement;
      c.arg = static_cast<std::uint64_t>(request.number);
      break;
    case Op::cas_put:
      c.kind = Command::Kind::cas_put;
      c.arg = request.value;
      break;
    case Op::first_created:
    case Op::last_created_below:
    case Op::get:
    case Op::read_stock: c.kind = Command::Kind::read; break;
  }
  propose(c, Pending{term_, from, request});
}

void StoreMember::keep_alive(ProcessId from, const Request& request) {
  if (!config_.renew_confirms_leadership) return renew(from, request);
  // ensureLeadership: a ReadIndex round — a heartbeat now, and the renewal
  // once a majority has answered one sent after the keepalive came.
  unconfirmed_renewals_.push_back({from, request, monotonic_now()});
  for (std::size_t f = 0; f < config_.members.size(); ++f)
    if (config_.members[f] != id()) send_append(f);
  confirm_leadership();  // a one-member store is confirmed at once
}

void StoreMember::confirm_leadership() {
  for (auto it = unconfirmed_renewals_.begin(); it != unconfirmed_renewals_.end();) {
    std::size_t acked = 1;  // itself
    for (std::size_t f = 0; f < last_ack_.size(); ++f)
      if (config_.members[f] != id() && last_ack_[f] && *last_ack_[f] > it->arrived) ++acked;
    if (acked < majority()) {
      ++it;
      continue;
    }
    const WaitingRenewal w = *it;
    it = unconfirmed_renewals_.erase(it);
    renew(w.client, w.request);
  }
}

// etcd's lessor.Renew (server/lease/lessor.go).
void StoreMember::renew(ProcessId from, const Request& request) {
  const auto& sessions = state_.sessions();
  const auto it = sessions.find(request.session);
  if (it == sessions.end() || !lessor_.knows(request.session)) return send(from, reply_to(request, Status::session_gone));
  // Expired but not yet revoked: "renew request must wait for the deletion
  // to complete" — answered when the revocation applies.
  if (lessor_.expired(request.session, monotonic_now())) {
    waiting_renewals_.push_back({from, request, monotonic_now()});
    return;
  }
  const LessorNow now = lessor_now();
  const std::int64_t ttl_ms = it->second.remaining_ttl_ms > 0 ? it->second.remaining_ttl_ms : it->second.ttl_ms;
  if (it->second.remaining_ttl_ms > 0) {
    // A renewal clears the checkpointed remainder (through the log).
    Command c;
    c.kind = Command::Kind::checkpoint;
    c.session = request.session;
    propose(c);
  }
  lessor_.refresh(request.session, ttl_ms, now);
  Reply r = reply_to(request, Status::ok);
  r.number = it->second.ttl_ms;
  send(from, r);
}

// ZooKeeper's touchSession: a live session's expiry moves on with any request.
void StoreMember::touch(StoreSessionId session) {
  const auto it = state_.sessions().find(session);
  if (it == state_.sessions().end() || !lessor_.knows(session) || lessor_.expired(session, monotonic_now())) return;
  lessor_.refresh(session, it->second.ttl_ms, lessor_now());
}

// |gone|: the session whose revocation applied (its waiting keepalives learn
// it is gone); kNoStoreSession: the leader stepped down (all of them are told
// not_leader, as etcd's demotec does).
void StoreMember::answer_waiting_renewals(StoreSessionId gone) {
  const auto answer_all = [&](std::vector<WaitingRenewal>& list) {
    for (auto it = list.begin(); it != list.end();) {
      if (gone != kNoStoreSession && it->request.session != gone) {
        ++it;
        continue;
      }
      Reply r = reply_to(it->request, gone != kNoStoreSession ? Status::session_gone : Status::not_leader);
      if (gone == kNoStoreSession) r.leader = kNoProcess;
      send(it->client, r);
      it = list.erase(it);
    }
  };
  answer_all(waiting_renewals_);
  if (gone == kNoStoreSession) answer_all(unconfirmed_renewals_);
}

void StoreMember::watch(ProcessId from, const Request& request) {
  if (state_.find(request.key) != nullptr) {
    watches_.push_back(Watch{from, request.key});
    return;
  }
  send(from, Event{request.key, state_.revision()});  // already gone
}

void StoreMember::apply_entry(std::uint32_t index) {
  const Entry& entry = log_[index - 1];
  const Command& c = entry.command;
  // The session's owner, before an expiry or close erases it.
  const auto owner_it = state_.sessions().find(c.session);
  const ProcessId session_owner = owner_it == state_.sessions().end() ? c.client : owner_it->second.client;
  const Applied applied = state_.apply(c);
  if (c.kind == Command::Kind::expire_session)
    for (const Applied::Deleted& d : applied.deleted)
      if (d.record.lock_delay_ms > 0)
        lock_delay_until_[d.key] = monotonic_now() + std::chrono::milliseconds(d.record.lock_delay_ms);
  record_owner(c.kind == Command::Kind::cas_put ? KeyGone::overwritten : applied.gone);
  fire_watches(applied);
  if (role_ != Role::leader) return;
  const auto it = pending_.find(index);
  const Pending* pending = it != pending_.end() && it->second.term == entry.term ? &it->second : nullptr;
  record_leader_facts(c, applied, session_owner, pending);
  if (c.kind == Command::Kind::open_session && applied.status == Status::ok) {
    lessor_.refresh(applied.session, applied.number, lessor_now());
    lessor_.schedule_checkpoint(applied.session, applied.number, lessor_now());
  }
  if (c.kind == Command::Kind::checkpoint && c.arg > 0)
    lessor_.schedule_checkpoint(c.session, static_cast<std::int64_t>(c.arg), lessor_now());
  if (c.kind == Command::Kind::expire_session || c.kind == Command::Kind::close_session) {
    lessor_.forget(c.session);
    answer_waiting_renewals(c.session);
  }
  if (pending != nullptr) answer(*pending, applied);
  if (it != pending_.end()) pending_.erase(it);
}

// Every member follows the owner in its applied state; only the leader
// says so, because the leader applies an entry the moment it commits while
// followers learn of the commit a heartbeat later: the leader's applied
// state is the committed state. (A new leader states its owner at once,
// which may trail the committed state until its first entry commits.)
void StoreMember::record_owner(KeyGone reason) {
  const auto first = state_.first_created(config_.lock_key);
  const std::optional<std::uint64_t> owner = first ? std::optional(first->second.value) : std::nullopt;
  if (owner == owner_) return;
  if (role_ == Role::leader) {
    if (owner_) record(KeyDropped{id(), config_.lock_key, *owner_, reason});
    if (owner) record(KeyHeld{id(), config_.lock_key, *owner});
  }
  owner_ = owner;
}

void StoreMember::fire_watches(const Applied& applied) {
  for (const Applied::Deleted& d : applied.deleted) {
    for (auto it = watches_.begin(); it != watches_.end();) {
      if (it->key == d.key) {
        send(it->client, Event{d.key, state_.revision()});
        it = watches_.erase(it);
      } else {
        ++it;
      }
    }
  }
}

void StoreMember::record_leader_facts(const Command& c, const Applied& applied, ProcessId session_owner,
                                      const Pending* pending) {
  if (applied.status == Status::ok) {
    const auto session_fact = [&](StoreSessionEvent what, StoreSessionId session, std::int64_t ttl_ms) {
      record(StoreSession{id(), session, session_owner, what, std::chrono::milliseconds(ttl_ms)});
    };
    switch (c.kind) {
      case Command::Kind::open_session: session_fact(StoreSessionEvent::opened, applied.session, applied.number); break;
      case Command::Kind::expire_session: session_fact(StoreSessionEvent::expired, c.session, 0); break;
      case Command::Kind::close_session: session_fact(StoreSessionEvent::closed, c.session, 0); break;
      default: break;
    }
  }
  if (c.kind != Command::Kind::guarded_decrement) return;
  // The store-resident stock, recorded as the resource records its ops.
  const bool ok = applied.status == Status::ok;
  const auto session = static_cast<SessionId>(pending != nullptr ? pending->request.value : 0);
  record(ResourceOp{session, c.client, resource::Op::decrement, ok,
                    ok ? resource::Reject::none : resource::Reject::stale_token, static_cast<std::int64_t>(c.revision)});
  if (ok) record(AppState{AppKind::stock, 0, state_.sales(), 0, 0, state_.stock(), false});
}

void StoreMember::answer(const Pending& p, const Applied& applied) {
  const Request& q = p.request;
  if (q.op == Op::first_created || q.op == Op::last_created_below || q.op == Op::get || q.op == Op::read_stock)
    return answer_read(p);
  Reply r = reply_to(q, applied.status);
  r.key = applied.key;
  if (q.op == Op::open_session || applied.session != kNoStoreSession) r.session = applied.session;
  r.create_revision = applied.create_revision;
  r.mod_revision = applied.mod_revision;
  r.number = applied.number;
  r.value = applied.value;
  send(p.client, r);
}

void StoreMember::answer_read(const Pending& p) {
  const Request& q = p.request;
  Reply r = reply_to(q, Status::ok);
  std::optional<std::pair<Key, KeyRecord>> found;
  switch (q.op) {
    case Op::first_created: found = state_.first_created(q.key.prefix); break;
    case Op::last_created_below: found = state_.last_created_below(q.key.prefix, q.revision); break;
    case Op::get:
      if (const KeyRecord* k = state_.find(q.key)) found = std::pair{q.key, *k};
      break;
    case Op::read_stock:
      r.number = state_.stock();
      record(ResourceOp{static_cast<SessionId>(q.value), p.client, resource::Op::read, true, resource::Reject::none,
                        q.revision});
      return send(p.client, r);
    default: break;
  }
  if (!found) {
    r.status = Status::not_found;
  } else {
    r.key = found->first;
    r.create_revision = found->second.create_revision;
    r.mod_revision = found->second.mod_revision;
    r.value = found->second.value;
    r.session = found->second.session;
  }
  send(p.client, r);
}

}  // namespace locksim::consensus
