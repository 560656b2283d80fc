#include "sim/scenario/key_docs.h"

#include "sim/scenario/faults/fault_kinds.h"
#include "sim/scenario/read/sections.h"

namespace locksim::scenario {

namespace {

constexpr std::string_view kOpen = "<!-- keys: ";
constexpr std::string_view kOpenEnd = " -->";
constexpr std::string_view kClose = "<!-- /keys -->";
constexpr std::string_view kFaultKinds = "fault-kinds";
constexpr std::string_view kSearchKinds = "search-kinds";

}  // namespace

std::vector<std::string> key_table_names() {
  std::vector<std::string> names;
  for (const SectionDecl& s : sections()) names.emplace_back(s.name);
  names.emplace_back(kFaultKinds);
  names.emplace_back(kSearchKinds);
  return names;
}

std::string key_table(std::string_view name) {
  if (name == kFaultKinds) return fault_kinds_markdown();
  if (name == kSearchKinds) return search_kinds_markdown();
  const SectionDecl* section = find_section(name);
  return section != nullptr ? markdown_table(*section) : "";
}

std::string regenerate_key_tables(std::string_view markdown, std::vector<std::string>& problems) {
  std::string out;
  std::size_t pos = 0;
  while (true) {
    const std::size_t open = markdown.find(kOpen, pos);
    if (open == std::string_view::npos) break;
    const std::size_t name_start = open + kOpen.size();
    const std::size_t name_end = markdown.find(kOpenEnd, name_start);
    const std::size_t line_end = markdown.find('\n', name_start);
    if (name_end == std::string_view::npos || line_end == std::string_view::npos || name_end > line_end) {
      problems.push_back("a keys mark without its closing \" -->\" on the same line");
      break;
    }
    const std::string name(markdown.substr(name_start, name_end - name_start));
    const std::size_t close = markdown.find(kClose, line_end);
    if (close == std::string_view::npos) {
      problems.push_back("the keys mark for \"" + name + "\" is never closed with " + std::string(kClose));
      break;
    }
    out += markdown.substr(pos, line_end + 1 - pos);
    const std::string table = key_table(name);
    if (table.empty()) {
      problems.push_back("\"" + name + "\" names no key table");
      out += markdown.substr(line_end + 1, close - line_end - 1);
    } else {
      out += table;
    }
    pos = close;
  }
  out += markdown.substr(pos);
  return out;
}

}  // namespace locksim::scenario
