#include "sim/consensus/lessor.h"

#include <cstdint>

#include "sim/core/limits.h"

namespace locksim::consensus {

namespace {

// ZooKeeper's ExpiryQueue.roundToNextInterval: the next bucket boundary
// strictly after |t| (a touch exactly on a boundary goes to the next one).
LocalTime round_to_next_bucket(LocalTime t, Duration bucket, LocalTime origin) {
  const Duration since = t - origin;
  const std::int64_t n = since.count() >= 0 ? since / bucket + 1 : -((-since.count() - 1) / bucket.count());
  return origin + bucket * n;
}

}  // namespace

void Lessor::refresh(StoreSessionId id, std::int64_t ttl_ms, LessorNow now, Duration extra) {
  const Duration kept =
      saturating_add(saturating_mul(saturating_mul(std::chrono::milliseconds(1), ttl_ms), rules_.ttl_multiplier), extra);
  LocalTime expiry = saturating_add(now.monotonic, kept);
  if (rules_.bucket > Duration{0} && expiry < LocalTime{kMaxDuration})
    expiry = round_to_next_bucket(expiry, rules_.bucket, rules_.bucket_origin);
  Lease& lease = leases_[id];
  lease.expiry = expiry;
  // The queue's copy of the same instant, read on its own clock (etcd 3.4:
  // l.expiry.UnixNano(), the wall reading taken with the monotonic one).
  enqueue(id, saturating_add(queue_now(now), expiry - now.monotonic));
}

void Lessor::enqueue(StoreSessionId id, LocalTime due) {
  Lease& lease = leases_[id];
  queue_.erase({lease.due, id});
  lease.due = due;
  queue_.insert({due, id});
}

void Lessor::forget(StoreSessionId id) {
  const auto it = leases_.find(id);
  if (it == leases_.end()) return;
  queue_.erase({it->second.due, id});
  for (auto c = checkpoints_.begin(); c != checkpoints_.end();) c = c->second == id ? checkpoints_.erase(c) : std::next(c);
  leases_.erase(it);
}

void Lessor::clear() {
  leases_.clear();
  queue_.clear();
  checkpoints_.clear();
}

bool Lessor::expired(StoreSessionId id, LocalTime monotonic_now) const {
  const auto it = leases_.find(id);
  return it != leases_.end() && it->second.expiry <= monotonic_now;
}

std::vector<StoreSessionId> Lessor::take_expired(LessorNow now) {
  std::vector<StoreSessionId> out;
  const LocalTime queue = queue_now(now);
  // Items pushed back here are due no earlier than |queue| + retry, so each
  // lease is looked at once per call.
  std::vector<std::pair<LocalTime, StoreSessionId>> pushed;
  while (!queue_.empty() && queue_.begin()->first <= queue) {
    const StoreSessionId id = queue_.begin()->second;
    queue_.erase(queue_.begin());
    Lease& lease = leases_[id];
    const bool is_expired = lease.expiry <= now.monotonic;
    if (rules_.expired_retry > Duration{0}) {
      pushed.emplace_back(saturating_add(queue, rules_.expired_retry), id);
    } else if (!is_expired) {
      // No retry rule (a monotonic queue): due means expired, but should a
      // queue clock ever run ahead, look again when the lease ends.
      pushed.emplace_back(saturating_add(queue, lease.expiry - now.monotonic), id);
    } else {
      // Final: expired once; it leaves the queue (and the lessor once the
      // expiry applies).
      lease.due = LocalTime{kMaxDuration};
    }
    if (is_expired) out.push_back(id);
  }
  for (const auto& [due, id] : pushed) {
    leases_[id].due = due;
    queue_.insert({due, id});
  }
  return out;
}

std::vector<std::pair<StoreSessionId, std::int64_t>> Lessor::take_checkpoints(LessorNow now) {
  std::vector<std::pair<StoreSessionId, std::int64_t>> out;
  const LocalTime queue = queue_now(now);
  while (!checkpoints_.empty() && checkpoints_.begin()->first <= queue) {
    const StoreSessionId id = checkpoints_.begin()->second;
    checkpoints_.erase(checkpoints_.begin());
    const auto it = leases_.find(id);
    if (it == leases_.end()) continue;
    const Duration left = it->second.expiry - now.monotonic;
    if (left <= Duration{0}) continue;  // expiring: the lessor revokes it instead
    const std::int64_t seconds = (left.count() + 999'999'999) / 1'000'000'000;
    out.emplace_back(id, seconds > INT64_MAX / 1000 ? INT64_MAX : seconds * 1000);
  }
  return out;
}

void Lessor::schedule_checkpoint(StoreSessionId id, std::int64_t ttl_ms, LessorNow now) {
  if (rules_.checkpoint_interval <= Duration{0} || !knows(id)) return;
  // etcd compares whole seconds: RemainingTTL() > checkpointInterval.Seconds().
  if (ttl_ms / 1000 <= to_ms(rules_.checkpoint_interval) / 1000) return;
  checkpoints_.insert({saturating_add(queue_now(now), rules_.checkpoint_interval), id});
}

}  // namespace locksim::consensus
