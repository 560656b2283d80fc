// `--update FILE` of the commands that keep generated tables in Markdown
// (keys: scenarios/FORMAT.md; trace-schema: docs/trace.md): read the file,
// regenerate its marked regions, write it back only when it changed.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace locksim::cli {

using Regenerate = std::function<std::string(std::string_view text, std::vector<std::string>& problems)>;

// Exit code: 0 when the file is up to date or was rewritten, 2 when it cannot
// be read or written or a mark is wrong (each problem printed as PATH: ...).
int update_marked_file(const std::string& command, const std::string& path, const Regenerate& regenerate);

}  // namespace locksim::cli
