#include "sim/lock/clientv3_keepalive.h"

#include <algorithm>

#include "sim/core/check.h"
#include "sim/core/limits.h"

namespace locksim {

ClientV3Keepalive::ClientV3Keepalive(Process& self, std::vector<ProcessId> members, ClientV3Timing timing,
                                     std::uint64_t first_tag)
    : self_(self), members_(std::move(members)), timing_(timing), first_tag_(first_tag) {
  LOCKSIM_CHECK(!members_.empty(), "a keepalive stream needs the store's members");
}

void ClientV3Keepalive::keep(consensus::StoreSessionId session, ProcessId member) {
  session_ = session;
  const LocalTime now = self_.monotonic_now();
  deadline_ = saturating_add(now, timing_.first_keepalive_timeout);
  // Due at once: KeepAlive sets nextKeepAlive = time.Now(), which the send
  // loop's own time.Now() is always after.
  next_keepalive_ = now - Duration{1};
  move_to(member);
  if (!loops_running_) start_loops();
}

void ClientV3Keepalive::start_loops() {
  loops_running_ = true;
  send_timer_ = self_.set_timer(timing_.keepalive_tick_phase, first_tag_ + kSendTick);
  deadline_timer_ = self_.set_timer(timing_.deadline_tick_phase, first_tag_ + kDeadlineTick);
}

void ClientV3Keepalive::move_to(ProcessId member) {
  const auto it = std::find(members_.begin(), members_.end(), member);
  if (it != members_.end()) stream_ = static_cast<std::size_t>(it - members_.begin());
}

void ClientV3Keepalive::send() {
  consensus::Request r;
  r.request_id = kKeepaliveStreamRequest;
  r.op = consensus::Op::keep_alive;
  r.session = session_;
  self_.send(member(), r);
}

void ClientV3Keepalive::send_now() {
  if (open() && !stream_broken_) send();
}

void ClientV3Keepalive::close() { session_ = consensus::kNoStoreSession; }

ClientV3Keepalive::Change ClientV3Keepalive::on_reply(const consensus::Reply& reply) {
  // A reply for a lease this client no longer keeps alive (closed by the
  // deadline loop, or an older session) changes nothing: recvKeepAlive finds
  // no keepAlive entry for it.
  if (!open() || reply.session != session_) return Change::none;
  switch (reply.status) {
    case consensus::Status::ok: {
      const LocalTime now = self_.monotonic_now();
      const Duration ttl = std::chrono::milliseconds(reply.number);
      next_keepalive_ = saturating_add(now, timing_.keepalive_every.value_or(ttl / 3));
      deadline_ = saturating_add(now, ttl);
      return Change::extended;
    }
    case consensus::Status::not_leader:
      // A follower would forward it; without a leader to forward to, the
      // next wake-up sends again.
      if (reply.leader != kNoProcess) {
        move_to(reply.leader);
        send();
      }
      return Change::none;
    case consensus::Status::refused:
      // The stream broke: recvKeepAliveLoop opens a new one retryConnWait
      // later, on the balancer's next member.
      if (!stream_broken_) {
        stream_broken_ = true;
        reconnect_timer_ = self_.set_timer(timing_.keepalive_tick, first_tag_ + kReconnect);
      }
      return Change::none;
    default:
      // TTL <= 0: the lease is not found (revoked or expired): every channel closes.
      close();
      return Change::closed;
  }
}

ClientV3Keepalive::Change ClientV3Keepalive::on_timer(std::uint64_t tag) {
  const LocalTime now = self_.monotonic_now();
  switch (tag - first_tag_) {
    case kSendTick:
      if (open() && !stream_broken_ && next_keepalive_ < now) send();
      send_timer_ = self_.set_timer(timing_.keepalive_tick, first_tag_ + kSendTick);
      return Change::none;
    case kDeadlineTick:
      deadline_timer_ = self_.set_timer(timing_.deadline_tick, first_tag_ + kDeadlineTick);
      if (open() && deadline_ < now) {
        close();
        return Change::closed;
      }
      return Change::none;
    case kReconnect:
      // A new stream, a new send loop: its first pass runs at once.
      reconnect_timer_ = {};
      stream_broken_ = false;
      stream_ = (stream_ + 1) % members_.size();
      self_.cancel_timer(send_timer_);
      send_timer_ = self_.set_timer(Duration{0}, first_tag_ + kSendTick);
      return Change::none;
    default: LOCKSIM_CHECK(false, "unknown clientv3 keepalive timer");
  }
  return Change::none;
}

void ClientV3Keepalive::crash() {
  loops_running_ = false;
  stream_broken_ = false;
  session_ = consensus::kNoStoreSession;
  send_timer_ = deadline_timer_ = reconnect_timer_ = {};
}

}  // namespace locksim
