// locksim search-merge: the shards of one search (`search --shard K/N --out
// DIR`, one DIR per shard, run anywhere) as one result. It reads each DIR's
// search.json, refuses shards of different searches, sums runs and coverage,
// keeps per property the finding of the lowest shard (then run) — as
// search::merge does in one process — copies that finding's files into the
// output directory, and writes a search.json of the same shape. The result
// depends only on the shards, not on the order they are named in.
#include <boost/program_options.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "sim/cli/commands.h"
#include "sim/cli/distinct_outputs.h"
#include "sim/cli/options.h"
#include "sim/cli/output_dir.h"
#include "sim/cli/shell_quote.h"
#include "sim/search/search.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace locksim::cli {
namespace {

// What must agree between shards of one search.
constexpr const char* kSameSearch[] = {"schema", "scenario", "file", "variant", "strategy", "seed", "budget", "hunt"};

// A value as a message shows it: text bare (a seed is a string), the rest as JSON.
std::string shown(const Json& j) { return j.is_string() ? j.get<std::string>() : j.dump(); }

struct Shard {
  fs::path dir;
  Json summary;
};

bool read_shard(const fs::path& dir, Shard& out) {
  const fs::path file = dir / "search.json";
  std::ifstream in(file);
  if (!in) {
    std::cerr << "locksim search-merge: " << file.string() << ": cannot open (a shard's --out directory holds it)\n";
    return false;
  }
  out.dir = dir;
  out.summary = Json::parse(in, nullptr, false);
  if (out.summary.is_discarded() || !out.summary.is_object() || !out.summary.contains("shard") ||
      !out.summary["shard"].is_array() || out.summary["shard"].size() != 2) {
    std::cerr << "locksim search-merge: " << file.string() << ": not a search.json written by locksim search\n";
    return false;
  }
  return true;
}

std::uint64_t number(const Json& j, const char* key) {
  return j.contains(key) && j[key].is_number_unsigned() ? j[key].get<std::uint64_t>() : 0;
}

// Coverage summed, whatever its shape: counts add up element by element,
// and a closest margin is the least of the shards'.
void add_coverage(Json& into, const Json& from) {
  if (into.is_object() && from.is_object()) {
    for (auto& [key, value] : into.items()) {
      if (!from.contains(key)) continue;
      const Json& theirs = from[key];
      if (key == "closest_margin_ns") {
        if (theirs.is_number() && (!value.is_number() || theirs.get<std::int64_t>() < value.get<std::int64_t>()))
          value = theirs;
      } else {
        add_coverage(value, theirs);
      }
    }
  } else if (into.is_array() && from.is_array()) {
    while (into.size() < from.size()) into.push_back(from[into.size()].is_number() ? Json(0) : from[into.size()]);
    for (std::size_t i = 0; i < into.size() && i < from.size(); ++i) add_coverage(into[i], from[i]);
  } else if (into.is_number_unsigned() && from.is_number_unsigned()) {
    into = into.get<std::uint64_t>() + from.get<std::uint64_t>();
  }
}

// |from|'s file |name| as |target| in |out|.
bool copy_into(const fs::path& from, const fs::path& out, const std::string& target, std::string& copied) {
  std::error_code ec;
  fs::copy_file(from, out / target, fs::copy_options::overwrite_existing, ec);
  if (ec) {
    std::cerr << "locksim search-merge: cannot copy " << from.string() << ": " << ec.message() << "\n";
    return false;
  }
  copied = (out / target).string();
  return true;
}

// found-N.toml, .md and .trace.jsonl of |from|'s finding, as found-M.* in |out|.
bool copy_finding(const Shard& from, const Json& finding, const fs::path& out, std::size_t m, std::string& copied) {
  const fs::path stem = from.dir / fs::path(finding.value("file", "")).filename().replace_extension("");
  const std::string target = "found-" + std::to_string(m);
  for (const char* ext : {".md", ".trace.jsonl", ".toml"})
    if (!copy_into(stem.string() + ext, out, target + ext, copied)) return false;
  return true;
}

std::pair<std::uint64_t, std::uint64_t> shard_and_run(const Json& j) { return {number(j, "shard"), number(j, "run")}; }

// |j|[key] when it is a list, else an empty one: the entries stay where they are.
const Json& list_of(const Json& j, const char* key) {
  static const Json empty = Json::array();
  return j.contains(key) && j[key].is_array() ? j[key] : empty;
}

// The merged search's statement when nothing was found: an exhaustive
// search's certificate holds only when every shard's cases were run.
std::string nothing_found(const Json& merged, std::uint64_t runs) {
  const std::string strategy = merged.value("strategy", "");
  if (strategy != "exhaustive" || !merged.contains("discretisation")) return search::none_found_statement(runs, strategy);
  std::vector<Property> hunt;
  for (const Json& name : list_of(merged, "hunt")) {
    Property p{};
    if (name.is_string() && parse_property(name.get<std::string>(), p)) hunt.push_back(p);
  }
  return search::exhaustive_statement(number(merged["discretisation"], "cases"), runs, hunt);
}

std::int64_t margin_of(const Json& j) { return j.value("margin_ns", std::int64_t{0}); }

// The shards (sorted) are of one search, each once; false after saying why not.
bool one_search(const std::vector<Shard>& shards, std::uint64_t count) {
  const Json& first = shards.front().summary;
  std::set<std::uint64_t> seen;
  for (const Shard& s : shards) {
    for (const char* key : kSameSearch)
      if (s.summary.value(key, Json()) != first.value(key, Json())) {
        std::cerr << "locksim search-merge: " << s.dir.string() << " is a shard of another search: its " << key
                  << " is " << shown(s.summary.value(key, Json())) << ", not " << shown(first.value(key, Json())) << "\n";
        return false;
      }
    const std::uint64_t k = s.summary["shard"][0].get<std::uint64_t>();
    if (s.summary["shard"][1].get<std::uint64_t>() != count) {
      std::cerr << "locksim search-merge: " << s.dir.string() << " is shard " << k << " of "
                << s.summary["shard"][1].get<std::uint64_t>() << ", the others are of " << count << "\n";
      return false;
    }
    if (!seen.insert(k).second) {
      std::cerr << "locksim search-merge: shard " << k << "/" << count << " is given twice (" << s.dir.string() << ")\n";
      return false;
    }
  }
  return true;
}

}  // namespace

