// The leader's lessor: when each session expires, by the leader's monotonic
// clock. Only a leader keeps one (followers keep sessions until promoted, as
// etcd's lessor does); a new leader starts it with every session's full TTL
// plus an extension, so that a failover never expires a lease early. The
// expiry itself goes through the log (StoreMember proposes expire_session),
// so every member deletes the same keys at the same point.
#pragma once

#include <map>
#include <set>
#include <vector>

#include "sim/core/limits.h"
#include "sim/core/time.h"
#include "sim/wire/consensus.h"

namespace locksim::consensus {

class Lessor {
 public:
  // The lessor's TTL for a session granted |ttl_ms|: the store keeps a
  // session |multiplier| times its TTL (Consul keeps it twice as long).
  explicit Lessor(std::int64_t multiplier) : multiplier_(multiplier) {}

  // A session is live from now (opened, kept alive, or inherited on promotion
  // with |extra| on top of its TTL).
  // Saturating: a century-long TTL kept a hundred times over is "never".
  void refresh(StoreSessionId id, std::int64_t ttl_ms, LocalTime now, Duration extra = Duration{0}) {
    const Duration kept = saturating_mul(saturating_mul(std::chrono::milliseconds(1), ttl_ms), multiplier_);
    expiry_[id] = saturating_add(saturating_add(now, kept), extra);
    revoking_.erase(id);
  }
  void forget(StoreSessionId id) {
    expiry_.erase(id);
    revoking_.erase(id);
  }
  void clear() {
    expiry_.clear();
    revoking_.clear();
  }
  bool knows(StoreSessionId id) const { return expiry_.count(id) != 0; }
  // Past its expiry at |now|: a keepalive can no longer save it.
  bool expired(StoreSessionId id, LocalTime now) const {
    const auto it = expiry_.find(id);
    return it != expiry_.end() && it->second <= now;
  }
  // The sessions whose time has come and that are not being revoked yet;
  // they are marked as being revoked.
  std::vector<StoreSessionId> take_expired(LocalTime now) {
    std::vector<StoreSessionId> out;
    for (const auto& [id, at] : expiry_)
      if (at <= now && revoking_.insert(id).second) out.push_back(id);
    return out;
  }

 private:
  std::int64_t multiplier_;
  std::map<StoreSessionId, LocalTime> expiry_;
  std::set<StoreSessionId> revoking_;  // expire_session proposed, not applied yet
};

}  // namespace locksim::consensus
