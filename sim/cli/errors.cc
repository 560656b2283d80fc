#include "sim/cli/errors.h"

namespace locksim::cli {

void print_errors(std::ostream& out, const std::string& prefix, const ScenarioErrors& errors) {
  for (std::size_t i = 0; i < errors.size() && i < kShownErrors; ++i) out << prefix << errors[i].to_string() << "\n";
  if (errors.size() > kShownErrors)
    out << prefix << "... and " << errors.size() - kShownErrors << " more errors (" << errors.size() << " in all)\n";
}

}  // namespace locksim::cli
