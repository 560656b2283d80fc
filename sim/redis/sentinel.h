// Redis Sentinel: the process that watches a master and its replicas, agrees
// with its peers that the master is gone, elects one of them to fail over, and
// tells everyone where the master now is.
//
// Why this model exists: with Sentinel the lock service's "one master" is a
// belief held by a few processes that see the network differently. A master
// the sentinels cannot reach is replaced even if a client can still reach it
// (catalogue row 12 in docs/catalogue.md, split brain), and a promoted
// replica only has what asynchronous replication shipped before the crash
// (row 11). Both stories depend on *when* Sentinel acts, so the timing rules
// below follow Redis 7's src/sentinel.c function by function, and the
// Sentinel documentation (redis.io/docs/management/sentinel, "Sentinel
// internals").
//
//  - Timer (sentinelTimer, serverCron): the sentinel does all its work on a
//    tick that runs hz..2hz-1 times a second, the rate redrawn at random each
//    tick (`server.hz = CONFIG_DEFAULT_HZ + rand() % CONFIG_DEFAULT_HZ`) so
//    that sentinels started together do not keep asking for votes in lockstep.
//    Ticks are timers on the process's monotonic clock (ae.c uses the steady
//    clock); every decision reads SentinelConfig::clock, by default the wall
//    clock, because sentinel.c times everything with mstime().
//  - TILT (sentinelCheckTiltCondition): when two ticks are more than 2 s apart
//    or time went backwards (a pause, a wall-clock step), the sentinel keeps
//    pinging and answering but acts on nothing — no SDOWN/ODOWN, no failover,
//    no reconfiguration, and it answers is-master-down with "up" — for 30 s.
//  - Pings (sentinelSendPeriodicCommands, sentinelSendPing,
//    sentinelPingReplyCallback): every instance is pinged when no reply came
//    for a ping period (min(ping_every, down_after)) and no ping left in the
//    last half period. `act_ping` is the send time of the oldest unanswered
//    ping; a valid PONG clears it. A PONG says only that the instance is
//    alive: nothing about its role.
//  - INFO (sentinelSendPeriodicCommands, sentinelInfoReplyCallback,
//    sentinelRefreshInstanceInfo): the role, a replica's master and the
//    replication offset are learned from INFO replies only. An instance is
//    sent INFO on a tick when its last INFO reply is older than its INFO
//    period, or it never answered one: once per tick for as long as that
//    lasts. The period is 1 s (info_every_failover) for an instance this
//    sentinel holds to be a replica while the master is ODOWN or being
//    failed over, info_every (10 s) otherwise — so a role change is seen up
//    to 10 s late, and a promotion during a failover up to about 1 s late.
//    Replies to a PING or INFO sent before the sentinel reset its instances
//    (a switch, a restart) are ignored, as sentinel.c's callbacks on a
//    released link are.
//  - SDOWN (sentinelCheckSubjectivelyDown): an instance is subjectively down
//    when a ping has been waiting for more than down_after; a master that has
//    been reporting the replica role for more than down_after + 2 INFO periods
//    is down as well. So a crash is noticed down_after after the first ping
//    that goes unanswered, i.e. between down_after and down_after + ping
//    period after the last reply.
//  - ODOWN (sentinelCheckObjectivelyDown, sentinelAskMasterStateToOtherSentinels,
//    sentinelReceiveIsMasterDownReply): while the master is SDOWN the sentinel
//    asks every peer, at most once per ask period, "is-master-down-by-addr"
//    with its current epoch, asking for a vote only once it has started a
//    failover (by then the current epoch is the failover epoch, the old
//    current epoch + 1). Peers that said "down" in the last 5 ask periods count; with
//    itself, >= quorum makes the master ODOWN.
//  - Failover start (sentinelStartFailoverIfNeeded, sentinelStartFailover):
//    an ODOWN master with no failover under way, and none started in the last
//    2 x failover_timeout, gets one: current_epoch + 1 becomes the failover
//    epoch, the start time is pushed up to max_desync (1 s) into the future at
//    random, and the peers are asked at once.
//  - Leader election (sentinelVoteLeader, sentinelGetLeader): a sentinel
//    adopts any higher epoch it hears of and gives its one vote per epoch to
//    the first sentinel that asks (itself when it asks first, or the sentinel
//    most of its peers already voted for). Voting for someone else also
//    pushes its own failover start time to now + rand(max_desync), so it
//    will not try itself for 2 x failover_timeout. A sentinel is leader when
//    it has votes from a majority of all sentinels and at least quorum; a
//    candidate that is not leader after min(election_timeout,
//    failover_timeout) aborts (-failover-abort-not-elected).
//  - Failover by the leader (sentinelFailoverSelectSlave, sentinelSelectSlave,
//    compareSlavesForPromotion, sentinelFailoverWaitPromotion,
//    sentinelRefreshInstanceInfo): the candidate is a replica that is not
//    SDOWN and answered within 5 ping periods, with the highest replication
//    offset, ties by lowest ProcessId (sentinel.c: by run id); while the
//    master is SDOWN its last INFO must be younger than 5 ping periods. It
//    gets REPLICAOF NO ONE; when its next INFO reports the master role
//    (+promoted-slave) the master's config epoch becomes the failover epoch,
//    the other replicas get REPLICAOF <new> and the leader switches
//    (+switch-master). Without a candidate, or if the promotion is not seen
//    within failover_timeout, the failover aborts.
//  - Configuration spread (sentinelProcessHelloMessage,
//    sentinelResetMasterAndChangeAddress): a sentinel adopts any master
//    configuration with a higher config epoch than its own, forgets the old
//    master's state and from then on watches the old master as a replica of
//    the new one. Each sentinel publishes +switch-master to its subscribed
//    clients when it switches.
//  - Reconfiguring instances (sentinelRefreshInstanceInfo, "+convert-to-slave"
//    and "+fix-slave-config"): an instance this sentinel holds to be a replica
//    that reports the master role — the old master coming back, or a partition
//    healing — is sent REPLICAOF <master> by the first INFO reply that finds
//    it has reported that role for more than 4 publish periods (8 s), and the
//    master looks sane; that is the moment the old master drops what it alone
//    held. At the 10 s INFO period that is its second INFO as a master, about
//    10 s after the first. A replica that follows another master for longer
//    than failover_timeout is pointed back the same way, at an INFO reply.
//  - Persistence (sentinelFlushConfig): a restarted sentinel keeps its master,
//    its epochs and its votes (sentinel.conf is rewritten and fsynced on every
//    change); link state and any failover under way are lost.
//
// Simplified (and why it is safe to): INFO carries only the role, the master
// and the offset. A replica here has no connection to its master to lose
// (replication.h), so INFO never reports master_link_down_since_seconds: a
// replica whose link is down is asked every info_every rather than every
// second until its master is ODOWN, and sentinelSelectSlave's bound on how
// long a candidate's link has been down is not applied — the model may promote
// a replica Redis would reject as too stale, which errs towards lost locks,
// not towards safety. INFO is sent every tick while stale with no cap on
// pending commands and no link dropped and reconnected (sentinel.c stops at
// 100 pending commands and drops a link that stops answering); an unanswered
// INFO changes nothing, so only the trace grows. There are no
// sentinel-to-sentinel pings and no discovery (replicas and sentinels are
// configured, not learned); the hello messages are sent straight to the peer
// sentinels (the SwitchMaster message, repeated every publish period once
// there has been a failover) instead of over the instances' pub/sub channels,
// so two sentinels that cannot reach each other do not learn each other's
// configuration through the Redis nodes; all replicas are reconfigured at once
// (parallel-syncs = all) and the leader switches at +promoted-slave rather
// than after the last replica reports in; replica priority, min-replicas, TCP
// link disconnection and reconnection, scripts, SENTINEL FAILOVER and
// sentinel-to-sentinel auth are left out. A peer is asked at most once per ask
// period even when it never answers (sentinel.c relies on a dropped TCP link
// for that). The sentinel records no facts: its messages are in the trace and
// its log of events (events()) is for tests; the Redis nodes record their own
// role changes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/wire/replication.h"
#include "sim/wire/sentinel.h"
#include "sim/world/process.h"

