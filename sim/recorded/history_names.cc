#include "sim/recorded/history_names.h"

#include <optional>
#include <set>

namespace locksim {

namespace {

// A lock value as 16 hex digits (what locksim writes), else nullopt.
std::optional<std::uint64_t> hex_token(const std::string& text) {
  if (text.size() != 16) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : text) {
    int d = 0;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (c >= 'a' && c <= 'f')
      d = c - 'a' + 10;
    else
      return std::nullopt;
    v = v << 4 | static_cast<std::uint64_t>(d);
  }
  return v;
}

}  // namespace

std::string session_key(const HistoryJson& v) { return (v.is_string() ? "s:" : "i:") + v.dump(); }

std::string session_shown(const HistoryJson& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

HistoryNamer::HistoryNamer(const std::map<std::string, ProcessId>& process_ids) : process_ids_(process_ids) {}

void HistoryNamer::see(const HistoryLine& line) {
  if (!line.json.is_object()) return;
  const auto type = line.json.find("type");
  if (type != line.json.end() && *type == "grant") {
    const auto session = line.json.find("session");
    const auto p = line.json.find("p");
    if (session != line.json.end() && (session->is_string() || session->is_number_integer()) &&
        names_.sessions.count(session_key(*session)) == 0 && p != line.json.end() && p->is_string() &&
        process_ids_.count(p->get<std::string>()) > 0) {
      const auto id = static_cast<SessionId>(names_.sessions.size() + 1);
      names_.sessions[session_key(*session)] = {id, process_ids_.at(p->get<std::string>()), line.number};
    }
  }
  const auto value = line.json.find("value");
  if (value != line.json.end() && value->is_string()) {
    const std::string text = value->get<std::string>();
    if (const auto token = hex_token(text)) {
      tokens_.insert(*token);
      names_.values[text] = *token;
    } else {
      others_.insert(text);
    }
  }
}

HistoryNames HistoryNamer::names() && {
  // Any other value gets an id no 16-digit value of the file has.
  std::uint64_t next = std::uint64_t{1} << 63;
  for (const std::string& text : others_) {
    if (names_.values.count(text) > 0) continue;
    while (tokens_.count(next) > 0) ++next;
    names_.values[text] = next++;
  }
  return std::move(names_);
}

}  // namespace locksim
