// The history format's event types (docs/history.md) and the fields each
// may hold besides the ones every event has (t, p, local, type): the reader
// refuses any other, so a typo in a field's name is never silently ignored.
#pragma once

#include <string>
#include <vector>

namespace locksim {

extern const std::vector<std::string> kEventTypes;

// REQUIRES: |type| is one of kEventTypes.
std::vector<std::string> event_keys(const std::string& type);

}  // namespace locksim
