// Every scenario key, declared once.
//
// Config readers usually write a key in four places — the list of known
// keys, the code that reads it, the struct default and the documentation —
// and the four drift apart. Here each section (`[lock]`, `[client.NAME]`, ...)
// is one table of BoundKey: the key's name, its rule (what it takes, its
// range, its default), one line of doc, and the spec field it goes into. The
// schema pass takes the known keys from the tables, read_keys() reads every
// key through them (an absent key gets the declared default, a present one is
// checked against the declared rule), and `locksim keys --markdown` prints
// the tables scenarios/FORMAT.md holds (a test keeps the two equal).
//
// Keys whose value needs more than a rule — process names, steps, triggers,
// partition groups, the initial keyspace — are declared Custom (their type
// as text, for the documentation) and read by hand in their section.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "sim/core/time.h"
#include "sim/scenario/read/processes.h"
#include "sim/scenario/reader.h"
#include "sim/world/latency.h"

namespace locksim::scenario {

// ---- Rules: what a key takes ---------------------------------------------------
// A rule's |fallback| is the key's default; nullopt means the key has none of
// its own (it is required, or resolve_defaults derives it: KeyDecl::default_note).

struct StringRule {
  std::optional<std::string_view> fallback;
  bool non_empty = false;
  bool process_name = false;  // letters, digits, '-' and '_'
};
struct IntegerRule {
  std::int64_t min = 0;
  std::int64_t max = INT64_MAX;
  std::optional<std::int64_t> fallback;
};
struct BoolRule {
  std::optional<bool> fallback;
};
struct DurationRule {
  Sign sign = Sign::non_negative;
  std::optional<Duration> fallback;
  // Redis takes some values in whole units: anything finer would be cut.
  Duration whole_unit{0};  // 0 = any
  std::string_view whole_unit_name;
  std::string_view whole_unit_why;
};
struct LatencyRule {
  std::optional<Latency> fallback;
};
// A rate ("200ppm", "0.5%") in ppm within [min_ppm, max_ppm].
struct RateRule {
  std::int64_t min_ppm = 0;
  std::int64_t max_ppm = 0;
  std::string_view range_rule;  // the message when out of range
  std::optional<std::int64_t> fallback_ppm;
};
// A plain number in [0, 1), kept in ppm (0.01 -> 10000).
struct FractionRule {
  std::optional<std::int64_t> fallback_ppm;
};
// One of a fixed set of names; each stands for a value (an enum's).
struct ChoiceRule {
  std::vector<std::pair<std::int64_t, std::string_view>> options;  // in the order FORMAT.md lists them
  std::optional<std::int64_t> fallback;                             // a value from options
  // Options from this index on are read but never listed, in the reference
  // or in an error message: test-only values (fault kind "planted-crash").
  std::size_t listed = SIZE_MAX;
};
// The name of a process the scenario declares (a fault's target).
struct ProcessRule {};
// Read by hand in its section; declared for the schema and the documentation.
struct CustomRule {
  std::string_view type;
};

using Rule = std::variant<StringRule, IntegerRule, BoolRule, DurationRule, LatencyRule, RateRule, FractionRule,
                          ChoiceRule, ProcessRule, CustomRule>;

struct KeyDecl {
  std::string_view name;
  Rule rule;
  std::string_view doc;
  bool required = false;
  // The "default" column when the rule has no default of its own: what
  // resolve_defaults gives the key ("ttl / 3", "`[lock].attempts`").
  std::string_view default_note = {};
  // The "type" column when the rule's own text would not say enough.
  std::string_view type_note = {};
};

// The names of a {value, name} table as a ChoiceRule.
template <typename E, std::size_t N>
ChoiceRule choice_of(const std::pair<E, std::string_view> (&names)[N]) {
  ChoiceRule rule;
  for (const auto& [value, name] : names) rule.options.emplace_back(static_cast<std::int64_t>(value), name);
  return rule;
}
// ... with |fallback| as the key's default.
template <typename E, std::size_t N>
ChoiceRule choice_of(const std::pair<E, std::string_view> (&names)[N], E fallback) {
  ChoiceRule rule = choice_of(names);
  rule.fallback = static_cast<std::int64_t>(fallback);
  return rule;
}

// ---- Reading a key into a spec field ------------------------------------------

// A value read by a rule. Choices and integers are int64; rates and fractions
// are ppm.
using KeyValue = std::variant<std::string, std::int64_t, bool, Duration, Latency>;

// The key's value as written and checked against its rule, or its default
// when absent; nullopt when the value is bad (the error is in |r|), when a
// required key is missing, or when the key has no default and is absent.
// A ProcessRule needs the |processes| declared so far.
std::optional<KeyValue> read_key(Reader& r, const DocNode& table, const KeyDecl& key,
                                 const ProcessNames* processes = nullptr);

template <typename T>
inline constexpr bool kIsOptional = false;
template <typename T>
inline constexpr bool kIsOptional<std::optional<T>> = true;

template <typename Field>
void assign_key_value(Field& field, const KeyValue& value) {
  if constexpr (kIsOptional<Field>) {
    typename Field::value_type inner{};
    assign_key_value(inner, value);
    field = inner;
  } else if constexpr (std::is_same_v<Field, bool>) {
    // A choice between two names may stand for a bool ("sequential" | "parallel").
    field = std::holds_alternative<bool>(value) ? std::get<bool>(value) : std::get<std::int64_t>(value) != 0;
  } else if constexpr (std::is_enum_v<Field> || std::is_integral_v<Field>) {
    field = static_cast<Field>(std::get<std::int64_t>(value));
  } else {
    field = std::get<Field>(value);  // std::string, Duration, Latency
  }
}

// Where a key's value goes in the section's spec |T|, and where it comes
// back from for writing a table out (write_keys): the reader and the writer
// of a key are one declaration, so a written table reads back as itself.
// Both empty for Custom keys.
template <typename T>
using Store = std::function<void(T&, const KeyValue&)>;
template <typename T>
using Load = std::function<std::optional<KeyValue>(const T&)>;

template <typename T>
struct Binding {
  Store<T> store;
  Load<T> load;

