// Typed reads from a scenario document, with the error messages users see.
//
// A Reader collects every error it is told about, so that `locksim validate`
// can list all that is wrong with a file at once. An error on a key and
// position that already has one is dropped: it is an echo of the first (a
// value that failed to read, then failed a cross-check). Every read leaves
// its output untouched when the key is absent — so defaults live in spec.h,
// once — or when the value is bad; the caller checks failed() when it is done.
//
// Unit rules (scenarios/FORMAT.md):
//  - duration: a number and a unit, ns us ms s min h ("250ms", "1.5s"; "0" alone is allowed)
//  - latency:  a duration or a distribution ("uniform(1ms, 5ms)", "lognormal(2ms, 0.5)")
//  - rate:     a number and "ppm" or "%" ("200ppm", "-50ppm", "0.5%"); exact to 1 ppm
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/scenario/doc.h"
#include "sim/scenario/source.h"
#include "sim/core/time.h"
#include "sim/world/latency.h"

namespace locksim::scenario {

enum class Sign : std::uint8_t { any, non_negative, positive };

// Text-level parsers; on failure they return nullopt and set |error| to the
// message (without a key or position).
std::optional<Duration> duration_from_text(const std::string& text, Sign sign, std::string& error);
std::optional<std::int64_t> ppm_from_text(const std::string& text, std::string& error);
// The sentence that explains how a duration is written.
extern const char* const kDurationRule;

class Reader {
 public:
  bool failed() const { return !errors_.empty(); }
  const ScenarioError& error() const { return errors_.front(); }
  const std::vector<ScenarioError>& errors() const { return errors_; }

  void fail(const SourcePos& pos, const std::string& key, std::string message);
  void fail(const DocNode& at, std::string message) { fail(at.pos, at.path, std::move(message)); }

  // Every member of |table| must be one of |known|; |what| names the table in
  // the "takes: ..." hint.
  void check_keys(const DocNode& table, const std::vector<std::string>& known, std::string_view what);

  // The member table |key| of |parent|; null when absent or not a table
  // (then it fails).
  const DocNode* table(const DocNode& parent, std::string_view key);
  // The members of |node| must all be tables (`[client.NAME]`); fails otherwise.
  bool all_tables(const DocNode& node, std::string_view example);
  // Fails with "missing required key" when |table| has no |key|.
  const DocNode* require(const DocNode& table, std::string_view key);

  bool string(const DocNode& table, std::string_view key, std::string& out);
  bool integer(const DocNode& table, std::string_view key, std::int64_t min, std::int64_t max, std::int64_t& out);
  bool integer(const DocNode& table, std::string_view key, int min, int max, int& out);
  bool boolean(const DocNode& table, std::string_view key, bool& out);
  bool duration(const DocNode& table, std::string_view key, Sign sign, Duration& out);
  bool latency(const DocNode& table, std::string_view key, Latency& out);
  // A rate in ppm within [min, max]; |range_rule| explains the range when it is not.
  bool ppm(const DocNode& table, std::string_view key, std::int64_t min, std::int64_t max, std::string_view range_rule,
           std::int64_t& out);
  bool fraction_ppm(const DocNode& table, std::string_view key, std::int64_t& out);  // 0.01 -> 10000, in [0, 1)
  // An array of strings; each element with its position.
  bool strings(const DocNode& table, std::string_view key, std::vector<std::pair<std::string, SourcePos>>& out);

  // A string that must be one of the names in |names|.
  template <typename E, std::size_t N>
  bool choice(const DocNode& table, std::string_view key, const std::pair<E, std::string_view> (&names)[N], E& out) {
    const DocNode* node = table.find(key);
    return node != nullptr && choice_value(*node, names, out);
  }
  template <typename E, std::size_t N>
  bool choice_value(const DocNode& node, const std::pair<E, std::string_view> (&names)[N], E& out) {
    std::vector<std::string> options;
    for (const auto& entry : names) options.emplace_back(entry.second);
    std::string text;
    const std::size_t index = choose(node, options, text);
    if (index == N) return false;
    out = names[index].first;
    return true;
  }

  // A string that must be one of |options| (names known only at run time);
  // |index| is its position there.
  bool one_of(const DocNode& table, std::string_view key, const std::vector<std::string>& options, std::size_t& index);

  // The string value of a leaf, or a type error that says what was |expected|.
  bool string_value(const DocNode& node, const std::string& expected, std::string& out);

 private:
  // The index of the node's string in |options|, or options.size() after failing.
  std::size_t choose(const DocNode& node, const std::vector<std::string>& options, std::string& text);

  std::vector<ScenarioError> errors_;
};

}  // namespace locksim::scenario
