// A small JSON reader for the sweep's manifests (manifest.h), which locksim
// writes itself: objects, arrays, strings and whole numbers. It exists so
// that --resume can read a manifest back without a JSON library; it is strict
// about what it accepts (RFC 8259 syntax, nothing after the value, nesting
// at most 16 deep) and says where it stopped, but it does not read
// fractions or exponents (a manifest has none) — such a number is an error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace locksim::sweep {

struct JsonValue {
  enum class Type : std::uint8_t { null, boolean, number, string, array, object };
  Type type = Type::null;
  bool boolean = false;
  std::uint64_t number = 0;  // whole numbers from 0 to 2^64 - 1
  bool negative = false;     // the number is -number
  std::string text;          // a string
  std::vector<JsonValue> items;                           // an array
  std::vector<std::pair<std::string, JsonValue>> members;  // an object, in file order

  // The member named |name| of an object, or nullptr.
  const JsonValue* find(std::string_view name) const;
};

// Parses |text|; nullopt with |error| ("at byte N: ...") when it is not JSON
// of the kind above.
std::optional<JsonValue> parse_json(std::string_view text, std::string& error);

}  // namespace locksim::sweep
