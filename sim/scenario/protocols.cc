#include "sim/scenario/protocols.h"

#include "sim/core/check.h"

namespace locksim {

namespace {

const std::vector<ProtocolDecl>& table() {
  static const std::vector<ProtocolDecl> rows{
      {.protocol = LockProtocol::single_node,
       .name = "single-node",
       .doc = "one Redis node (exactly one entry in `redis.nodes`, with its replicas and sentinels if any)",
       .family = ProtocolFamily::redis,
       .acquire_styles = true,
       .factory = single_node_factory},
      {.protocol = LockProtocol::redlock,
       .name = "redlock",
       .doc = "Redlock over every node in `redis.nodes` (tuned in [`[redlock]`](#redlock))",
       .family = ProtocolFamily::redis,
       .quorum_of_masters = true,
       .factory = redlock_factory},
      {.protocol = LockProtocol::etcd,
       .name = "etcd",
       .doc = "etcd's Mutex on a clientv3 session ([`[store]`](#store), [`[store_lock]`](#store_lock))",
       .family = ProtocolFamily::store,
       .recipe = StoreRecipe::etcd_mutex,
       .clientv3 = true,
       .store_lock_keys = {"recheck", "keepalive_tick", "keepalive_tick_phase", "deadline_tick",
                           "deadline_tick_phase", "first_keepalive_timeout"},
       .lessor_keys = {"lessor_queue_clock", "expired_retry", "lease_checkpoint_interval",
                       "renew_confirms_leadership"},
       .default_release = "etcd-3.4.23",
       .factory = store_factory},
      {.protocol = LockProtocol::zookeeper,
       .name = "zookeeper",
       .doc = "ZooKeeper with Curator's InterProcessMutex",
       .family = ProtocolFamily::store,
       .recipe = StoreRecipe::curator_mutex,
       .curator_policies = true,
       .store_lock_keys = {"policy", "suspended_after", "lost_after"},
       .default_release = "zookeeper-3.8.0",
       .factory = store_factory},
      {.protocol = LockProtocol::chubby,
       .name = "chubby",
       .doc = "Chubby's lock with sequencers and lock-delay",
       .family = ProtocolFamily::store,
       .recipe = StoreRecipe::chubby_lock,
       .store_lock_keys = {"lock_delay"},
       .factory = store_factory},
      {.protocol = LockProtocol::consul,
       .name = "consul",
       .doc = "Consul's session lock",
       .family = ProtocolFamily::store,
       .recipe = StoreRecipe::consul_lock,
       .store_lock_keys = {"lock_delay"},
       .factory = store_factory},
      {.protocol = LockProtocol::kubernetes,
       .name = "kubernetes",
       .doc = "a Kubernetes Lease (client-go's leader election), a lease by observation",
       .family = ProtocolFamily::store,
       .recipe = StoreRecipe::observation_lease,
       .observation = true,
       .store_lock_keys = {"renew_deadline"},
       .factory = store_factory},
      {.protocol = LockProtocol::dynamodb,
       .name = "dynamodb",
       .doc = "the DynamoDB lock client, a lease by observation",
       .family = ProtocolFamily::store,
       .recipe = StoreRecipe::observation_lease,
       .observation = true,
       .store_lock_keys = {"renew_deadline"},
       .factory = store_factory},
      {.protocol = LockProtocol::none,
       .name = "none",
       .doc = "the no-lock baseline: every acquire succeeds at once and no lease ends (for a transactional or "
              "atomic resource, which keeps the data right by itself)",
       .family = ProtocolFamily::none,
       .factory = no_lock_factory},
  };
  return rows;
}

}  // namespace

std::span<const ProtocolDecl> protocols() { return table(); }

const ProtocolDecl& protocol_decl(LockProtocol protocol) {
  for (const ProtocolDecl& row : table())
    if (row.protocol == protocol) return row;
  LOCKSIM_CHECK(false, "a LockProtocol without its row in protocols.cc");
  return table().front();
}

const char* lock_protocol_name(LockProtocol protocol) { return protocol_decl(protocol).name.data(); }

}  // namespace locksim
