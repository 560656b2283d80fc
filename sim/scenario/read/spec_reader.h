// A merged scenario document -> ScenarioSpec, in three passes: the schema
// (every key known, anywhere), the sections (each key read from its
// declaration), then resolve_defaults() and the contradictions between
// values (consistency.h). The schema pass runs first so that a misspelt key
// is reported as such and not as whatever the missing key's default then
// breaks.
#pragma once

#include <string>

#include "sim/scenario/doc.h"
#include "sim/scenario/reader.h"
#include "sim/scenario/spec.h"

namespace locksim::scenario {

// Every error goes to |r|; the spec is complete only when r.failed() is false.
ScenarioSpec read_spec(Reader& r, const DocNode& root, const std::string& file);

}  // namespace locksim::scenario
