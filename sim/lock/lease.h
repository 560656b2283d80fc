// What a lock client hands to the code it protects, and how it tells that
// code what happened. A protocol (single-node, later Redlock, ...) implements
// LockClient; the workload drives it through acquire() and release() and hears
// back through LockListener. A lease is *believed*: the client measured its
// validity on its own clock, and nothing stops a paused client from believing
// in a lease the service has long forgotten.
#pragma once

#include <cstdint>

#include "sim/history/history.h"
#include "sim/core/time.h"
#include "sim/wire/redis.h"
#include "sim/wire/message.h"
#include "sim/world/process.h"

namespace locksim {

struct Lease {
  SessionId session = 0;
  std::uint64_t value = 0;                // the random value this session set
  std::int64_t fencing_token = resource::kNoToken;
  ClockKind clock = ClockKind::monotonic;  // the clock that measures validity
  LocalTime end_local{};                  // that clock's reading at which the lease ends
};

// The one rule every protocol uses to judge its lease: still valid while the
// client's own clock (the one that measured it) reads before its end.
inline bool lease_unexpired(const Process& self, const Lease& lease) {
  return self.clock_now(lease.clock) < lease.end_local;
}

class LockListener {
 public:
  virtual ~LockListener() = default;
  virtual void on_acquired(const Lease& lease) = 0;
  // One attempt failed (refused, timed out, or granted too late to be valid).
  virtual void on_acquire_failed() = 0;
  // An extension finished: ok = the lease now runs longer.
  virtual void on_extended(bool /*ok*/) {}
  // The lock answered a resource op it keeps itself (keeps_resource()).
  virtual void on_resource_reply(const resource::Reply& /*reply*/) {}
};

class LockClient {
 public:
  virtual ~LockClient() = default;
  // One attempt; the answer comes through the listener. |first_of_cycle| says
  // whether this is the first try of a new acquire call or a retry (some
  // clients compute the lease end from the first try). REQUIRES: idle.
  virtual void acquire(bool first_of_cycle) = 0;
  // Asks the service to extend the held lease by a TTL from now; the answer
  // comes through on_extended. Ignored unless held and no extension is running.
  virtual void extend() = 0;
  // Gives the lease up: the client stops believing at once and sends the
  // release. REQUIRES: held.
  virtual void release() = 0;
  // The workload's validity check found the lease over: stop believing
  // without touching the service (a release may still follow).
  virtual void lose() = 0;
  // The workload moves on to its next cycle without releasing (release =
  // false): stop believing and forget the lease; its key stays on the
  // service until the TTL runs out, as a forgotten unlock leaves it.
  // REQUIRES: held.
  virtual void abandon() = 0;
  // Is the lease still valid by the client's own clock?
  virtual bool lease_valid() const = 0;
  virtual bool held() const = 0;
  virtual const Lease& lease() const = 0;
  virtual void on_reply(const redis::Reply& reply) = 0;
  virtual void on_timer(std::uint64_t tag) = 0;
  // The process crashed: forget everything (the world records the crash).
  virtual void on_crash() = 0;
  // The caller stops trying to acquire (its attempts are used up): a lock
  // that kept its keys between attempts gives them back now.
  virtual void give_up() {}
  // Any other message for the lock layer (sentinel announcements). Ignored
  // by default.
  virtual void on_notice(const Payload& /*payload*/) {}
  // Send future requests to |node| (the master moved). Ignored by default.
  virtual void retarget(ProcessId /*node*/) {}
  // True when the resource lives in the lock's own service (a stock kept in
  // a consensus store, sold by a txn that compares the holder's revision):
  // the workload then hands its resource ops to resource_op() and hears
  // back through LockListener::on_resource_reply. No Redis lock does.
  virtual bool keeps_resource() const { return false; }
  virtual void resource_op(const resource::Request& /*request*/) {}
};

}  // namespace locksim
