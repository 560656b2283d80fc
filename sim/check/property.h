// The five safety properties (docs/properties.md), in table order.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace locksim {

enum class Property : std::uint8_t { grant_exclusive, belief_exclusive, resource_exclusive, resource_current, invariant };
inline constexpr std::size_t kPropertyCount = 5;
inline constexpr std::array<Property, kPropertyCount> kAllProperties{
    Property::grant_exclusive, Property::belief_exclusive, Property::resource_exclusive, Property::resource_current,
    Property::invariant};

// "grant-exclusive", ...: the names used in scenario files, tables and JSON.
const char* property_name(Property p);
// "P1" .. "P5".
const char* property_id(Property p);
bool parse_property(const std::string& text, Property& out);

}  // namespace locksim
