// Where scenario input came from, and what is wrong with it there: the
// vocabulary every stage of reading a scenario reports errors in.
#pragma once

#include <string>
#include <vector>

namespace locksim {

// Where a value came from, for error messages and witnesses.
struct SourcePos {
  std::string file;  // the scenario file, or "--set"
  int line = 0;
};

// Bad input: where it is and what is wrong. |file| is the scenario path, or
// "--set" for a command-line override; |line| is 0 when there is no line.
struct ScenarioError {
  std::string file;
  int line = 0;
  std::string key;  // the dotted key as written: "fault.gc.target", "variant.fenced.lock.ttl"
  std::string message;

  // "file:line: key: message", leaving out the parts that are empty or 0.
  std::string to_string() const;
};

using ScenarioErrors = std::vector<ScenarioError>;

}  // namespace locksim
