#include "sim/sweep/file_identity.h"

#include <deque>
#include <filesystem>

namespace locksim::sweep {

namespace {

namespace fs = std::filesystem;

// A device, a FIFO, a directory: not a file a command could corrupt by writing twice.
bool special(const std::string& path) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  return fs::exists(status) && !fs::is_regular_file(status);
}

// Where writing |path| would land: absolute, "." and ".." resolved in the
// order the kernel does (after the links before them), every existing
// symlink followed — including one whose target does not exist yet, which
// weakly_canonical leaves as it is. A loop of links stops after kMaxLinks,
// as the kernel's ELOOP does.
fs::path written_at(const std::string& path) {
  constexpr int kMaxLinks = 40;
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  if (ec) return fs::path(path).lexically_normal();
  const fs::path relative = absolute.relative_path();
  std::deque<fs::path> rest(relative.begin(), relative.end());
  fs::path at = absolute.root_path();
  int links = 0;
  while (!rest.empty()) {
    const fs::path part = rest.front();
    rest.pop_front();
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      at = at.parent_path();
      continue;
    }
    const fs::path next = at / part;
    if (links < kMaxLinks && fs::is_symlink(fs::symlink_status(next, ec))) {
      const fs::path target = fs::read_symlink(next, ec);
      if (!ec) {
        ++links;
        const fs::path target_parts = target.relative_path();
        rest.insert(rest.begin(), target_parts.begin(), target_parts.end());
        if (target.is_absolute()) at = target.root_path();
        continue;
      }
    }
    at = next;
  }
  return at;
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) {
    const bool same = fs::equivalent(a, b, ec);
    if (!ec) return same;
  }
  return written_at(a) == written_at(b);
}

bool check_distinct_files(const std::vector<NamedFile>& files, std::string& error) {
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (files[i].path.empty() || special(files[i].path)) continue;
    for (std::size_t j = 0; j < i; ++j) {
      if (files[j].path.empty() || special(files[j].path) || (!files[i].written && !files[j].written)) continue;
      if (same_file(files[j].path, files[i].path)) {
        error = files[j].role + " " + files[j].path + " and " + files[i].role + " " + files[i].path +
                " are the same file; give each its own";
        return false;
      }
    }
  }
  return true;
}

}  // namespace locksim::sweep
