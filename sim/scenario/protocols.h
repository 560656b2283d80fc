// Every lock protocol, one row each. What the scenario layer asks of a
// protocol — which servers it runs on, which keys and sections apply, which
// phases it reaches, how its clients are made — is a column of its row, not a
// comparison with its name somewhere else, so a new protocol is its client,
// its row and (if it has knobs of its own) its section.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "sim/lock/store_lock_config.h"
#include "sim/scenario/lock_factory.h"
#include "sim/scenario/spec.h"

namespace locksim {

enum class ProtocolFamily : std::uint8_t {
  redis,  // its lock lives on the Redis nodes of [redis]
  store,  // its lock lives in the consensus store of [store], with [store_lock] for the client
  none,   // no lock service: the no-lock baseline
};

struct ProtocolDecl {
  LockProtocol protocol;
  std::string_view name;  // protocol = "redlock"
  std::string_view doc;   // what it is, for the `protocol` key's documentation
  ProtocolFamily family;

  // Redis family.
  // Every node of redis.nodes an independent master, the lock held on a
  // quorum of them ([redlock] applies, and its quorum is the service's);
  // false: one master, nodes[0], with its replicas.
  bool quorum_of_masters = false;
  // lock.acquire and lock.release take their styles (SETNX-then-EXPIRE
  // reaches the setnx_ok phase); Redlock always uses SET NX PX.
  bool acquire_styles = false;

  // Store family.
  std::optional<StoreRecipe> recipe;
  // A lease by observation: no session the store expires; the holder stops
  // when its last renewal is store_lock.renew_deadline old, and keepalives
  // do not extend a held lease.
  bool observation = false;
  // etcd's clientv3 session: its keepalive and deadline loops, and the
  // session_lost phase when the lease is given up.
  bool clientv3 = false;
  // Curator's connection-state policies (SUSPENDED, LOST).
  bool curator_policies = false;
  // The [store_lock] keys it reads besides keepalive_every, and the [store]
  // keys of its server's lessor beside the common ones.
  std::vector<std::string_view> store_lock_keys;
  std::vector<std::string_view> lessor_keys;
  // lock.preset when none is written: the release the store and client follow.
  std::string_view default_release;

  // Its clients' lock, from the spec and the ids the builder laid out.
  ClientProcess::LockFactory (*factory)(const ScenarioSpec& spec, const LockTargets& targets) = nullptr;
};

// Every row, in the order FORMAT.md lists the protocols.
std::span<const ProtocolDecl> protocols();
// The row of |protocol|; every LockProtocol value has one.
const ProtocolDecl& protocol_decl(LockProtocol protocol);

inline bool uses_store(LockProtocol p) { return protocol_decl(p).family == ProtocolFamily::store; }
inline bool uses_redis(LockProtocol p) { return protocol_decl(p).family == ProtocolFamily::redis; }
// "single-node", "redlock", ...
const char* lock_protocol_name(LockProtocol protocol);

}  // namespace locksim
