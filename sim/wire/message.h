// What travels on the network: one closed variant of every message type.
// All alternatives are trivially copyable, so a message lives in the world's
// slab and an event refers to it by index — no allocation per message.
#pragma once

#include <type_traits>
#include <variant>

#include "sim/core/ids.h"
#include "sim/wire/consensus.h"
#include "sim/wire/replication.h"
#include "sim/wire/redis.h"
#include "sim/wire/resource.h"
#include "sim/wire/sentinel.h"
#include "sim/wire/service.h"

namespace locksim {

using Payload =
    std::variant<redis::Request, redis::Reply, resource::Request, resource::Reply, redis::ReplicationEntry,
                 redis::ReplicationAck, redis::GetAck, redis::ReplicaOf, redis::Ping, redis::Pong, redis::Info,
                 redis::InfoReply, redis::IsMasterDown, redis::MasterDownReply, redis::SwitchMaster, redis::GetMaster,
                 redis::MasterIs, service::Call, service::Answer, consensus::Request, consensus::Reply,
                 consensus::Event, consensus::RequestVote, consensus::Vote, consensus::Append, consensus::AppendReply>;

struct Message {
  ProcessId from = kNoProcess;
  ProcessId to = kNoProcess;
  Payload payload;
};

static_assert(std::is_trivially_copyable_v<Message>, "messages must stay plain values");

}  // namespace locksim
