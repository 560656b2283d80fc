#include "sim/scenario/key_docs.h"

#include "sim/core/marked_regions.h"
#include "sim/scenario/faults/fault_kinds.h"
#include "sim/scenario/read/sections.h"

namespace locksim::scenario {

namespace {

constexpr std::string_view kFaultKinds = "fault-kinds";
constexpr std::string_view kSearchKinds = "search-kinds";

}  // namespace

std::vector<std::string> key_table_names() {
  std::vector<std::string> names;
  for (const SectionDecl& s : sections()) names.emplace_back(s.name);
  names.emplace_back(kFaultKinds);
  names.emplace_back(kSearchKinds);
  return names;
}

std::string key_table(std::string_view name) {
  if (name == kFaultKinds) return fault_kinds_markdown();
  if (name == kSearchKinds) return search_kinds_markdown();
  const SectionDecl* section = find_section(name);
  return section != nullptr ? markdown_table(*section) : "";
}

std::string regenerate_key_tables(std::string_view markdown, std::vector<std::string>& problems) {
  return regenerate_marked_regions(markdown, "keys", key_table, problems);
}

}  // namespace locksim::scenario
