// The consensus store's wire: what lock clients ask a store member, what it
// answers, and what members say to each other (Raft). One model serves the
// lock services that put a lock in a replicated store — etcd, ZooKeeper,
// Chubby, Consul — and the lease-by-observation locks that only need a
// compare-and-set record (Kubernetes Lease, the DynamoDB lock client).
//
// The client side speaks in lock-recipe terms rather than a general
// transaction language: each operation below is one request that etcd's
// clientv3/concurrency, Curator's InterProcessMutex, Chubby's or Consul's
// client would send (a txn, a range with a sort order, a watch) at the level
// that decides lock safety. A key is a prefix (an interned key name, the lock's
// path) and a 64-bit suffix (etcd's lease id, ZooKeeper's sequence number,
// 0 for a single-key lock), so that every message is a plain value.
//
// Revisions are the store's global revision counter (etcd's revision,
// ZooKeeper's zxid, Chubby's generation): every committed write advances it,
// and a key remembers the revision that created it (create_revision = etcd's
// CreateRevision, ZooKeeper's czxid) and the one that last changed it
// (mod_revision). Sessions are etcd leases / ZooKeeper, Chubby and Consul
// sessions; keys written under a session are deleted when it ends.
#pragma once

#include <cstdint>

#include "sim/core/ids.h"

