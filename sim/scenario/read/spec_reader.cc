#include "sim/scenario/read/spec_reader.h"

#include "sim/scenario/consistency.h"
#include "sim/scenario/read/resolve_defaults.h"
#include "sim/scenario/read/sections.h"

namespace locksim::scenario {

ScenarioSpec read_spec(Reader& r, const DocNode& root, const std::string& file) {
  ReadContext c(r, root, file);
  c.spec.file = file;
  check_schema(r, root);
  // Sections that create processes come before those that name them, in the
  // order process names are registered (and listed in messages).
  read_scenario_section(c);
  read_lock_section(c);
  // Judged against the default protocol, the sections after it would each
  // add an error that is not the user's ("[redlock] applies only with
  // protocol = redlock", "unknown process s1"): the misspelling alone is
  // reported, and the rest is read once the protocol is.
  if (c.protocol_unreadable) return std::move(c.spec);
  read_store_sections(c);
  read_redis_section(c);
  read_sentinel_section(c);
  read_service_sections(c);
  read_resource_section(c);
  read_client_sections(c);
  check_deployment(c);
  read_redlock_section(c);
  read_clock_sections(c);
  read_network_section(c);
  read_link_sections(c);
  read_fault_sections(c);
  read_expect_section(c);
  read_search_section(c);
  resolve_defaults(c);
  check_store_phases(c);
  // Contradictions between values need the values themselves to be right;
  // they are looked for once every key reads.
  if (!r.failed()) check_consistency(r, root, c.spec);
  return std::move(c.spec);
}

}  // namespace locksim::scenario
