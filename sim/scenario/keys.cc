#include "sim/scenario/keys.h"

#include <toml++/toml.h>

#include <cctype>
#include <stdexcept>

namespace locksim::scenario {

namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

// A duration that Redis takes in whole units: anything finer would be
// truncated, and 0 means something else there.
bool whole_units(Reader& r, const DocNode& node, const DurationRule& rule, Duration d) {
  if (rule.whole_unit == Duration{0} || d % rule.whole_unit == Duration{0}) return true;
  r.fail(node, "must be a whole number of " + std::string(rule.whole_unit_name) + " (" +
                   std::string(rule.whole_unit_why) + "), got " + in_quotes(*node.value->value<std::string>()));
  return false;
}

// The written value of |node| read by |rule|; nullopt after failing.
std::optional<KeyValue> read_present(Reader& r, const DocNode& table, const DocNode& node, const KeyDecl& key,
                                     const ProcessNames* processes) {
  const std::string_view name = key.name;
  return std::visit(
      Overloaded{
          [&](const StringRule& rule) -> std::optional<KeyValue> {
            std::string s;
            if (!r.string(table, name, s)) return std::nullopt;
            if (rule.non_empty && s.empty()) {
              r.fail(node, "must not be empty");
              return std::nullopt;
            }
            if (rule.process_name && !valid_process_name(s)) {
              r.fail(node, bad_name_message(s));
              return std::nullopt;
            }
            return s;
          },
          [&](const IntegerRule& rule) -> std::optional<KeyValue> {
            std::int64_t n = 0;
            if (!r.integer(table, name, rule.min, rule.max, n)) return std::nullopt;
            return n;
          },
          [&](const BoolRule&) -> std::optional<KeyValue> {
            bool b = false;
            if (!r.boolean(table, name, b)) return std::nullopt;
            return b;
          },
          [&](const DurationRule& rule) -> std::optional<KeyValue> {
            Duration d{0};
            if (!r.duration(table, name, rule.sign, d) || !whole_units(r, node, rule, d)) return std::nullopt;
            return d;
          },
          [&](const LatencyRule&) -> std::optional<KeyValue> {
            Latency l;
            if (!r.latency(table, name, l)) return std::nullopt;
            return l;
          },
          [&](const RateRule& rule) -> std::optional<KeyValue> {
            std::int64_t ppm = 0;
            if (!r.ppm(table, name, rule.min_ppm, rule.max_ppm, rule.range_rule, ppm)) return std::nullopt;
            return ppm;
          },
          [&](const FractionRule&) -> std::optional<KeyValue> {
            std::int64_t ppm = 0;
            if (!r.fraction_ppm(table, name, ppm)) return std::nullopt;
            return ppm;
          },
          [&](const ChoiceRule& rule) -> std::optional<KeyValue> {
            if (!node.table && node.value->is_string())
              for (std::size_t i = rule.listed; i < rule.options.size(); ++i)
                if (rule.options[i].second == *node.value->value<std::string>()) return rule.options[i].first;
            std::vector<std::string> names;
            for (std::size_t i = 0; i < rule.options.size() && i < rule.listed; ++i)
              names.emplace_back(rule.options[i].second);
            std::size_t index = 0;
            if (!r.one_of(table, name, names, index)) return std::nullopt;
            return rule.options[index].first;
          },
          [&](const ProcessRule&) -> std::optional<KeyValue> {
            if (processes == nullptr) throw std::logic_error("a process name is read without the process names");
            std::string process;
            if (!processes->read(r, table, name, process)) return std::nullopt;
            return process;
          },
          [&](const CustomRule&) -> std::optional<KeyValue> { return std::nullopt; },
      },
      key.rule);
}

std::optional<KeyValue> fallback_of(const Rule& rule) {
  return std::visit(Overloaded{
                        [](const StringRule& r) -> std::optional<KeyValue> {
                          if (!r.fallback) return std::nullopt;
                          return std::string(*r.fallback);
                        },
                        [](const IntegerRule& r) -> std::optional<KeyValue> {
                          if (!r.fallback) return std::nullopt;
                          return *r.fallback;
                        },
                        [](const BoolRule& r) -> std::optional<KeyValue> {
                          if (!r.fallback) return std::nullopt;
                          return *r.fallback;
                        },
                        [](const DurationRule& r) -> std::optional<KeyValue> {
                          if (!r.fallback) return std::nullopt;
                          return *r.fallback;
                        },
                        [](const LatencyRule& r) -> std::optional<KeyValue> {
                          if (!r.fallback) return std::nullopt;
                          return *r.fallback;
                        },
                        [](const RateRule& r) -> std::optional<KeyValue> {
                          if (!r.fallback_ppm) return std::nullopt;
                          return *r.fallback_ppm;
                        },
                        [](const FractionRule& r) -> std::optional<KeyValue> {
                          if (!r.fallback_ppm) return std::nullopt;
                          return *r.fallback_ppm;
                        },
                        [](const ChoiceRule& r) -> std::optional<KeyValue> {
                          if (!r.fallback) return std::nullopt;
                          return *r.fallback;
                        },
                        [](const ProcessRule&) -> std::optional<KeyValue> { return std::nullopt; },
                        [](const CustomRule&) -> std::optional<KeyValue> { return std::nullopt; },
                    },
                    rule);
}

std::string quoted_duration(Duration d) { return "`\"" + (d == Duration{0} ? std::string("0s") : format_duration(d)) + "\"`"; }

// 10000 ppm as "1%", 250 ppm as "250ppm", 0 as "0".
std::string rate_text(std::int64_t ppm) {
  if (ppm == 0) return "0";
  if (ppm % 10'000 == 0) return std::to_string(ppm / 10'000) + "%";
  return std::to_string(ppm) + "ppm";
}

// 10000 ppm as 0.01.
std::string fraction_text(std::int64_t ppm) {
  if (ppm == 0) return "0";
  std::string digits = std::to_string(ppm);
  digits.insert(0, 6 - std::min<std::size_t>(6, digits.size()), '0');
  while (!digits.empty() && digits.back() == '0') digits.pop_back();
  return "0." + digits;
}

std::string choices_text(const ChoiceRule& rule) {
  std::string out;
  for (std::size_t i = 0; i < rule.options.size() && i < rule.listed; ++i) {
    const auto& option = rule.options[i];
    if (!out.empty()) out += " \\| ";
    out += "`\"" + std::string(option.second) + "\"`";
  }
  return out;
}

std::string sign_text(Sign sign) {
  switch (sign) {
    case Sign::any: return "duration, may be negative";
    case Sign::non_negative: return "duration >= 0";
    case Sign::positive: return "duration > 0";
  }
  return "duration";
}

std::string integer_text(const IntegerRule& rule) {
  if (rule.max == INT64_MAX || rule.max == INT32_MAX) return "integer >= " + std::to_string(rule.min);
  return "integer, " + std::to_string(rule.min) + " to " + std::to_string(rule.max);
}

}  // namespace

