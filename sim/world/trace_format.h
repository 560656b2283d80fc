// Writes the trace's lines: the header, each message and each fact, the
// promises and clocks after the end. A fact's line and a message's payload
// are written by walking their declarations (trace_fact_lines.cc,
// trace_payload_lines.cc), which the schema (trace_schema.h, and
// docs/trace.md from it) lists as they are; the header, message, promise
// and clock lines here and the judged lines (sim/run/judged_trace.cc, with
// this file's TraceLine) are written by hand, and a test holds every line of
// every catalogue trace to the schema.
#pragma once

#include <cstdint>
#include <string>

#include "sim/history/history.h"
#include "sim/wire/message.h"
#include "sim/world/clock.h"

namespace locksim {

// Builds {"t":..,"type":..,...} without a JSON library: the format is small
// and fixed, and byte-for-byte stability matters more than generality.
class TraceLine {
 public:
  TraceLine(TrueTime at, const char* type);
  TraceLine& str(const char* key, const std::string& value);
  TraceLine& num(const char* key, std::int64_t value);
  TraceLine& boolean(const char* key, bool value);
  TraceLine& null(const char* key);
  // A process's name, or null for kNoProcess.
  TraceLine& process(const char* key, ProcessId p, const History& h);
  // An instant in ns, or null for kTrueNever.
  TraceLine& time(const char* key, TrueTime t);
  TraceLine& raw(const char* key, const std::string& json);
  std::string done() { return text_ + "}"; }

 private:
  std::string text_;
};

// A lock value as GET prints it (16 hex digits for a token).
std::string lock_value_text(std::uint64_t v);
std::string run_header_json(std::uint64_t seed, const History& history);
// The header of a recorded history's trace (locksim check): no seed (""),
// the history's file, and whether it records the service's keys.
std::string history_header_json(const std::string& file, bool service_recorded, const History& history);
std::string fact_json(const Fact& fact, const History& history);
std::string message_json(TrueTime at, const char* what, const Message& m, const History& history);
// The end of a grant's (or an extension's) promised window, known only when
// the run is over: written then, at |run_end|, so that every line's "t" is
// in time order; "at" says when the grant or extension was.
std::string promise_json(const Fact& fact, const History& history, TrueTime run_end);
// Process |p|'s clock as it was over the whole run, written at |run_end|.
std::string clock_json(TrueTime run_end, ProcessId p, const Clock& clock, const History& history);

}  // namespace locksim
