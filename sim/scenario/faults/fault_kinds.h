// What needs a fault's kind, for any kind: each function visits the
// FaultKindSpec alternatives (kinds.h) and asks the kind's declaration
// (kind.h), so none of them names a kind.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/scenario/faults/kind.h"
#include "sim/scenario/spec.h"

namespace locksim::scenario {

// Every kind's name, in table order ("pause", "crash", ...); the hidden
// test-only kinds last, when asked for.
std::vector<std::string> fault_kind_names(bool with_hidden = false);
std::string_view fault_kind_name(const FaultKindSpec& kind);
// The keys of the kind called |name| (besides kind, at, after, occurrence).
std::vector<std::string> fault_kind_keys(std::string_view name);
// Every key any kind takes, for the schema pass.
std::vector<std::string> all_fault_kind_keys();

// Reads the keys of the kind called |name| from |table|; nullopt for an
// unknown name. Errors go to c.r.
std::optional<FaultKindSpec> read_fault_kind(ReadContext& c, std::string_view name, const DocNode& table);

FaultAction resolve_fault(const FaultKindSpec& kind, const FaultResolver& resolver);
// The process the fault acts on; null for one that acts on no one process.
const std::string* fault_target(const FaultKindSpec& kind);
// How it moves its target's clock; nullopt for a kind that does not.
std::optional<ClockEffect> fault_clock_effect(const FaultKindSpec& kind);

// The [fault.NAME] table that reads back as |kind|: its kind and keys
// (the trigger is the caller's).
void write_fault_kind(const FaultKindSpec& kind, toml::table& out);
// "pause of c1 for 12s", "partition [c1 | A B] healing after 2s".
std::string describe_fault(const FaultKindSpec& kind);

// A kind a [search.KIND] table may inject: its search side (search_side.h)
// without its type, for the search to use any kind alike.
struct SearchableKind {
  std::string_view name;
  bool one_target = true;
  const std::vector<SearchedValue>* values = nullptr;
  std::vector<KeyDecl> keys;  // the kind's keys: a choice value's options are its key's
  FaultKindSpec (*make)(const SearchedFault& fault) = nullptr;

  const KeyDecl& key(std::string_view name) const;
};
// Every searchable kind, in table order.
const std::vector<SearchableKind>& searchable_kinds();
// The one called |name|; null when there is none.
const SearchableKind* searchable_kind(std::string_view name);

// FORMAT.md's "Keys per kind": | kind | key | type | default | meaning |.
std::string fault_kinds_markdown();

}  // namespace locksim::scenario
