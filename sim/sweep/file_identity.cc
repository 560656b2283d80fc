#include "sim/sweep/file_identity.h"

#include <filesystem>

namespace locksim::sweep {

namespace {

namespace fs = std::filesystem;

// A device, a FIFO, a directory: not a file a sweep could corrupt by writing twice.
bool special(const std::string& path) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  return fs::exists(status) && !fs::is_regular_file(status);
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) {
    const bool same = fs::equivalent(a, b, ec);
    if (!ec) return same;
  }
  const fs::path ca = fs::weakly_canonical(a, ec);
  if (ec) return a == b;
  const fs::path cb = fs::weakly_canonical(b, ec);
  if (ec) return a == b;
  return ca == cb;
}

bool check_distinct_files(const std::vector<NamedFile>& files, std::string& error) {
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (files[i].path.empty() || special(files[i].path)) continue;
    for (std::size_t j = 0; j < i; ++j) {
      if (files[j].path.empty() || special(files[j].path)) continue;
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
