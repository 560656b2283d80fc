// JSON text as locksim reads it (a sweep's manifest, a history's lines):
// nlohmann::json underneath, but every problem said in our words — where,
// and what is wrong — never the library's, and a cap on nesting so that a
// hand-made file of brackets cannot build a huge tree.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace locksim {

// |text| as one JSON value, or nullopt with |error| set ("at byte 12:
// expected ',' or '}' in an object", "nested more than 16 levels deep").
std::optional<nlohmann::json> parse_json_text(std::string_view text, int max_depth, std::string& error);

}  // namespace locksim