  Binding() = default;
  Binding(Store<T> s, Load<T> l) : store(std::move(s)), load(std::move(l)) {}
  // A store alone (a key that is read, never written back).
  template <typename F>
    requires std::is_invocable_v<F, T&, const KeyValue&>
  Binding(F s) : store(std::move(s)) {}
};

template <typename T>
struct BoundKey {
  KeyDecl decl;
  Binding<T> bind;
};
template <typename T>
using KeyTable = std::vector<BoundKey<T>>;

// The KeyValue a field holds; nullopt for an empty optional.
template <typename Field>
std::optional<KeyValue> key_value_of(const Field& field) {
  if constexpr (kIsOptional<Field>) {
    if (!field) return std::nullopt;
    return key_value_of(*field);
  } else if constexpr (std::is_same_v<Field, bool>) {
    return KeyValue{field};
  } else if constexpr (std::is_enum_v<Field> || std::is_integral_v<Field>) {
    return KeyValue{static_cast<std::int64_t>(field)};
  } else {
    return KeyValue{field};  // std::string, Duration, Latency
  }
}

// The member |field| of T: into(&LockSpec::ttl).
template <typename T, typename Field>
Binding<T> into(Field T::*field) {
  return {[field](T& target, const KeyValue& value) { assign_key_value(target.*field, value); },
          [field](const T& source) { return key_value_of(source.*field); }};
}
// A field reached through |get|, for nested structs:
// into_nested<LockSpec>([](LockSpec& l) -> auto& { return l.watchdog.enabled; }).
template <typename T, typename Get>
Binding<T> into_nested(Get get) {
  // |get| takes the struct by reference to write through it; reading
  // through it changes nothing.
  return {[get](T& target, const KeyValue& value) { assign_key_value(get(target), value); },
          [get](const T& source) { return key_value_of(get(const_cast<T&>(source))); }};
}

// Reads every key of |keys| that has a store from |table| into |target|.
template <typename T>
void read_keys(Reader& r, const DocNode& table, const KeyTable<T>& keys, T& target,
               const ProcessNames* processes = nullptr) {
  for (const BoundKey<T>& key : keys) {
    if (!key.bind.store) continue;
    if (std::optional<KeyValue> value = read_key(r, table, key.decl, processes)) key.bind.store(target, *value);
  }
}

// Sets |key| in |out| to |value| as its rule reads back the same value:
// "2.5s", "lognormal(2ms, 0.5)", "500ppm", the choice's name.
void write_key(toml::table& out, const KeyDecl& key, const KeyValue& value);

// Writes every key of |keys| that has a load and a value in |source| into
// |out|: the inverse of read_keys. Custom keys are the section's to write.
template <typename T>
void write_keys(const KeyTable<T>& keys, const T& source, toml::table& out) {
  for (const BoundKey<T>& key : keys) {
    if (!key.bind.load) continue;
    if (std::optional<KeyValue> value = key.bind.load(source)) write_key(out, key.decl, *value);
  }
}

// The declaration of |name|, for a key its section reads by hand.
template <typename T>
const KeyDecl& declared(const KeyTable<T>& keys, std::string_view name) {
  for (const BoundKey<T>& key : keys)
    if (key.decl.name == name) return key.decl;
  throw std::logic_error("no key " + std::string(name) + " is declared");
}

template <typename T>
std::vector<KeyDecl> declarations(const KeyTable<T>& keys) {
  std::vector<KeyDecl> out;
  for (const BoundKey<T>& key : keys) out.push_back(key.decl);
  return out;
}

// ---- Sections, for the schema and the documentation ---------------------------

struct SectionDecl {
  std::string_view name;
  bool named = false;  // [client.NAME], [fault.NAME], ...
  std::vector<KeyDecl> keys;
  // [expect] has no defaults: its table has the columns key | value | meaning.
  bool has_defaults = true;

  std::vector<std::string> key_names() const;
  const KeyDecl* find(std::string_view key) const;
};

// The FORMAT.md cells of a key: its type, its default (with backquotes).
std::string type_text(const KeyDecl& key);
std::string default_text(const KeyDecl& key);
// "| a | b |" (an empty cell as "| |"), with its newline.
std::string markdown_row(const std::vector<std::string>& cells);
// A section's table as FORMAT.md holds it: | key | type | default | meaning |.
std::string markdown_table(const SectionDecl& section);

// "bad process name ..." unless |name| is one (letters, digits, '-', '_').
bool valid_process_name(std::string_view name);
std::string bad_name_message(const std::string& name);

}  // namespace locksim::scenario
