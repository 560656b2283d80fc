#include "sim/scenario/client_bounds.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <optional>


namespace locksim::scenario {

namespace {

using Op = ClientBound::Op;
using Unit = ClientBound::Unit;

// key -> the units its value may take.
struct KeyRule {
  const char* key;
  bool share;     // may be a percentage of the client's ops
  bool duration;  // is a duration (else a count)
};

constexpr KeyRule kRules[] = {
    {"sessions", false, false},
    {"accepted", true, false},
    {"rejected", true, false},
    {"rejected-stale-token", true, false},
    {"rejected-missing-token", true, false},
    {"rejected-mark-mismatch", true, false},
    {"rejected-out-of-stock", true, false},
    {"rejected-rolled-back", true, false},
    {"releases-ok", false, false},
    {"releases-failed", false, false},
    {"releases-unknown", false, false},
    {"wait", false, true},
};

const KeyRule* rule_for(const std::string& key) {
  for (const KeyRule& r : kRules)
    if (key == r.key) return &r;
  return nullptr;
}

// "<= 31s" -> (le, "31s").
std::pair<Op, std::string> split_op(const std::string& text) {
  static constexpr std::pair<const char*, Op> kOps[] = {{"<=", Op::le}, {">=", Op::ge}, {"<", Op::lt},
                                                        {">", Op::gt},  {"==", Op::eq}, {"=", Op::eq}};
  for (const auto& [token, op] : kOps) {
    const std::string t = token;
    if (text.rfind(t, 0) == 0) return {op, trim(std::string_view(text).substr(t.size()))};
  }
  return {Op::eq, text};
}

std::optional<std::int64_t> count_from_text(const std::string& text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  std::int64_t value = 0;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

void read_bound(Reader& r, const DocNode& node, const std::string& client, const KeyRule& rule,
                std::vector<ClientBound>& out) {
  ClientBound bound;
  bound.client = client;
  bound.what = rule.key;
  const std::string shape = rule.duration ? "a duration such as \"< 31s\""
                                          : (rule.share ? "a count such as \">= 1\" or a share of the client's ops "
                                                          "such as \"100%\""
                                                        : "a count such as 2 or \">= 1\"");
  if (!node.table && node.value->is_integer() && !rule.duration) {
    const std::int64_t n = *node.value->value<std::int64_t>();
    if (n < 0) {
      r.fail(node, "must not be negative, got " + std::to_string(n));
      return;
    }
    bound.value = n;
    bound.text = std::to_string(n);
    out.push_back(bound);
    return;
  }
  std::string raw;
  if (!r.string_value(node, shape, raw)) return;
  const auto [op, rest] = split_op(trim(raw));
  bound.op = op;
  bound.text = trim(raw);
  std::string error;
  if (rule.duration) {
    const std::optional<Duration> d = duration_from_text(rest, Sign::non_negative, error);
    if (!d) return r.fail(node, error);
    bound.unit = Unit::duration;
    bound.value = d->count();
  } else if (rule.share && !rest.empty() && rest.back() == '%') {
    const std::optional<std::int64_t> ppm = ppm_from_text(rest, error);
    if (!ppm) return r.fail(node, error);
    if (*ppm < 0 || *ppm > 1'000'000) return r.fail(node, "a share is between 0% and 100%, got " + in_quotes(rest));
    bound.unit = Unit::share_ppm;
    bound.value = *ppm;
  } else if (const std::optional<std::int64_t> n = count_from_text(rest)) {
    bound.value = *n;
  } else {
    return r.fail(node, "expected " + shape + ", got " + in_quotes(raw));
  }
  out.push_back(bound);
}

}  // namespace

const std::vector<std::string>& client_bound_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    for (const KeyRule& r : kRules) out.emplace_back(r.key);
    return out;
  }();
  return keys;
}

void read_client_bounds(Reader& r, const DocNode& expect, const std::vector<ClientSpec>& clients,
                        std::vector<ClientBound>& out) {
  std::vector<std::string> names;
  for (const ClientSpec& c : clients) names.push_back(c.name);
  for (const DocNode& table : expect.members) {
    if (!table.table) continue;  // the verdicts and bounds of [expect] itself
    if (std::find(names.begin(), names.end(), table.key) == names.end()) {
      r.fail(table, "[expect." + table.key + "] names no client" + did_you_mean(table.key, names) +
                        "; per-client expectations go in [expect.CLIENT] (clients: " + join_list(names) + ")");
      continue;
    }
    r.check_keys(table, client_bound_keys(), "[expect.CLIENT]");
    for (const DocNode& member : table.members)
      if (const KeyRule* rule = rule_for(member.key)) read_bound(r, member, table.key, *rule, out);
  }
}

}  // namespace locksim::scenario
