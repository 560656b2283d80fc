#include "sim/core/limits.h"
#include "sim/redis/sentinel.h"

#include <chrono>
#include <tuple>
#include <utility>
#include <variant>

#include "sim/core/check.h"

namespace locksim::redis {

Sentinel::Sentinel(std::string name, SentinelConfig config)
    : Process(std::move(name)), config_(std::move(config)), master_(config_.master) {
  LOCKSIM_CHECK(config_.master != kNoProcess, "a sentinel needs a master to watch");
  LOCKSIM_CHECK(!config_.sentinels.empty(), "the sentinel list includes the sentinel itself");
  LOCKSIM_CHECK(config_.quorum >= 1, "quorum must be at least 1");
  LOCKSIM_CHECK(config_.hz >= 1, "hz must be at least 1");
  LOCKSIM_CHECK(config_.ping_every > Duration{0} && config_.down_after > Duration{0}, "periods must be positive");
  LOCKSIM_CHECK(config_.ask_every > Duration{0} && config_.publish_every > Duration{0}, "periods must be positive");
  LOCKSIM_CHECK(config_.max_desync > Duration{0}, "max_desync must be positive");
  LOCKSIM_CHECK(config_.info_every > Duration{0} && config_.info_every_failover > Duration{0},
                "INFO periods must be positive");
}

bool Sentinel::subjectively_down(ProcessId node) const {
  const auto it = instances_.find(node);
  return it != instances_.end() && it->second.sdown;
}

void Sentinel::note(SentinelEventKind kind, ProcessId instance, std::uint64_t epoch) {
  events_.push_back(SentinelEvent{now(), kind, instance, epoch});
}

// ---------------------------------------------------------------- lifecycle

void Sentinel::on_start() {
  bool listed = false;
  for (ProcessId s : config_.sentinels) listed = listed || s == id();
  LOCKSIM_CHECK(listed, "SentinelConfig::sentinels must include the sentinel itself");
  boot();
}

void Sentinel::on_restart() { boot(); }

void Sentinel::boot() {
  peers_.clear();
  for (ProcessId s : config_.sentinels)
    if (s != id()) peers_[s] = Peer{};
  failover_ = Failover{};
  odown_.reset();
  tilt_since_.reset();
  previous_tick_ = now();  // initSentinel: sentinel.previous_time = mstime()
  last_hello_ = now();
  ask_floor_ = next_ask_id_;
  reset_instances();
  arm_tick();
}

void Sentinel::arm_tick() {
  // serverCron runs every 1000 / hz ms, and sentinelTimer redraws hz each time.
  const std::uint64_t hz = config_.hz + rng().below(config_.hz);
  tick_timer_ = set_timer(std::chrono::milliseconds(1000 / static_cast<std::int64_t>(hz)), kTick);
}

// New links to every instance (createInstanceLink): each starts as if a ping
// were already waiting, so an instance that never answers goes SDOWN after
// down_after, and gets its first PING at once ("send a PING ASAP when
// reconnecting"). No INFO has come yet, so the next tick asks for it. Replies
// to what was sent on the old links are ignored from now on.
void Sentinel::reset_instances() {
  instances_.clear();
  reply_floor_ = next_ping_id_;
  const LocalTime t = now();
  auto add = [&](ProcessId p) {
    Instance in;
    in.last_pong = t;
    in.last_avail = t;
    in.act_ping = t;
    in.reports_master = p == master_;
    in.reports_master_of = p == master_ ? kNoProcess : master_;
    in.role_reported_time = t;
    in.replica_conf_change_time = t;
    instances_[p] = in;
  };
  add(config_.master);
  for (ProcessId r : config_.replicas) add(r);
  LOCKSIM_CHECK(instances_.count(master_) == 1, "the believed master is one of the configured nodes");
  for (auto& [p, in] : instances_) send_ping(p, in);
}

void Sentinel::on_timer(std::uint64_t tag) {
  if (tag != kTick) return;
  tick();
  arm_tick();
}

// ---------------------------------------------------------------- the tick

// sentinelTimer -> sentinelHandleDictOfRedisInstances: the master first, then
// its replicas; the acting half of each is skipped in TILT.
void Sentinel::tick() {
  const bool suspended = check_tilt();
  {
    Instance& m = instances_.at(master_);
    send_periodic(master_, m);
    send_hello();
    if (!suspended) {
      check_sdown(master_, m);
      check_odown();
      if (start_failover_if_needed()) ask_peers(/*forced=*/true);
      failover_step();
      ask_peers(/*forced=*/false);
    }
  }
  for (auto& [p, in] : instances_) {
    if (p == master_) continue;
    send_periodic(p, in);
    if (!suspended) check_sdown(p, in);
  }
}

bool Sentinel::check_tilt() {
  const LocalTime t = now();
  const Duration delta = t - previous_tick_;
  if (delta < Duration{0} || delta > config_.tilt_trigger) {
    tilt_since_ = t;
    note(SentinelEventKind::tilt, kNoProcess);
  }
  previous_tick_ = t;
  if (!tilt_since_) return false;
  if (t - *tilt_since_ < config_.tilt_period) return true;
  tilt_since_.reset();
  note(SentinelEventKind::tilt_exit, kNoProcess);
  return false;
}

// INFO first, then PING, as sentinelSendPeriodicCommands does.
void Sentinel::send_periodic(ProcessId id, Instance& in) {
  const LocalTime t = now();
  if (!in.info_refresh || t - *in.info_refresh > info_period(id)) send_info(id);
  const Duration period = ping_period();
  if (t - in.last_pong > period && (!in.pinged || t - in.last_ping_sent > period / 2)) send_ping(id, in);
}

// A replica is watched closely while its master is being replaced, in case
// another sentinel (or an operator) promotes it.
Duration Sentinel::info_period(ProcessId id) const {
  const bool failing_over = odown_.has_value() || failover_.state != FailoverState::none;
  return id != master_ && failing_over ? config_.info_every_failover : config_.info_every;
}

void Sentinel::send_info(ProcessId id) { send(id, Info{next_ping_id_++}); }

void Sentinel::send_ping(ProcessId id, Instance& in) {
  const LocalTime t = now();
  send(id, Ping{next_ping_id_++});
  in.last_ping_sent = t;
  in.pinged = true;
  // Only the oldest unanswered ping counts: we have been waiting since then.
  if (!in.act_ping) in.act_ping = t;
}

// The hello message, reduced to the one thing it must carry for failover: the
// master configuration and its epoch. Nothing to say before the first switch.
void Sentinel::send_hello() {
  if (config_epoch_ == 0) return;
  const LocalTime t = now();
  if (t - last_hello_ <= config_.publish_every) return;
  last_hello_ = t;
  for (const auto& [p, peer] : peers_) send(p, SwitchMaster{previous_master_, master_, config_epoch_});
}

void Sentinel::check_sdown(ProcessId id, Instance& in) {
  const LocalTime t = now();
  const Duration elapsed = in.act_ping ? t - *in.act_ping : Duration{0};
  const bool down = elapsed > config_.down_after ||
                    (id == master_ && !in.reports_master &&
                     t - in.role_reported_time > saturating_add(config_.down_after, 2 * config_.info_every));
  if (down && !in.sdown) {
    in.sdown = true;
    in.sdown_since = t;
    note(SentinelEventKind::sdown, id);
  } else if (!down && in.sdown) {
    in.sdown = false;  // sdown_since stays: sentinelRedisInstanceNoDownFor reads it
    note(SentinelEventKind::sdown_cleared, id);
  }
}

void Sentinel::check_odown() {
  bool odown = false;
  if (instances_.at(master_).sdown) {
    std::uint32_t votes = 1;
    for (const auto& [p, peer] : peers_)
      if (peer.master_down) ++votes;
    odown = votes >= config_.quorum;
  }
  if (odown && !odown_) {
    odown_ = now();
    note(SentinelEventKind::odown, master_);
  } else if (!odown && odown_) {
    odown_.reset();
    note(SentinelEventKind::odown_cleared, master_);
  }
}

bool Sentinel::start_failover_if_needed() {
  if (!odown_) return false;
  if (failover_.state != FailoverState::none) return false;
  // Last failover attempt (or a vote for someone else) too recent?
  if (failover_.start_time && now() - *failover_.start_time < saturating_mul(config_.failover_timeout, 2)) return false;
  failover_.state = FailoverState::wait_start;
  failover_.epoch = ++current_epoch_;
  note(SentinelEventKind::new_epoch, kNoProcess, current_epoch_);
  note(SentinelEventKind::try_failover, master_, failover_.epoch);
  failover_.start_time = now() + Duration{static_cast<std::int64_t>(rng().below(config_.max_desync.count()))};
  failover_.state_change_time = now();
  return true;
}

void Sentinel::ask_peers(bool forced) {
  const LocalTime t = now();
  const bool master_sdown = instances_.at(master_).sdown;
  for (auto& [p, peer] : peers_) {
    // An answer older than 5 ask periods no longer counts.
    if (peer.last_reply && t - *peer.last_reply > 5 * config_.ask_every) {
      peer.master_down = false;
      peer.leader = kNoProcess;
    }
    if (!master_sdown) continue;
    if (!forced && peer.last_reply && t - *peer.last_reply < config_.ask_every) continue;
    if (!forced && peer.last_asked && t - *peer.last_asked < config_.ask_every) continue;
    peer.last_asked = t;
    send(p, IsMasterDown{next_ask_id_++, master_, current_epoch_, failover_.state != FailoverState::none});
  }
}

void Sentinel::failover_step() {
  switch (failover_.state) {
    case FailoverState::none: return;
    case FailoverState::wait_start: {
      if (get_leader(failover_.epoch) != id()) {
        const Duration election_timeout = std::min(config_.election_timeout, config_.failover_timeout);
        if (now() - *failover_.start_time > election_timeout) abort_failover(SentinelEventKind::abort_not_elected);
        return;
      }
      note(SentinelEventKind::elected_leader, master_, failover_.epoch);
      failover_.state = FailoverState::select_replica;
      failover_.state_change_time = now();
      return;
    }
    case FailoverState::select_replica: {
      const ProcessId chosen = select_replica();
      if (chosen == kNoProcess) return abort_failover(SentinelEventKind::abort_no_good_replica);
      note(SentinelEventKind::selected_replica, chosen, failover_.epoch);
      failover_.promoted = chosen;
      send(chosen, ReplicaOf{kNoProcess, failover_.epoch});  // REPLICAOF NO ONE
      failover_.state = FailoverState::wait_promotion;
      failover_.state_change_time = now();
      return;
    }
    case FailoverState::wait_promotion:
      // The promotion itself is seen in on_info.
      if (now() - failover_.state_change_time > config_.failover_timeout)
        abort_failover(SentinelEventKind::abort_promotion_timeout);
      return;
  }
}

void Sentinel::abort_failover(SentinelEventKind why) {
  note(why, master_, failover_.epoch);
  failover_.state = FailoverState::none;
  failover_.state_change_time = now();
  failover_.promoted = kNoProcess;
  // start_time stays: no new attempt for 2 x failover_timeout.
}

// sentinelSelectSlave + compareSlavesForPromotion, without priorities and
// without master_link_down_time (INFO does not carry them here). A replica
// qualifies only with a recent PONG and, while the master is SDOWN, an INFO
// reply younger than 5 ping periods.
ProcessId Sentinel::select_replica() const {
  const LocalTime t = now();
  const Duration recent = saturating_mul(config_.ping_every, 5);
  const Duration info_validity = instances_.at(master_).sdown ? recent : 3 * config_.info_every;
  ProcessId best = kNoProcess;
  std::uint64_t best_offset = 0;
  for (const auto& [p, in] : instances_) {
    if (p == master_ || in.sdown) continue;
    if (t - in.last_avail > recent) continue;
    if (!in.info_refresh || t - *in.info_refresh > info_validity) continue;
    // Ascending ids: a tie keeps the lower id.
    if (best == kNoProcess || in.offset > best_offset) {
      best = p;
      best_offset = in.offset;
    }
  }
  return best;
}

// ---------------------------------------------------------------- election

std::pair<ProcessId, std::uint64_t> Sentinel::vote_leader(std::uint64_t req_epoch, ProcessId candidate) {
  if (req_epoch > current_epoch_) {
    current_epoch_ = req_epoch;
    note(SentinelEventKind::new_epoch, kNoProcess, current_epoch_);
  }
  if (leader_epoch_ < req_epoch && current_epoch_ <= req_epoch) {
    leader_ = candidate;
    leader_epoch_ = current_epoch_;
    note(SentinelEventKind::vote_for_leader, candidate, leader_epoch_);
    // Voted for someone else: do not start a failover of our own for a while.
    if (leader_ != id())
      failover_.start_time = now() + Duration{static_cast<std::int64_t>(rng().below(config_.max_desync.count()))};
  }
  return {leader_, leader_epoch_};
}

ProcessId Sentinel::get_leader(std::uint64_t epoch) {
  std::map<ProcessId, std::uint64_t> votes;  // ordered: ties go to the lowest id
  for (const auto& [p, peer] : peers_)
    if (peer.leader != kNoProcess && peer.leader_epoch == current_epoch_) ++votes[peer.leader];
  ProcessId winner = kNoProcess;
  std::uint64_t max_votes = 0;
  for (const auto& [candidate, n] : votes) {
    if (n > max_votes) {
      max_votes = n;
      winner = candidate;
    }
  }
  // Our own vote: for the most voted sentinel, or for ourselves if none.
  const auto [my_vote, my_epoch] = vote_leader(epoch, winner != kNoProcess ? winner : id());
  if (my_vote != kNoProcess && my_epoch == epoch) {
    const std::uint64_t n = ++votes[my_vote];
    if (n > max_votes) {
      max_votes = n;
      winner = my_vote;
    }
  }
  const std::uint64_t majority = config_.sentinels.size() / 2 + 1;
  if (winner != kNoProcess && (max_votes < majority || max_votes < config_.quorum)) winner = kNoProcess;
  return winner;
}

// ---------------------------------------------------------------- messages

void Sentinel::on_message(const Message& message) {
  const ProcessId from = message.from;
  if (const auto* pong = std::get_if<Pong>(&message.payload)) return on_pong(from, *pong);
  if (const auto* info = std::get_if<InfoReply>(&message.payload)) return on_info(from, *info);
  if (const auto* q = std::get_if<IsMasterDown>(&message.payload)) return on_is_master_down(from, *q);
  if (const auto* r = std::get_if<MasterDownReply>(&message.payload)) return on_master_down_reply(from, *r);
  if (const auto* s = std::get_if<SwitchMaster>(&message.payload)) return on_switch_master(from, *s);
  if (const auto* g = std::get_if<GetMaster>(&message.payload)) return send(from, MasterIs{g->id, master_, config_epoch_});
  // Anything else (a stray reply) is not for a sentinel.
}

// sentinelPingReplyCallback: the instance is alive, nothing more.
void Sentinel::on_pong(ProcessId from, const Pong& pong) {
  const auto it = instances_.find(from);
  if (it == instances_.end() || pong.id < reply_floor_) return;
  Instance& in = it->second;
  const LocalTime t = now();
  in.last_pong = t;
  in.last_avail = t;
  in.act_ping.reset();
}

// sentinelInfoReplyCallback + sentinelRefreshInstanceInfo.
void Sentinel::on_info(ProcessId from, const InfoReply& info) {
  const auto it = instances_.find(from);
  if (it == instances_.end() || info.id < reply_floor_) return;
  Instance& in = it->second;
  const LocalTime t = now();
  in.info_refresh = t;
  in.offset = info.offset;
  if (info.is_master != in.reports_master) {
    in.reports_master = info.is_master;
    in.role_reported_time = t;
    if (!info.is_master) in.replica_conf_change_time = t;
  }
  if (!info.is_master && info.master != in.reports_master_of) {
    in.reports_master_of = info.master;
    in.replica_conf_change_time = t;
  }

  // The acting half: nothing in TILT.
  if (in_tilt() || from == master_) return;  // a master reporting "replica" just goes SDOWN in time
  if (info.is_master) {
    if (from == failover_.promoted && failover_.state == FailoverState::wait_promotion) return promoted(from);
    // A replica (in our view) that says it is a master: the old master back,
    // or the far side of a healed partition. Give new configurations time to
    // arrive first, then demote it.
    const Duration wait = 4 * config_.publish_every;
    if (from != failover_.promoted && master_looks_sane() && no_down_for(in, wait) && t - in.role_reported_time > wait) {
      send(from, ReplicaOf{master_, config_epoch_});
      note(SentinelEventKind::convert_to_replica, from, config_epoch_);
    }
    return;
  }
  if (info.master != master_) {
    // A replica following some other master.
    const Duration wait = config_.failover_timeout;
    if (master_looks_sane() && no_down_for(in, wait) && t - in.replica_conf_change_time > wait) {
      send(from, ReplicaOf{master_, config_epoch_});
      note(SentinelEventKind::fix_replica_config, from, config_epoch_);
    }
  }
}

// SENTINEL is-master-down-by-addr.
void Sentinel::on_is_master_down(ProcessId from, const IsMasterDown& q) {
  const bool known = q.master == master_;
  const bool down = !in_tilt() && known && instances_.at(master_).sdown;
  ProcessId leader = kNoProcess;
  std::uint64_t leader_epoch = 0;
  if (known && q.wants_vote) std::tie(leader, leader_epoch) = vote_leader(q.epoch, from);
  send(from, MasterDownReply{q.id, down, leader, leader_epoch});
}

// sentinelReceiveIsMasterDownReply.
void Sentinel::on_master_down_reply(ProcessId from, const MasterDownReply& r) {
  const auto it = peers_.find(from);
  if (it == peers_.end() || r.id < ask_floor_) return;
  Peer& peer = it->second;
  peer.last_reply = now();
  peer.master_down = r.down;
  if (r.leader != kNoProcess) {
    peer.leader = r.leader;
    peer.leader_epoch = r.epoch;
  }
}

// sentinelProcessHelloMessage: a newer master configuration wins.
void Sentinel::on_switch_master(ProcessId from, const SwitchMaster& s) {
  if (!is_peer(from)) return;
  if (s.epoch > current_epoch_) {
    current_epoch_ = s.epoch;
    note(SentinelEventKind::new_epoch, kNoProcess, current_epoch_);
  }
  if (s.epoch <= config_epoch_) return;
  if (s.new_master == master_ || instances_.count(s.new_master) == 0) {
    config_epoch_ = s.epoch;
    return;
  }
  switch_to(s.new_master, s.epoch);
}

// +promoted-slave: the failover epoch becomes the master's config epoch.
void Sentinel::promoted(ProcessId node) {
  const std::uint64_t epoch = failover_.epoch;
  note(SentinelEventKind::promoted_replica, node, epoch);
  for (const auto& [p, in] : instances_)
    if (p != node && p != master_) send(p, ReplicaOf{node, epoch});
  const ProcessId old = master_;
  switch_to(node, epoch);
  // sentinelForceHelloUpdateForMaster: tell the other sentinels now.
  last_hello_ = now();
  for (const auto& [p, peer] : peers_) send(p, SwitchMaster{old, node, epoch});
}

void Sentinel::switch_to(ProcessId new_master, std::uint64_t epoch) {
  const ProcessId old = master_;
  previous_master_ = old;
  master_ = new_master;
  config_epoch_ = epoch;
  current_epoch_ = std::max(current_epoch_, epoch);
  note(SentinelEventKind::switch_master, new_master, epoch);
  // sentinelResetMaster: a new master, no failover, no vote, fresh links; the
  // old master is now watched as one of the new master's replicas.
  failover_ = Failover{};
  odown_.reset();
  leader_ = kNoProcess;
  for (auto& [p, peer] : peers_) {
    peer.master_down = false;
    peer.last_reply.reset();
    peer.last_asked.reset();
  }
  ask_floor_ = next_ask_id_;
  reset_instances();
  for (ProcessId c : config_.clients) send(c, SwitchMaster{old, new_master, epoch});
}

bool Sentinel::master_looks_sane() const {
  const Instance& m = instances_.at(master_);
  return m.reports_master && !m.sdown && !odown_ && m.info_refresh && now() - *m.info_refresh < 2 * config_.info_every;
}

bool Sentinel::no_down_for(const Instance& in, Duration d) const {
  return !in.sdown_since || now() - *in.sdown_since > d;
}

}  // namespace locksim::redis
