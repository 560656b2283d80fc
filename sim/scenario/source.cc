#include "sim/scenario/source.h"

namespace locksim {

std::string ScenarioError::to_string() const {
  std::string out = file;
  if (line > 0) out += (out.empty() ? "line " : ":") + std::to_string(line);
  for (const std::string* part : {&key, &message}) {
    if (part->empty()) continue;
    if (!out.empty()) out += ": ";
    out += *part;
  }
  return out;
}

}  // namespace locksim
