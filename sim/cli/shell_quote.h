// Words of a command line printed for the user to paste back into a shell
// (replay and reproduce lines): quoted only when the shell would split or
// expand them, so the common case reads as typed.
#pragma once

#include <string>

namespace locksim::cli {

std::string shell_quote(const std::string& word);

}  // namespace locksim::cli
