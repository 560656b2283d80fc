#include "sim/scenario/doc.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <sstream>
#include <tuple>

namespace locksim::scenario {

namespace {

int line_of(const toml::source_region& region) { return static_cast<int>(region.begin.line); }

bool is_bare_key(std::string_view key) {
  if (key.empty()) return false;
  return std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
}

}  // namespace

const DocNode* DocNode::find(std::string_view member_key) const {
  for (const DocNode& m : members)
    if (m.key == member_key) return &m;
  return nullptr;
}

DocNode* DocNode::find(std::string_view member_key) {
  for (DocNode& m : members)
    if (m.key == member_key) return &m;
  return nullptr;
}

SourcePos DocNode::pos_of(const toml::node& element) const {
  if (pos.line == 0) return pos;
  const int line = line_of(element.source());
  return {pos.file, line > 0 ? line : pos.line};
}

DocNode doc_from_value(const toml::node& value, std::string key, std::string path, SourcePos pos, bool use_lines) {
  DocNode node;
  node.key = std::move(key);
  node.path = std::move(path);
  node.pos = std::move(pos);
  const toml::table* table = value.as_table();
  if (table == nullptr) {
    node.value = &value;
    return node;
  }
  node.table = true;
  // toml++ keeps members in a sorted map; put them back in the order written.
  struct Entry {
    std::uint32_t line, column;
    const toml::key* key;
    const toml::node* value;
  };
  std::vector<Entry> entries;
  for (const auto& [k, v] : *table) {
    const auto& at = k.source().begin.line > 0 ? k.source().begin : v.source().begin;
    entries.push_back({at.line, at.column, &k, &v});
  }
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.line, a.column) < std::tie(b.line, b.column);
  });
  for (const Entry& e : entries) {
    const std::string member_key(e.key->str());
    SourcePos member_pos{node.pos.file, 0};
    if (use_lines) member_pos.line = static_cast<int>(e.line);
    node.members.push_back(
        doc_from_value(*e.value, member_key, join_key(node.path, member_key), std::move(member_pos), use_lines));
  }
  return node;
}

DocNode doc_from_toml(const toml::table& table, const std::string& file, bool use_lines) {
  return doc_from_value(table, "", "", SourcePos{file, use_lines ? 1 : 0}, use_lines);
}

void merge_into(DocNode& into, const DocNode& from) {
  if (!into.table || !from.table) {
    into = from;
    return;
  }
  for (const DocNode& m : from.members) {
    if (DocNode* existing = into.find(m.key))
      merge_into(*existing, m);
    else
      into.members.push_back(m);
  }
}

std::string join_key(std::string_view parent, std::string_view key) {
  std::string part = is_bare_key(key) ? std::string(key) : in_quotes(key);
  if (parent.empty()) return part;
  return std::string(parent) + "." + part;
}

std::string trim(std::string_view text) {
  std::size_t b = 0, e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
  return std::string(text.substr(b, e - b));
}

std::string in_quotes(std::string_view text) {
  // A message quotes what the user wrote so that it can be found; a value
  // of a megabyte (a grid cell, a pasted log) is shown by its start and size.
  constexpr std::size_t kShown = 80;
  const bool cut = text.size() > kShown;
  std::string out = "\"";
  for (char c : cut ? text.substr(0, kShown) : text) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  if (cut) out += "...";
  out.push_back('"');
  if (cut) out += " (" + std::to_string(text.size()) + " bytes)";
  return out;
}

std::string describe_value(const toml::node& value) {
  switch (value.type()) {
    case toml::node_type::string: return "string " + in_quotes(*value.value<std::string>());
    case toml::node_type::integer: return "integer " + std::to_string(*value.value<std::int64_t>());
    case toml::node_type::floating_point: {
      std::ostringstream out;
      out << "float " << *value.value<double>();
      return out.str();
    }
    case toml::node_type::boolean: return *value.value<bool>() ? "boolean true" : "boolean false";
    case toml::node_type::array: return "an array";
    case toml::node_type::table: return "a table";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time of day";
    case toml::node_type::date_time: return "a date-time";
    case toml::node_type::none: break;
  }
  return "nothing";
}

std::string join_list(const std::vector<std::string>& items) {
  // A message lists names so that the user can pick the right one; past a
  // screenful, a list of ten thousand clients helps nobody.
  constexpr std::size_t kShown = 24;
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < kShown; ++i) {
    if (!out.empty()) out += ", ";
    out += items[i];
  }
  if (items.size() > kShown) out += ", ... (" + std::to_string(items.size()) + " in all)";
  return out;
}

namespace {

// Optimal string alignment distance: Levenshtein plus adjacent transpositions
// ("tll" -> "ttl" is one edit).
std::size_t edit_distance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

}  // namespace

std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = 3;
  for (const std::string& c : candidates) {
    const std::size_t distance = edit_distance(word, c);
    // A short word is "close" to almost anything short; ask for a real overlap.
    if (distance >= c.size() || distance >= word.size()) continue;
    if (distance < best_distance) {
      best_distance = distance;
      best = c;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  if (auto best = closest(word, candidates)) return " (did you mean " + in_quotes(*best) + "?)";
  return "";
}

}  // namespace locksim::scenario
