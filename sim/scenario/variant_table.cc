#include "sim/scenario/variant_table.h"

#include <toml++/toml.h>

#include <algorithm>

namespace locksim::scenario {

namespace {

// The parts of |text| read as a TOML dotted key ("fault.gc", `client."c 1"`),
// written the way join_key() writes one; empty when it is not one.
std::vector<std::string> dotted_key_parts(const std::string& text) {
  toml::table parsed;
  try {
    parsed = toml::parse(text + " = 0");
  } catch (const toml::parse_error&) {
    return {};
  }
  std::vector<std::string> parts;
  std::string rebuilt;
  for (const toml::table* at = &parsed; at != nullptr;) {
    if (at->size() != 1) return {};
    const toml::table* inner = nullptr;
    for (const auto& [key, value] : *at) {  // the one member
      parts.emplace_back(key.str());
      rebuilt = join_key(rebuilt, key.str());
      inner = value.as_table();
    }
    at = inner;
  }
  // Anything else the text smuggled in ("lock = 1 #") reads as a value, not
  // a key: the key alone must give the text back.
  return rebuilt == text ? parts : std::vector<std::string>{};
}

const VariantTable* find(const std::vector<VariantTable>& variants, const std::string& name) {
  for (const VariantTable& v : variants)
    if (v.name == name) return &v;
  return nullptr;
}

void read_extends(Reader& r, const DocNode& node, VariantTable& v) {
  v.extends_pos = node.pos;
  if (!r.string_value(node, "the name of another variant, such as \"tuned\"", v.extends)) return;
  if (v.extends == "base") v.extends.clear();  // the base is where every variant starts anyway
}

void read_unset(Reader& r, const DocNode& table, VariantTable& v) {
  std::vector<std::pair<std::string, SourcePos>> entries;
  if (!r.strings(table, "unset", entries)) return;
  for (auto& [text, pos] : entries) {
    std::vector<std::string> parts = dotted_key_parts(text);
    if (parts.empty())
      r.fail(pos, v.unset_key,
             in_quotes(text) + " is not a key or table such as \"redlock\", \"lock.preset\" or \"fault.gc\"");
    else
      v.unset.push_back({std::move(parts), std::move(text), std::move(pos)});
  }
}

// The dotted paths |depth| levels down |node| ("client.c2" at depth 2): what
// an unset entry of that many parts could have meant.
void paths_at_depth(const DocNode& node, std::size_t depth, const std::string& prefix, std::vector<std::string>& out) {
  for (const DocNode& m : node.members) {
    const std::string path = join_key(prefix, m.key);
    if (depth == 1)
      out.push_back(path);
    else if (m.table)
      paths_at_depth(m, depth - 1, path, out);
  }
}

std::string starts_from(const VariantTable& v) {
  return v.extends.empty() ? "the base" : "variant " + in_quotes(v.extends);
}

}  // namespace

VariantTable read_variant_table(Reader& r, const DocNode& table) {
  VariantTable v;
  v.name = table.key;
  v.extends_key = join_key(table.path, "extends");
  v.unset_key = join_key(table.path, "unset");
  v.doc = table;
  v.doc.members.clear();
  for (const DocNode& m : table.members) {
    if (m.key == "description")
      r.string_value(m, "a string", v.description);
    else if (m.key == "extends")
      read_extends(r, m, v);
    else if (m.key == "unset")
      read_unset(r, table, v);
    else
      v.doc.members.push_back(m);
  }
  return v;
}

void check_extends(Reader& r, const std::vector<VariantTable>& variants) {
  std::vector<std::string> names{"base"};
  for (const VariantTable& v : variants) names.push_back(v.name);
  for (const VariantTable& v : variants) {
    if (v.extends.empty()) continue;
    if (v.extends == v.name)
      r.fail(v.extends_pos, v.extends_key, "a variant cannot extend itself; leave extends out to start from the base");
    else if (find(variants, v.extends) == nullptr)
      r.fail(v.extends_pos, v.extends_key,
             "unknown variant " + in_quotes(v.extends) + did_you_mean(v.extends, names) + "; variants: " +
                 join_list(names));
  }
  // A cycle is reported at its first member in file order, once.
  std::vector<std::string> reported;
  for (const VariantTable& v : variants) {
    if (std::find(reported.begin(), reported.end(), v.name) != reported.end()) continue;
    std::vector<std::string> chain{v.name};
    for (const VariantTable* at = &v; at != nullptr && !at->extends.empty() && at->extends != at->name;
         at = find(variants, at->extends)) {
      if (at->extends == v.name) {
        std::string text;
        for (const std::string& name : chain) text += name + " -> ";
        r.fail(v.extends_pos, v.extends_key,
               "variants extend each other in a cycle: " + text + v.name +
                   "; one of them must start from the base (leave its extends out)");
        reported.insert(reported.end(), chain.begin(), chain.end());
        break;
      }
      // A cycle that |v| only leads into is reported at its own first member.
      if (std::find(chain.begin(), chain.end(), at->extends) != chain.end()) break;
      chain.push_back(at->extends);
    }
  }
}

std::vector<const VariantTable*> lineage(const std::vector<VariantTable>& variants, const std::string& name) {
  std::vector<const VariantTable*> chain;
  for (const VariantTable* at = find(variants, name); at != nullptr; at = find(variants, at->extends)) {
    if (std::find(chain.begin(), chain.end(), at) != chain.end()) return {};  // a cycle
    chain.push_back(at);
    if (at->extends.empty()) {
      std::reverse(chain.begin(), chain.end());
      return chain;
    }
  }
  return {};  // an unknown name somewhere on the way
}

void apply_unset(const VariantTable& v, DocNode& inherited, ScenarioErrors& errors) {
  for (const VariantTable::Removal& removal : v.unset) {
    DocNode* parent = &inherited;
    for (std::size_t i = 0; i < removal.parts.size(); ++i) {
      const std::string& part = removal.parts[i];
      const bool last = i + 1 == removal.parts.size();
      DocNode* node = parent->table ? parent->find(part) : nullptr;
      if (node == nullptr) {
        std::vector<std::string> candidates;
        paths_at_depth(inherited, removal.parts.size(), "", candidates);
        errors.push_back({removal.pos.file, removal.pos.line, v.unset_key,
                          in_quotes(removal.text) + " names nothing that variant " + in_quotes(v.name) +
                              " inherits from " + starts_from(v) + did_you_mean(removal.text, candidates)});
        break;
      }
      if (last) {
        parent->members.erase(parent->members.begin() + (node - parent->members.data()));
        break;
      }
      parent = node;
    }
  }
}

}  // namespace locksim::scenario
