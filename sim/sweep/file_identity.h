// The files a command touches must be different files: a sweep's summary
// written into its per-run file, a manifest over a CSV, a trace or a shrunk
// scenario over the scenario it reads would corrupt one of them, and two
// spellings of one path ("a.csv", "./a.csv", "../dir/a.csv", a symlink, a
// hard link) must not slip past a comparison of strings. So files are
// compared by identity: the same device and inode
// (std::filesystem::equivalent) when both exist; otherwise the path each is
// really written at — made absolute, "." and ".." resolved, and every
// symlink along it followed, a dangling one too (writing through it creates
// its target). Paths that exist but are not regular files — a device such as
// /dev/null — are not compared: writing to one twice harms nothing.
// Every command that writes checks its files with this before it runs.
#pragma once

#include <string>
#include <vector>

namespace locksim::sweep {

struct NamedFile {
  std::string role;  // how the message names it: "--out", "the manifest of --out", "the scenario file"
  std::string path;  // "" is skipped (standard output, no --per-run)
  bool written = true;  // false: only read, so it may be the same as another file only read
};

// Whether |a| and |b| name the same file (rules above).
bool same_file(const std::string& a, const std::string& b);

// False with |error| ("--out a.csv and --per-run ./a.csv are the same file;
// ...") when two of |files|, at least one of them written, are the same file.
bool check_distinct_files(const std::vector<NamedFile>& files, std::string& error);

}  // namespace locksim::sweep
