#include "sim/core/marked_regions.h"

namespace locksim {

std::string regenerate_marked_regions(std::string_view markdown, std::string_view mark,
                                      const std::function<std::string(std::string_view)>& table,
                                      std::vector<std::string>& problems) {
  const std::string open_mark = "<!-- " + std::string(mark) + ": ";
  const std::string close_mark = "<!-- /" + std::string(mark) + " -->";
  constexpr std::string_view kOpenEnd = " -->";
  std::string out;
  std::size_t pos = 0;
  while (true) {
    const std::size_t open = markdown.find(open_mark, pos);
    if (open == std::string_view::npos) break;
    const std::size_t name_start = open + open_mark.size();
    const std::size_t name_end = markdown.find(kOpenEnd, name_start);
    const std::size_t line_end = markdown.find('\n', name_start);
    if (name_end == std::string_view::npos || line_end == std::string_view::npos || name_end > line_end) {
      problems.push_back("a " + std::string(mark) + " mark without its closing \" -->\" on the same line");
      break;
    }
    const std::string name(markdown.substr(name_start, name_end - name_start));
    const std::size_t close = markdown.find(close_mark, line_end);
    if (close == std::string_view::npos) {
      problems.push_back("the " + std::string(mark) + " mark for \"" + name + "\" is never closed with " + close_mark);
      break;
    }
    // The region ends where the close mark's line starts (a comment prefix
    // before the mark is the file's, not the region's).
    const std::size_t close_line = markdown.rfind('\n', close) + 1;
    out += markdown.substr(pos, line_end + 1 - pos);
    const std::string generated = table(name);
    if (generated.empty()) {
      problems.push_back("\"" + name + "\" names no " + std::string(mark) + " table");
      out += markdown.substr(line_end + 1, close_line - line_end - 1);
    } else {
      out += generated;
    }
    pos = close_line;
  }
  out += markdown.substr(pos);
  return out;
}

}  // namespace locksim
