// How etcd's Go client keeps a lease alive and when it gives up on it: the
// lessor of clientv3/lease.go (3.4.23; 3.5's is the same in these respects),
// which concurrency.Session uses and whose channel closing is Session.Done().
//
// Two loops, each on its own timer, started when the client first keeps a
// lease alive and running for the client's life:
//   sendKeepAliveLoop  wakes every retryConnWait (500 ms) and sends a
//                      keepalive for every lease whose nextKeepAlive has
//                      passed — so while no reply comes it sends one at every
//                      wake-up;
//   deadlineLoop       wakes every second and closes the keepalive of every
//                      lease whose deadline has passed: Done() closes up to a
//                      second after the client's own deadline.
// A reply with TTL > 0 sets nextKeepAlive = now + TTL/3 and deadline = now +
// TTL, *from its arrival* (so the client's deadline outlives the leader's
// expiry by the reply's latency); a reply that says the lease is gone (TTL
// <= 0: lease not found) closes Done() at once. A new lease's deadline is
// firstKeepAliveTimeout away until its first reply. Keepalives travel on one
// gRPC stream with no timeout of their own: a late reply still counts (unless
// the deadline loop closed the lease first), and a stream whose member
// vanished silently (a host crash, a partition) stays stuck — only an error
// moves it: a refused connection re-opens it on the next member
// retryConnWait later, a not-leader answer (the model's stand-in for a
// follower forwarding the keepalive to the leader) sends it to the leader at
// once.
//
// Both loops start with the client's first KeepAlive (firstKeepAliveOnce),
// and the send loop makes its first pass at once: a client made for its
// session sends its first keepalive the moment the session starts, and its
// deadline loop ticks a whole number of seconds after that — which, with
// the send loop's 500 ms grid, closes Done() half a second or a second after
// the deadline, as a real client does. The phases (when each loop first
// wakes) model a client whose lessor started earlier, for another lease:
// there they are arbitrary, and a scenario sets or varies them.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/core/time.h"
#include "sim/wire/consensus.h"
#include "sim/world/process.h"

namespace locksim {

struct ClientV3Timing {
  Duration keepalive_tick = std::chrono::milliseconds(500);  // retryConnWait
  Duration keepalive_tick_phase{};                           // the send loop's first pass, after the start
  Duration deadline_tick = std::chrono::seconds(1);
  Duration deadline_tick_phase{};
  Duration first_keepalive_timeout = std::chrono::seconds(5);  // defaultTTL without a DialTimeout
  // nextKeepAlive after a reply; nullopt: the reply's TTL / 3, as clientv3 computes it.
  std::optional<Duration> keepalive_every;
};

// Keepalive replies come back with this request id, so that the lock can
// tell them from replies to its own requests.
inline constexpr std::uint32_t kKeepaliveStreamRequest = 0xFFFF'FFFF;

class ClientV3Keepalive {
 public:
  // |first_tag| .. |first_tag| + 2: the send loop, the deadline loop, the
  // stream's reconnection.
  ClientV3Keepalive(Process& self, std::vector<ProcessId> members, ClientV3Timing timing, std::uint64_t first_tag);

  // What a reply or a wake-up did to the lease.
  enum class Change : std::uint8_t { none, extended, closed };

  // KeepAlive(lease): keep |session| alive from now; the stream goes to |member|.
  void keep(consensus::StoreSessionId session, ProcessId member);
  // Send one keepalive now (an explicit extension).
  void send_now();
  // A keepalive reply (request id kKeepaliveStreamRequest).
  Change on_reply(const consensus::Reply& reply);
  // A timer with a tag from |first_tag| on.
  Change on_timer(std::uint64_t tag);
  // The process crashed: every loop and lease is gone.
  void crash();

  // The lease's keepalive lives: Session.Done() has not closed.
  bool open() const { return session_ != consensus::kNoStoreSession; }
  // When the client gives the lease up (last reply's arrival + TTL), on the monotonic clock.
  LocalTime deadline() const { return deadline_; }
  // The member the stream talks to.
  ProcessId member() const { return members_[stream_]; }

 private:
  static constexpr std::uint64_t kSendTick = 0, kDeadlineTick = 1, kReconnect = 2;
  void start_loops();
  void send();
  void close();
  void move_to(ProcessId member);

  Process& self_;
  std::vector<ProcessId> members_;
  ClientV3Timing timing_;
  std::uint64_t first_tag_;
  bool loops_running_ = false;
  bool stream_broken_ = false;  // a refused connection: re-opened on the reconnect timer
  std::size_t stream_ = 0;      // index in members_
  consensus::StoreSessionId session_ = consensus::kNoStoreSession;
  LocalTime deadline_{};
  LocalTime next_keepalive_{};
  TimerId send_timer_, deadline_timer_, reconnect_timer_;
};

}  // namespace locksim