namespace locksim::redis {

struct SentinelConfig {
  ProcessId master = kNoProcess;
  std::vector<ProcessId> replicas;
  std::vector<ProcessId> sentinels;  // all, including itself
  std::vector<ProcessId> clients;    // subscribed to +switch-master
  std::uint32_t quorum = 2;
  Duration down_after = std::chrono::seconds(30);  // down-after-milliseconds
  Duration ping_every = std::chrono::seconds(1);   // SENTINEL_PING_PERIOD
  Duration failover_timeout = std::chrono::seconds(180);

  // sentinel.c's constants, kept configurable.
  ClockKind clock = ClockKind::wall;  // what mstime() reads
  std::uint32_t hz = 10;              // CONFIG_DEFAULT_HZ: hz + rand() % hz ticks a second
  Duration ask_every = std::chrono::seconds(1);        // SENTINEL_ASK_PERIOD
  Duration publish_every = std::chrono::seconds(2);    // SENTINEL_PUBLISH_PERIOD (hello; +convert-to-slave waits 4x)
  Duration info_every = std::chrono::seconds(10);      // SENTINEL_INFO_PERIOD
  Duration info_every_failover = std::chrono::seconds(1);  // a replica's, while its master is ODOWN or failing over
  Duration max_desync = std::chrono::seconds(1);       // SENTINEL_MAX_DESYNC
  Duration election_timeout = std::chrono::seconds(10);  // SENTINEL_ELECTION_TIMEOUT
  Duration tilt_trigger = std::chrono::seconds(2);     // SENTINEL_TILT_TRIGGER
  Duration tilt_period = std::chrono::seconds(30);     // SENTINEL_TILT_PERIOD
};

// What sentinel.c would log and publish on its event channels.
enum class SentinelEventKind : std::uint8_t {
  sdown,                // +sdown <instance>
  sdown_cleared,        // -sdown <instance>
  odown,                // +odown <master>
  odown_cleared,        // -odown <master>
  new_epoch,            // +new-epoch (epoch)
  try_failover,         // +try-failover <master> (epoch)
  vote_for_leader,      // +vote-for-leader <sentinel> (epoch)
  elected_leader,       // +elected-leader <master> (epoch)
  abort_not_elected,    // -failover-abort-not-elected
  abort_no_good_replica,  // -failover-abort-no-good-slave
  abort_promotion_timeout,  // -failover-abort-slave-timeout
  selected_replica,     // +selected-slave <replica>
  promoted_replica,     // +promoted-slave <replica> (epoch)
  switch_master,        // +switch-master <new master> (epoch)
  convert_to_replica,   // +convert-to-slave <instance>
  fix_replica_config,   // +fix-slave-config <instance>
  tilt,                 // +tilt
  tilt_exit,            // -tilt
};

struct SentinelEvent {
  LocalTime at;  // on SentinelConfig::clock
  SentinelEventKind kind;
  ProcessId instance;  // the node or sentinel it is about; kNoProcess when none
  std::uint64_t epoch;
};

class Sentinel final : public Process {
 public:
  enum class FailoverState : std::uint8_t { none, wait_start, select_replica, wait_promotion };

