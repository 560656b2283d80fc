#include "sim/recorded/history_fields.h"

#include "sim/scenario/doc.h"

namespace locksim {

namespace {

std::string json_kind(const HistoryJson& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "a boolean";
  if (v.is_number_integer()) return "an integer";
  if (v.is_number()) return "a number with a fraction";
  if (v.is_string()) return "a string";
  if (v.is_array()) return "a list";
  return "an object";
}

}  // namespace

HistoryFields::HistoryFields(const HistoryJson& object, std::string where) : object_(object), where_(std::move(where)) {
  if (!object_.is_object()) fail_line("a line must be one JSON object, not " + json_kind(object_));
}

bool HistoryFields::has(const char* key) const { return object_.contains(key); }

const HistoryJson& HistoryFields::find(const char* key) {
  read_.insert(key);
  const auto it = object_.find(key);
  if (it == object_.end()) fail(key, "missing");
  return *it;
}

const HistoryJson& HistoryFields::raw(const char* key) { return find(key); }

std::string HistoryFields::text(const char* key) {
  const HistoryJson& v = find(key);
  if (!v.is_string()) fail(key, "must be a string, not " + json_kind(v));
  return v.get<std::string>();
}

std::int64_t HistoryFields::integer(const char* key) {
  const HistoryJson& v = find(key);
  if (!v.is_number_integer()) fail(key, "must be an integer, not " + json_kind(v));
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
    fail(key, "is past the largest integer a history holds (2^63 - 1)");
  return v.get<std::int64_t>();
}

std::int64_t HistoryFields::nanoseconds(const char* key) {
  constexpr std::int64_t kLimit = std::int64_t{1} << 62;
  const std::int64_t v = integer(key);
  if (v > kLimit || v < -kLimit)
    fail(key, std::to_string(v) + " ns is beyond the ±2^62 ns (146 years) a history holds");
  return v;
}

bool HistoryFields::boolean(const char* key) {
  const HistoryJson& v = find(key);
  if (!v.is_boolean()) fail(key, "must be true or false, not " + json_kind(v));
  return v.get<bool>();
}

void HistoryFields::done(const std::vector<std::string>& allowed_hint) {
  for (const auto& [key, value] : object_.items()) {
    if (read_.count(key) > 0) continue;
    fail(key.c_str(), "this line has no such field" + scenario::did_you_mean(key, allowed_hint));
  }
}

void HistoryFields::fail(const char* key, const std::string& what) const {
  throw HistoryError(where_ + ": " + key + ": " + what);
}

void HistoryFields::fail_line(const std::string& what) const { throw HistoryError(where_ + ": " + what); }

}  // namespace locksim
