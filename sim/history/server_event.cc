#include "sim/history/server_event.h"

#include <array>
#include <utility>

namespace locksim {

namespace {

constexpr std::array<std::pair<ServerEvent, const char*>, 4> kNames{{
    {ServerEvent::key_dropped, "key-dropped"},
    {ServerEvent::key_expired, "key-expired"},
    {ServerEvent::promoted, "promoted"},
    {ServerEvent::elected, "elected"},
}};

}  // namespace

const char* server_event_name(ServerEvent e) {
  for (const auto& [event, name] : kNames)
    if (event == e) return name;
  return "?";
}

bool parse_server_event(const std::string& text, ServerEvent& out) {
  for (const auto& [event, name] : kNames) {
    if (text == name) {
      out = event;
      return true;
    }
  }
  return false;
}

std::vector<std::string> server_event_names() {
  std::vector<std::string> names;
  for (const auto& entry : kNames) names.emplace_back(entry.second);
  return names;
}

}  // namespace locksim
