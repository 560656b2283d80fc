// libFuzzer's dictionary format, read the same way by the mutation driver
// and by the test that checks the dictionary covers every key: one "token"
// per line, with \" \\ \n and \xNN escapes; '#' starts a comment line.
#pragma once

#include <istream>
#include <string>
#include <vector>

namespace locksim::fuzz {

inline std::vector<std::string> dictionary_tokens(std::istream& in) {
  std::vector<std::string> tokens;
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t open = line.find('"');
    const std::size_t close = line.rfind('"');
    if (line.empty() || line[0] == '#' || open == std::string::npos || close <= open) continue;
    std::string token;
    for (std::size_t i = open + 1; i < close; ++i) {
      if (line[i] == '\\' && i + 1 < close) {
        const char next = line[++i];
        if (next == 'x' && i + 2 < close) {
          token.push_back(static_cast<char>(std::stoi(line.substr(i + 1, 2), nullptr, 16)));
          i += 2;
        } else {
          token.push_back(next == 'n' ? '\n' : next);
        }
      } else {
        token.push_back(line[i]);
      }
    }
    tokens.push_back(token);
  }
  return tokens;
}

}  // namespace locksim::fuzz
