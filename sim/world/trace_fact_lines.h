// The fact lines of a trace: each kind of fact's line declared once with
// the code that writes its fields (trace_fact_lines.cc).
#pragma once

#include <vector>

#include "sim/world/trace_schema.h"

namespace locksim {

// Every fact's line, as the schema lists it (in the order of FactBody).
std::vector<TraceLineDecl> fact_line_decls();

}  // namespace locksim
