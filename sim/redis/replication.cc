#include "sim/core/limits.h"
#include "sim/redis/replication.h"

#include <algorithm>
#include <chrono>

#include "sim/core/check.h"

namespace locksim::redis {

namespace {

// Whole seconds of a monotonic reading, as Redis's server.unixtime.
std::int64_t whole_seconds(LocalTime t) {
  return std::chrono::floor<std::chrono::seconds>(t.time_since_epoch()).count();
}

}  // namespace

Replication::Replication(Process& host, const NodeConfig& config)
    : host_(host), config_(config), master_(config.replica_of) {
  LOCKSIM_CHECK(config_.ack_every > Duration{0}, "REPLCONF ACK period must be positive");
  LOCKSIM_CHECK(config_.replication_delay >= Duration{0}, "replication delay must not be negative");
  LOCKSIM_CHECK(config_.min_replicas_to_write >= 0, "min-replicas-to-write must not be negative");
}

// ---------------------------------------------------------------- role

void Replication::promote(std::uint64_t epoch) {
  LOCKSIM_CHECK(!is_master(), "only a replica is promoted");
  epoch_ = epoch;
  master_ = kNoProcess;
  // The new stream continues from what this replica applied.
  syncing_ = false;
  in_snapshot_ = false;
  host_.cancel_timer(ack_timer_);
  ack_timer_ = {};
}

void Replication::follow(ProcessId master, std::uint64_t epoch) {
  LOCKSIM_CHECK(master != host_.id() && master != kNoProcess && master != master_, "REPLICAOF to a new master");
  epoch_ = epoch;
  if (is_master()) stop_master(/*answer_waiters=*/true);
  master_ = master;
  attach();
  arm_ack_timer();
}

// ---------------------------------------------------------------- lifecycle

void Replication::start() {
  if (is_master()) return;
  LOCKSIM_CHECK(master_ != host_.id(), "a node cannot replicate itself");
  attach();
  arm_ack_timer();
}

void Replication::crash() {
  stop_master(/*answer_waiters=*/false);  // the clients' connections are gone
  host_.cancel_timer(ack_timer_);
  ack_timer_ = {};
  syncing_ = false;
  in_snapshot_ = false;
}

bool Replication::on_timer(std::uint64_t tag) {
  if (tag == kAck) {
    ack_timer_ = {};
    if (is_master()) return true;  // promoted since it was armed
    // A replica still waiting for its resync asks again (the real one retries
    // its connection every second); a synced one reports its offset.
    if (syncing_) {
      host_.send(master_, ReplicationAck{offset_, /*attach=*/true});
    } else {
      host_.send(master_, ReplicationAck{offset_, /*attach=*/false});
    }
    arm_ack_timer();
    return true;
  }
  if (tag == kOutbox) {
    outbox_alarm_ = {};
    ship_due();
    arm_outbox();
    return true;
  }
  if (tag >= kWaitTags) {
    const std::uint64_t serial = tag - kWaitTags;
    const auto it = std::find_if(waiters_.begin(), waiters_.end(), [&](const Waiter& w) { return w.serial == serial; });
    LOCKSIM_CHECK(it != waiters_.end(), "a WAIT timeout without its WAIT");
    const Waiter w = *it;
    waiters_.erase(it);
    answer(w);
    return true;
  }
  return false;
}

void Replication::on_clock_adjusted() {
  // Due times are monotonic readings; a drift change moves their true instant.
  arm_outbox();
}

// ---------------------------------------------------------------- master

void Replication::propagate(ReplicationEntry entry) {
  LOCKSIM_CHECK(is_master(), "only a master propagates writes");
  entry.offset = ++offset_;
  // Nobody to ship to: a replica that attaches later gets a snapshot instead.
  if (replicas_.empty()) return;
  enqueue(kNoProcess, entry);
}

bool Replication::on_ack(ProcessId from, const ReplicationAck& ack) {
  if (!is_master()) return false;  // no chained replication
  const auto it = replicas_.find(from);
  if (it == replicas_.end() || ack.attach) {
    // Its resync is still in our buffer: that is the answer it is waiting for.
    if (it != replicas_.end() && it->second.resync_queued) return false;
    return true;
  }
  Link& link = it->second;
  link.acked = std::max(link.acked, ack.offset);
  link.last_ack = host_.monotonic_now();
  release_waiters();
  return false;
}

void Replication::full_resync(ProcessId replica, const std::vector<ReplicationEntry>& keys) {
  LOCKSIM_CHECK(is_master(), "only a master resyncs a replica");
  replicas_[replica] = Link{host_.monotonic_now(), 0, false, true};
  ReplicationEntry flush;
  flush.op = ReplicationEntry::Op::flush;
  flush.offset = offset_;
  enqueue(replica, flush);
  for (ReplicationEntry entry : keys) {
    LOCKSIM_CHECK(entry.op == ReplicationEntry::Op::set, "a snapshot holds only keys");
    entry.offset = offset_;
    enqueue(replica, entry);
  }
}

Error Replication::write_refusal() const {
  if (!is_master()) return Error::read_only;
  const std::int64_t max_lag_s = whole_seconds(LocalTime{config_.min_replicas_max_lag});
  if (config_.min_replicas_to_write > 0 && max_lag_s > 0 && good_replicas() < config_.min_replicas_to_write)
    return Error::no_replicas;
  return Error::none;
}

void Replication::note_write(ProcessId client) { last_write_[client] = offset_; }

std::optional<Reply> Replication::wait(ProcessId client, const Request& request, bool may_block) {
  if (!is_master()) return Reply::error_reply(request.request_id, Error::wait_on_replica);
  LOCKSIM_CHECK(request.expire_amount >= 0, "WAIT timeout is negative (Redis: ERR timeout is negative)");
  const auto written = last_write_.find(client);
  const std::uint64_t target = written == last_write_.end() ? 0 : written->second;
  const std::int32_t acked = count_acked(target);
  if (acked >= request.numreplicas || !may_block) return Reply::integer_reply(request.request_id, acked);

  Waiter w{client, request.request_id, target, request.numreplicas, next_waiter_++, {}};
  if (request.expire_amount > 0)
    w.timeout = host_.set_timer(std::chrono::milliseconds(request.expire_amount), kWaitTags + w.serial);
  waiters_.push_back(w);
  // replicationRequestAckFromSlaves: GETACK travels in the stream, behind
  // whatever is still buffered, so the acks it draws cover the client's writes.
  if (!replicas_.empty()) enqueue(kNoProcess, GetAck{});
  return std::nullopt;
}

void Replication::enqueue(ProcessId to, std::variant<ReplicationEntry, GetAck> item) {
  if (config_.replication_delay == Duration{0}) {
    ship(Outgoing{LocalTime{}, to, item});
    return;
  }
  const bool was_empty = outbox_.empty();
  outbox_.push_back(Outgoing{saturating_add(host_.monotonic_now(), config_.replication_delay), to, item});
  if (was_empty) arm_outbox();
}

void Replication::ship(const Outgoing& out) {
  const auto* entry = std::get_if<ReplicationEntry>(&out.item);
  if (out.to != kNoProcess) {
    LOCKSIM_CHECK(entry != nullptr, "only a resync is sent to one replica");
    host_.send(out.to, *entry);
    if (entry->op == ReplicationEntry::Op::flush) {
      // The resync is on its way: the replica is online from now, and its lag
      // counts from now.
      Link& link = replicas_.at(out.to);
      link.online = true;
      link.resync_queued = false;
      link.last_ack = host_.monotonic_now();
    }
    return;
  }
  for (const auto& [replica, link] : replicas_) {
    if (entry != nullptr) {
      host_.send(replica, *entry);
    } else {
      host_.send(replica, GetAck{});
    }
  }
}

void Replication::ship_due() {
  const LocalTime monotonic_now = host_.monotonic_now();
  while (!outbox_.empty() && outbox_.front().due <= monotonic_now) {
    const Outgoing out = outbox_.front();
    outbox_.pop_front();
    ship(out);
  }
}

void Replication::arm_outbox() {
  host_.cancel_timer(outbox_alarm_);
  outbox_alarm_ = {};
  if (!outbox_.empty()) outbox_alarm_ = host_.set_alarm(ClockKind::monotonic, outbox_.front().due, kOutbox);
}

std::int32_t Replication::count_acked(std::uint64_t target) const {
  // replicationCountAcksByOffset: only online replicas count.
  std::int32_t n = 0;
  for (const auto& [replica, link] : replicas_)
    if (link.online && link.acked >= target) ++n;
  return n;
}

int Replication::good_replicas() const {
  // refreshGoodSlavesCount: lag in whole seconds of the (here monotonic) clock.
  const std::int64_t now_s = whole_seconds(host_.monotonic_now());
  const std::int64_t max_lag_s = whole_seconds(LocalTime{config_.min_replicas_max_lag});
  int good = 0;
  for (const auto& [replica, link] : replicas_)
    if (link.online && now_s - whole_seconds(link.last_ack) <= max_lag_s) ++good;
  return good;
}

void Replication::release_waiters() {
  // processClientsWaitingReplicas: in the order the clients blocked.
  for (auto it = waiters_.begin(); it != waiters_.end();) {
    if (count_acked(it->target) < it->numreplicas) {
      ++it;
      continue;
    }
    const Waiter w = *it;
    it = waiters_.erase(it);
    host_.cancel_timer(w.timeout);
    answer(w);
  }
}

void Replication::answer(const Waiter& w) {
  host_.send(w.client, Reply::integer_reply(w.request_id, count_acked(w.target)));
}

void Replication::stop_master(bool answer_waiters) {
  for (const Waiter& w : waiters_) {
    host_.cancel_timer(w.timeout);
    if (answer_waiters) answer(w);
  }
  waiters_.clear();
  replicas_.clear();
  // Boost 1.74's deque::clear() steps from its first node pointer, null while
  // the deque has never allocated: undefined behaviour clang's UBSan reports
  // ("applying non-zero offset to null pointer"). An empty outbox has
  // nothing to clear.
  if (!outbox_.empty()) outbox_.clear();
  host_.cancel_timer(outbox_alarm_);
  outbox_alarm_ = {};
  last_write_.clear();
}

// ---------------------------------------------------------------- replica

bool Replication::accept(ProcessId from, const ReplicationEntry& entry) {
  // Late traffic from a former master, or a stream sent to a node that has
  // since been promoted, is not ours to apply.
  if (is_master() || from != master_) return false;
  if (entry.op == ReplicationEntry::Op::flush) {
    // A full resync starts: the snapshot stands at the flush's offset.
    offset_ = entry.offset;
    syncing_ = false;
    in_snapshot_ = true;
    return true;
  }
  if (syncing_) return false;  // the snapshot we asked for covers it
  if (in_snapshot_ && entry.offset == offset_) return true;
  if (entry.offset == offset_ + 1) {
    offset_ = entry.offset;
    in_snapshot_ = false;
    return true;
  }
  if (entry.offset <= offset_) return false;
  // Something between was lost on the way: the link broke. Start over.
  attach();
  return false;
}

void Replication::on_get_ack(ProcessId from) {
  if (is_master() || from != master_ || syncing_) return;
  host_.send(master_, ReplicationAck{offset_, /*attach=*/false});
}

void Replication::attach() {
  syncing_ = true;
  in_snapshot_ = false;
  host_.send(master_, ReplicationAck{offset_, /*attach=*/true});
}

void Replication::arm_ack_timer() {
  host_.cancel_timer(ack_timer_);
  ack_timer_ = host_.set_timer(config_.ack_every, kAck);
}

}  // namespace locksim::redis
