#include "sim/cli/output_dir.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace locksim::cli {

namespace {

bool make(const std::string& command, const std::filesystem::path& dir, const std::string& what, std::ostream& err) {
  if (dir.empty()) return true;  // the working directory
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  // create_directories reports an existing directory as no error, and a
  // path whose part is a file as one.
  if (!ec && std::filesystem::is_directory(dir, ec)) return true;
  if (!ec) ec = std::make_error_code(std::errc::not_a_directory);
  err << "locksim " << command << ": cannot create " << dir.string() << what << ": " << ec.message() << "\n";
  return false;
}

}  // namespace

bool make_parent_dirs(const std::string& command, const std::string& file, std::ostream& err) {
  return make(command, std::filesystem::path(file).parent_path(), " for " + file, err);
}

bool open_output(const std::string& command, const std::string& file, std::ofstream& out, std::ostream& err) {
  if (!make_parent_dirs(command, file, err)) return false;
  out.open(file);
  if (out) return true;
  err << "locksim " << command << ": cannot write " << file << ": " << std::strerror(errno) << "\n";
  return false;
}

bool make_dirs(const std::string& command, const std::string& dir, std::ostream& err) {
  return make(command, std::filesystem::path(dir), "", err);
}

}  // namespace locksim::cli