  Sentinel(std::string name, SentinelConfig config);

  // --- what this sentinel believes (for tests and the scenario builder) ---
  ProcessId master() const { return master_; }
  std::uint64_t current_epoch() const { return current_epoch_; }
  std::uint64_t config_epoch() const { return config_epoch_; }
  FailoverState failover_state() const { return failover_.state; }
  bool subjectively_down(ProcessId node) const;
  bool in_tilt() const { return tilt_since_.has_value(); }
  const std::vector<SentinelEvent>& events() const { return events_; }
  const SentinelConfig& config() const { return config_; }

  void on_start() override;
  void on_message(const Message& message) override;
  void on_timer(std::uint64_t tag) override;
  void on_restart() override;

 private:
  enum TimerTag : std::uint64_t { kTick = 1 };

  // A Redis node as this sentinel sees it (sentinelRedisInstance + instanceLink).
  struct Instance {
    // link
    LocalTime last_ping_sent{};
    bool pinged = false;
    LocalTime last_pong{};                // any reply
    LocalTime last_avail{};               // last valid reply
    std::optional<LocalTime> act_ping;    // oldest unanswered ping
    // what its INFO replies say
    std::optional<LocalTime> info_refresh;  // last INFO reply; none yet: ask every tick
    bool reports_master = false;
    ProcessId reports_master_of = kNoProcess;  // a replica's master
    std::uint64_t offset = 0;
    LocalTime role_reported_time{};
    LocalTime replica_conf_change_time{};
    // judgement
    bool sdown = false;
    std::optional<LocalTime> sdown_since;
  };
  // Another sentinel, as far as this one's questions about the master go.
  struct Peer {
    bool master_down = false;
    ProcessId leader = kNoProcess;  // its vote, as it last told us
    std::uint64_t leader_epoch = 0;
    std::optional<LocalTime> last_reply;
    std::optional<LocalTime> last_asked;
  };
  // The failover of the current master (master->failover_* in sentinel.c).
  struct Failover {
    FailoverState state = FailoverState::none;
    std::uint64_t epoch = 0;
    std::optional<LocalTime> start_time;  // pushed into the future by the desync
    LocalTime state_change_time{};
    ProcessId promoted = kNoProcess;
  };

