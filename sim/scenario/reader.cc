#include "sim/scenario/reader.h"

#include <toml++/toml.h>

#include <cctype>
#include <cmath>
#include <limits>

#include "sim/core/limits.h"

namespace locksim::scenario {

const char* const kDurationRule = "write a number and a unit (ns, us, ms, s, min, h) such as \"250ms\" or \"1.5s\"";

namespace {

constexpr const char* kRateRule = "write a number and \"ppm\" or \"%\" such as \"200ppm\", \"-50ppm\" or \"0.5%\"";

std::string without_spaces(const std::string& text) {
  std::string out;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) out.push_back(c);
  return out;
}

bool is_plain_number(const std::string& text) {
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  std::size_t digits = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i, ++digits;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i, ++digits;
  }
  return digits > 0 && i == text.size();
}

// The parent's dotted path of |node| ("lock" for "lock.ttl").
std::string parent_path(const DocNode& node) {
  const std::string last = join_key("", node.key);
  if (node.path.size() > last.size()) return node.path.substr(0, node.path.size() - last.size() - 1);
  return "";
}

}  // namespace

namespace {

// Over kMaxDuration: say the limit, not the unit rules.
std::string too_long_message(const std::string& text, bool negative) {
  return in_quotes(text) + (negative ? " reaches further back than" : " is longer than") +
         " the longest supported run, " + human_duration(kMaxDuration) +
         (negative ? " (durations are limited to ±" + human_duration(kMaxDuration) + ")" : "");
}

}  // namespace

std::optional<Duration> duration_from_text(const std::string& text, Sign sign, std::string& error) {
  Duration value{0};
  switch (read_duration_text(text, value)) {
    case DurationText::ok: break;
    case DurationText::too_fine:
      error = in_quotes(text) + " is finer than 1ns, the simulator's resolution";
      return std::nullopt;
    case DurationText::too_large:
      error = too_long_message(text, without_spaces(text).rfind('-', 0) == 0);
      return std::nullopt;
    case DurationText::bad:
      if (is_plain_number(without_spaces(text)))
        error = in_quotes(text) + " has no unit; " + kDurationRule;
      else
        error = "bad duration " + in_quotes(text) + "; " + kDurationRule;
      return std::nullopt;
  }
  if (value > kMaxDuration || value < -kMaxDuration) {
    error = too_long_message(text, value < Duration{0});
    return std::nullopt;
  }
  const std::optional<Duration> d = value;
  if (sign == Sign::non_negative && *d < Duration{0}) {
    error = "must not be negative, got " + in_quotes(text);
    return std::nullopt;
  }
  if (sign == Sign::positive && *d <= Duration{0}) {
    error = "must be greater than zero, got " + in_quotes(text);
    return std::nullopt;
  }
  return d;
}

std::optional<std::int64_t> ppm_from_text(const std::string& text, std::string& error) {
  const std::string compact = without_spaces(text);
  if (compact == "0") return 0;
  auto bad = [&] {
    error = (is_plain_number(compact) ? in_quotes(text) + " has no unit; " : "bad rate " + in_quotes(text) + "; ") +
            kRateRule;
    return std::nullopt;
  };
  std::size_t i = 0;
  bool negative = false;
  if (i < compact.size() && (compact[i] == '-' || compact[i] == '+')) negative = compact[i++] == '-';
  std::int64_t whole = 0, frac = 0, frac_scale = 1;
  std::size_t digits = 0;
  while (i < compact.size() && std::isdigit(static_cast<unsigned char>(compact[i]))) {
    if (++digits > 12) return bad();
    whole = whole * 10 + (compact[i++] - '0');
  }
  if (i < compact.size() && compact[i] == '.') {
    ++i;
    std::size_t frac_digits = 0;
    while (i < compact.size() && std::isdigit(static_cast<unsigned char>(compact[i]))) {
      if (++frac_digits > 9) return bad();
      frac = frac * 10 + (compact[i++] - '0');
      frac_scale *= 10;
    }
    if (frac_digits == 0) return bad();
  }
  if (digits == 0) return bad();
  const std::string unit = compact.substr(i);
  std::int64_t unit_ppm;
  if (unit == "ppm")
    unit_ppm = 1;
  else if (unit == "%")
    unit_ppm = 10'000;
  else
    return bad();
  if (frac * unit_ppm % frac_scale != 0) {
    error = in_quotes(text) + " is finer than 1 ppm (0.0001%)";
    return std::nullopt;
  }
  const std::int64_t value = whole * unit_ppm + frac * unit_ppm / frac_scale;
  return negative ? -value : value;
}

