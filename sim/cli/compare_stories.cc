#include "sim/cli/compare_stories.h"

#include <algorithm>

#include "sim/cli/catalogue.h"
#include "sim/cli/distinct_outputs.h"
#include "sim/cli/errors.h"
#include "sim/scenario/doc.h"
#include "sim/scenario/file.h"

namespace locksim::cli {

namespace {

bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The variants of |file| to run: all, or those asked for that it has.
std::vector<std::string> chosen(const ScenarioFile& file, const std::vector<std::string>& asked) {
  const std::vector<std::string> known = file.variants();
  if (asked.empty()) return known;
  std::vector<std::string> out;
  for (const std::string& v : asked)
    if (has(known, v)) out.push_back(v);
  return out;
}

bool load_story(const std::string& name, const std::vector<std::string>& variants,
                const std::vector<std::string>& sets, CompareStories& out, std::vector<std::string>& seen,
                std::ostream& err) {
  const std::optional<std::string> path = scenario_path(name);
  if (!path) {
    err << "locksim compare: " << name << ": no such file, and no catalogue scenario of that name\n";
    return false;
  }
  ScenarioErrors errors;
  const auto file = ScenarioFile::load(*path, errors);
  if (!file) {
    print_errors(err, "locksim compare: ", errors);
    return false;
  }
  for (const std::string& v : file->variants())
    if (!has(seen, v)) seen.push_back(v);
  std::vector<ScenarioSpec> story;
  for (const std::string& variant : chosen(*file, variants)) {
    auto spec = file->resolve(variant, sets, errors);
    if (!spec) {
      print_errors(err, "locksim compare: ", errors);
      return false;
    }
    story.push_back(std::move(*spec));
  }
  out.paths.push_back(*path);
  out.specs.push_back(std::move(story));
  return true;
}

}  // namespace

std::size_t CompareStories::cells() const {
  std::size_t n = 0;
  for (const auto& story : specs) n += story.size();
  return n;
}

std::string CompareStories::size_text(std::uint64_t seeds, unsigned threads) const {
  const auto count = [](std::uint64_t n, const std::string& one, const std::string& many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  return count(specs.size(), "story", "stories") + ", " + count(cells(), "cell", "cells") + " (story × variant) × " +
         count(seeds, "seed", "seeds") + " = " + count(cells() * seeds, "run", "runs") + " on " +
         count(threads, "thread", "threads");
}

bool load_stories(const std::vector<std::string>& files, const std::vector<std::string>& variants,
                  const std::vector<std::string>& sets, CompareStories& out, std::ostream& err) {
  std::vector<std::string> seen;  // every variant of every file, in first-seen order
  for (const std::string& name : files)
    if (!load_story(name, variants, sets, out, seen, err)) return false;
  for (const std::string& v : variants) {
    if (has(seen, v)) continue;
    err << "locksim compare: --variant " << v << ": no story has it" << scenario::did_you_mean(v, seen)
        << "; variants: " << scenario::join_list(seen) << "\n";
    return false;
  }
  for (std::size_t i = 0; i < out.specs.size(); ++i) {
    if (!out.specs[i].empty()) continue;
    err << "locksim compare: " << out.paths[i] << " has none of the variants asked for\n";
    return false;
  }
  return true;
}

bool out_spares_stories(const std::string& out_path, const CompareStories& stories, std::ostream& err) {
  std::vector<sweep::NamedFile> files;
  for (const std::string& path : stories.paths) files.push_back({"the scenario file", path, false});
  files.push_back({"--out", out_path});
  return distinct_outputs("compare", files, err);
}

}  // namespace locksim::cli
