// The sections in the order FORMAT.md documents them, and the schema pass
// that checks every written key against their declarations.
#include "sim/scenario/read/sections.h"

#include <vector>

#include "sim/scenario/faults/fault_kinds.h"

namespace locksim::scenario {

std::span<const SectionDecl> sections() {
  static const std::vector<SectionDecl> all{scenario_section(), lock_section(),     redlock_section(),
                                            store_section(),    store_lock_section(), redis_section(),
                                            sentinel_section(), resource_section(),
                                            service_section(),  client_section(),   clock_section(),
                                            network_section(),  link_section(),     fault_section(),
                                            expect_section(),   search_section()};
  return all;
}

const SectionDecl* find_section(std::string_view name) {
  for (const SectionDecl& s : sections())
    if (s.name == name) return &s;
  return nullptr;
}

void check_schema(Reader& r, const DocNode& root) {
  std::vector<std::string> top;
  for (const SectionDecl& s : sections()) top.emplace_back(s.name);
  r.check_keys(root, top, "a scenario");
  for (const DocNode& node : root.members) {
    const SectionDecl* s = find_section(node.key);
    const DocNode* table = s != nullptr ? r.table(root, s->name) : nullptr;
    if (table == nullptr) continue;
    std::vector<std::string> known = s->key_names();
    const std::string label = "[" + std::string(s->name) + (s->named ? ".NAME]" : "]");
    if (s->name == "fault") {
      // Which kind takes which key is checked by the fault reader, which
      // knows the kind.
      for (std::string& key : all_fault_kind_keys()) known.push_back(std::move(key));
    }
    if (s->name == "expect") {
      // [expect.CLIENT] tables are read (and checked) by read_client_bounds.
      DocNode own = *table;
      std::erase_if(own.members, [](const DocNode& m) { return m.table; });
      r.check_keys(own, known, label);
      continue;
    }
    if (!s->named) {
      r.check_keys(*table, known, label);
      continue;
    }
    r.all_tables(*table, label);
    for (const DocNode& item : table->members)
      if (item.table) r.check_keys(item, known, label);
  }
}

}  // namespace locksim::scenario
