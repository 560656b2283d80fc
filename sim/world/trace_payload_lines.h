// The payload fields of a trace's message lines: each payload kind declared
// once with the code that writes its fields (trace_payload_lines.cc).
#pragma once

#include <string>
#include <vector>

#include "sim/history/history.h"
#include "sim/wire/message.h"
#include "sim/world/trace_format.h"
#include "sim/world/trace_schema.h"

namespace locksim {

// Every payload kind, as the schema lists it (in the order of Payload).
std::vector<TraceLineDecl> payload_line_decls();
// |payload| in words close to Redis's, for people (a message line's "msg").
std::string describe_payload(const Payload& payload, const History& h);
// Writes |payload| as fields: "kind" first, then its kind's.
void payload_fields(TraceLine& line, const Payload& payload, const History& h);

}  // namespace locksim
