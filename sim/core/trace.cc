#include "sim/core/trace.h"

#include <cstdio>

namespace locksim {

void HashingTrace::line(std::string_view json) {
  for (unsigned char c : json) {
    hash_ ^= c;
    hash_ *= 0x100000001b3ULL;
  }
  hash_ ^= '\n';
  hash_ *= 0x100000001b3ULL;
  ++lines_;
}

std::string json_quote(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out.push_back('"');
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  out.push_back('"');
  return out;
}

}  // namespace locksim
