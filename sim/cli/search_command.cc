// locksim search: look for a counterexample nobody wrote. Runs a scenario's
// [search] space (scenario/search_spec.h) with a strategy (search/strategy.h)
// until a hunted property breaks or the budget is spent; shrinks and explains
// each finding and writes it as a standalone scenario, with its trace and
// explanation, to --out. With nothing found it says "not found" and how
// little that rules out: what was covered (targets, triggers, magnitudes,
// faults per run) and the rule of three as a bound on the sampler's own
// runs; and it writes the closest run per property as a near miss. Runs go
// in a forked worker, so a run that crashes the model is written as
// crash-N.toml and the search goes on (exit 3).
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <thread>

#include "sim/cli/catalogue.h"
#include "sim/cli/commands.h"
#include "sim/cli/distinct_outputs.h"
#include "sim/cli/errors.h"
#include "sim/cli/numbers.h"
#include "sim/cli/options.h"
#include "sim/cli/output_dir.h"
#include "sim/cli/search_output.h"
#include "sim/cli/stopwatch.h"
#include "sim/core/trace.h"
#include "sim/scenario/file.h"
#include "sim/search/finalize.h"
#include "sim/search/forked_batches.h"
#include "sim/search/finding_file.h"
#include "sim/search/near_miss.h"
#include "sim/search/search.h"

namespace po = boost::program_options;

