// The replicated state machine of a consensus store: what every member
// computes by applying the committed log in order. It reads no clock and
// draws nothing, so the same log gives the same state on every member; what
// depends on time (when a session expires, how long a lock-delay lasts) is
// the leader's business (store_member.h) and enters here only as commands.
//
//   keys      each remembers the revision that created it and the one that
//             last changed it, its value and the session it lives under
//   revision  the global counter: every command that changes a key bumps it
//             once (a session's expiry deletes all its keys at one revision)
//   sessions  etcd leases / ZooKeeper, Chubby, Consul sessions: their owner
//             and TTL; ending one deletes its keys
//   stock     the one application value a story may keep in the store
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "sim/core/ids.h"
#include "sim/core/time.h"
#include "sim/history/history.h"
#include "sim/wire/consensus.h"

namespace locksim::consensus {

struct KeyRecord {
  std::int64_t create_revision = 0;
  std::int64_t mod_revision = 0;
  // The lock value a holder believes in: lock_value(key, create_revision) for
  // a key a lock recipe created; the written value for a cas_put record.
  std::uint64_t value = 0;
  StoreSessionId session = kNoStoreSession;
  std::int64_t lock_delay_ms = 0;  // acquire: applies if the session expires while it holds
};

struct SessionRecord {
  ProcessId client = kNoProcess;
  std::int64_t ttl_ms = 0;  // as granted (raised to the store's minimum)
  // etcd's checkpointed remaining TTL (lease checkpointing): a new leader
  // refreshes the session to this instead of ttl_ms; 0 = none recorded.
  std::int64_t remaining_ttl_ms = 0;
};

struct KeyOrder {
  bool operator()(Key a, Key b) const { return a.prefix != b.prefix ? a.prefix < b.prefix : a.suffix < b.suffix; }
};

// What one command did: the reply's fields, and the keys it deleted (the
// member fires watches and records the owner's change from them).
struct Applied {
  Status status = Status::ok;
  Key key;
  StoreSessionId session = kNoStoreSession;
  std::int64_t create_revision = 0;
  std::int64_t mod_revision = 0;
  std::int64_t number = 0;
  std::uint64_t value = 0;
  struct Deleted {
    Key key;
    KeyRecord record;
  };
  std::vector<Deleted> deleted;
  KeyGone gone = KeyGone::deleted;  // how the deleted keys went
  bool stock_changed = false;
};

class StoreState {
 public:
  explicit StoreState(std::int64_t initial_stock) : stock_(initial_stock) {}

  Applied apply(const Command& command);

  const KeyRecord* find(Key key) const;
  // The key under |prefix| with the lowest create revision (etcd's
  // WithFirstCreate; the lowest ZooKeeper sequence number).
  std::optional<std::pair<Key, KeyRecord>> first_created(KeyId prefix) const;
  // The key under |prefix| with the highest create revision below |revision|.
  std::optional<std::pair<Key, KeyRecord>> last_created_below(KeyId prefix, std::int64_t revision) const;
  const std::map<StoreSessionId, SessionRecord>& sessions() const { return sessions_; }
  std::int64_t revision() const { return revision_; }
  std::int64_t stock() const { return stock_; }
  // Accepted sales, for the invariant's record (AppState.increments' analogue).
  std::int64_t sales() const { return sales_; }

 private:
  Applied end_session(const Command& command, KeyGone gone);
  Applied create(const Command& command, Key key);
  void erase(std::map<Key, KeyRecord, KeyOrder>::iterator it, Applied& out);

  std::map<Key, KeyRecord, KeyOrder> keys_;
  std::map<StoreSessionId, SessionRecord> sessions_;
  std::map<KeyId, std::uint32_t> sequence_;  // per prefix: the last sequence number handed out
  std::int64_t revision_ = 0;
  StoreSessionId last_session_ = kNoStoreSession;
  std::int64_t stock_ = 0;
  std::int64_t sales_ = 0;
};

}  // namespace locksim::consensus
