// The words of the history format (docs/history.md) for the simulator's
// enums, both ways: the writer names each value as the trace does, and the
// reader takes a word back only if some value is named by it.
#pragma once

#include <string>
#include <vector>

#include "sim/core/ids.h"

namespace locksim {

// How many values each enum the format names has, for parse_word.
inline constexpr int kProcessKinds = 7;
inline constexpr int kClockKinds = 2;
inline constexpr int kRequestKinds = 4;
inline constexpr int kOutcomes = 3;
inline constexpr int kBeliefEnds = 5;
inline constexpr int kKeyGones = 5;
inline constexpr int kAppKinds = 5;
inline constexpr int kFaultKinds = 9;
inline constexpr int kStoreSessionEvents = 3;
inline constexpr int kResourceOps = 10;
inline constexpr int kRejects = 6;

// The value of E named |text| by |name|, trying the |count| values from 0.
template <typename E>
bool parse_word(const std::string& text, const char* (*name)(E), int count, E& out) {
  for (int i = 0; i < count; ++i) {
    const auto e = static_cast<E>(i);
    if (text == name(e)) {
      out = e;
      return true;
    }
  }
  return false;
}

// Every word |name| gives to the |count| values, for an error message: "a | b | c".
template <typename E>
std::string words_of(const char* (*name)(E), int count) {
  std::string out;
  for (int i = 0; i < count; ++i) out += (i ? " | " : "") + std::string(name(static_cast<E>(i)));
  return out;
}

}  // namespace locksim
