#include "sim/cli/shell_quote.h"

namespace locksim::cli {

std::string shell_quote(const std::string& word) {
  if (!word.empty() && word.find_first_of(" \t'\"$\\*?;&|<>()") == std::string::npos) return word;
  // Single quotes keep everything literal; a quote inside closes, escapes and reopens.
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace locksim::cli
