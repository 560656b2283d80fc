// [store] and [store_lock]: the consensus store that keeps a store protocol's
// lock (etcd, ZooKeeper, Chubby, Consul, Kubernetes, DynamoDB), and the
// client side of that lock. Timings left out come from the protocol's preset
// (store_presets.h), filled in by resolve_store_defaults().
#include <algorithm>
#include <climits>

#include "sim/core/limits.h"
#include "sim/scenario/protocols.h"
#include "sim/scenario/read/sections.h"
#include "sim/scenario/store_presets.h"

namespace locksim::scenario {

namespace {

using namespace std::chrono_literals;

constexpr std::pair<ClockKind, std::string_view> kQueueClocks[] = {{ClockKind::wall, "wall"},
                                                               {ClockKind::monotonic, "monotonic"}};

constexpr std::string_view kMembers = "members", kInitialLeader = "initial_leader";

const KeyTable<StoreSpec> kStoreKeys{
    {{.name = kMembers,
      .rule = CustomRule{"array of process names"},
      .doc = "the store's members (etcd members, the ZooKeeper ensemble, Chubby's replicas, Consul servers); at "
             "least one, no repeats. A write commits on a majority of them",
      .default_note = "`[\"s1\", \"s2\", \"s3\"]`"},
     {}},
    {{.name = kInitialLeader,
      .rule = CustomRule{"a name from `members`"},
      .doc = "the member that leads term 1 when the run starts (stories start from a settled cluster)",
      .default_note = "the first member"},
     {}},
    {{.name = "heartbeat",
      .rule = DurationRule{.sign = Sign::positive},
      .doc = "how often the leader sends AppendEntries to each follower (etcd: 100 ms)",
      .default_note = "the protocol's"},
     into(&StoreSpec::heartbeat)},
    {{.name = "election_timeout",
      .rule = DurationRule{.sign = Sign::positive},
      .doc = "a follower that hears no leader for a time drawn from [election_timeout, 2 × election_timeout) on its "
             "monotonic clock stands for election (etcd: 1 s)",
      .default_note = "the protocol's"},
     into(&StoreSpec::election_timeout)},
    {{.name = "lessor_tick",
      .rule = DurationRule{.sign = Sign::positive},
      .doc = "how often each member's lessor loop wakes; the leader's looks for sessions whose TTL ran out and "
             "revokes them through the log (etcd: its runLoop, 500 ms; ZooKeeper: tickTime, the size of its expiry "
             "buckets: a session expires at the first bucket boundary after its last touch + its timeout)",
      .default_note = "the protocol's"},
     into(&StoreSpec::lessor_tick)},
    {{.name = "lessor_tick_phase",
      .rule = DurationRule{.sign = Sign::non_negative},
      .doc = "when each member's lessor loop first ticks after the member starts (or restarts); every tick after "
             "comes `lessor_tick` later. Below `lessor_tick`. ZooKeeper's expiry buckets lie on the same grid",
      .default_note = "drawn per run in [0, `lessor_tick`), per member"},
     into(&StoreSpec::lessor_tick_phase)},
    {{.name = "lessor_queue_clock",
      .rule = choice_of(kQueueClocks),
      .doc = "etcd only: the clock that orders the leader's expiry queue. `\"wall\"` (3.4: expiry.UnixNano()): "
             "a lease comes due on the wall clock, is then revoked only if expired on the monotonic clock, else "
             "looked at again `expired_retry` later — so a wall-clock step on the leader delays revocations "
             "(forward: up to `expired_retry`; backward: by the step). `\"monotonic\"` (3.5): a step changes "
             "nothing",
      .default_note = "the release's"},
     into(&StoreSpec::lessor_queue_clock)},
    {{.name = "expired_retry",
      .rule = DurationRule{.sign = Sign::positive},
      .doc = "etcd only: how long an expiry-queue item that came due is pushed back (expiredLeaseRetryInterval): "
             "the next look at a lease that was due but not expired, or whose revocation did not commit",
      .default_note = "etcd's ReqTimeout: 5 s + 2 × `election_timeout` (7 s)"},
     into(&StoreSpec::expired_retry)},
    {{.name = "lease_checkpoint_interval",
      .rule = DurationRule{.sign = Sign::non_negative, .fallback = 0s},
      .doc = "etcd only: lease checkpointing (`--experimental-enable-lease-checkpoint`, off by default in 3.4 and "
             "3.5): every this long the leader records a lease's remaining TTL through the log, and a new leader "
             "gives the lease that remainder (plus `promotion_extension`) instead of its full TTL. etcd's interval "
             "is 5 minutes; `\"0s\"` = off"},
     into(&StoreSpec::lease_checkpoint_interval)},
    {{.name = "renew_confirms_leadership",
      .rule = BoolRule{},
      .doc = "etcd only: a leader answers a keepalive only after a majority acknowledged a heartbeat it sent after "
             "the keepalive came (3.5.13 on: ensureLeadership). `false` (3.4): any member that believes it leads "
             "renews — a leader cut off from the others renews leases until CheckQuorum deposes it",
      .default_note = "the release's"},
     into(&StoreSpec::renew_confirms_leadership)},
    {{.name = "min_ttl",
      .rule = DurationRule{.sign = Sign::positive},
      .doc = "a session TTL below this is raised to it (etcd: ⌈1.5 × election timeout⌉ = 2 s; ZooKeeper: 2 "
             "ticks; Consul: 10 s)",
      .default_note = "the protocol's"},
     into(&StoreSpec::min_ttl)},
    {{.name = "promotion_extension",
      .rule = DurationRule{.sign = Sign::non_negative},
      .doc = "a new leader gives every session its full TTL plus this, so that no lease expires early on a leader "
             "change (etcd: the election timeout)",
      .default_note = "the protocol's"},
     into(&StoreSpec::promotion_extension)},
    {{.name = "ttl_multiplier",
      .rule = IntegerRule{.min = 1, .max = 100},
      .doc = "the store keeps a session this many times its TTL before expiring it (Consul: 2)",
      .default_note = "the protocol's"},
     into(&StoreSpec::ttl_multiplier)},
    {{.name = "stock",
      .rule = BoolRule{.fallback = false},
      .doc = "the resource's stock lives in the store: reads are store reads and a decrement is a txn that "
             "compares the holder's create revision (etcd's recommended pattern). Needs `resource.app = "
             "\"stock\"`"},
     into(&StoreSpec::stock)},};

constexpr std::pair<SessionPolicy, std::string_view> kPolicies[] = {{SessionPolicy::obey_suspended, "obey-suspended"},
                                                                    {SessionPolicy::obey_lost, "obey-lost"},
                                                                    {SessionPolicy::ignore, "ignore"}};

// A key read into the client's knobs (StoreLockKnobs), as the model takes them.
template <typename Get>
Binding<StoreLockSpec> knob(Get get) {
  return into_nested<StoreLockSpec>([get](StoreLockSpec& s) -> auto& { return get(s.knobs); });
}

const KeyTable<StoreLockSpec> kStoreLockKeys{
    {{.name = "keepalive_every",
      .rule = DurationRule{.sign = Sign::positive},
      .doc = "how often the client keeps its session alive (etcd: TTL/3; ZooKeeper ping: T/3; Consul: TTL/2), or "
             "renews / polls an observation lock (Kubernetes retry period 2 s; DynamoDB heartbeat 5 s)",
      .default_note = "the protocol's"},
     knob([](StoreLockKnobs& k) -> auto& { return k.keepalive_every; })},
    {{.name = "recheck",
      .rule = BoolRule{},
      .doc = "etcd only: after waiting for the lower keys to go, re-read the own key and fail with "
             "ErrSessionExpired when it is gone (3.5 on). `false` is the recipe before Jepsen's report, and every "
             "3.4 release's: a waiter whose session expired while it waited believes it holds the lock",
      .default_note = "the release's (3.4.23: `false`)"},
     knob([](StoreLockKnobs& k) -> auto& { return k.recheck_after_wait; })},
    {{.name = "keepalive_tick",
      .rule = DurationRule{.sign = Sign::positive},
      .doc = "etcd only: clientv3's sendKeepAliveLoop wakes this often (retryConnWait) and sends a keepalive "
             "when `keepalive_every` has passed since the last reply — and at every tick while no reply comes",
      .default_note = "the release's (500 ms)"},
     knob([](StoreLockKnobs& k) -> auto& { return k.clientv3_timing.keepalive_tick; })},
    {{.name = "keepalive_tick_phase",
      .rule = DurationRule{.sign = Sign::non_negative},
      .doc = "etcd only: when the send loop first wakes after the client opens its first session. 0 is a "
             "client made for the session (its first keepalive goes out at once); another value, a client whose "
             "lessor started earlier for another lease. Below `keepalive_tick`",
      .default_note = "0"},
     knob([](StoreLockKnobs& k) -> auto& { return k.clientv3_timing.keepalive_tick_phase; })},
    {{.name = "deadline_tick",
      .rule = DurationRule{.sign = Sign::positive},
      .doc = "etcd only: clientv3's deadlineLoop wakes this often and closes the session (`Done()`) once its "
             "deadline — the last keepalive reply's arrival + the TTL — has passed: the client learns it lost "
             "the lease up to this long after its own deadline",
      .default_note = "the release's (1 s)"},
     knob([](StoreLockKnobs& k) -> auto& { return k.clientv3_timing.deadline_tick; })},
    {{.name = "deadline_tick_phase",
      .rule = DurationRule{.sign = Sign::non_negative},
      .doc = "etcd only: when the deadline loop first wakes after the client opens its first session (0: "
             "it ticks whole periods after the session's start, as on a client made for it). Below "
             "`deadline_tick`",
      .default_note = "0"},
     knob([](StoreLockKnobs& k) -> auto& { return k.clientv3_timing.deadline_tick_phase; })},
    {{.name = "first_keepalive_timeout",
      .rule = DurationRule{.sign = Sign::positive},
      .doc = "etcd only: a new session's deadline before its first keepalive reply (clientv3: DialTimeout + "
             "1 s, or 5 s without a DialTimeout)",
      .default_note = "the release's (5 s)"},
     knob([](StoreLockKnobs& k) -> auto& { return k.clientv3_timing.first_keepalive_timeout; })},
    {{.name = "policy",
      .rule = choice_of(kPolicies),
      .doc = "ZooKeeper only: when the Curator application stops acting as the holder — at SUSPENDED "
             "(`suspended_after` of silence from the ensemble), at LOST (`lost_after` later), or never",
      .default_note = "`\"obey-suspended\"`"},
     knob([](StoreLockKnobs& k) -> auto& { return k.policy; })},
    {{.name = "suspended_after",
      .rule = DurationRule{.sign = Sign::positive},
      .doc = "ZooKeeper only: the client's read timeout; silence this long is SUSPENDED",
      .default_note = "2/3 of `lock.ttl`"},
     knob([](StoreLockKnobs& k) -> auto& { return k.suspended_after; })},
    {{.name = "lost_after",
      .rule = DurationRule{.sign = Sign::positive},
      .doc = "ZooKeeper only: LOST comes this long after SUSPENDED — Curator's simulated expiry after one "
             "session timeout with a 3.8 client; a 3.9.3 client expires the session itself 4T/3 after it last "
             "heard from the ensemble, 2T/3 after SUSPENDED",
      .default_note = "the release's: `lock.ttl` (3.8.0), 2/3 of it (3.9.3)"},
     knob([](StoreLockKnobs& k) -> auto& { return k.lost_after; })},
    {{.name = "lock_delay",
      .rule = DurationRule{.sign = Sign::non_negative},
      .doc = "Chubby and Consul only: after a holder *fails* (its session expires; not after a clean release) "
             "nobody can take the lock for this long, by the leader's clock",
      .default_note = "Chubby 60 s, Consul 15 s"},
     knob([](StoreLockKnobs& k) -> auto& { return k.lock_delay; })},
    {{.name = "renew_deadline",
      .rule = DurationRule{.sign = Sign::positive},
      .doc = "Kubernetes and DynamoDB only: the holder stops acting as the holder when its last successful "
             "renewal is this old on its own clock",
      .default_note = "Kubernetes 10 s; DynamoDB the lease (`lock.ttl`)"},
     knob([](StoreLockKnobs& k) -> auto& { return k.renew_deadline; })},};

bool listed(const std::vector<std::string_view>& keys, std::string_view key) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

// Which [store_lock] keys each store protocol reads (its row's); any other
// written there is an error rather than silently ignored.
bool applies(std::string_view key, LockProtocol p) {
  return key == "keepalive_every" || listed(protocol_decl(p).store_lock_keys, key);
}

// The [store] keys of one server's lessor apply to it alone.
bool store_key_applies(std::string_view key, LockProtocol p) {
  for (const ProtocolDecl& other : protocols())
    if (listed(other.lessor_keys, key)) return listed(protocol_decl(p).lessor_keys, key);
  return true;
}

std::string protocol_words(ReadContext& c) {
  return "the protocol is \"" + std::string(lock_protocol_name(c.spec.lock.protocol)) + "\"" + (c.written("lock", "protocol") ? "" : " (the default)");
}

void read_members(ReadContext& c, const DocNode& st) {
  StoreSpec& store = c.spec.store;
  if (st.find(kMembers) == nullptr) {
    store.members = {"s1", "s2", "s3"};
    for (const std::string& name : store.members)
      c.processes.add(c.r, name, NameKind::store_member, st.pos, "store.members");
  } else if (read_processes(c, st, kMembers, "member", NameKind::store_member, store.members) &&
             store.members.empty()) {
    c.r.fail(*st.find(kMembers), "needs at least one member name");
  }
  const DocNode* leader = st.find(kInitialLeader);
  if (leader == nullptr || !c.r.string_value(*leader, "a member name such as \"s1\"", store.initial_leader)) return;
  if (std::find(store.members.begin(), store.members.end(), store.initial_leader) == store.members.end())
    c.r.fail(*leader, "unknown store member " + in_quotes(store.initial_leader) +
                          did_you_mean(store.initial_leader, store.members) + "; members: " + join_list(store.members));
}

}  // namespace

SectionDecl store_section() { return {.name = "store", .keys = declarations(kStoreKeys)}; }
SectionDecl store_lock_section() { return {.name = "store_lock", .keys = declarations(kStoreLockKeys)}; }

void read_store_sections(ReadContext& c) {
  const DocNode& st = c.section("store");
  const DocNode& sl = c.section("store_lock");
  const LockProtocol protocol = c.spec.lock.protocol;
  if (!uses_store(protocol)) {
    for (const DocNode* table : {&st, &sl})
      if (!table->members.empty())
        c.r.fail(table->members.front(), "[" + std::string(table == &st ? "store" : "store_lock") +
                                             "] applies only to a lock kept in a consensus store (protocol = "
                                             "\"etcd\", \"zookeeper\", ...), and " + protocol_words(c));
    return;
  }
  read_keys(c.r, st, kStoreKeys, c.spec.store);
  read_members(c, st);
  read_keys(c.r, sl, kStoreLockKeys, c.spec.lock.store_lock);
  // The schema pass has refused undeclared keys already.
  for (const DocNode& key : sl.members)
    if (!applies(key.key, protocol))
      c.r.fail(key, "store_lock." + key.key + " does not apply to " + protocol_words(c));
  for (const DocNode& key : st.members)
    if (!store_key_applies(key.key, protocol))
      c.r.fail(key, "store." + key.key + " is etcd's lessor and does not apply to " + protocol_words(c));
}

namespace {

// A loop's first tick comes within one period of its start.
void check_phase(ReadContext& c, std::string_view section, std::string_view key, const std::optional<Duration>& phase,
                 Duration tick, std::string_view tick_key) {
  if (!phase || *phase < tick) return;
  const DocNode* node = c.section(section).find(key);
  const std::string message = std::string(section) + "." + std::string(key) + " = " + format_duration(*phase) +
                              " must be below " + std::string(section) + "." + std::string(tick_key) + " = " +
                              format_duration(tick) + ": a loop first ticks within one period of its start";
  if (node != nullptr) c.r.fail(*node, message);
  else c.r.fail(c.section(section).pos, std::string(section) + "." + std::string(key), message);
}

}  // namespace

void check_store_phases(ReadContext& c) {
  if (!uses_store(c.spec.lock.protocol)) return;
  const StoreSpec& st = c.spec.store;
  const StoreLockSpec& sl = c.spec.lock.store_lock;
  check_phase(c, "store", "lessor_tick_phase", st.lessor_tick_phase, st.lessor_tick, "lessor_tick");
  if (!protocol_decl(c.spec.lock.protocol).clientv3) return;
  const ClientV3Timing& t = sl.knobs.clientv3_timing;
  check_phase(c, "store_lock", "keepalive_tick_phase", std::optional(t.keepalive_tick_phase), t.keepalive_tick,
              "keepalive_tick");
  check_phase(c, "store_lock", "deadline_tick_phase", std::optional(t.deadline_tick_phase), t.deadline_tick,
              "deadline_tick");
}

void resolve_store_defaults(ReadContext& c) {
  ScenarioSpec& spec = c.spec;
  if (!uses_store(spec.lock.protocol)) return;
  const StorePreset& p = store_preset(spec.lock.protocol);
  const auto unwritten = [&](std::string_view section, std::string_view key) { return !c.written(section, key); };
  LockSpec& lock = spec.lock;
  StoreSpec& store = spec.store;
  StoreLockSpec& sl = lock.store_lock;
  if (unwritten("lock", "ttl")) lock.ttl = p.ttl;
  if (store.initial_leader.empty() && !store.members.empty()) store.initial_leader = store.members.front();
  if (unwritten("store", "heartbeat")) store.heartbeat = p.heartbeat;
  if (unwritten("store", "election_timeout")) store.election_timeout = p.election_timeout;
  if (unwritten("store", "lessor_tick")) store.lessor_tick = p.lessor_tick;
  if (unwritten("store", "min_ttl")) store.min_ttl = p.min_ttl;
  if (unwritten("store", "ttl_multiplier")) store.ttl_multiplier = p.ttl_multiplier;
  if (unwritten("store", "promotion_extension"))
    store.promotion_extension = p.promotion_extension.value_or(store.election_timeout);
  sl.keepalive_every_written = !unwritten("store_lock", "keepalive_every");
  if (unwritten("store_lock", "keepalive_every"))
    sl.knobs.keepalive_every = p.keepalive_per_ttl_ppm > 0
                                   ? std::max(Duration{1}, scale_ppm(lock.ttl, p.keepalive_per_ttl_ppm))
                                   : p.keepalive_fixed;
  if (unwritten("store_lock", "policy")) sl.knobs.policy = p.policy;
  if (unwritten("store_lock", "suspended_after")) sl.knobs.suspended_after = std::max(Duration{1}, lock.ttl * 2 / 3);
  if (unwritten("store_lock", "lost_after")) sl.knobs.lost_after = lock.ttl;
  if (unwritten("store_lock", "lock_delay")) sl.knobs.lock_delay = p.lock_delay;
  if (unwritten("store_lock", "renew_deadline")) sl.knobs.renew_deadline = p.renew_deadline.value_or(lock.ttl);
  // The release: what the file names, else the protocol's own.
  const StoreRelease* release = find_store_release(lock.preset);
  if (release == nullptr) release = default_store_release(spec.lock.protocol);
  if (release == nullptr) return;
  if (lock.preset.empty()) lock.preset = release->name;
  if (unwritten("store", "lessor_queue_clock")) store.lessor_queue_clock = release->lessor_queue_clock;
  // etcdserver/server.go: ExpiredLeasesRetryInterval = ReqTimeout().
  if (unwritten("store", "expired_retry") && listed(protocol_decl(spec.lock.protocol).lessor_keys, "expired_retry"))
    store.expired_retry = saturating_add(5s, saturating_mul(store.election_timeout, 2));
  if (unwritten("store", "renew_confirms_leadership")) store.renew_confirms_leadership = release->renew_confirms_leadership;
  if (unwritten("store_lock", "recheck")) sl.knobs.recheck_after_wait = release->recheck;
  ClientV3Timing& t = sl.knobs.clientv3_timing;
  if (unwritten("store_lock", "keepalive_tick")) t.keepalive_tick = release->keepalive_tick;
  if (unwritten("store_lock", "deadline_tick")) t.deadline_tick = release->deadline_tick;
  if (unwritten("store_lock", "first_keepalive_timeout")) t.first_keepalive_timeout = release->first_keepalive_timeout;
  if (release->lost_after_per_ttl_ppm > 0 && unwritten("store_lock", "lost_after"))
    sl.knobs.lost_after = std::max(Duration{1}, scale_ppm(lock.ttl, release->lost_after_per_ttl_ppm));
}

}  // namespace locksim::scenario
