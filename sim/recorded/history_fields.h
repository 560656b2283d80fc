// Typed access to one line of a history file, each failure an error that
// names the file, the line and the key — and, once a line has been read,
// any key it holds that no one asked for (a typo is refused, not ignored).
#pragma once

#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/recorded/history_words.h"

namespace locksim {

using HistoryJson = nlohmann::json;

// "FILE:LINE: KEY: what": the reader stops at the first.
class HistoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class HistoryFields {
 public:
  HistoryFields(const HistoryJson& object, std::string where);

  bool has(const char* key) const;
  const HistoryJson& raw(const char* key);  // REQUIRES: has(key)
  std::string text(const char* key);
  std::int64_t integer(const char* key);
  // An instant or a duration in ns: an integer within ±2^62, so that the
  // judge's arithmetic on it never overflows.
  std::int64_t nanoseconds(const char* key);
  bool boolean(const char* key);
  template <typename E>
  E word(const char* key, const char* (*name)(E), int count) {
    const std::string w = text(key);
    E out{};
    if (!parse_word(w, name, count, out)) fail(key, "\"" + w + "\" is none of " + words_of(name, count));
    return out;
  }
  // Every key the line holds has been read; else names the first that was not.
  void done(const std::vector<std::string>& allowed_hint);

  [[noreturn]] void fail(const char* key, const std::string& what) const;
  [[noreturn]] void fail_line(const std::string& what) const;
  const std::string& where() const { return where_; }

 private:
  const HistoryJson& find(const char* key);
  const HistoryJson& object_;
  std::string where_;
  std::set<std::string> read_;
};

}  // namespace locksim
