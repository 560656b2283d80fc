// The history: what happened in one run, as facts stamped with true time.
//
// Models record facts; they never judge. Checkers (checkers.h) are pure
// functions of a History and can be fed hand-written ones. Client requests
// follow Jepsen's shape: invoked, then ok, fail, or info — outcome unknown, as
// for a SET whose reply never came: the key may or may not be on the node.
//
// Facts appear in the order the engine produced them, which is true-time order
// with ties broken by event sequence; checkers rely on that order.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "sim/core/ids.h"
#include "sim/core/time.h"
#include "sim/history/partition_groups.h"
#include "sim/wire/consensus.h"
#include "sim/wire/redis.h"
#include "sim/wire/resource.h"

namespace locksim {


// Points in a client's life that faults can be triggered by ("c1 acquired").
enum class Phase : std::uint8_t {
  started,         // the workload began
  acquire_sent,    // the lock request(s) left the client
  setnx_ok,        // SETNX-then-EXPIRE: SETNX succeeded, EXPIRE not yet sent
  acquired,        // the client believes it holds the lock
  acquire_failed,  // one attempt failed
  read,            // a resource read completed
  wrote,
  marked,
  added,
  incremented_size,
  decremented,
  committed,       // a transaction committed (or rolled back: acquire_failed does not apply)
  worked,          // a local work step ended
  called,          // an external call returned
  checked,         // a validity check passed
  lost_lock,       // a validity check found the lease over
  released,        // release sent
  extended,        // a keepalive reply extended the held lease (a store lock's session)
  session_lost,    // the lock's client library gave the session up (etcd: Done() closed)
  done,            // the workload finished
};
const char* phase_name(Phase p);
bool parse_phase(const std::string& text, Phase& out);
std::vector<std::string> phase_names();  // every phase, in order: for error messages

enum class RequestKind : std::uint8_t { acquire, release, extend, fencing_token };
enum class Outcome : std::uint8_t { ok, fail, info };
// validity_check: a check found the lease over by the client's own clock;
// session_lost: a check found the client library saying the session is lost
// or in doubt (etcd's Session.Done() closed, Curator's SUSPENDED or LOST).
enum class BeliefEnd : std::uint8_t { released, validity_check, crashed, abandoned, session_lost };
enum class KeyGone : std::uint8_t { deleted, expired, overwritten, lost_in_crash, demoted };
enum class AppKind : std::uint8_t { none, counter, register_value, collection, stock };
enum class FaultKind : std::uint8_t { pause, resume, crash, restart, clock_jump, clock_drift, partition, heal, clock_slew };
const char* request_kind_name(RequestKind k);
const char* outcome_name(Outcome o);
const char* belief_end_name(BeliefEnd b);
const char* key_gone_name(KeyGone k);
const char* app_kind_name(AppKind k);
const char* fault_kind_name(FaultKind k);

struct RequestInvoked {
  ProcessId client;
  std::uint64_t op;  // unique per client
  RequestKind kind;
};
struct RequestCompleted {
  ProcessId client;
  std::uint64_t op;
  RequestKind kind;
  Outcome outcome;
};
// The workload starts wanting the lock / stops trying without it.
struct LockWanted {
  ProcessId client;
};
struct LockGaveUp {
  ProcessId client;
};
// A session: one successful acquisition as the client sees it.
struct LockGranted {
  SessionId session;
  ProcessId client;
  std::uint64_t value;          // the random value the client set
  std::int64_t fencing_token;   // resource::kNoToken when there is none
  Duration validity;            // as promised, measured on the client's clock
  ClockKind clock;              // which clock of the client measures it
  LocalTime lease_end_local;    // the client's clock reading at which the lease ends
  TrueTime promised_end = kTrueNever;  // filled by the world when the run ends
};
// A session's lease was extended (compare-and-pexpire on a quorum, or a
// watchdog renewal): from now on the client's clock promises it until
// |lease_end_local|.
struct LockExtended {
  SessionId session;
  ProcessId client;
  ClockKind clock;
  LocalTime lease_end_local;
  TrueTime promised_end = kTrueNever;  // filled by the world when the run ends
};
struct BeliefEnded {
  SessionId session;
  ProcessId client;
  BeliefEnd reason;
};
struct LockReleased {
  SessionId session;
  ProcessId client;
};
// A node's keyspace now maps |key| to |value| (a lock token) / no longer does.
struct KeyHeld {
  ProcessId node;
  redis::KeyId key;
  std::uint64_t value;
};
struct KeyDropped {
  ProcessId node;
  redis::KeyId key;
  std::uint64_t value;
  KeyGone reason;
};
// A replica applied an entry of its master's stream: |key| now holds |value|
// there (present) or nothing (present = false). Replicas are not the lock
// service — only masters record KeyHeld — so this exists for the timeline:
// it shows replication lag and what a promotion will inherit.
struct Replicated {
  ProcessId node;
  redis::KeyId key;
  std::uint64_t value;
  bool present;
  std::uint64_t offset;
};
// A node's role changed: promoted to master (master = kNoProcess) or made a
// replica of |master|, in the sentinels' configuration |epoch|. A consensus
// store member records it too, with its Raft term as the epoch: leader
// (master = kNoProcess), follower of |master|, or candidate (master = itself).
struct RoleChanged {
  ProcessId node;
  ProcessId master;
  std::uint64_t epoch;
};
// A consensus store's session (an etcd lease; a ZooKeeper, Chubby or Consul
// session) as the leader applied it: opened for |client| with |ttl|, expired
// by the leader's lessor (the client did not keep it alive; lock-delay
// applies), or closed by the client. Recorded by the member that was leader
// when the entry applied, once per entry.
enum class StoreSessionEvent : std::uint8_t { opened, expired, closed };
const char* store_session_event_name(StoreSessionEvent e);
struct StoreSession {
  ProcessId member;
  consensus::StoreSessionId session;
  ProcessId client;
  StoreSessionEvent what;
  Duration ttl;
};
struct ResourceOp {
  SessionId session;
  ProcessId client;
  resource::Op op;
  bool accepted;
  resource::Reject reject;
  std::int64_t fencing_token;
};
// The application's state after an accepted op, and once more when the run
// ends (quiescent = true: no session is between two steps by design).
struct AppState {
  AppKind kind;
  std::int64_t counter;     // counter value / register writes
  std::int64_t increments;  // accepted increments (what the counter should be)
  std::int64_t elements;    // collection: elements added
  std::int64_t size;        // collection: its size field
  std::int64_t stock;
  bool quiescent;
};
// A fault as the world applied it: what, on whom, how much and until when,
// each in a field of its own. Recorded also when it changed nothing that
// lasts (a pause inside a longer one: |until| is the longer one's end).
struct FaultApplied {
  FaultKind kind;
  ProcessId target = kNoProcess;  // kNoProcess: a partition or its heal
  Duration length{0};             // pause; clock-slew: how long the new rate lasts
  Duration down_for{0};           // crash: < 0 stays down
  Duration by{0};                 // clock-jump: the wall clock's step
  std::int64_t drift_ppm = 0;     // clock-drift, clock-slew: the clock's new rate
  std::uint32_t partition = 0;    // partition, heal: its id (History::partition_groups)
  bool hold = false;              // partition: messages wait for the heal instead of being dropped
  // When it ends, as things stand at this instant: a pause's resume, a
  // crash's restart, a partition's heal, a slew's return to the old rate;
  // kTrueNever when nothing will end it.
  TrueTime until = kTrueNever;
};
// A stretch a fault made — a process paused or down, a partition, a clock
// slewing — recorded once, when it ends or when the run ends with it still
// open, so that whoever draws it reads one fact instead of pairing starts
// with ends (and repeating the world's rules: a pause inside a longer one,
// a crash that ends a pause).
enum class SpanKind : std::uint8_t { paused, down, partitioned, slewed };
enum class SpanEnd : std::uint8_t { resumed, crashed, restarted, healed, rate_changed, run_ended };
const char* span_kind_name(SpanKind k);
const char* span_end_name(SpanEnd e);
struct FaultSpan {
  SpanKind what;
  SpanEnd ended = SpanEnd::run_ended;
  bool hold = false;              // partitioned: messages waited for the heal
  ProcessId target = kNoProcess;  // kNoProcess: a partition
  std::uint32_t partition = 0;    // partitioned: its id
  TrueTime from;
  std::int64_t drift_ppm = 0;  // slewed: the rate during the slew
};
struct PhaseReached {
  ProcessId process;
  Phase phase;
};
// A scenario's fault (History::fault_names[fault]) fired: its time came or
// its phase was reached. |took_effect| is false when it changed nothing — a
// pause or crash of a crashed process, a restart of a running one, a pause
// inside a longer pause — so that a finding never rests on a silent no-op.
struct FaultFired {
  std::uint32_t fault;
  bool took_effect;
};
struct RunEnded {};

using FactBody = std::variant<RequestInvoked, RequestCompleted, LockWanted, LockGaveUp, LockGranted, LockExtended,
                              BeliefEnded, LockReleased, KeyHeld, KeyDropped, Replicated, RoleChanged, ResourceOp,
                              AppState, FaultApplied, FaultSpan, PhaseReached, FaultFired, StoreSession, RunEnded>;

struct Fact {
  TrueTime at;
  FactBody body;
};

struct ProcessInfo {
  std::string name;
  ProcessKind kind;
};

// What the checkers need to know about the deployment.
struct ServiceLayout {
  std::vector<ProcessId> nodes;  // the lock service's nodes
  std::uint32_t quorum = 1;      // how many must hold a value for it to be the holder
  redis::KeyId lock_key = 0;
  // Per entry of |nodes|: the master it replicates when the run starts, or
  // kNoProcess for a master (roles change later by RoleChanged facts).
  std::vector<ProcessId> initial_masters;
  // A consensus store: its members speak for one committed state (whichever
  // leads records its changes), so the holder is that state's owner, not a
  // count over the members.
  bool replicated_state = false;
};

struct History {
  std::vector<ProcessInfo> processes;
  std::vector<std::string> key_names;
  std::vector<std::string> fault_names;  // the scenario's [fault.NAME] tables, in file order
  // Each partition's groups, by its id (FaultApplied.partition): who was cut off
  // from whom, for the trace and the timelines.
  std::vector<PartitionGroups> partition_groups;
  ServiceLayout service;
  AppKind app = AppKind::none;
  std::vector<Fact> facts;

  const std::string& name_of(ProcessId p) const;
};

}  // namespace locksim