void Reader::fail(const SourcePos& pos, const std::string& key, std::string message) {
  for (const ScenarioError& e : errors_)
    if (e.file == pos.file && e.line == pos.line && e.key == key) return;
  errors_.push_back(ScenarioError{pos.file, pos.line, key, std::move(message)});
}

void Reader::check_keys(const DocNode& table, const std::vector<std::string>& known, std::string_view what) {
  for (const DocNode& member : table.members) {
    bool ok = false;
    for (const std::string& k : known) ok = ok || member.key == k;
    if (ok) continue;
    if (auto best = closest(member.key, known)) {
      fail(member, "unknown key (did you mean " + in_quotes(join_key(parent_path(member), *best)) + "?)");
    } else {
      fail(member, "unknown key; " + std::string(what) + " takes: " + join_list(known));
    }
  }
}

const DocNode* Reader::table(const DocNode& parent, std::string_view key) {
  const DocNode* node = parent.find(key);
  if (node == nullptr) return nullptr;
  if (!node->table) {
    fail(*node, "expected a table, got " + describe_value(*node->value));
    return nullptr;
  }
  return node;
}

bool Reader::all_tables(const DocNode& node, std::string_view example) {
  bool ok = true;
  for (const DocNode& member : node.members) {
    if (member.table) continue;
    fail(member, "expected a table such as " + std::string(example) + ", got " + describe_value(*member.value));
    ok = false;
  }
  return ok;
}

const DocNode* Reader::require(const DocNode& table, std::string_view key) {
  const DocNode* node = table.find(key);
  if (node != nullptr) return node;
  // A misspelling of the key ("lenght") was already reported with a "did you
  // mean"; saying that the key is missing as well would only echo it.
  std::vector<std::string> written;
  for (const DocNode& member : table.members) written.push_back(member.key);
  if (!closest(key, written)) fail(table.pos, join_key(table.path, key), "missing required key");
  return nullptr;
}

bool Reader::string_value(const DocNode& node, const std::string& expected, std::string& out) {
  if (node.table) {
    fail(node, "expected " + expected + ", got a table");
    return false;
  }
  if (node.value->is_string()) {
    out = *node.value->value<std::string>();
    return true;
  }
  fail(node, "expected " + expected + ", got " + describe_value(*node.value));
  return false;
}

std::size_t Reader::choose(const DocNode& node, const std::vector<std::string>& options, std::string& text) {
  std::vector<std::string> shown;
  for (const std::string& o : options) shown.push_back(in_quotes(o));
  if (!string_value(node, "one of " + join_list(shown), text)) return options.size();
  for (std::size_t i = 0; i < options.size(); ++i)
    if (options[i] == text) return i;
  fail(node, "expected one of " + join_list(shown) + ", got " + in_quotes(text) + did_you_mean(text, options));
  return options.size();
}

bool Reader::one_of(const DocNode& table, std::string_view key, const std::vector<std::string>& options,
                    std::size_t& index) {
  const DocNode* node = table.find(key);
  if (node == nullptr) return false;
  std::string text;
  const std::size_t i = choose(*node, options, text);
  if (i == options.size()) return false;
  index = i;
  return true;
}

bool Reader::string(const DocNode& table, std::string_view key, std::string& out) {
  const DocNode* node = table.find(key);
  return node != nullptr && string_value(*node, "a string", out);
}

bool Reader::integer(const DocNode& table, std::string_view key, std::int64_t min, std::int64_t max,
                     std::int64_t& out) {
  const DocNode* node = table.find(key);
  if (node == nullptr) return false;
  if (node->table || !node->value->is_integer()) {
    fail(*node, "expected an integer, got " + (node->table ? std::string("a table") : describe_value(*node->value)));
    return false;
  }
  const std::int64_t value = *node->value->value<std::int64_t>();
  if (value < min) {
    fail(*node, "must be at least " + std::to_string(min) + ", got " + std::to_string(value));
    return false;
  }
  if (value > max) {
    fail(*node, "must be at most " + std::to_string(max) + ", got " + std::to_string(value));
    return false;
  }
  out = value;
  return true;
}

