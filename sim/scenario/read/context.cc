#include "sim/scenario/read/context.h"

namespace locksim::scenario {

const DocNode& ReadContext::section(std::string_view key) {
  if (const DocNode* node = root.find(key); node != nullptr && node->table) return *node;
  DocNode& empty = placeholders_.emplace_back();
  empty.key = std::string(key);
  empty.path = std::string(key);
  empty.pos = {file_, 0};
  empty.table = true;
  return empty;
}

bool ReadContext::written(std::string_view section_key, std::string_view key) const {
  const DocNode* table = root.find(section_key);
  return table != nullptr && table->table && table->find(key) != nullptr;
}

bool read_processes(ReadContext& c, const DocNode& table, std::string_view key, std::string_view what,
                    NameKind kind, std::vector<std::string>& names) {
  std::vector<std::pair<std::string, SourcePos>> items;
  if (!read_name_list(c.r, table, key, what, items)) return false;
  const std::string path = table.find(key)->path;
  names.clear();
  for (const auto& [name, pos] : items) {
    c.processes.add(c.r, name, kind, pos, path);
    names.push_back(name);
  }
  return true;
}

}  // namespace locksim::scenario
