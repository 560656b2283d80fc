// One rule for where every command writes: a file's missing directories are
// made (as `search --out DIR` always made its DIR), and when that cannot be
// done the command stops saying which directory and why — the same for
// run --trace, sweep --out and --per-run, compare --out, shrink --out,
// search and search-merge --out.
#pragma once

#include <fstream>
#include <ostream>
#include <string>

namespace locksim::cli {

// Makes the directories |file| will be written in. Returns false after
// writing "locksim COMMAND: cannot create DIR for FILE: REASON" to |err|.
bool make_parent_dirs(const std::string& command, const std::string& file, std::ostream& err);
// Makes |file|'s directories and opens it for writing into |out|; false
// after writing why to |err| ("cannot write FILE: REASON").
bool open_output(const std::string& command, const std::string& file, std::ofstream& out, std::ostream& err);
// Makes |dir| and its parents; false after writing why to |err|.
bool make_dirs(const std::string& command, const std::string& dir, std::ostream& err);

}  // namespace locksim::cli
