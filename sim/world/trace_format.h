// The trace's line format: one JSON object per line, "t" first (true time in
// nanoseconds), then "type". analysis/timeline.py reads exactly this.
//
//   {"t":0,"type":"run","seed":7,"processes":[{"name":"c1","kind":"client"},...],"keys":["lock"],...}
//   {"t":1000000,"type":"send","from":"c1","to":"r1","msg":"SET lock 5f.. NX PX 10000"}
//   {"t":1000000,"type":"grant","session":1,"client":"c1",...}
#pragma once

#include <string>

#include "sim/history/history.h"
#include "sim/wire/message.h"

namespace locksim {

std::string run_header_json(std::uint64_t seed, const History& history);
std::string fact_json(const Fact& fact, const History& history);
std::string message_json(TrueTime at, const char* what, const Message& m, const History& history);
std::string describe_payload(const Payload& payload, const History& history);
// The end of a grant's (or an extension's) promised window, known only when
// the run is over: written then, at |run_end|, so that every line's "t" is
// in time order; "at" says when the grant or extension was.
std::string promise_json(const Fact& fact, const History& history, TrueTime run_end);

}  // namespace locksim
