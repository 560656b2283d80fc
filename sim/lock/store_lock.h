// A lock kept in a consensus store, as the systems' own client recipes take
// it (StoreLockConfig.recipe):
//
//   etcd concurrency.Mutex   session = a lease, kept alive every TTL/3; key
//                            prefix/<lease> put if its create revision is 0;
//                            wait until no key under the prefix has a lower
//                            create revision (watching the next lower one);
//                            then re-read the own key (recheck_after_wait) —
//                            gone means ErrSessionExpired
//   Curator InterProcessMutex the same queue over ephemeral sequential nodes
//                            of a ZooKeeper session
//   Chubby / Consul lock     one key acquired under the session, with a
//                            lock-delay should the holder fail; a refused
//                            acquire watches the key, a delayed one waits
//   observation lease        Kubernetes Lease / DynamoDB lock client: a
//                            compare-and-set record the holder renews; a
//                            contender takes over once it has seen it
//                            unchanged for a lease duration on its own clock
//
// The fencing token is the key's create revision (Chubby's generation,
// ZooKeeper's czxid, etcd's CreateRevision) or, for a record, its modify
// revision when taken. The lease the client is promised ends, on its lease
// clock, at its session deadline (the last keepalive reply's arrival + TTL),
// at SUSPENDED or LOST for a Curator policy, or at its last renewal + the
// renew deadline for an observation lease. An etcd client's checks read
// Session.Done() instead, which clientv3's deadline loop closes up to a
// second after that deadline (clientv3_keepalive.h); a check that finds the
// library saying the session is lost (etcd's Done(), Curator's state) ends
// the belief as session-lost, one that finds the client's own deadline past
// as validity-check. Requests go to the member the
// client believes leads; not_leader moves them; a read that times out is
// resent elsewhere, a write that times out is *unknown*.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>

#include "sim/lock/clientv3_keepalive.h"
#include "sim/lock/lease.h"
#include "sim/lock/lease_belief.h"
#include "sim/lock/store_lock_config.h"
#include "sim/world/process.h"

namespace locksim {

class StoreLock final : public LockClient {
 public:
  StoreLock(Process& self, LockListener& listener, StoreLockConfig config, std::uint64_t tag_base);

  void acquire(bool first_of_cycle) override;
  void extend() override;
  void release() override;
  void lose() override;
  void abandon() override;
  bool lease_valid() const override;
  bool held() const override { return belief_.held(); }
  const Lease& lease() const override { return belief_.lease(); }
  void on_reply(const redis::Reply& /*reply*/) override {}
  void on_timer(std::uint64_t tag) override;
  void on_crash() override;
  void on_notice(const Payload& payload) override;
  bool keeps_resource() const override { return config_.stock_in_store; }
  void resource_op(const resource::Request& request) override;

 private:
  // What a request in flight is for: its reply goes there.
  enum class Purpose : std::uint8_t { open_session, keep_alive, attempt, renew, release, stock };
  struct Outstanding {
    consensus::Request request;
    Purpose purpose = Purpose::attempt;
    TimerId timeout;
    std::uint64_t resource_request = 0;  // Purpose::stock: the workload's request id
    std::uint64_t op = 0;                // Purpose::release: the history's op id (kept when resent)
    LocalTime sent{};                    // on the lease clock
    bool parked = false;                 // no leader known: sent again when |timeout| fires
  };
  // Timer tags above tag_base: fixed ones, then one per request's timeout.
  static constexpr std::uint64_t kKeepaliveTag = 1, kRetryTag = 2, kRenewTag = 3, kClientV3Tags = 4,
                                  kRequestTimeoutTags = 16;  // kClientV3Tags .. +2: clientv3's loops

  // Where an acquire attempt is.
  enum class Step : std::uint8_t { idle, opening, creating, finding_lower, watching, rechecking, acquiring, delayed,
                                   observing, claiming };

  // Requests.
  std::uint32_t send(consensus::Request request, Purpose purpose);
  void resend(std::uint32_t request_id, bool move_on);
  void on_store_reply(const consensus::Reply& reply);
  void on_timeout(std::uint32_t request_id);
  void retarget(ProcessId hint);
  ProcessId target() const { return config_.members[target_]; }

  // The session.
  bool uses_session() const { return config_.recipe != StoreRecipe::observation_lease; }
  void open_session();
  void on_session_reply(const consensus::Reply& reply, const Outstanding& sent);
  void keep_alive();
  void on_keepalive_stream(ClientV3Keepalive::Change change);
  void session_lost();
  LocalTime belief_end() const;

  // Acquire recipes (store_lock_acquire.cc).
  void start_recipe();
  void on_attempt_reply(const consensus::Reply& reply, const Outstanding& sent);
  void on_attempt_timeout(const Outstanding& sent);
  void on_event(const consensus::Event& event);
  void find_lower();
  void restart_wait();
  void single_key_acquire();
  void observe();
  void on_observed(const consensus::Reply& reply);
  void renew();
  void on_renewed(const consensus::Reply& reply, const Outstanding& sent);
  void claim(std::int64_t revision);
  void grant(std::uint64_t value, std::int64_t token, LocalTime end);
  void fail_attempt(Outcome outcome);
  consensus::Request request(consensus::Op op) const;

  Process& self_;
  LockListener& listener_;
  StoreLockConfig config_;
  std::uint64_t tag_base_;
  LeaseBelief belief_;
  std::optional<ClientV3Keepalive> clientv3_;  // etcd

  std::size_t target_ = 0;  // index in config_.members
  std::uint32_t next_request_id_ = 1;
  std::map<std::uint32_t, Outstanding> outstanding_;

  // Session.
  consensus::StoreSessionId session_ = consensus::kNoStoreSession;
  bool session_done_ = false;  // etcd: Done() closed; the Mutex still names the lease, a new acquire opens a new one
  bool opening_ = false;
  std::int64_t ttl_ms_ = 0;
  LocalTime deadline_{};    // last keepalive reply's arrival + TTL, on the lease clock
  LocalTime last_heard_{};  // last keepalive reply, on the lease clock
  TimerId keepalive_timer_;

  // The attempt.
  Step step_ = Step::idle;
  std::uint64_t acquire_op_ = 0;
  consensus::Key my_key_;
  // The session the held key lives under: a release names it, so that a
  // release after the session was lost never deletes another holder's key.
  consensus::StoreSessionId key_session_ = consensus::kNoStoreSession;
  std::int64_t my_revision_ = 0;      // create revision (queue, single key) or record mod revision (observation)
  consensus::Key watched_;
  ProcessId watch_member_ = kNoProcess;
  std::uint64_t my_value_ = 0;        // observation: the value this client writes into the record
  std::int64_t observed_revision_ = -1;
  LocalTime observed_since_{};
  LocalTime renew_sent_{};            // observation: when the last successful renewal left
  bool renewing_ = false;
  bool record_lost_ = false;          // observation: a renewal found the record taken
  TimerId retry_timer_, renew_timer_;
  std::uint64_t next_op_ = 1;
};

// The factory the scenario layer uses.
std::unique_ptr<LockClient> make_store_lock(Process& self, LockListener& listener, const StoreLockConfig& config,
                                            std::uint64_t tag_base);

}  // namespace locksim
