#include "sim/lock/redis_library.h"

#include <algorithm>

#include "sim/core/limits.h"

namespace locksim {

namespace {

template <class Entries>
auto find_node(Entries& entries, ProcessId node) {
  return std::find_if(entries.begin(), entries.end(), [&](const auto& e) { return e.first == node; });
}

}  // namespace

Payload RedisLibrary::sends(ProcessId to, const Payload& payload) {
  const auto* r = std::get_if<redis::Request>(&payload);
  if (sending_eval_ || r == nullptr || r->command != redis::Command::eval || r->by_sha) return payload;
  redis::Request sha = *r;
  sha.by_sha = true;
  // A handful in flight at most; one whose reply was lost would stay for
  // ever, so the oldest goes first.
  if (evalsha_in_flight_.size() >= 64) evalsha_in_flight_.erase(evalsha_in_flight_.begin());
  evalsha_in_flight_.emplace_back(to, *r);
  return sha;
}

bool RedisLibrary::fails(const Message& m) {
  const auto* r = std::get_if<redis::Request>(&m.payload);
  if (r == nullptr) return false;
  const auto it = find_node(refused_until_, m.to);
  if (it == refused_until_.end() || process_.monotonic_now() >= it->second) return false;
  made_up_.emplace_back(m.to, r->request_id);
  process_.fail_unsent(m, redis::Reply::error_reply(r->request_id, redis::Error::connection_refused));
  return true;
}

bool RedisLibrary::took(const Message& m) {
  const auto* reply = std::get_if<redis::Reply>(&m.payload);
  if (reply == nullptr) return false;
  if (!made_up_.empty()) {
    const auto it = std::find(made_up_.begin(), made_up_.end(), std::make_pair(m.from, reply->request_id));
    if (it != made_up_.end()) {
      made_up_.erase(it);
      return false;
    }
  }
  if (config_.evalsha && fell_back(m)) return true;
  if (reply->error == redis::Error::connection_refused && config_.reconnect_delay > Duration{0}) note_refusal(m);
  return false;
}

bool RedisLibrary::fell_back(const Message& m) {
  const auto& reply = std::get<redis::Reply>(m.payload);
  const auto it = std::find_if(evalsha_in_flight_.begin(), evalsha_in_flight_.end(), [&](const auto& entry) {
    return entry.first == m.from && entry.second.request_id == reply.request_id;
  });
  if (it == evalsha_in_flight_.end()) return false;
  const redis::Request eval = it->second;
  evalsha_in_flight_.erase(it);
  if (reply.error != redis::Error::no_script) return false;
  sending_eval_ = true;  // the EVAL itself: the node caches the script
  process_.send(m.from, eval);
  sending_eval_ = false;
  return true;
}

void RedisLibrary::note_refusal(const Message& m) {
  // The wait starts again with each refusal the host sends.
  const LocalTime until = saturating_add(process_.monotonic_now(), config_.reconnect_delay);
  const auto it = find_node(refused_until_, m.from);
  if (it == refused_until_.end()) refused_until_.emplace_back(m.from, until);
  else it->second = until;
  process_.library_may_fail_sends();
}

}  // namespace locksim
