// [fault.NAME]: when each fault fires (the keys every fault has), and what it
// does (the keys of its kind, declared in faults/).
#include <algorithm>
#include <climits>

#include "sim/scenario/faults/fault_kinds.h"
#include "sim/scenario/read/sections.h"
#include "sim/scenario/read/trigger.h"

namespace locksim::scenario {

namespace {

using namespace std::chrono_literals;

ChoiceRule kind_rule() {
  static const std::vector<std::string> names = fault_kind_names(true);  // the options point into it
  ChoiceRule rule;
  for (std::size_t i = 0; i < names.size(); ++i) rule.options.emplace_back(static_cast<std::int64_t>(i), names[i]);
  rule.listed = fault_kind_names().size();
  return rule;
}

std::string kinds_text() {
  std::string out;
  for (const std::string& name : fault_kind_names()) out += (out.empty() ? "`\"" : ", `\"") + name + "\"`";
  return out;
}

const KeyTable<FaultSpec>& fault_keys() {
  static const std::string kind_doc = kinds_text();
  static const KeyTable<FaultSpec> table{
      {{.name = "kind", .rule = kind_rule(), .doc = kind_doc, .required = true, .type_note = "see below"}, {}},
      {{.name = "at",
        .rule = CustomRule{"trigger"},
        .doc = "when it fires: a time (`\"5s\"`), a time drawn per run (`\"uniform(1s, 9s)\"`), a client's phase "
               "(`\"c1 acquired\"`) or a server event (`\"r1 key-expired\"`); below",
        .required = true},
       {}},
      {{.name = "after",
        .rule = DurationRule{.sign = Sign::non_negative, .fallback = 0s},
        .doc = "fire this long after the trigger"},
       into_nested<FaultSpec>([](FaultSpec& f) -> auto& { return f.trigger.delay; })},
      {{.name = "occurrence",
        .rule = IntegerRule{.min = 1, .max = INT_MAX, .fallback = 1},
        .doc = "with a phase or an event: fire at the n-th time the phase is reached or the event happens (an "
               "error with a time)"},
       into_nested<FaultSpec>([](FaultSpec& f) -> auto& { return f.trigger.occurrence; })},
  };
  return table;
}

bool is_common_key(std::string_view key) {
  for (const BoundKey<FaultSpec>& k : fault_keys())
    if (k.decl.name == key) return true;
  return false;
}

std::optional<FaultSpec> read_fault(ReadContext& c, const DocNode& t) {
  FaultSpec fault;
  fault.name = t.key;
  fault.pos = t.pos;
  const std::optional<KeyValue> kind = read_key(c.r, t, declared(fault_keys(), "kind"));
  if (!kind) return std::nullopt;
  const std::string kind_name = fault_kind_names(true)[static_cast<std::size_t>(std::get<std::int64_t>(*kind))];
  const std::vector<std::string> kind_keys = fault_kind_keys(kind_name);
  for (const DocNode& m : t.members) {
    if (is_common_key(m.key) || std::find(kind_keys.begin(), kind_keys.end(), m.key) != kind_keys.end()) continue;
    c.r.fail(m, in_quotes(m.key) + " does not apply to a " + kind_name + " fault (a " + kind_name +
                    " fault takes: " + join_list(kind_keys) + ")");
  }
  read_keys(c.r, t, fault_keys(), fault);
  if (const DocNode* at = c.r.require(t, "at")) read_trigger(c, *at, fault.trigger);
  if (const DocNode* occurrence = t.find("occurrence"); occurrence != nullptr && fault.trigger.at_a_time() &&
                                                        t.find("at") != nullptr)
    c.r.fail(*occurrence, "occurrence counts phases and events; it needs a phase trigger such as at = \"c1 read\" "
                          "or an event trigger such as at = \"r1 key-expired\"");
  if (std::optional<FaultKindSpec> what = read_fault_kind(c, kind_name, t)) fault.kind = std::move(*what);
  return fault;
}

}  // namespace

SectionDecl fault_section() { return {.name = "fault", .named = true, .keys = declarations(fault_keys())}; }

void read_fault_sections(ReadContext& c) {
  for (const DocNode& t : c.section("fault").members) {
    if (!t.table) continue;
    if (std::optional<FaultSpec> fault = read_fault(c, t)) c.spec.faults.push_back(std::move(*fault));
  }
}

}  // namespace locksim::scenario