  LocalTime now() const { return clock_now(config_.clock); }
  Duration ping_period() const { return std::min(config_.ping_every, config_.down_after); }
  // How old |id|'s last INFO reply may be before it is asked again.
  Duration info_period(ProcessId id) const;
  void note(SentinelEventKind kind, ProcessId instance, std::uint64_t epoch = 0);

  // --- lifecycle ---
  // Forgets every link and every failover under way; keeps what
  // sentinel.conf keeps. Then pings everything and starts ticking.
  void boot();
  void arm_tick();
  void reset_instances();

  // --- the tick (sentinelTimer) ---
  void tick();
  bool check_tilt();  // true while acting is suspended
  void send_periodic(ProcessId id, Instance& in);
  void send_ping(ProcessId id, Instance& in);
  void send_info(ProcessId id);
  void send_hello();
  void check_sdown(ProcessId id, Instance& in);
  void check_odown();
  bool start_failover_if_needed();
  void ask_peers(bool forced);
  void failover_step();
  void abort_failover(SentinelEventKind why);
  ProcessId select_replica() const;

  // --- election ---
  // sentinelVoteLeader: returns the vote this sentinel holds and its epoch.
  std::pair<ProcessId, std::uint64_t> vote_leader(std::uint64_t req_epoch, ProcessId candidate);
  ProcessId get_leader(std::uint64_t epoch);

  // --- messages ---
  void on_pong(ProcessId from, const Pong& pong);
  void on_info(ProcessId from, const InfoReply& info);
  void on_is_master_down(ProcessId from, const IsMasterDown& q);
  void on_master_down_reply(ProcessId from, const MasterDownReply& r);
  void on_switch_master(ProcessId from, const SwitchMaster& s);
  // After +promoted-slave: reconfigure the others, switch, announce.
  void promoted(ProcessId node);
  // sentinelResetMasterAndChangeAddress.
  void switch_to(ProcessId new_master, std::uint64_t epoch);

  bool master_looks_sane() const;
  bool no_down_for(const Instance& in, Duration d) const;
  bool is_peer(ProcessId p) const { return peers_.count(p) != 0; }

  const SentinelConfig config_;

  // --- what sentinel.conf keeps across a restart ---
  ProcessId master_;
  ProcessId previous_master_ = kNoProcess;  // the master before the last switch
  std::uint64_t current_epoch_ = 0;
  std::uint64_t config_epoch_ = 0;
  ProcessId leader_ = kNoProcess;  // this sentinel's vote for the current master
  std::uint64_t leader_epoch_ = 0;

  // --- volatile: gone at a crash ---
  std::map<ProcessId, Instance> instances_;  // master and replicas, by id
  std::map<ProcessId, Peer> peers_;          // the other sentinels
  Failover failover_;
  std::optional<LocalTime> odown_;  // o_down_since_time
  std::optional<LocalTime> tilt_since_;
  LocalTime previous_tick_{};
  LocalTime last_hello_{};
  std::uint64_t next_ping_id_ = 1;  // PING and INFO
  std::uint64_t reply_floor_ = 1;   // replies to PING or INFO below this were asked of links reset since
  std::uint64_t next_ask_id_ = 1;
  std::uint64_t ask_floor_ = 1;  // replies to questions below this are about an old master
  TimerId tick_timer_;

  std::vector<SentinelEvent> events_;
};

}  // namespace locksim::redis
