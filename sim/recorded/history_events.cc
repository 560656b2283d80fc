#include "sim/recorded/history_events.h"

#include <map>

namespace locksim {

const std::vector<std::string> kEventTypes{
    "want", "give-up",  "invoke",      "complete", "grant",         "extend", "belief-end",  "release", "op",
    "app",  "key-held", "key-dropped", "role",     "store-session", "fault",  "fault-fired", "end"};

std::vector<std::string> event_keys(const std::string& type) {
  static const std::map<std::string, std::vector<std::string>> kFields{
      {"want", {}},
      {"give-up", {}},
      {"end", {}},
      {"invoke", {"op", "kind"}},
      {"complete", {"op", "kind", "outcome"}},
      {"grant",
       {"session", "value", "token", "validity_ns", "clock", "lease_end_local", "promised_end", "promised_end_latest"}},
      {"extend", {"session", "clock", "lease_end_local", "promised_end", "promised_end_latest"}},
      {"belief-end", {"session", "reason"}},
      {"release", {"session"}},
      {"op", {"session", "client", "op", "accepted", "reject", "token"}},
      {"app", {"app", "counter", "increments", "elements", "size", "stock", "quiescent"}},
      {"key-held", {"key", "value", "t_latest", "change"}},
      {"key-dropped", {"key", "value", "reason", "t_latest", "change"}},
      {"role", {"master", "epoch"}},
      {"store-session", {"session", "client", "event", "ttl_ns"}},
      {"fault", {"fault", "target"}},
      {"fault-fired", {"fault", "took_effect"}}};
  std::vector<std::string> keys{"t", "p", "local", "type"};
  const auto& more = kFields.at(type);
  keys.insert(keys.end(), more.begin(), more.end());
  return keys;
}

}  // namespace locksim
