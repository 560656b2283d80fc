// One Redis node's side of asynchronous master-replica replication: what a
// master ships and tracks, what a replica accepts and acknowledges, WAIT, and
// min-replicas-to-write. The node (redis_node.h) owns one of these and keeps
// the keyspace; this class owns the link.
//
// Why it exists: a lock granted by a master lives only on that master until
// its write reaches a replica. If the master dies first and a replica is
// promoted, the lock is gone and a second client can take it — the failover
// hole the distlock page warns about ("Why failover-based implementations are
// not enough"). How wide that hole is depends on exactly the details below.
//
// What real Redis 7 does, and what we keep (replication.c unless named):
//  - The stream. Every write's *effect* is propagated, in master order, with a
//    running byte offset (master_repl_offset); we number entries 1, 2, 3...
//    Relative expiries travel as absolute deadlines (Redis rewrites SET PX and
//    PEXPIRE to PXAT / PEXPIREAT), deletions by expiry — lazy or active — as
//    DEL (db.c deleteExpiredKeyAndPropagate), INCR as a SET of the new integer.
//    The stream is asynchronous: the client gets its reply before any replica
//    has the write. NodeConfig::replication_delay holds entries in the
//    master's output buffer before they leave (a busy master, a slow link); a
//    crash loses whatever is still there.
//  - Attaching. A replica asks for a full resynchronisation (PSYNC ? -1 ->
//    +FULLRESYNC <replid> <offset>): the master sends a snapshot — `flush` and
//    one `set` per live key — taken *at* its current offset, like an RDB, so
//    the snapshot does not advance the stream; later entries follow it on the
//    same link. Partial resync from the backlog is not modelled: every
//    reconnection is a full one. A replica counts as online once its
//    snapshot has left the master's buffer (the master marks a replica ONLINE
//    when the RDB transfer ends and sets repl_ack_time then: "Timeout
//    otherwise").
//  - Acknowledgements. A replica sends REPLCONF ACK <offset> every second
//    (replicationCron; NodeConfig::ack_every) and at once when asked with
//    REPLCONF GETACK. The master keeps, per replica, the last ack time (on its
//    monotonic clock) and the highest offset acked (replconfCommand).
//  - Replicas never expire keys (expire.c: "replicas don't expire keys, they
//    wait for the master's DEL"); a read on a replica reports a logically
//    expired key as missing (db.c lookupKeyRead, Redis >= 3.2). A replica
//    answers writes with READONLY (server.c processCommand, replica-read-only
//    yes). A promoted replica starts expiring by its own clock.
//  - min-replicas-to-write (server.c checkGoodReplicasStatus,
//    replication.c refreshGoodSlavesCount): a master refuses writes with
//    NOREPLICAS while fewer than N online replicas have lag = now_s -
//    last_ack_s <= min-replicas-max-lag, all in whole seconds. Both settings
//    must be non-zero for the check to apply. A script is refused at its first
//    write, not before (script.c scriptVerifyWriteCommandAllow), so a
//    compare-and-delete whose value does not match still answers :0.
//  - WAIT numreplicas timeout (waitCommand): counts online replicas whose
//    acked offset reached the client's last write (c->woff); answers at once
//    when that already meets numreplicas, else blocks, sends GETACK, and
//    answers the count when enough acks arrive or the timeout passes
//    (0 = forever). On a replica WAIT is an error.
//  - REPLICAOF (replicaofCommand). NO ONE makes a replica a master that
//    continues its stream from the offset it applied (PSYNC2: other replicas
//    can follow it). REPLICAOF <m> on a master turns it into a replica that
//    resyncs from m: its own data is discarded — Sentinel reconfigures a
//    returning old master this way, and what it alone held is lost. The
//    sentinels' configuration epoch orders these; an older epoch is ignored.
//
// Simplified, and how:
//  - There is no connection: a message lost in a drop partition stands for a
//    broken link. A replica that sees a gap in the offsets re-attaches (full
//    resync); a replica waiting for its resync asks again every ack_every; a
//    master that gets an ACK from a replica it does not know (it restarted)
//    answers with a full resync — so a master restarted without persistence
//    empties its replicas, as the replication docs warn ("Safety of
//    replication when master has persistence turned off"). No repl-timeout,
//    no master PINGs in the stream, no chained replicas (a replica ignores
//    acks), no replica-serve-stale-data=no.
//  - The good-replica count is computed when a write arrives, not refreshed
//    once a second by replicationCron.
//  - WAIT's timeout runs on the monotonic clock (Redis 7 measures blocking
//    timeouts on the wall clock). A WAIT still blocked when its master is
//    demoted is answered with the count it has (Redis answers -UNBLOCKED and
//    closes the connection); one blocked when the master crashes gets nothing.
//  - A demoted master discards its data at once, not when the new master's
//    snapshot has loaded. GETACK is not counted in the offset.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <variant>
#include <vector>

#include <boost/container/deque.hpp>
#include <boost/container/flat_map.hpp>
#include <boost/container/small_vector.hpp>

#include "sim/redis/config.h"
#include "sim/wire/replication.h"
#include "sim/wire/redis.h"
#include "sim/world/process.h"

namespace locksim::redis {

class Replication {
 public:
  // Timer tags from here up belong to replication; the node forwards them.
  static constexpr std::uint64_t kFirstTag = 16;