namespace locksim::cli {

namespace {

struct SearchCliOptions {
  std::string file;
  std::string variant = "base";
  std::vector<std::string> properties;
  std::vector<std::string> sets;
  search::SearchOptions search;
  std::optional<double> time_limit_s;
  std::string out_dir;
  std::uint64_t explain_seeds = 100;
  bool json = false;
  bool shrink = true;
  bool progress = false;
  bool budget_given = false;
  std::uint64_t grid = 10;
  std::uint64_t max_cases = 1'000'000;
};

// The candidate's run as a file that reproduces the crash.
std::string crash_text(const toml::table& merged, const search::SearchBase& base, const search::Crash& c,
                       const std::string& how_found) {
  const std::string header = how_found + "\nWhat happened: the run " + c.what +
                             ".\nIt reproduces from this file alone (`locksim run FILE`: the seed is pinned); run "
                             "it under a debugger or a sanitizer build to see where.";
  return search::document_text(search::candidate_document(merged, base, c.candidate, c.seed),
                               search::commented(header) + "\n");
}

bool read_options(const std::vector<std::string>& args, SearchCliOptions& o, int& exit_code) {
  po::options_description options(
      "locksim search FILE [options]\n\nSearches the fault space of FILE's [search] section for runs that break a "
      "hunted\nproperty. Each finding is shrunk, explained and written as a standalone scenario\n(--out DIR: "
      "found-N.toml, its trace and its explanation). Same file, options and\n--seed give the same findings, "
      "whatever --threads. Exit 1 when something was found,\n0 when not, 2 on bad input.\n\noptions");
  std::string budget_text = "10000", time_text, strategy_text = "portfolio", seed_text = "1", threads_text,
              shard_text, explain_text = "100", grid_text = "10", max_cases_text = "1000000";
  options.add_options()
      ("help,h", "show this help")
      ("variant", po::value(&o.variant), "the variant to search (default: base)")
      ("property", po::value(&o.properties), "hunt this property (repeatable; default: [search].hunt)")
      ("set", po::value(&o.sets), "override a key before searching, as run's --set (repeatable)")
      ("budget", po::value(&budget_text), "runs at most, 1 to 100000000 (default 10000; exhaustive: every case)")
      ("time", po::value(&time_text), "stop after this much wall time too, such as 30s or 5min")
      ("strategy", po::value(&strategy_text),
       "uniform, swarm, phase, margin, portfolio (default) or exhaustive (every case of a stated discretisation)")
      ("grid", po::value(&grid_text), "exhaustive: true times in the window, 1 to 1000 (default 10)")
      ("max-cases", po::value(&max_cases_text),
       "exhaustive: refuse a discretisation with more cases (default 1000000), unless --budget runs only the first")
      ("seed", po::value(&seed_text), "the search's seed (default 1)")
      ("threads", po::value(&threads_text), "worker threads, 1 to 256 (default: the machine's hardware threads)")
      ("shard", po::value(&shard_text), "run shard K of N (K/N): an independent part of the budget; merge with search-merge")
      ("all", "go on until every hunted property has a finding (default: stop at the first)")
      ("no-shrink", "keep findings as found")
      ("explain-seeds", po::value(&explain_text), "fresh seeds per row of a finding's explanation (default 100)")
      ("out", po::value(&o.out_dir), "write findings, traces, explanations and search.json to this directory")
      ("progress", "a progress line on standard error every second, instead of the bar or the log's few lines")
      ("in-process", "run candidates in this process, not a forked worker: for a debugger; a crash then ends the search")
      ("json", "print one JSON object instead of text");
  std::vector<std::string> files;
  po::variables_map vm;
  exit_code = kExitOk;
  if (!parse_command_line("search", options, args, files, -1, vm, exit_code)) return false;
  exit_code = kExitBadInput;
  if (files.size() != 1) {
    std::cerr << "locksim search: give one scenario file (locksim search scenarios/search/gc-pause.toml)\n";
    return false;
  }
  o.file = files.front();
  std::string message;
  const auto number = [&](const std::string& text, std::uint64_t min, std::uint64_t max, const char* what,
                          std::uint64_t& out) {
    const auto v = parse_whole_number(text, min, max, what, message);
    if (!v) std::cerr << "locksim search: " << message << "\n";
    if (v) out = *v;
    return v.has_value();
  };
  if (!number(budget_text, 1, 100'000'000, "--budget", o.search.budget)) return false;
  o.budget_given = vm.count("budget") > 0;
  if (!number(grid_text, 1, 1000, "--grid", o.grid)) return false;
  if (!number(max_cases_text, 1, 1'000'000'000'000, "--max-cases", o.max_cases)) return false;
  if (!number(seed_text, 0, INT64_MAX, "--seed", o.search.seed)) return false;
  if (!number(explain_text, 1, 100'000, "--explain-seeds", o.explain_seeds)) return false;
  std::uint64_t threads = std::max(1u, std::thread::hardware_concurrency());
  if (!threads_text.empty() && !number(threads_text, 1, 256, "--threads", threads)) return false;
  o.search.threads = static_cast<unsigned>(threads);
  if (!search::parse_strategy(strategy_text, o.search.strategy)) {
    std::cerr << "locksim search: unknown --strategy '" << strategy_text
              << "'; strategies: uniform, swarm, phase, margin, portfolio, exhaustive\n";
    return false;
  }
  if (!time_text.empty()) {
    const std::optional<Duration> d = parse_duration(time_text);
    if (!d || *d <= Duration{0}) {
      std::cerr << "locksim search: --time expects a duration such as 30s or 5min, got '" << time_text << "'\n";
      return false;
    }
    o.time_limit_s = std::chrono::duration<double>(*d).count();
  }
  if (!shard_text.empty()) {
    const std::size_t slash = shard_text.find('/');
    std::uint64_t k = 0, n = 0;
    std::string ignored;
    const auto kk = slash == std::string::npos ? std::nullopt : parse_whole_number(shard_text.substr(0, slash), 1, 100'000, "K", ignored);
    const auto nn = slash == std::string::npos ? std::nullopt : parse_whole_number(shard_text.substr(slash + 1), 1, 100'000, "N", ignored);
    if (kk && nn) k = *kk, n = *nn;
    if (k == 0 || n == 0 || k > n) {
      std::cerr << "locksim search: --shard expects K/N with 1 <= K <= N, such as 2/4, got '" << shard_text << "'\n";
      return false;
    }
    o.search.shard = {k, n};
  }
  o.search.every_property = vm.count("all") > 0;
  o.shrink = vm.count("no-shrink") == 0;
  o.json = vm.count("json") > 0;
  o.progress = vm.count("progress") > 0;
  o.search.isolate = vm.count("in-process") == 0;
  exit_code = kExitOk;
  return true;
}

}  // namespace

int search_command(const std::string& program, const std::vector<std::string>& args) {
  SearchCliOptions o;
  int exit_code = kExitOk;
  if (!read_options(args, o, exit_code)) return exit_code;
  const std::optional<std::string> path = scenario_path(o.file);
  if (!path) {
    std::cerr << "locksim search: " << o.file << ": no such file, and no catalogue scenario of that name\n";
    return kExitBadInput;
  }
  ScenarioErrors errors;
  const auto file = ScenarioFile::load(*path, errors);
  std::optional<ScenarioSpec> spec;
  std::optional<std::string> merged_text;
  if (file) spec = file->resolve(o.variant, o.sets, errors);
  if (spec) merged_text = file->merged_toml(o.variant, o.sets, errors);
  if (!spec || !merged_text) {
    print_errors(std::cerr, "locksim search: ", errors);
    return kExitBadInput;
  }
  if (!spec->search.present) {
    std::cerr << "locksim search: " << *path << " has no [search] section: say which faults to search (FORMAT.md, "
              << "\"[search]\")\n";
    return kExitBadInput;
  }
  if (!o.properties.empty()) {
    spec->search.hunt.clear();
    for (const std::string& name : o.properties) {
      Property p{};
      if (!parse_property(name, p)) {
        std::cerr << "locksim search: --property: unknown property '" << name
                  << "'; properties: grant-exclusive, belief-exclusive, resource-exclusive, resource-current, "
                     "invariant\n";
        return kExitBadInput;
      }
      if (std::find(spec->search.hunt.begin(), spec->search.hunt.end(), p) == spec->search.hunt.end())
        spec->search.hunt.push_back(p);
    }
  }
  if (!search_spares_scenario(*path, o.out_dir, std::cerr) ||
      (!o.out_dir.empty() && !make_dirs("search", o.out_dir, std::cerr)))
    return kExitBadInput;

  search::SearchBase base{*spec, search::phase_sites(*spec)};
  const toml::table merged = toml::parse(*merged_text);
  std::optional<search::Discretisation> cases;
  if (o.search.strategy == search::Strategy::exhaustive) {
    if (spec->search.story_faults == StoryFaults::search) {
      std::cerr << "locksim search: --strategy exhaustive needs [search] story_faults = \"remove\" or \"keep\": "
                   "it enumerates the faults it places, not the story's\n";
      return kExitBadInput;
    }
    cases = search::discretise(base, merged, {.grid = o.grid});
    // A --budget bounds the run itself: the first cases, fewer faults first.
    // Past 2^64 cases no case number (or run count) could name them all.
    const bool countable = cases->cases <= std::numeric_limits<std::uint64_t>::max();
    if ((cases->cases > o.max_cases && !o.budget_given) || !countable) {
      std::cerr << "locksim search: the exhaustive discretisation has " << search::case_count_text(cases->cases)
                << " cases, more than --max-cases " << o.max_cases
                << ": raise --max-cases, or narrow the space (fewer targets or kinds, a smaller max_faults with "
                   "--set search.max_faults=N, a coarser --grid)\n";
      for (const std::string& line : cases->description) std::cerr << "  " << line << "\n";
      return kExitBadInput;
    }
    const auto all = static_cast<std::uint64_t>(cases->cases);
    o.search.budget = o.budget_given ? std::min(o.search.budget, all) : all;
    o.search.exhaustive = &*cases;
    if (!o.json) {
      std::cout << "exhaustive search of " << spec->name << ", variant " << o.variant << ": "
                << search::case_count_text(cases->cases) << " cases\n";
      for (const std::string& line : cases->description) std::cout << "  " << line << "\n";
      if (o.search.budget < all)
        std::cout << "  running the first " << o.search.budget << " (--budget): not a certificate unless every case runs\n";
      std::cout.flush();
    }
  }
  const MonotonicStopwatch stopwatch;
  sweep::Progress progress(stderr, stopwatch, o.progress ? sweep::ProgressStyle::log : stderr_progress_style(),
                           "locksim search", search::runs_in_shard(o.search.budget, o.search.shard));
  if (o.progress) progress.log_every(1.0);
  if (o.time_limit_s) {
    progress.stop_by(*o.time_limit_s);
    o.search.stop = [&] { return stopwatch.elapsed_seconds() >= *o.time_limit_s; };
  }
  progress.announce(search_size_text(o.search, o.time_limit_s));
  o.search.progress = [&](const search::SearchOutcome& so) { progress.update(0, so.runs, progress_detail(base, so)); };
  const search::SearchOutcome outcome = search::run_search(base, o.search);
  const double elapsed = stopwatch.elapsed_seconds();
  progress.finish(0, outcome.runs, progress_detail(base, outcome));

  const std::string how_found_prefix = "Found by `" + search_command_line(program, *path, o.variant, o.search) + "`\nat run ";
  const auto how_found = [&](std::uint64_t run, std::uint64_t shard, const std::string& strategy) {
    return how_found_prefix + std::to_string(run + 1) +
           (o.search.shard.count > 1 ? " of shard " + std::to_string(shard) + "/" + std::to_string(o.search.shard.count) : "") +
           " (" + strategy + " strategy), from " + spec->name + " (" + *path + "), variant " + o.variant + ".";
  };
  SearchResults results;
  results.failures = outcome.coverage.failures;
  // Crashes first: they are written before anything that runs the model again.
  for (std::size_t i = 0; i < outcome.crashes.size(); ++i) {
    const search::Crash& c = outcome.crashes[i];
    CrashOutput out{c, crash_text(merged, base, c, how_found(c.run, c.shard, c.candidate.strategy)), ""};
    if (!o.out_dir.empty() &&
        !write_file(o.out_dir, "crash-" + std::to_string(i + 1) + ".toml", out.text, out.path, std::cerr))
      return kExitBadInput;
    results.crashes.push_back(std::move(out));
  }
  for (std::size_t i = 0; i < outcome.findings.size(); ++i) {
    const search::Finding& f = outcome.findings[i];
    search::FinalizeOptions fo;
    fo.shrink = o.shrink;
    fo.explain_seeds = o.explain_seeds;
    fo.name = spec->name + "-found-" + std::to_string(i + 1);
    fo.how_found = how_found(f.run, f.shard, f.candidate.strategy);
    const toml::table doc = search::finding_document(merged, base, f);
    // Shrinking and explaining run edits of the finding hundreds of times:
    // in a process of their own, a crash there costs this finding's polish.
    const auto finish = [&](search::Finalized final) {
      FindingOutput out{f, std::move(final), ""};
      const bool written = o.out_dir.empty() || write_finding(o.out_dir, i + 1, out, std::cerr);
      RenderedFinding r = render_finding(program, i + 1, out);
      r.written = written;
      return r;
    };
    RenderedFinding rendered;
    std::string packed, failure;
    if (!o.search.isolate) {
      rendered = finish(search::finalize(doc, f.property, fo));
    } else if (!search::run_in_child([&] { return pack(finish(search::finalize(doc, f.property, fo))); }, packed,
                                     failure) ||
               !unpack(packed, rendered)) {
      // Kept as found, unshrunk and unexplained, and counted as a crash.
      search::Finalized unfinished;
      unfinished.doc = doc;
      unfinished.text = search::document_text(
          doc, search::commented(fo.how_found + "\nShrinking or explaining it crashed the model (" + failure +
                                 "): kept as found. It replays from this file alone.") + "\n");
      unfinished.explanation.property = f.property;
      unfinished.explanation.witness = f.witness;
      unfinished.explanation.story = "shrinking or explaining this finding crashed the model: " + failure;
      rendered = finish(std::move(unfinished));
      ++results.failures;
    }
    if (!rendered.written) return kExitBadInput;
    results.findings.push_back(std::move(rendered));
  }
  for (const auto& near : outcome.near_misses) {
    if (!near) continue;
    const bool found = std::any_of(outcome.findings.begin(), outcome.findings.end(), [&](const search::Finding& f) {
      return std::find(f.broken.begin(), f.broken.end(), near->property) != f.broken.end();
    });
    if (found) continue;
    NearMissOutput out{*near, search::near_miss_file(merged, base, *near, how_found(near->run, near->shard, near->candidate.strategy)), ""};
    if (!o.out_dir.empty() &&
        !write_file(o.out_dir, search::near_miss_file_name(near->property), out.file.text, out.path, std::cerr))
      return kExitBadInput;
    results.near_misses.push_back(std::move(out));
  }
  const std::string summary = summary_json(base, *path, o.variant, o.search, outcome, results);
  if (!o.out_dir.empty()) {
    std::ofstream json(std::filesystem::path(o.out_dir) / "search.json");
    json << summary << "\n";
    if (!json) {
      std::cerr << "locksim search: cannot write " << o.out_dir << "/search.json\n";
      return kExitBadInput;
    }
  }
  if (o.json) {
    std::cout << summary << "\n";
  } else {
    print_search_report(std::cout, program, base, *path, o.variant, o.search, outcome, results, o.out_dir, elapsed);
  }
  if (results.failures > 0) return kExitCrash;
  return results.findings.empty() ? kExitOk : kExitMismatch;
}

}  // namespace locksim::cli
