#include "sim/scenario/read/processes.h"

#include <algorithm>

#include "sim/scenario/keys.h"

namespace locksim::scenario {

const char* name_kind_word(NameKind k) {
  switch (k) {
    case NameKind::redis_node: return "redis node";
    case NameKind::replica: return "replica";
    case NameKind::sentinel: return "sentinel";
    case NameKind::service: return "service";
    case NameKind::resource: return "resource";
    case NameKind::client: return "client";
    case NameKind::store_member: return "store member";
  }
  return "?";
}

void ProcessNames::add(Reader& r, const std::string& name, NameKind kind, const SourcePos& pos,
                       const std::string& key) {
  const auto [it, added] = index_.emplace(name, entries_.size());
  if (added) {
    entries_.push_back({name, kind, pos});
    return;
  }
  const Entry& first = entries_[it->second];
  std::string where;
  if (first.pos.line > 0 && first.pos.file == pos.file)
    where = " (line " + std::to_string(first.pos.line) + ")";
  else if (first.pos.file == "--set")
    where = " (from --set)";
  r.fail(pos, key,
         "name " + in_quotes(name) + " is already taken by the " + first.kind_word() + where +
             "; process names must be unique across clients, redis nodes, replicas, sentinels, services and the "
             "resource");
}

const ProcessNames::Entry* ProcessNames::find(std::string_view name) const {
  const auto it = index_.find(name);
  return it == index_.end() ? nullptr : &entries_[it->second];
}

std::vector<std::string> ProcessNames::names() const {
  std::vector<std::string> out;
  for (const Entry& e : entries_) out.push_back(e.name);
  return out;
}

std::vector<std::string> ProcessNames::names(NameKind kind) const {
  std::vector<std::string> out;
  for (const Entry& e : entries_)
    if (e.kind == kind) out.push_back(e.name);
  return out;
}

bool ProcessNames::known(Reader& r, const std::string& name, const SourcePos& pos, const std::string& key) const {
  if (find(name) != nullptr) return true;
  const std::vector<std::string> all = names();
  r.fail(pos, key, "unknown process " + in_quotes(name) + did_you_mean(name, all) + "; processes: " + join_list(all));
  return false;
}

bool ProcessNames::read(Reader& r, const DocNode& table, std::string_view key, std::string& out) const {
  const DocNode* node = table.find(key);
  std::string name;
  if (node == nullptr || !r.string_value(*node, "a process name such as \"c1\"", name)) return false;
  if (!known(r, name, node->pos, node->path)) return false;
  out = name;
  return true;
}

bool read_name_list(Reader& r, const DocNode& table, std::string_view key, std::string_view what,
                    std::vector<std::pair<std::string, SourcePos>>& out) {
  std::vector<std::pair<std::string, SourcePos>> items;
  if (!r.strings(table, key, items)) return false;
  const DocNode& node = *table.find(key);
  out.clear();
  for (const auto& item : items) {
    const auto& [name, pos] = item;
    if (!valid_process_name(name)) r.fail(pos, node.path, bad_name_message(name));
    const bool twice =
        std::any_of(out.begin(), out.end(), [&item](const auto& seen) { return seen.first == item.first; });
    if (twice) r.fail(pos, node.path, std::string(what) + " " + in_quotes(name) + " is listed twice");
    out.emplace_back(name, pos);
  }
  return true;
}

}  // namespace locksim::scenario
