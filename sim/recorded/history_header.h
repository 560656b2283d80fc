// The first line of a history file: the cast (processes, the lock service,
// the application, the faults) and whether its events share a common clock.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "sim/recorded/history_fields.h"
#include "sim/recorded/recorded_history.h"

namespace locksim {

// What the header declares that the events are held to.
struct HistoryCast {
  std::map<std::string, ProcessId> process_ids;
  std::vector<std::string> names;  // every process and the observer, for did-you-mean
  std::set<ProcessId> service_nodes;
  std::vector<std::string> fault_names;
  bool app_unknown = false;
};

// Reads the header |json| (line |where|) into |out| — processes, service,
// app, faults, time, source — and |cast|. Throws HistoryError.
void read_history_header(const HistoryJson& json, const std::string& where, RecordedHistory& out, HistoryCast& cast);

}  // namespace locksim
