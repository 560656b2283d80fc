#include "sim/scenario/faults/fault_kinds.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include <toml++/toml.h>

#include "sim/scenario/read/context.h"

namespace locksim::scenario {

namespace {

template <std::size_t I>
using KindAt = std::variant_alternative_t<I, FaultKindSpec>;
constexpr std::size_t kKinds = std::variant_size_v<FaultKindSpec>;

template <typename Kind>
const FaultKindDecl<Kind>& decl_of() {
  return kind_decl(std::type_identity<Kind>{});
}

// Calls |f| with the declaration of every kind, in table order.
template <typename F, std::size_t... I>
void each_kind(F&& f, std::index_sequence<I...>) {
  (f(decl_of<KindAt<I>>()), ...);
}
template <typename F>
void each_kind(F&& f) {
  each_kind(std::forward<F>(f), std::make_index_sequence<kKinds>{});
}

template <typename Kind>
std::vector<std::string> key_names(const FaultKindDecl<Kind>& kind) {
  std::vector<std::string> names;
  for (const auto& key : kind.keys) names.emplace_back(key.decl.name);
  return names;
}

template <typename Kind>
FaultKindSpec read_kind(ReadContext& c, const FaultKindDecl<Kind>& kind, const DocNode& table) {
  Kind out{};
  read_keys(c.r, table, kind.keys, out, &c.processes);
  if (kind.read_custom != nullptr) kind.read_custom(c, table, out);
  return out;
}

template <typename Kind>
FaultKindSpec make_searched(const SearchedFault& fault) {
  return decl_of<Kind>().search->make(fault);
}

template <typename Kind>
void add_searchable(const FaultKindDecl<Kind>& kind, std::vector<SearchableKind>& out) {
  if (!kind.search) return;
  // A Gene holds a searched fault's values in place (search_side.h).
  if (kind.search->values.size() > kMostSearchedValues)
    throw std::logic_error("fault kind " + std::string(kind.name) + " searches more than " +
                           std::to_string(kMostSearchedValues) + " values: raise kMostSearchedValues");
  out.push_back({.name = kind.name,
                 .one_target = kind.search->one_target,
                 .values = &kind.search->values,
                 .keys = declarations(kind.keys),
                 .make = make_searched<Kind>});
}

std::string markdown_rows(std::string_view name, std::string_view doc, const std::vector<KeyDecl>& keys) {
  std::string out;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const KeyDecl& key = keys[i];
    std::string meaning(key.doc);
    if (i == 0) meaning = std::string(doc) + (meaning.empty() ? "" : ". " + meaning);
    out += markdown_row({i == 0 ? "`" + std::string(name) + "`" : "", "`" + std::string(key.name) + "`",
                         type_text(key), default_text(key), meaning});
  }
  return out;
}

}  // namespace

std::vector<std::string> fault_kind_names(bool with_hidden) {
  std::vector<std::string> names;
  each_kind([&](const auto& kind) {
    if (!kind.hidden) names.emplace_back(kind.name);
  });
  each_kind([&](const auto& kind) {
    if (kind.hidden && with_hidden) names.emplace_back(kind.name);
  });
  return names;
}

std::string_view fault_kind_name(const FaultKindSpec& kind) {
  return std::visit([](const auto& k) { return decl_of<std::decay_t<decltype(k)>>().name; }, kind);
}

std::vector<std::string> fault_kind_keys(std::string_view name) {
  std::vector<std::string> keys;
  each_kind([&](const auto& kind) {
    if (kind.name == name) keys = key_names(kind);
  });
  return keys;
}

std::vector<std::string> all_fault_kind_keys() {
  std::vector<std::string> keys;
  each_kind([&](const auto& kind) {
    for (std::string& key : key_names(kind))
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(std::move(key));
  });
  return keys;
}

std::optional<FaultKindSpec> read_fault_kind(ReadContext& c, std::string_view name, const DocNode& table) {
  std::optional<FaultKindSpec> out;
  each_kind([&](const auto& kind) {
    if (kind.name == name) out = read_kind(c, kind, table);
  });
  return out;
}

FaultAction resolve_fault(const FaultKindSpec& kind, const FaultResolver& resolver) {
  return std::visit([&](const auto& k) { return decl_of<std::decay_t<decltype(k)>>().resolve(k, resolver); }, kind);
}

const std::string* fault_target(const FaultKindSpec& kind) {
  return std::visit(
      [](const auto& k) -> const std::string* {
        const auto& decl = decl_of<std::decay_t<decltype(k)>>();
        return decl.target != nullptr ? decl.target(k) : nullptr;
      },
      kind);
}

std::optional<ClockEffect> fault_clock_effect(const FaultKindSpec& kind) {
  return std::visit(
      [](const auto& k) -> std::optional<ClockEffect> {
        const auto& decl = decl_of<std::decay_t<decltype(k)>>();
        if (decl.clock_effect == nullptr) return std::nullopt;
        return decl.clock_effect(k);
      },
      kind);
}

void write_fault_kind(const FaultKindSpec& kind, toml::table& out) {
  std::visit(
      [&](const auto& k) {
        const auto& decl = decl_of<std::decay_t<decltype(k)>>();
        out.insert_or_assign("kind", std::string(decl.name));
        write_keys(decl.keys, k, out);
        if (decl.write_custom != nullptr) decl.write_custom(k, out);
      },
      kind);
}

std::string describe_fault(const FaultKindSpec& kind) {
  return std::visit(
      [](const auto& k) {
        const auto& decl = decl_of<std::decay_t<decltype(k)>>();
        std::string what(decl.name);
        if (decl.describe != nullptr) return what + " " + decl.describe(k);
        if (decl.target != nullptr) return what + " of " + *decl.target(k);
        return what;
      },
      kind);
}

const KeyDecl& SearchableKind::key(std::string_view key_name) const {
  for (const KeyDecl& k : keys)
    if (k.name == key_name) return k;
  throw std::logic_error("kind " + std::string(name) + " searches an undeclared key " + std::string(key_name));
}

const std::vector<SearchableKind>& searchable_kinds() {
  static const std::vector<SearchableKind> kinds = [] {
    std::vector<SearchableKind> out;
    each_kind([&](const auto& kind) { add_searchable(kind, out); });
    return out;
  }();
  return kinds;
}

const SearchableKind* searchable_kind(std::string_view name) {
  for (const SearchableKind& k : searchable_kinds())
    if (k.name == name) return &k;
  return nullptr;
}

std::string fault_kinds_markdown() {
  std::string out = "| kind | key | type | default | meaning |\n|---|---|---|---|---|\n";
  each_kind([&](const auto& kind) {
    if (!kind.hidden) out += markdown_rows(kind.name, kind.doc, declarations(kind.keys));
  });
  return out;
}

ProcessId find_id(const NameTable& table, std::string_view name) {
  const auto it = std::lower_bound(table.begin(), table.end(), name,
                                   [](const auto& entry, std::string_view n) { return entry.first < n; });
  return it != table.end() && it->first == name ? it->second : kNoProcess;
}

ProcessId FaultResolver::id(std::string_view process) const {
  const ProcessId id = find_id(ids_, process);
  if (id == kNoProcess) throw std::logic_error("the reader let an unknown process name through: " + std::string(process));
  return id;
}

}  // namespace locksim::scenario