  // |host| is the node that owns this link; both must outlive it.
  Replication(Process& host, const NodeConfig& config);

  // --- role ---
  bool is_master() const { return master_ == kNoProcess; }
  ProcessId master() const { return master_; }  // kNoProcess for a master
  // Master: the stream offset (last entry numbered). Replica: the offset of
  // the last entry applied (a snapshot counts as its offset).
  std::uint64_t offset() const { return offset_; }
  // A REPLICAOF of |epoch| is applied unless an older one than the last.
  bool accepts_epoch(std::uint64_t epoch) const { return epoch >= epoch_; }
  void note_epoch(std::uint64_t epoch) { epoch_ = epoch; }
  // REPLICAOF NO ONE on a replica. REQUIRES: !is_master().
  void promote(std::uint64_t epoch);
  // REPLICAOF |master|: drop the replicas (if a master) and attach to it.
  // REQUIRES: master != this node, master != master().
  void follow(ProcessId master, std::uint64_t epoch);

  // --- lifecycle, called from the node's own ---
  void start();  // the node serves: a replica attaches
  void crash();  // the node crashed: everything but role, epoch and offset goes
  bool on_timer(std::uint64_t tag);  // false: not a replication timer
  void on_clock_adjusted();

  // --- master ---
  // Numbers one write's effect and ships it to every replica.
  void propagate(ReplicationEntry entry);
  // A replica's REPLCONF ACK, or its request to attach. True when |from| must
  // now get a full resynchronisation: the node answers with full_resync().
  bool on_ack(ProcessId from, const ReplicationAck& ack);
  // Ships the snapshot |keys| (set entries of the live keyspace) to |replica|
  // after a flush, all at the current offset.
  void full_resync(ProcessId replica, const std::vector<ReplicationEntry>& keys);
  // What a write gets instead of running now: read_only on a replica,
  // no_replicas on a master short of good replicas, none otherwise.
  Error write_refusal() const;
  // |client|'s command moved the stream: WAIT from it waits for this offset.
  void note_write(ProcessId client);
  // WAIT from |client|: the reply now, or nullopt when it blocks (the reply is
  // sent later). |may_block| = false answers the current count at once, as
  // Redis does for a client that cannot block (inside MULTI or a script).
  std::optional<Reply> wait(ProcessId client, const Request& request, bool may_block);

  // --- replica ---
  // True when the node should apply |entry| from |from| now. Tracks the
  // applied offset; a gap makes the replica ask for a full resync.
  bool accept(ProcessId from, const ReplicationEntry& entry);
  void on_get_ack(ProcessId from);

  // --- both ---
  // INFO's replication section: role, master and offset.
  InfoReply info(std::uint64_t id) const { return InfoReply{id, is_master(), master_, offset_}; }

 private:
  enum Tag : std::uint64_t { kAck = kFirstTag, kOutbox = kFirstTag + 1 };
  static constexpr std::uint64_t kWaitTags = std::uint64_t{1} << 32;  // + waiter serial

  // One replica as its master sees it.
  struct Link {
    LocalTime last_ack{};    // monotonic reading of its last ack (or of its resync)
    std::uint64_t acked = 0;  // highest offset it acknowledged since it attached
    bool online = false;      // its resync has left the output buffer
    bool resync_queued = false;
  };
  // What waits in the output buffer; to = kNoProcess: every replica.
  struct Outgoing {
    LocalTime due;
    ProcessId to;
    std::variant<ReplicationEntry, GetAck> item;
  };
  struct Waiter {
    ProcessId client;
    std::uint64_t request_id;
    std::uint64_t target;  // the client's last write offset
    std::int32_t numreplicas;
    std::uint64_t serial;
    TimerId timeout;
  };

  // Master.
  void enqueue(ProcessId to, std::variant<ReplicationEntry, GetAck> item);
  void ship(const Outgoing& out);
  void ship_due();
  void arm_outbox();
  std::int32_t count_acked(std::uint64_t target) const;
  int good_replicas() const;
  void release_waiters();
  void answer(const Waiter& w);
  // Demotion or crash: drop replicas, the output buffer and WAIT state.
  void stop_master(bool answer_waiters);
  // Replica.
  void attach();
  void arm_ack_timer();

  Process& host_;
  const NodeConfig& config_;

  // Role and position; these survive a crash (sentinels persist the role with
  // CONFIG REWRITE; the offset is only a counter here).
  ProcessId master_;
  std::uint64_t epoch_ = 0;
  std::uint64_t offset_ = 0;

  // Master side. Ordered maps: shipping and counting walk them.
  std::map<ProcessId, Link> replicas_;
  boost::container::deque<Outgoing> outbox_;  // due times never decrease; no allocation until used
  TimerId outbox_alarm_;
  // per client: c->woff. Flat with room for four clients inside: every
  // write notes its client, and a node built for each run allocated a tree
  // node per client per run.
  boost::container::small_flat_map<ProcessId, std::uint64_t, 4> last_write_;
  std::vector<Waiter> waiters_;  // in arrival order
  std::uint64_t next_waiter_ = 0;

  // Replica side. syncing_: waiting for a flush; in_snapshot_: the entries at
  // offset_ that follow a flush are the snapshot's keys.
  bool syncing_ = false;
  bool in_snapshot_ = false;
  TimerId ack_timer_;
};

}  // namespace locksim::redis
