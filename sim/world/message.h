// What travels on the network: one closed variant of every message type.
// All alternatives are trivially copyable, so a message lives in the world's
// slab and an event refers to it by index — no allocation per message.
#pragma once

#include <type_traits>
#include <variant>

#include "sim/check/history.h"
#include "sim/redis/replication_wire.h"
#include "sim/redis/wire.h"
#include "sim/resource/wire.h"
#include "sim/workload/service_wire.h"

namespace locksim {

using Payload = std::variant<redis::Request, redis::Reply, resource::Request, resource::Reply, redis::ReplicationEntry,
                             redis::ReplicationAck, redis::GetAck, redis::ReplicaOf, redis::Ping, redis::Pong,
                             redis::IsMasterDown, redis::MasterDownReply, redis::SwitchMaster, redis::GetMaster,
                             redis::MasterIs, service::Call, service::Answer>;

struct Message {
  ProcessId from = kNoProcess;
  ProcessId to = kNoProcess;
  Payload payload;
};

static_assert(std::is_trivially_copyable_v<Message>, "messages must stay plain values");

}  // namespace locksim
