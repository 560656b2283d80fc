// Reads a history file (docs/history.md) into a RecordedHistory, refusing
// what cannot be judged honestly: a line that is not the format's, events
// out of order, a process or fault the header does not name, a session used
// before its grant. Each refusal names the file, the line and the key.
#pragma once

#include <istream>
#include <optional>
#include <string>

#include "sim/recorded/recorded_history.h"

namespace locksim {

// The history in |in|, named |file| in errors; nullopt with |error| set
// ("FILE:LINE: KEY: what") when it is refused.
std::optional<RecordedHistory> read_history(std::istream& in, const std::string& file, std::string& error);

}  // namespace locksim
