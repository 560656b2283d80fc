// [store] and [store_lock]: the consensus store that keeps a store protocol's
// lock (etcd, ZooKeeper, Chubby, Consul, Kubernetes, DynamoDB), and the
// client side of that lock. Timings left out come from the protocol's preset
// (store_presets.h), filled in by resolve_store_defaults().
#include <algorithm>
#include <climits>

#include "sim/scenario/read/sections.h"
#include "sim/scenario/store_presets.h"

namespace locksim::scenario {

namespace {

using namespace std::chrono_literals;

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
      .doc = "how often the leader looks for sessions whose TTL ran out on its monotonic clock and revokes them "
             "through the log (etcd: 500 ms; ZooKeeper: tickTime)",
      .default_note = "the protocol's"},
     into(&StoreSpec::lessor_tick)},
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

const KeyTable<StoreLockSpec> kLockKeys{
    {{.name = "keepalive_every",
      .rule = DurationRule{.sign = Sign::positive},
      .doc = "how often the client keeps its session alive (etcd: TTL/3; ZooKeeper ping: T/3; Consul: TTL/2), or "
             "renews / polls an observation lock (Kubernetes retry period 2 s; DynamoDB heartbeat 5 s)",
      .default_note = "the protocol's"},
     into(&StoreLockSpec::keepalive_every)},
    {{.name = "recheck",
      .rule = BoolRule{.fallback = true},
      .doc = "etcd only: after waiting for the lower keys to go, re-read the own key and fail with "
             "ErrSessionExpired when it is gone. `false` is the recipe before Jepsen's report: a waiter whose "
             "session expired while it waited believes it holds the lock"},
     into(&StoreLockSpec::recheck)},
    {{.name = "policy",
      .rule = choice_of(kPolicies),
      .doc = "ZooKeeper only: when the Curator application stops acting as the holder — at SUSPENDED "
             "(`suspended_after` of silence from the ensemble), at LOST (`lost_after` later), or never",
      .default_note = "`\"obey-suspended\"`"},
     into(&StoreLockSpec::policy)},
    {{.name = "suspended_after",
      .rule = DurationRule{.sign = Sign::positive},
      .doc = "ZooKeeper only: the client's read timeout; silence this long is SUSPENDED",
      .default_note = "2/3 of `lock.ttl`"},
     into(&StoreLockSpec::suspended_after)},
    {{.name = "lost_after",
      .rule = DurationRule{.sign = Sign::positive},
      .doc = "ZooKeeper only: Curator 3 simulates LOST this long after SUSPENDED",
      .default_note = "`lock.ttl`"},
     into(&StoreLockSpec::lost_after)},
    {{.name = "lock_delay",
      .rule = DurationRule{.sign = Sign::non_negative},
      .doc = "Chubby and Consul only: after a holder *fails* (its session expires; not after a clean release) "
             "nobody can take the lock for this long, by the leader's clock",
      .default_note = "Chubby 60 s, Consul 15 s"},
     into(&StoreLockSpec::lock_delay)},
    {{.name = "renew_deadline",
      .rule = DurationRule{.sign = Sign::positive},
      .doc = "Kubernetes and DynamoDB only: the holder stops acting as the holder when its last successful "
             "renewal is this old on its own clock",
      .default_note = "Kubernetes 10 s; DynamoDB the lease (`lock.ttl`)"},
     into(&StoreLockSpec::renew_deadline)},};

// Which [store_lock] keys each store protocol reads; any other written there
// is an error rather than silently ignored.
bool applies(std::string_view key, LockProtocol p) {
  if (key == "keepalive_every") return true;
  if (key == "recheck") return p == LockProtocol::etcd;
  if (key == "policy" || key == "suspended_after" || key == "lost_after") return p == LockProtocol::zookeeper;
  if (key == "lock_delay") return p == LockProtocol::chubby || p == LockProtocol::consul;
  if (key == "renew_deadline") return p == LockProtocol::kubernetes || p == LockProtocol::dynamodb;
  return false;
}

std::string protocol_words(ReadContext& c) {
  return "the protocol is \"" + std::string(lock_protocol_name(c.spec.lock.protocol)) + "\"" + (c.written("lock", "protocol") ? "" : " (the default)");
}

void read_members(ReadContext& c, const DocNode& st) {
  StoreSpec& store = c.spec.store;
  if (st.find(kMembers) == nullptr) {
    store.members = {"s1", "s2", "s3"};
    for (const std::string& name : store.members) c.processes.add(c.r, name, "store member", st.pos, "store.members");
  } else if (read_processes(c, st, kMembers, "member", "store member", store.members) && store.members.empty()) {
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
SectionDecl store_lock_section() { return {.name = "store_lock", .keys = declarations(kLockKeys)}; }

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
  read_keys(c.r, sl, kLockKeys, c.spec.lock.store_lock);
  // The schema pass has refused undeclared keys already.
  for (const DocNode& key : sl.members)
    if (!applies(key.key, protocol))
      c.r.fail(key, "store_lock." + key.key + " does not apply to " + protocol_words(c));
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
  if (unwritten("store_lock", "keepalive_every"))
    sl.keepalive_every = p.keepalive_per_ttl_ppm > 0 ? std::max(Duration{1}, lock.ttl * p.keepalive_per_ttl_ppm / 1'000'000)
                                                     : p.keepalive_fixed;
  if (unwritten("store_lock", "policy")) sl.policy = p.policy;
  if (unwritten("store_lock", "suspended_after")) sl.suspended_after = std::max(Duration{1}, lock.ttl * 2 / 3);
  if (unwritten("store_lock", "lost_after")) sl.lost_after = lock.ttl;
  if (unwritten("store_lock", "lock_delay")) sl.lock_delay = p.lock_delay;
  if (unwritten("store_lock", "renew_deadline")) sl.renew_deadline = p.renew_deadline.value_or(lock.ttl);
}

}  // namespace locksim::scenario