int search_merge_command(const std::string& program, const std::vector<std::string>& args) {
  po::options_description options(
      "locksim search-merge SHARD_DIR... --out DIR [options]\n\nCombines the shards of one search (each run with "
      "`search --shard K/N --out SHARD_DIR`)\ninto DIR: runs and coverage summed, per property the finding of the "
      "lowest\nshard (then run), its files copied as found-N.*, and DIR/search.json. Exit 1\nwhen a violation was "
      "found, 0 when none, 2 on bad input.\n\noptions");
  std::string out_dir;
  options.add_options()("help,h", "show this help")("out", po::value(&out_dir), "the merged result's directory");
  std::vector<std::string> dirs;
  po::variables_map vm;
  int code = kExitOk;
  if (!parse_command_line("search-merge", options, args, dirs, -1, vm, code)) return code;
  if (dirs.empty() || out_dir.empty()) {
    std::cerr << "locksim search-merge: give the shards' directories and --out DIR\n";
    return kExitBadInput;
  }
  std::vector<Shard> shards(dirs.size());
  for (std::size_t i = 0; i < dirs.size(); ++i)
    if (!read_shard(dirs[i], shards[i])) return kExitBadInput;
  std::sort(shards.begin(), shards.end(),
            [](const Shard& a, const Shard& b) { return a.summary["shard"][0] < b.summary["shard"][0]; });
  const Json& first = shards.front().summary;
  const std::uint64_t count = first["shard"][1].get<std::uint64_t>();
  if (!one_search(shards, count)) return kExitBadInput;
  if (!merge_spares_shards(out_dir, dirs, std::cerr) || !make_dirs("search-merge", out_dir, std::cerr))
    return kExitBadInput;

  Json merged = first;
  merged.erase("shard");  // one search's shard; the merge lists what it holds instead
  merged["shards"] = Json::array();
  merged["shard_count"] = count;
  merged["runs"] = 0;
  merged["findings"] = Json::array();
  for (std::size_t s = 0; s < shards.size(); ++s) {
    const Json& summary = shards[s].summary;
    merged["shards"].push_back(summary["shard"][0]);
    if (s > 0) add_coverage(merged["coverage"], summary["coverage"]);
    merged["runs"] = merged["runs"].get<std::uint64_t>() + number(summary, "runs");
  }
  // Per property, the lowest (shard, run): shards are sorted, so within them by run.
  std::vector<std::pair<const Shard*, const Json*>> all;
  for (const Shard& s : shards)
    for (const Json& f : s.summary["findings"]) all.emplace_back(&s, &f);
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
    return std::make_pair(number(*a.second, "shard"), number(*a.second, "run")) <
           std::make_pair(number(*b.second, "shard"), number(*b.second, "run"));
  });
  std::set<std::string> properties;
  for (const auto& [shard, finding] : all) {
    if (!properties.insert(finding->value("property", "")).second) continue;
    Json kept = *finding;
    std::string copied;
    if (!copy_finding(*shard, *finding, out_dir, merged["findings"].size() + 1, copied)) return kExitBadInput;
    kept["file"] = copied;
    merged["findings"].push_back(kept);
  }
  // Near misses: per property without a finding, the closest (then lowest shard and run).
  std::vector<std::pair<const Shard*, const Json*>> near;
  for (const Shard& s : shards)
    for (const Json& n : list_of(s.summary, "near_misses")) near.emplace_back(&s, &n);
  std::stable_sort(near.begin(), near.end(), [](const auto& a, const auto& b) {
    return std::make_pair(margin_of(*a.second), shard_and_run(*a.second)) <
           std::make_pair(margin_of(*b.second), shard_and_run(*b.second));
  });
  merged["near_misses"] = Json::array();
  for (const auto& [shard, n] : near) {
    const std::string property = n->value("property", "");
    if (properties.count(property) > 0) continue;
    properties.insert(property);
    Json kept = *n;
    std::string copied;
    const fs::path file = fs::path(n->value("file", ""));
    if (!copy_into(shard->dir / file.filename(), out_dir, file.filename().string(), copied)) return kExitBadInput;
    kept["file"] = copied;
    merged["near_misses"].push_back(kept);
  }
  // Crashes: the first kCrashesKept by shard and run, renumbered.
  std::vector<std::pair<const Shard*, const Json*>> crashes;
  for (const Shard& s : shards)
    for (const Json& c : list_of(s.summary, "crashes")) crashes.emplace_back(&s, &c);
  std::stable_sort(crashes.begin(), crashes.end(),
                   [](const auto& a, const auto& b) { return shard_and_run(*a.second) < shard_and_run(*b.second); });
  merged["crashes"] = Json::array();
  for (const auto& [shard, c] : crashes) {
    if (merged["crashes"].size() == search::kCrashesKept) break;
    Json kept = *c;
    std::string copied;
    const fs::path file = fs::path(c->value("file", ""));
    if (!copy_into(shard->dir / file.filename(), out_dir, "crash-" + std::to_string(merged["crashes"].size() + 1) + ".toml", copied))
      return kExitBadInput;
    kept["file"] = copied;
    merged["crashes"].push_back(kept);
  }
  const std::uint64_t runs = merged["runs"].get<std::uint64_t>();
  const bool crashed = number(merged["coverage"], "failures") > 0;
  merged["result"] = crashed ? "crashed" : merged["findings"].empty() ? "not found" : "found";
  merged["statement"] = merged["findings"].empty() ? nothing_found(merged, runs) : "";

  const fs::path summary_path = fs::path(out_dir) / "search.json";
  std::ofstream out(summary_path);
  out << merged.dump() << "\n";
  if (!out) {
    std::cerr << "locksim search-merge: cannot write " << summary_path.string() << "\n";
    return kExitBadInput;
  }
  std::cout << "merged " << shards.size() << " of " << count << " shard(s) of " << first.value("scenario", "")
            << ", variant " << first.value("variant", "") << ": " << runs << " runs\n";
  if (shards.size() < count) std::cout << "(shards missing: the runs above are all that were searched)\n";
  for (const Json& f : merged["findings"])
    std::cout << "finding: " << f.value("property", "") << " (shard " << number(f, "shard") << ", run "
              << number(f, "run") << "): " << f.value("story", "") << "\n  replay: " << shell_quote(program) << " run "
              << shell_quote(f.value("file", "")) << "\n";
  if (merged["findings"].empty()) std::cout << merged["statement"].get<std::string>() << "\n";
  for (const Json& n : merged["near_misses"])
    std::cout << "near miss: " << n.value("property", "") << " held with " << format_duration_rounded(Duration{margin_of(n)}) << " to spare (shard "
              << number(n, "shard") << ", run " << number(n, "run") << ")\n  replay: " << shell_quote(program)
              << " run " << shell_quote(n.value("file", "")) << "\n";
  for (const Json& c : merged["crashes"])
    std::cout << "crash: shard " << number(c, "shard") << ", run " << number(c, "run") << " " << c.value("what", "")
              << "\n  reproduce: " << shell_quote(program) << " run " << shell_quote(c.value("file", "")) << "\n";
  std::cout << "written to " << summary_path.string() << "\n";
  if (crashed) return kExitCrash;
  return merged["findings"].empty() ? kExitOk : kExitMismatch;
}

}  // namespace locksim::cli