namespace locksim::consensus {

using KeyId = std::uint32_t;  // the interned prefix (the same ids as redis::KeyId)
using StoreSessionId = std::uint32_t;  // etcd's lease ids are 64-bit; a run never needs more than 32
inline constexpr StoreSessionId kNoStoreSession = 0;

// A key: the lock's prefix and a suffix under it.
struct Key {
  KeyId prefix = 0;
  std::uint32_t suffix = 0;
  bool operator==(const Key&) const = default;
};

enum class Op : std::uint8_t {
  // Sessions (etcd LeaseGrant / ZooKeeper connect / Chubby, Consul session
  // create): |number| = the requested TTL in ms. Reply: session, number = the
  // TTL granted (raised to the store's minimum, or doubled by Consul).
  open_session,
  // One keepalive (etcd LeaseKeepAlive, ZooKeeper ping, Chubby KeepAlive,
  // Consul session renew) for |session|. Reply: ok with number = the TTL now
  // running, or session_gone.
  keep_alive,
  // End |session| now (etcd LeaseRevoke, ZooKeeper close, Consul destroy):
  // its keys are deleted like a clean release (no lock-delay).
  close_session,
  // etcd's Mutex.Lock first step: Txn(If(CreateRevision(key) == 0),
  // Then(Put(key, "", WithLease(session)), getOwner), Else(Get(key),
  // getOwner)). Reply: ok, with create_revision of the key (new or existing)
  // and number = the create revision of the prefix's first key (the owner).
  create_if_absent,
  // ZooKeeper create(prefix/lock-, EPHEMERAL_SEQUENTIAL) under |session|: the
  // store picks the suffix (the parent's next sequence number). Reply: ok,
  // with key.suffix and create_revision (czxid).
  create_sequential,
  // Chubby / Consul acquire of the single-key lock |key| under |session|:
  // succeeds if no live key holds it and no lock-delay blocks it; |number| is
  // the lock-delay (ms) to apply if this holder then fails (its session
  // expires; a clean release or close applies none). Reply: ok with
  // create_revision = the lock's generation (Consul: its LockIndex), or held
  // (another session has it; holder in |session|) or delayed (number = the
  // ms of lock-delay left, by the leader's clock).
  acquire,
  // Get(prefix, WithFirstCreate()): the key under |key.prefix| with the lowest
  // create revision. Reply: ok with key, create_revision, session; or
  // not_found when the prefix is empty.
  first_created,
  // Get(prefix, WithLastCreate(), WithMaxCreateRev(revision - 1)): the key
  // with the highest create revision below |revision| (the one a waiter
  // watches: etcd's waitDeletes, Curator's predecessor). Reply as first_created.
  last_created_below,
  // Get(key): ok with create_revision, mod_revision, value, session; or
  // not_found.
  get,
  // Watch |key| for its deletion, from |revision| on (etcd Watch with
  // WithRev, ZooKeeper exists-watch). No reply: an Event comes when the key is
  // deleted — at once if it is already gone.
  watch_delete,
  // Delete(key) (etcd Unlock, ZooKeeper delete, Chubby/Consul release): a
  // clean release, no lock-delay. Reply: ok (also when already gone).
  del,
  // The store-resident resource (etcd's recommended pattern): Txn(If(
  // CreateRevision(key) == revision), Then(stock -= number)) — the
  // client's sale, guarded by "I still hold the lock" (etcd's IsOwner). The
  // stock is the store's one application value; |value| carries the client's
  // lock session (for the history). Reply: ok with number = the stock after;
  // or failed when the compare failed (the caller no longer holds the lock:
  // its key is gone or was re-created).
  guarded_decrement,
  // Read the stock (Reply.number), through the log like every read.
  read_stock,
  // Compare-and-set on the record |key| (lease-by-observation locks): put
  // |value| if the record's mod_revision is |revision| (0 = the record must
  // not exist). Reply: ok with the new mod_revision, or failed with the
  // record's current value and mod_revision.
  cas_put,
};

enum class Status : std::uint8_t {
  ok,
  not_found,
  failed,        // a compare failed
  held,          // acquire: another session holds the lock
  delayed,       // acquire: a lock-delay blocks the lock
  session_gone,  // the session expired or was closed
  not_leader,    // this member cannot serve writes; |leader| is its best guess
  refused,       // the member's process is gone and its host refused the connection (the world answers)
};

// "create-if-absent", "ok", "noop", ...: the names traces use.
const char* op_name(Op op);
const char* status_name(Status status);

struct Request {
  std::uint32_t request_id = 0;
  Op op = Op::get;
  Key key;
  StoreSessionId session = kNoStoreSession;
  std::int64_t revision = 0;  // compares: last_created_below, watch_delete, guarded_decrement, cas_put
  std::int64_t number = 0;    // open_session: TTL ms; acquire: lock-delay ms; guarded_decrement: units
  std::uint64_t value = 0;    // cas_put: the new record value; guarded_decrement, read_stock: the lock session
};

struct Reply {
  std::uint32_t request_id = 0;
  Status status = Status::ok;
  ProcessId leader = kNoProcess;  // not_leader: the member's guess
  Key key;
  StoreSessionId session = kNoStoreSession;
  std::int64_t create_revision = 0;
  std::int64_t mod_revision = 0;
  std::int64_t number = 0;  // TTL ms (sessions); lock-delay left (delayed); the stock (read_stock, guarded_decrement)
  std::uint64_t value = 0;  // get / cas_put: the record's value
};

// A watched key was deleted (or was already gone when the watch was set).
struct Event {
  Key key;
  std::int64_t revision = 0;  // the deletion's revision
};

// The value a lock client believes in and the store reports as the lock's
// holder (KeyHeld facts): one per acquisition, from the key and the revision
// that created it, so two acquisitions by the same session never share one.
inline std::uint64_t lock_value(Key key, std::int64_t create_revision) {
  std::uint64_t x = (std::uint64_t{key.prefix} << 32 | key.suffix) ^ (static_cast<std::uint64_t>(create_revision) *
                                                                        0x9E3779B97F4A7C15ULL);
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;  // splitmix64's finaliser
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// --- Raft, between members ----------------------------------------------------

// One replicated command: what a committed log entry does to the state
// machine. Client writes become entries; so do session expiries the leader
// decides (revoke), so that every member deletes the same keys at the same
// point of the log.
struct Command {
  enum class Kind : std::uint8_t {
    noop,  // a new leader's first entry (commits the previous terms' entries)
    open_session,
    close_session,   // a client's close / revoke
    expire_session,  // the leader's lessor: the TTL ran out (lock-delay applies)
    checkpoint,      // the leader's lessor: |session| has |arg| ms left (etcd's lease checkpoint; 0 clears it)
    create_if_absent,
    create_sequential,
    acquire,
    del,
    guarded_decrement,
    cas_put,
    read,  // first_created, last_created_below, get, read_stock: answered when applied (linearizable)
  };
  Kind kind = Kind::noop;
  ProcessId client = kNoProcess;  // who asked (open_session: the session's owner)
  Key key;
  StoreSessionId session = kNoStoreSession;
  std::uint32_t revision = 0;  // a compare's revision (a run stays far below 2^32 writes)
  // open_session: the TTL ms; acquire: the lock-delay ms; guarded_decrement:
  // units; cas_put: the record's new value (as bits).
  std::uint64_t arg = 0;
};
const char* command_kind_name(Command::Kind kind);

struct RequestVote {
  std::uint32_t term = 0;
  std::uint32_t last_log_index = 0;
  std::uint32_t last_log_term = 0;
};
struct Vote {
  std::uint32_t term = 0;
  bool granted = false;
};
// AppendEntries with at most one entry (links are FIFO, so a leader sends a
// run of entries as a run of messages); an empty one is a heartbeat.
struct Append {
  std::uint32_t term = 0;
  std::uint32_t prev_index = 0;
  std::uint32_t prev_term = 0;
  std::uint32_t commit = 0;
  std::uint32_t entry_term = 0;  // 0: a heartbeat, no entry
  Command entry;
};
struct AppendReply {
  std::uint32_t term = 0;
  bool success = false;
  std::uint32_t match_index = 0;  // success: the follower's log now matches up to here
};

// The world copies messages by value: none of these may outgrow the largest
// Redis message (sim/wire/message.h keeps Message at 72 bytes).
static_assert(sizeof(Request) <= 56 && sizeof(Reply) <= 56 && sizeof(Append) <= 56 && sizeof(Event) <= 56);

}  // namespace locksim::consensus
