#include "sim/check/property.h"

namespace locksim {

const char* property_name(Property p) {
  switch (p) {
    case Property::grant_exclusive: return "grant-exclusive";
    case Property::belief_exclusive: return "belief-exclusive";
    case Property::resource_exclusive: return "resource-exclusive";
    case Property::resource_current: return "resource-current";
    case Property::invariant: return "invariant";
  }
  return "?";
}

const char* property_id(Property p) {
  static constexpr const char* kIds[] = {"P1", "P2", "P3", "P4", "P5"};
  return kIds[static_cast<std::size_t>(p)];
}

bool parse_property(const std::string& text, Property& out) {
  for (Property p : kAllProperties) {
    if (text == property_name(p)) {
      out = p;
      return true;
    }
  }
  return false;
}

}  // namespace locksim