bool Reader::integer(const DocNode& table, std::string_view key, int min, int max, int& out) {
  std::int64_t value = 0;
  if (!integer(table, key, std::int64_t{min}, std::int64_t{max}, value)) return false;
  out = static_cast<int>(value);
  return true;
}

bool Reader::boolean(const DocNode& table, std::string_view key, bool& out) {
  const DocNode* node = table.find(key);
  if (node == nullptr) return false;
  if (node->table || !node->value->is_boolean()) {
    fail(*node, "expected true or false, got " + (node->table ? std::string("a table") : describe_value(*node->value)));
    return false;
  }
  out = *node->value->value<bool>();
  return true;
}

bool Reader::duration(const DocNode& table, std::string_view key, Sign sign, Duration& out) {
  const DocNode* node = table.find(key);
  std::string text;
  if (node == nullptr || !string_value(*node, "a duration string such as \"10s\"", text)) return false;
  std::string error;
  const std::optional<Duration> d = duration_from_text(text, sign, error);
  if (!d) {
    fail(*node, error);
    return false;
  }
  out = *d;
  return true;
}

bool Reader::latency(const DocNode& table, std::string_view key, Latency& out) {
  const DocNode* node = table.find(key);
  std::string text;
  if (node == nullptr || !string_value(*node, "a latency string such as \"1ms\" or \"uniform(1ms, 5ms)\"", text))
    return false;
  std::string error;
  std::optional<Latency> l = parse_latency(text, error);
  if (!l) {
    // A plain value that is not a duration: explain the unit rules.
    if (text.find('(') == std::string::npos) duration_from_text(text, Sign::non_negative, error);
    fail(*node, error);
    return false;
  }
  out = *l;
  return true;
}

bool Reader::ppm(const DocNode& table, std::string_view key, std::int64_t min, std::int64_t max,
                 std::string_view range_rule, std::int64_t& out) {
  const DocNode* node = table.find(key);
  std::string text;
  if (node == nullptr || !string_value(*node, "a rate string such as \"200ppm\" or \"0.5%\"", text)) return false;
  std::string error;
  const std::optional<std::int64_t> value = ppm_from_text(text, error);
  if (!value) {
    fail(*node, error);
    return false;
  }
  if (*value < min || *value > max) {
    fail(*node, std::string(range_rule) + ", got " + in_quotes(text));
    return false;
  }
  out = *value;
  return true;
}

bool Reader::fraction_ppm(const DocNode& table, std::string_view key, std::int64_t& out) {
  const DocNode* node = table.find(key);
  if (node == nullptr) return false;
  std::optional<double> x;
  if (!node->table && (node->value->is_floating_point() || node->value->is_integer())) x = node->value->value<double>();
  if (!x) {
    fail(*node, "expected a number such as 0.01, got " +
                    (node->table ? std::string("a table") : describe_value(*node->value)));
    return false;
  }
  if (!std::isfinite(*x) || *x < 0.0 || *x >= 1.0) {
    fail(*node, "must be at least 0 and below 1 (0.01 means 1%), got " + describe_value(*node->value));
    return false;
  }
  out = std::llround(*x * 1e6);
  return true;
}

bool Reader::strings(const DocNode& table, std::string_view key, std::vector<std::pair<std::string, SourcePos>>& out) {
  const DocNode* node = table.find(key);
  if (node == nullptr) return false;
  const toml::array* array = node->table ? nullptr : node->value->as_array();
  if (array == nullptr) {
    fail(*node,
         "expected an array of strings, got " + (node->table ? std::string("a table") : describe_value(*node->value)));
    return false;
  }
  std::vector<std::pair<std::string, SourcePos>> items;
  for (const toml::node& element : *array) {
    if (!element.is_string()) {
      fail(node->pos_of(element), node->path,
           "expected an array of strings, but one element is " + describe_value(element));
      return false;
    }
    items.emplace_back(*element.value<std::string>(), node->pos_of(element));
  }
  out = std::move(items);
  return true;
}

}  // namespace locksim::scenario
