// One member of a replicated consensus store (etcd, a ZooKeeper ensemble,
// a Chubby cell, Consul servers), modelled at the level that decides lock
// safety: who leads, what is committed, whose clock judges a lease.
//
// Raft (Ongaro & Ousterhout), simplified where lock safety does not care:
//   - election: a follower that hears no leader for a timeout drawn from
//     [T, 2T) on its monotonic clock stands; one vote per term; a vote only
//     for a log at least as up to date; a majority makes a leader, which
//     appends a noop so that earlier terms' entries commit;
//   - replication: one entry per AppendEntries, at most one in flight per
//     follower (links are FIFO; a lost one is resent on the next heartbeat);
//     an entry commits once a majority stores it and it is of the leader's
//     term; every member applies committed entries in order;
//   - persistence: term, vote and log survive a crash; the applied state,
//     the role, the lessor, watches and pending replies do not (the log is
//     re-applied as the commit index is learned again).
// Not modelled: snapshots, log compaction, membership changes, pre-vote.
//
// Clients talk to the leader; any other member answers not_leader with its
// guess (etcd's followers forward instead; the client's extra hop stands for
// the forward). Writes and reads both go through the log (reads are answered
// when their entry applies: linearizable). CheckQuorum: a leader that heard
// from no majority during an election timeout steps down. Keepalives are
// answered by the leader alone, as etcd's lessor.Renew is (server/lease/
// lessor.go): a lease past its expiry on the monotonic clock is not renewed
// — the keepalive waits for the revocation and is then told the lease is gone
// (or not_leader, should the leader step down first). etcd 3.4 renews on any
// member that believes it leads, so a leader cut off from the others renews
// until CheckQuorum deposes it; 3.5.13 on (renew_confirms_leadership) first
// confirms its leadership with a heartbeat round. Sessions are expired by the
// leader's lessor (lessor.h: the tick, the expiry queue and its clock),
// through the log. Watches are kept by the member that took them and fire
// when it applies the deletion.
//
// Facts: RoleChanged (leader / follower of L / candidate, epoch = term) on
// every change; and from the leader only — it applies an entry the moment
// the entry commits, so its applied state is the committed state — KeyHeld /
// KeyDropped for the owner of the lock's key (the lowest create revision
// under it; a new leader states its owner; the checkers treat the members as
// one replicated state, ServiceLayout.replicated_state), StoreSession for
// sessions and ResourceOp / AppState for the store-resident stock.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "sim/consensus/lessor.h"
#include "sim/consensus/store_config.h"
#include "sim/consensus/store_state.h"
#include "sim/world/process.h"

namespace locksim::consensus {

class StoreMember final : public Process {
 public:
  StoreMember(std::string name, StoreConfig config);

  void on_start() override;
  void on_message(const Message& message) override;
  void on_timer(std::uint64_t tag) override;
  void on_crash() override;
  void on_restart() override;
  void on_run_end() override;

  // For tests.
  bool is_leader() const { return role_ == Role::leader; }
  std::uint32_t term() const { return term_; }
  std::uint32_t commit_index() const { return commit_; }
  const StoreState& state() const { return state_; }

 private:
  enum class Role : std::uint8_t { follower, candidate, leader };
  struct Entry {
    std::uint32_t term = 0;
    Command command;
  };
  // A client request waiting for its entry to apply.
  struct Pending {
    std::uint32_t term = 0;
    ProcessId client = kNoProcess;
    Request request;
  };
  struct Watch {
    ProcessId client = kNoProcess;
    Key key;
  };

  // Raft.
  void on_request_vote(ProcessId from, const RequestVote& m);
  void on_vote(ProcessId from, const Vote& m);
  void on_append(ProcessId from, const Append& m);
  void on_append_reply(ProcessId from, const AppendReply& m);
  void stand_for_election();
  void become_follower(std::uint32_t term, ProcessId leader);
  void become_leader();
  void set_role(Role role, ProcessId leader);
  void reset_election_timer();
  void reset_peer_state();
  void send_append(std::size_t follower);
  void propose(const Command& command, std::optional<Pending> pending = std::nullopt);
  void advance_commit();
  void apply_committed();
  std::uint32_t last_index() const { return static_cast<std::uint32_t>(log_.size()); }
  std::uint32_t term_at(std::uint32_t index) const { return index == 0 ? 0 : log_[index - 1].term; }
  std::size_t majority() const { return config_.members.size() / 2 + 1; }
  std::size_t index_of(ProcessId member) const;

  // Clients and the state machine.
  void on_request(ProcessId from, const Request& request);
  void keep_alive(ProcessId from, const Request& request);
  void watch(ProcessId from, const Request& request);
  void apply_entry(std::uint32_t index);
  void answer(const Pending& pending, const Applied& applied);
  void answer_read(const Pending& pending);
  void record_leader_facts(const Command& command, const Applied& applied, ProcessId session_owner,
                           const Pending* pending);
  void record_owner(KeyGone reason);
  void fire_watches(const Applied& applied);
  void on_lessor_tick();
  void start_lessor_loop();
  void resume_lessor_loop();
  LessorNow lessor_now() const { return {monotonic_now(), wall_now()}; }
  void renew(ProcessId from, const Request& request);
  void touch(StoreSessionId session);
  void confirm_leadership();
  void answer_waiting_renewals(StoreSessionId gone);
  void step_down_if_out_of_touch();
  Reply reply_to(const Request& request, Status status) const;

  StoreConfig config_;
  // Persistent (survives a crash).
  std::uint32_t term_ = 0;
  ProcessId voted_for_ = kNoProcess;
  std::vector<Entry> log_;
  // Volatile.
  Role role_ = Role::follower;
  ProcessId leader_ = kNoProcess;
  std::uint32_t commit_ = 0;
  std::uint32_t applied_ = 0;
  StoreState state_;
  std::optional<std::uint64_t> owner_;  // the lock key's owner in state_
  std::vector<bool> votes_;             // candidate: who voted for it this term
  std::vector<std::uint32_t> next_index_, match_index_;
  std::vector<bool> in_flight_;
  std::vector<std::optional<LocalTime>> last_ack_;  // leader: when each member last acknowledged
  std::vector<bool> recent_active_;                 // leader: heard from since the last CheckQuorum
  Lessor lessor_;
  std::map<std::uint32_t, Pending> pending_;  // by log index
  // Keepalives for leases expired but not yet revoked: answered when the
  // revocation applies (session_gone) or the leader steps down (not_leader).
  struct WaitingRenewal {
    ProcessId client = kNoProcess;
    Request request;
    LocalTime arrived{};  // monotonic: a confirmation must be newer
  };
  std::vector<WaitingRenewal> waiting_renewals_;
  std::vector<WaitingRenewal> unconfirmed_renewals_;  // renew_confirms_leadership: waiting for a majority's ack
  std::vector<Watch> watches_;
  std::map<Key, LocalTime, KeyOrder> lock_delay_until_;  // this member's clock
  TimerId election_timer_, heartbeat_timer_, lessor_timer_, check_quorum_timer_;
  LocalTime lessor_origin_{};  // monotonic: the lessor loop's first tick; it ticks every lessor_tick from there
};

}  // namespace locksim::consensus
