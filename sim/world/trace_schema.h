// The trace's line format, declared once: each line type and each message
// payload kind with its fields (name, JSON type, whether it may be left out
// or be null, one line of doc). The fact lines and the payload kinds are
// declared beside the code that writes them (trace_fact_lines.cc,
// trace_payload_lines.cc) and collected here; the others are listed in
// trace_schema.cc. Everything else about the format is drawn from here:
// `locksim trace-schema` prints it as JSON, the analysis reads that JSON to
// know the lines (analysis/trace_schema.json, kept equal by a
// test), docs/trace.md holds its tables (`locksim trace-schema --update`),
// and a test holds every line of every catalogue trace to it — a field
// written but not declared, or declared but never written, fails.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace locksim {

// Bumped when a line or field changes meaning or goes away (not when one is
// added): the analysis refuses a trace whose header names another version.
inline constexpr int kTraceFormatVersion = 2;

struct TraceField {
  std::string_view name;
  // s string, i integer, b boolean, o object, l list; then ? when the field
  // may be left out (it does not apply to every line of its type) and ~ when
  // it may be null (never, no one: its doc says which).
  std::string_view spec;
  std::string_view doc;

  char type() const { return spec.front(); }
  bool optional() const { return spec.find('?') != std::string_view::npos; }
  bool nullable() const { return spec.find('~') != std::string_view::npos; }
};

// Where in a trace a line type stands (the order of the file).
enum class TraceSection { header, message, fact, after_end, judged };
const char* trace_section_name(TraceSection s);

struct TraceLineDecl {
  std::string_view name;  // the line's "type" (a payload's "kind")
  TraceSection section;
  std::string_view doc;
  std::vector<TraceField> fields;
};

// Every line type, in the order a trace writes them; message types share
// their fields (from, to, msg, kind) and add their payload's.
std::span<const TraceLineDecl> trace_line_decls();
// Every message payload, by its "kind".
std::span<const TraceLineDecl> trace_payload_decls();
const TraceLineDecl* find_trace_line(std::string_view type);
const TraceLineDecl* find_trace_payload(std::string_view kind);

// The schema as one JSON document (what `locksim trace-schema` prints).
std::string trace_schema_json();
// The Markdown table of a section's lines ("header", "message", "fact",
// "after-end", "judged") or of the payloads ("payload"); "" for another name.
std::string trace_schema_table(std::string_view name);
std::vector<std::string> trace_schema_table_names();

}  // namespace locksim
