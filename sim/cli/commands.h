// The locksim subcommands. Each takes the arguments after its own name and
// returns the process exit code: 0 everything matched, 1 a verdict disagreed
// with [expect], 2 bad input (the message names file, line and key).
#pragma once

#include <string>
#include <vector>

namespace locksim::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitMismatch = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitCrash = 3;  // search: a run crashed the model (crash-N.toml)

int run_command(const std::string& program, const std::vector<std::string>& args);
// Exit 0 when no property is violated, 1 when one is, 2 when the history is refused.
int check_command(const std::string& program, const std::vector<std::string>& args);
int validate_command(const std::string& program, const std::vector<std::string>& args);
// Prints one variant as a standalone scenario file; exit 2 on bad input.
int merged_command(const std::string& program, const std::vector<std::string>& args);
int list_command(const std::string& program, const std::vector<std::string>& args);
int keys_command(const std::string& program, const std::vector<std::string>& args);
int trace_schema_command(const std::string& program, const std::vector<std::string>& args);
// Exit 0 when every row was written; 2 on bad input, I/O errors or a --resume
// mismatch. A sweep measures rates, so violations are not failures.
int sweep_command(const std::string& program, const std::vector<std::string>& args);
// Exit 0 when every cell ran (rates are measurements); 2 on bad input.
int compare_command(const std::string& program, const std::vector<std::string>& args);
// Exit 1 when a hunted property broke (findings written), 0 when nothing was found, 2 on bad input.
int search_command(const std::string& program, const std::vector<std::string>& args);
// Exit 0 when the scenario was shrunk (it broke the property), 1 when it does not break it, 2 on bad input.
int shrink_command(const std::string& program, const std::vector<std::string>& args);
// search_merge_command.cc
int search_merge_command(const std::string& program, const std::vector<std::string>& args);

}  // namespace locksim::cli
