// The files a sweep touches must be different files: writing the summary
// into the per-run file, a manifest over a CSV, or either over the scenario
// or the grid it reads would corrupt one of them, and two spellings of one
// path ("a.csv", "./a.csv", a symlink, a hard link) must not slip past a
// comparison of strings. So files are compared by identity: the same device
// and inode (std::filesystem::equivalent) when both exist, the same
// canonical path (weakly_canonical, which resolves the links that exist)
// when one does not yet. Paths that exist but are not regular files — a
// device such as /dev/null — are not compared: writing to one twice harms
// nothing.
#pragma once

#include <string>
#include <vector>

namespace locksim::sweep {

struct NamedFile {
  std::string role;  // how the message names it: "--out", "the manifest of --out", "the scenario file"
  std::string path;  // "" is skipped (standard output, no --per-run)
};

// Whether |a| and |b| name the same file (rules above).
bool same_file(const std::string& a, const std::string& b);

// False with |error| ("--out a.csv and --per-run ./a.csv are the same file;
// ...") when two of |files| are the same file.
bool check_distinct_files(const std::vector<NamedFile>& files, std::string& error);

}  // namespace locksim::sweep