std::optional<KeyValue> read_key(Reader& r, const DocNode& table, const KeyDecl& key,
                                 const ProcessNames* processes) {
  if (const DocNode* node = table.find(key.name)) return read_present(r, table, *node, key, processes);
  if (key.required) {
    r.require(table, key.name);
    return std::nullopt;
  }
  return fallback_of(key.rule);
}

void write_key(toml::table& out, const KeyDecl& key, const KeyValue& value) {
  const std::string_view name = key.name;
  std::visit(Overloaded{
                 [&](const StringRule&) { out.insert_or_assign(name, std::get<std::string>(value)); },
                 [&](const ProcessRule&) { out.insert_or_assign(name, std::get<std::string>(value)); },
                 [&](const IntegerRule&) { out.insert_or_assign(name, std::get<std::int64_t>(value)); },
                 [&](const BoolRule&) { out.insert_or_assign(name, std::get<bool>(value)); },
                 [&](const DurationRule&) { out.insert_or_assign(name, format_duration(std::get<Duration>(value))); },
                 [&](const LatencyRule&) { out.insert_or_assign(name, std::get<Latency>(value).describe()); },
                 [&](const RateRule&) { out.insert_or_assign(name, std::to_string(std::get<std::int64_t>(value)) + "ppm"); },
                 [&](const FractionRule&) {
                   out.insert_or_assign(name, static_cast<double>(std::get<std::int64_t>(value)) / 1e6);
                 },
                 [&](const ChoiceRule& rule) {
                   // A bool field may stand for a choice of two names (assign_key_value).
                   const std::int64_t v = std::holds_alternative<bool>(value) ? std::get<bool>(value)
                                                                              : std::get<std::int64_t>(value);
                   for (const auto& [option, option_name] : rule.options)
                     if (option == v) out.insert_or_assign(name, std::string(option_name));
                 },
                 [&](const CustomRule&) {
                   throw std::logic_error("a Custom key is written by its section: " + std::string(name));
                 },
             },
             key.rule);
}

