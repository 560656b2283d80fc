// What the section readers share while one merged document becomes a
// ScenarioSpec: the error collector, the document, the spec being filled and
// the process names registered so far.
#pragma once

#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "sim/scenario/doc.h"
#include "sim/scenario/read/processes.h"
#include "sim/scenario/reader.h"
#include "sim/scenario/spec.h"

namespace locksim::scenario {

class ReadContext {
 public:
  ReadContext(Reader& reader, const DocNode& document, const std::string& file)
      : r(reader), root(document), file_(file) {}

  Reader& r;
  const DocNode& root;
  ScenarioSpec spec;
  ProcessNames processes;
  // lock.protocol is written but could not be read (a misspelling): the
  // protocol decides which sections apply and which processes exist, so
  // nothing that depends on it can be judged.
  bool protocol_unreadable = false;

  // The section |key| of the root, or an empty table standing in for it.
  const DocNode& section(std::string_view key);
  // True when |key| is written in the table |section| (after every merge).
  bool written(std::string_view section_key, std::string_view key) const;

 private:
  std::string file_;
  std::deque<DocNode> placeholders_;  // stable addresses for section()
};

// Reads the array |key| of process names into |names| and registers them as
// |kind|; false when it is absent or not an array of strings.
bool read_processes(ReadContext& c, const DocNode& table, std::string_view key, std::string_view what,
                    NameKind kind, std::vector<std::string>& names);

}  // namespace locksim::scenario
