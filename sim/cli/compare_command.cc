// locksim compare: the same stories against every lock service, as a table.
// Each FILE is a story whose variants are the services; every (story,
// variant) runs --seeds seeds (sweep/compare.h), with every --set applied.
// Prints a block per story (rates per property, a note per fault that fired
// in too few runs for the table to mean what it says (compare_notes.h), a
// replay command per violated property) and the verdict matrix; --out writes
// one CSV row per cell as each finishes; --json prints everything as one
// object instead. Its size and progress go to stderr.
#include <boost/program_options.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>

#include "sim/cli/commands.h"
#include "sim/cli/compare_notes.h"
#include "sim/cli/compare_output.h"
#include "sim/cli/compare_stories.h"
#include "sim/cli/distinct_outputs.h"
#include "sim/cli/errors.h"
#include "sim/cli/numbers.h"
#include "sim/cli/options.h"
#include "sim/cli/output_dir.h"
#include "sim/cli/shell_quote.h"
#include "sim/cli/stopwatch.h"
#include "sim/core/run_error.h"
#include "sim/core/trace.h"
#include "sim/sweep/compare.h"

namespace po = boost::program_options;

namespace locksim::cli {

namespace {

struct CompareOptions {
  std::vector<std::string> files;
  std::vector<std::string> variants;  // empty: all
  std::vector<std::string> sets;      // applied to every story and variant
  std::uint64_t seeds = 1000;
  unsigned threads = 1;
  std::string out_path;
  bool json = false;
};

bool read_options(const std::vector<std::string>& args, CompareOptions& o, int& exit_code) {
  po::options_description options(
      "locksim compare FILE... [options]\n\nRuns the same stories against every lock service: each FILE is a story "
      "whose\nvariants are the services (the base is one of them). Every (story, variant)\nruns --seeds seeds; the "
      "table gives, per property, the share of runs that\nviolated it, and the verdict matrix sums it up. Seeds are "
      "derived as sweeps\nderive them, so each printed replay command reproduces its violation.\n\noptions");
  std::string seeds_text = "1000", threads_text;
  options.add_options()
      ("help,h", "show this help")
      ("seeds", po::value(&seeds_text), "runs per story and variant, 1 to 100000000 (default 1000)")
      ("variant", po::value(&o.variants), "compare only this variant (repeatable)")
      ("set", po::value(&o.sets), "override a key in every story and variant, as run's --set (repeatable)")
      ("threads", po::value(&threads_text), "worker threads, 1 to 256 (default: the machine's hardware threads)")
      ("out", po::value(&o.out_path), "also write one CSV row per (story, variant) here, as each finishes")
      ("json", "print one JSON object instead of tables");
  po::variables_map vm;
  exit_code = kExitOk;
  if (!parse_command_line("compare", options, args, o.files, -1, vm, exit_code)) return false;
  exit_code = kExitBadInput;
  if (o.files.empty()) {
    std::cerr << "locksim compare: which stories? (locksim compare scenarios/compare/*.toml)\n";
    return false;
  }
  if (!each_given_once("compare", "--variant", o.variants, std::cerr)) return false;
  std::string message;
  const auto seeds = parse_whole_number(seeds_text, 1, 100'000'000, "--seeds", message);
  if (!seeds) {
    std::cerr << "locksim compare: " << message << "\n";
    return false;
  }
  o.seeds = *seeds;
  o.threads = std::max(1u, std::thread::hardware_concurrency());
  if (!threads_text.empty()) {
    const auto threads = parse_whole_number(threads_text, 1, 256, "--threads", message);
    if (!threads) {
      std::cerr << "locksim compare: " << message << "\n";
      return false;
    }
    o.threads = static_cast<unsigned>(*threads);
  }
  o.json = vm.count("json") > 0;
  exit_code = kExitOk;
  return true;
}

std::string percent(std::uint64_t part, std::uint64_t whole) {
  char text[32];
  const double share = whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
  if (part == 0) return "0";
  std::snprintf(text, sizeof text, share >= 10 || share == 100.0 ? "%.0f%%" : "%.1f%%", share);
  return text;
}

// "P2 P3 P4 P5" — the properties violated in any run — or "safe".
std::string verdict_cell(const sweep::CompareCell& c) {
  std::string out;
  for (std::size_t p = 0; p < kPropertyCount; ++p)
    if (c.violations[p] > 0) out += (out.empty() ? "" : " ") + std::string(property_id(kAllProperties[p]));
  return out.empty() ? "safe" : out;
}

void print_story(std::ostream& out, const std::string& program, const std::vector<std::string>& sets,
                 const std::vector<sweep::CompareCell>& cells) {
  const sweep::CompareCell& first = cells.front();
  out << first.story << " (" << first.file << "), " << first.runs << " runs per service\n";
  char line[256];
  std::snprintf(line, sizeof line, "  %-24s %7s %7s %7s %7s %7s\n", "service", "P1", "P2", "P3", "P4", "P5");
  out << line;
  for (const sweep::CompareCell& c : cells) {
    std::snprintf(line, sizeof line, "  %-24s %7s %7s %7s %7s %7s\n", c.variant.c_str(),
                  percent(c.violations[0], c.runs).c_str(), percent(c.violations[1], c.runs).c_str(),
                  percent(c.violations[2], c.runs).c_str(), percent(c.violations[3], c.runs).c_str(),
                  percent(c.violations[4], c.runs).c_str());
    out << line;
  }
  for (const std::string& note : fault_notes(cells)) out << "  " << note << "\n";
  for (const sweep::CompareCell& c : cells) {
    // One replay per seed: the first violating run is often the same for several properties.
    std::map<std::uint64_t, std::string> by_seed;
    for (std::size_t p = 0; p < kPropertyCount; ++p)
      if (c.first_seed[p]) by_seed[*c.first_seed[p]] += std::string(by_seed[*c.first_seed[p]].empty() ? "" : " ") +
                                                         property_id(kAllProperties[p]);
    for (const auto& [seed, ids] : by_seed) {
      out << "  replay " << c.variant << " (" << ids << "): " << shell_quote(program) << " run " << shell_quote(c.file)
          << " --variant " << shell_quote(c.variant) << " --seed " << seed;
      for (const std::string& set : sets) out << " --set " << shell_quote(set);
      out << "\n";
    }
  }
  out << "\n";
}

// Rows: stories; columns: every variant seen, in first-seen order.
void print_matrix(std::ostream& out, const std::vector<std::vector<sweep::CompareCell>>& stories) {
  std::vector<std::string> columns;
  for (const auto& story : stories)
    for (const sweep::CompareCell& c : story)
      if (std::find(columns.begin(), columns.end(), c.variant) == columns.end()) columns.push_back(c.variant);
  std::size_t story_w = 5;
  for (const auto& story : stories) story_w = std::max(story_w, story.front().story.size());
  std::vector<std::size_t> widths;
  for (const std::string& col : columns) {
    std::size_t w = col.size();
    for (const auto& story : stories)
      for (const sweep::CompareCell& c : story)
        if (c.variant == col) w = std::max(w, verdict_cell(c).size());
    widths.push_back(w);
  }
  const auto pad = [](const std::string& s, std::size_t w) { return s + std::string(w > s.size() ? w - s.size() : 0, ' '); };
  out << "verdict matrix: the properties violated in any run (safe = none)\n  " << pad("story", story_w);
  for (std::size_t i = 0; i < columns.size(); ++i) out << "  " << pad(columns[i], widths[i]);
  out << "\n";
  for (const auto& story : stories) {
    out << "  " << pad(story.front().story, story_w);
    for (std::size_t i = 0; i < columns.size(); ++i) {
      std::string text = "-";
      for (const sweep::CompareCell& c : story)
        if (c.variant == columns[i]) text = verdict_cell(c);
      out << "  " << pad(text, widths[i]);
    }
    out << "\n";
  }
}

}  // namespace

int compare_command(const std::string& program, const std::vector<std::string>& args) {
  CompareOptions o;
  int exit_code = kExitOk;
  if (!read_options(args, o, exit_code)) return exit_code;
  // Every file and variant is read and resolved before anything runs.
  CompareStories stories;
  if (!load_stories(o.files, o.variants, o.sets, stories, std::cerr) ||
      !out_spares_stories(o.out_path, stories, std::cerr))
    return kExitBadInput;
  const std::vector<std::string> fault_columns = compare_fault_columns(stories.specs);
  std::ofstream csv;
  if (!o.out_path.empty()) {
    if (!open_output("compare", o.out_path, csv, std::cerr)) return kExitBadInput;
    csv << compare_csv_header(fault_columns) << "\n" << std::flush;
  }
  const MonotonicStopwatch stopwatch;
  sweep::Progress progress(stderr, stopwatch, stderr_progress_style(), "locksim compare", stories.cells() * o.seeds,
                           stories.cells());
  progress.announce(stories.size_text(o.seeds, o.threads));
  std::vector<std::vector<sweep::CompareCell>> results;
  std::size_t cells_done = 0;
  for (std::size_t i = 0; i < stories.specs.size(); ++i) {
    std::vector<sweep::CompareCell> story;
    for (const ScenarioSpec& spec : stories.specs[i]) {
      const auto ran = [&](std::uint64_t runs) { progress.update(cells_done, cells_done * o.seeds + runs); };
      try {
        story.push_back(sweep::compare_cell(spec, stories.paths[i], o.seeds, o.threads, ran));
      } catch (const RunError& e) {
        std::cerr << "locksim compare: " << stories.paths[i] << ": variant " << spec.variant << ": " << e.what()
                  << "\n";
        return kExitBadInput;
      }
      ++cells_done;
      if (csv.is_open()) csv << compare_csv_row(story.back(), fault_columns) << "\n" << std::flush;
    }
    if (!o.json) print_story(std::cout, program, o.sets, story);
    results.push_back(std::move(story));
  }
  progress.finish(cells_done, cells_done * o.seeds);
  if (o.json) {
    std::cout << compare_json(o.seeds, o.sets, results) << "\n";
    return kExitOk;
  }
  print_matrix(std::cout, results);
  return kExitOk;
}

}  // namespace locksim::cli
