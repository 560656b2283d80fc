#include "sim/world/trigger.h"

#include <algorithm>
#include <array>

namespace locksim {

void TriggerTable::arm(const Trigger& trigger, std::uint32_t action) {
  armed_.push_back(Armed{trigger, action});
  events_armed_ = events_armed_ || std::holds_alternative<ServerEvent>(trigger.what);
}

std::vector<TriggerTable::Due> TriggerTable::phase_reached(ProcessId process, Phase phase) {
  std::vector<Due> due;
  for (Armed& a : armed_) {
    const Phase* p = std::get_if<Phase>(&a.trigger.what);
    if (a.trigger.process != process || p == nullptr || *p != phase) continue;
    if (++a.seen == a.trigger.occurrence) due.push_back(Due{a.action, a.trigger.delay});
  }
  return due;
}

std::vector<TriggerTable::Due> TriggerTable::fact_recorded(const FactBody& fact,
                                                           const std::vector<ProcessInfo>& processes) {
  std::vector<Due> due;
  if (!events_armed_) return due;
  // What the fact means: at most two events of one process.
  ProcessId process = kNoProcess;
  std::array<ServerEvent, 2> events{};
  std::size_t n = 0;
  if (const auto* dropped = std::get_if<KeyDropped>(&fact)) {
    process = dropped->node;
    events[n++] = ServerEvent::key_dropped;
    if (dropped->reason == KeyGone::expired) events[n++] = ServerEvent::key_expired;
  } else if (const auto* role = std::get_if<RoleChanged>(&fact)) {
    process = role->node;
    const auto candidate = std::find(candidates_.begin(), candidates_.end(), process);
    const bool stood = candidate != candidates_.end();
    if (stood) candidates_.erase(candidate);
    const ProcessKind kind = processes[process].kind;
    if (role->master == process) {
      candidates_.push_back(process);
    } else if (role->master == kNoProcess && kind == ProcessKind::redis_node) {
      events[n++] = ServerEvent::promoted;  // a Redis node only turns master from a replica
    } else if (role->master == kNoProcess && kind == ProcessKind::store_member && stood) {
      events[n++] = ServerEvent::elected;
    }
  }
  if (n == 0) return due;
  for (Armed& a : armed_) {
    const ServerEvent* e = std::get_if<ServerEvent>(&a.trigger.what);
    if (a.trigger.process != process || e == nullptr || std::find(events.begin(), events.begin() + n, *e) == events.begin() + n)
      continue;
    if (++a.seen == a.trigger.occurrence) due.push_back(Due{a.action, a.trigger.delay});
  }
  return due;
}

}  // namespace locksim
