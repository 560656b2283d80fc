#include "sim/cli/distinct_outputs.h"

#include <filesystem>

namespace locksim::cli {

namespace {

// The names search_output.cc and search/near_miss.cc give the files of a
// search's --out directory.
bool written_by_search(const std::string& name) {
  if (name == "search.json") return true;
  for (const char* prefix : {"found-", "crash-", "near-miss-"})
    if (name.starts_with(prefix)) return true;
  return false;
}

}  // namespace

bool distinct_outputs(const std::string& command, const std::vector<sweep::NamedFile>& files, std::ostream& err) {
  std::string error;
  if (sweep::check_distinct_files(files, error)) return true;
  err << "locksim " << command << ": " << error << "\n";
  return false;
}

bool search_spares_scenario(const std::string& scenario, const std::string& dir, std::ostream& err) {
  const std::filesystem::path path(scenario);
  const std::string name = path.filename().string();
  if (dir.empty() || !written_by_search(name)) return true;
  const std::string would_write = (std::filesystem::path(dir) / name).string();
  if (!sweep::same_file(scenario, would_write)) return true;
  err << "locksim search: the scenario file " << scenario << " and --out " << dir << "'s " << name
      << " are the same file: the search writes its own " << name << " there; give --out a directory of its own\n";
  return false;
}

bool merge_spares_shards(const std::string& dir, const std::vector<std::string>& shard_dirs, std::ostream& err) {
  for (const std::string& shard : shard_dirs) {
    if (!sweep::same_file(dir, shard)) continue;
    err << "locksim search-merge: --out " << dir << " and the shard directory " << shard
        << " are the same directory: the merge would overwrite the shard's files; give --out a directory of its "
           "own\n";
    return false;
  }
  return true;
}

}  // namespace locksim::cli