std::vector<std::string> SectionDecl::key_names() const {
  std::vector<std::string> names;
  for (const KeyDecl& k : keys) names.emplace_back(k.name);
  return names;
}

const KeyDecl* SectionDecl::find(std::string_view key) const {
  for (const KeyDecl& k : keys)
    if (k.name == key) return &k;
  return nullptr;
}

std::string type_text(const KeyDecl& key) {
  if (!key.type_note.empty()) return std::string(key.type_note);
  return std::visit(Overloaded{
                        [](const StringRule& r) -> std::string { return r.process_name ? "process name" : "string"; },
                        [](const IntegerRule& r) { return integer_text(r); },
                        [](const BoolRule&) -> std::string { return "boolean"; },
                        [](const DurationRule& r) {
                          std::string text = sign_text(r.sign);
                          if (r.whole_unit > Duration{0}) text += ", whole " + std::string(r.whole_unit_name);
                          return text;
                        },
                        [](const LatencyRule&) -> std::string { return "latency"; },
                        [](const RateRule&) -> std::string { return "rate"; },
                        [](const FractionRule&) -> std::string { return "number in [0, 1)"; },
                        [](const ChoiceRule& r) { return choices_text(r); },
                        [](const ProcessRule&) -> std::string { return "process"; },
                        [](const CustomRule& r) { return std::string(r.type); },
                    },
                    key.rule);
}

std::string default_text(const KeyDecl& key) {
  if (key.required) return "**required**";
  if (!key.default_note.empty()) return std::string(key.default_note);
  const std::optional<KeyValue> value = fallback_of(key.rule);
  if (!value) return "none";
  if (const auto* rate = std::get_if<RateRule>(&key.rule)) return "`\"" + rate_text(rate->fallback_ppm.value()) + "\"`";
  if (const auto* fraction = std::get_if<FractionRule>(&key.rule))
    return "`" + fraction_text(fraction->fallback_ppm.value()) + "`";
  if (const auto* choice = std::get_if<ChoiceRule>(&key.rule)) {
    for (const auto& option : choice->options)
      if (option.first == *choice->fallback) return "`\"" + std::string(option.second) + "\"`";
  }
  return std::visit(Overloaded{
                        [](const std::string& s) { return "`\"" + s + "\"`"; },
                        [](std::int64_t n) { return "`" + std::to_string(n) + "`"; },
                        [](bool b) -> std::string { return b ? "`true`" : "`false`"; },
                        [](Duration d) { return quoted_duration(d); },
                        [](const Latency& l) {
                          return l.kind == Latency::Kind::constant ? quoted_duration(l.a)
                                                                   : "`\"" + l.describe() + "\"`";
                        },
                    },
                    *value);
}

std::string markdown_row(const std::vector<std::string>& cells) {
  std::string out = "|";
  for (const std::string& cell : cells) out += cell.empty() ? " |" : " " + cell + " |";
  return out + "\n";
}

std::string markdown_table(const SectionDecl& section) {
  std::string out = section.has_defaults ? "| key | type | default | meaning |\n|---|---|---|---|\n"
                                         : "| key | value | meaning |\n|---|---|---|\n";
  for (const KeyDecl& key : section.keys) {
    const std::string name = "`" + std::string(key.name) + "`";
    out += section.has_defaults ? markdown_row({name, type_text(key), default_text(key), std::string(key.doc)})
                                : markdown_row({name, type_text(key), std::string(key.doc)});
  }
  return out;
}

bool valid_process_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
  return true;
}

std::string bad_name_message(const std::string& name) {
  return "bad process name " + in_quotes(name) + ": use letters, digits, '-' and '_'";
}

}  // namespace locksim::scenario
