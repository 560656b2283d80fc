#include "sim/cli/catalogue.h"

#include <algorithm>
#include <filesystem>

#include "sim/scenario/file.h"

namespace fs = std::filesystem;

namespace locksim::cli {

std::string catalogue_dir() {
  std::error_code ec;
  if (fs::is_directory("scenarios", ec)) return "scenarios";
  // The binary's own path, not argv[0]: found through PATH, argv[0] is a bare name.
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = self.parent_path().parent_path() / "share" / "locksim" / "scenarios";
    if (fs::is_directory(installed, ec)) return installed.string();
  }
  return LOCKSIM_SCENARIO_DIR;
}

std::vector<std::string> scenario_files(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().extension() == ".toml") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::optional<std::string> scenario_path(const std::string& argument) {
  std::error_code ec;
  if (fs::exists(argument, ec) || argument.find('/') != std::string::npos ||
      (argument.size() > 5 && argument.ends_with(".toml")))
    return argument;
  const std::string dir = catalogue_dir();
  const fs::path by_file = fs::path(dir) / (argument + ".toml");
  if (fs::is_regular_file(by_file, ec)) return by_file.string();
  for (const std::string& file : scenario_files(dir)) {
    ScenarioError error;
    if (const auto scenario = ScenarioFile::load(file, error); scenario && scenario->name() == argument) return file;
  }
  return std::nullopt;
}

}  // namespace locksim::cli
