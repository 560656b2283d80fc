// The sweep runner writes the same bytes for any thread count, chunk size and
// shard split, writes manifests before rows, resumes a cut-off file to the
// uninterrupted result, refuses to resume another sweep's or a tampered file,
// and stops at a cell that cannot be resolved with every row before it written.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/scenario/file.h"
#include "sim/sweep/axis.h"
#include "sim/sweep/manifest.h"
#include "sim/sweep/runner.h"
#include "sim/sweep/vary_cells.h"
#include "tests/unit/own_test_dir.h"

namespace locksim::sweep {
namespace {

namespace fs = std::filesystem;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void spill(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

class SweepRunner : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = own_test_dir("sweep_runner");
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    ScenarioError error;
    auto file = ScenarioFile::load(std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/redlock-clock-drift.toml", error);
    ASSERT_TRUE(file) << error.to_string();
    file_ = std::move(*file);
    std::string message;
    // Random latencies make the seeds matter; the drifts straddle the threshold.
    auto axis = parse_axis("clock.C.drift=1.1%..1.5%:0.1%", message);
    ASSERT_TRUE(axis) << message;
    auto cells = VaryCells::make({*axis}, message);
    ASSERT_TRUE(cells) << message;
    cells_ = std::move(*cells);
  }

  // The plan for shard |shard| of the 5-cell sweep with |seeds| seeds.
  SweepPlan plan(Shard shard, std::uint64_t seeds = 7) {
    SweepPlan p;
    p.scenario = file_->name();
    p.variants = {"base"};
    p.cells = &*cells_;
    p.range = shard_cells(cells_->size(), shard);
    p.resolve = [this](const Cell& cell, std::string& error) -> std::optional<ScenarioSpec> {
      std::vector<std::string> overrides = {"network.latency=uniform(1ms, 5ms)"};
      for (auto& o : cell_overrides(cells_->keys(), cell.values)) overrides.push_back(o);
      if (cell.index == fail_at_) {
        error = "cannot resolve cell " + std::to_string(cell.index);
        return std::nullopt;
      }
      ScenarioError e;
      auto spec = file_->resolve("base", overrides, e);
      if (!spec) error = e.to_string();
      return spec;
    };
    p.seeds = seeds;
    p.writes_header = shard.index == 1;
    manifest_.seeds = seeds;
    manifest_.shard_index = shard.index;
    manifest_.shard_count = shard.count;
    manifest_.shard_begin = p.range.begin;
    manifest_.shard_end = p.range.end;
    return p;
  }

  // Runs and returns {summary, per-run} file contents.
  std::pair<std::string, std::string> run(const std::string& name, const SweepPlan& p, unsigned threads,
                                          std::uint64_t chunk, bool resume = false, std::string* error_out = nullptr) {
    RunnerOptions options;
    options.threads = threads;
    options.chunk_runs = chunk;
    options.out_path = path(name + ".csv");
    options.per_run_path = path(name + ".runs.csv");
    options.resume = resume;
    options.manifest = &manifest_;
    SweepOutcome outcome;
    std::string error;
    const bool ok = run_sweep(p, options, outcome, error);
    if (error_out != nullptr) *error_out = error;
    else EXPECT_TRUE(ok) << error;
    return {slurp(options.out_path), slurp(options.per_run_path)};
  }

  // Copies the files of sweep |from| (and their manifests) to sweep |to|, cut to the given lengths.
  void copy_cut(const std::string& from, const std::string& to, std::size_t summary_bytes, std::size_t runs_bytes) {
    spill(path(to + ".csv"), slurp(path(from + ".csv")).substr(0, summary_bytes));
    spill(path(to + ".runs.csv"), slurp(path(from + ".runs.csv")).substr(0, runs_bytes));
    fs::copy_file(path(from + ".csv.json"), path(to + ".csv.json"), fs::copy_options::overwrite_existing);
    fs::copy_file(path(from + ".runs.csv.json"), path(to + ".runs.csv.json"), fs::copy_options::overwrite_existing);
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
  std::optional<ScenarioFile> file_;
  std::optional<VaryCells> cells_;
  Manifest manifest_{.file = "summary", .csv_format = 1, .locksim_version = "test"};
  std::size_t fail_at_ = SIZE_MAX;
};

// One thread with whole cells, three threads with one-run chunks and two with odd chunks write identical files.
TEST_F(SweepRunner, ThreadsAndChunksDoNotChangeTheBytes) {
  const auto one = run("one", plan({1, 1}), 1, 0);
  const auto three = run("three", plan({1, 1}), 3, 1);
  const auto two = run("two", plan({1, 1}), 2, 4);
  EXPECT_EQ(one, three);
  EXPECT_EQ(one, two);
  EXPECT_EQ(std::count(one.first.begin(), one.first.end(), '\n'), 6);    // header + 5 cells
  EXPECT_EQ(std::count(one.second.begin(), one.second.end(), '\n'), 36);  // header + 5 x 7 runs
}

// Shards 1/3, 2/3 and 3/3 concatenated are the unsharded files; only shard 1 has the header.
TEST_F(SweepRunner, ShardsConcatenateToTheWhole) {
  const auto whole = run("whole", plan({1, 1}), 2, 0);
  std::string summary, runs;
  for (std::size_t k = 1; k <= 3; ++k) {
    const auto part = run("part" + std::to_string(k), plan({k, 3}), k == 2 ? 1 : 2, 3);
    summary += part.first;
    runs += part.second;
  }
  EXPECT_EQ(summary, whole.first);
  EXPECT_EQ(runs, whole.second);
}

// Shard bounds are floor((K-1)C/N)..floor(KC/N), cover every cell once, and may be empty; a million shards of a
// million cells is one cell each.
TEST_F(SweepRunner, ShardBounds) {
  EXPECT_EQ(shard_cells(5, {1, 3}).begin, 0U);
  EXPECT_EQ(shard_cells(5, {1, 3}).end, 1U);
  EXPECT_EQ(shard_cells(5, {2, 3}).end, 3U);
  EXPECT_EQ(shard_cells(5, {3, 3}).end, 5U);
  EXPECT_EQ(shard_cells(2, {1, 4}).end - shard_cells(2, {1, 4}).begin, 0U);  // more shards than cells: some empty
  EXPECT_EQ(shard_cells(1'000'000, {1000, 1000}).begin, 999'000U);
  EXPECT_EQ(shard_cells(kMaxCells, {1'000'000, 1'000'000}).end, kMaxCells);
  EXPECT_EQ(shard_cells(kMaxCells, {999'999, 1'000'000}).begin, kMaxCells - 2000);
}

// A shard with no cells writes its manifest and (shard 1 only) the header, and nothing else.
TEST_F(SweepRunner, AnEmptyShardWritesOnlyTheHeader) {
  const auto part = run("empty", plan({3, 9}), 2, 0);  // cells [1, 1)
  EXPECT_EQ(part.first, "");
  EXPECT_TRUE(fs::exists(path("empty.csv.json")));
  std::string error;
  auto manifest = read_manifest(path("empty.runs.csv.json"), error);
  ASSERT_TRUE(manifest) << error;
  EXPECT_EQ(manifest->file, "per-run");
  EXPECT_EQ(manifest->shard_begin, manifest->shard_end);
}

// A sweep cut off mid-row resumes to exactly the uninterrupted files.
TEST_F(SweepRunner, ResumeAfterACutEqualsTheUninterruptedRun) {
  const auto whole = run("whole", plan({1, 1}), 2, 0);
  // Keep the header, two rows and half of the third; the per-run file a bit further on, mid-row.
  const std::size_t cut = whole.first.find('\n', whole.first.find('\n', whole.first.find('\n') + 1) + 1) + 20;
  copy_cut("whole", "cut", cut, whole.second.size() * 3 / 4);
  EXPECT_EQ(run("cut", plan({1, 1}), 2, 3, true), whole);
  // Resuming a finished sweep changes nothing.
  EXPECT_EQ(run("cut", plan({1, 1}), 1, 0, true), whole);
  // A missing file is a fresh start.
  EXPECT_EQ(run("fresh", plan({1, 1}), 2, 0, true), whole);
}

// Resume refuses a file whose manifest names another seed count, naming the field and both values; nothing changes.
TEST_F(SweepRunner, ResumeRefusesAnotherSweepsFile) {
  const auto other = run("mixed", plan({1, 1}, 3), 2, 0);
  std::string error;
  run("mixed", plan({1, 1}, 7), 2, 0, true, &error);
  EXPECT_NE(error.find("--resume: " + path("mixed.csv") + " was written by a different sweep: --seeds differs: "
                       "the file has 3, this command has 7"),
            std::string::npos)
      << error;
  EXPECT_EQ(slurp(path("mixed.csv")), other.first);  // untouched
  EXPECT_EQ(slurp(path("mixed.runs.csv")), other.second);
}

// A file without a manifest beside it is refused: nothing says which sweep wrote it.
TEST_F(SweepRunner, ResumeRefusesAFileWithoutAManifest) {
  const auto whole = run("bare", plan({1, 1}), 2, 0);
  fs::remove(path("bare.csv.json"));
  std::string error;
  run("bare", plan({1, 1}), 2, 0, true, &error);
  EXPECT_NE(error.find("has no manifest (" + path("bare.csv.json") + ") beside it, so locksim cannot tell which "
                       "sweep wrote it; remove the file to start over"),
            std::string::npos)
      << error;
  EXPECT_EQ(slurp(path("bare.csv")), whole.first);
}

// Every kept row is checked: a changed count, rate, field, verdict or seed is refused with file:line, files untouched.
TEST_F(SweepRunner, ResumeChecksEveryKeptRow) {
  const auto whole = run("whole", plan({1, 1}), 2, 0);
  const auto tamper = [&](const std::string& text, std::size_t line, const std::string& from, const std::string& to) {
    std::size_t at = 0;
    for (std::size_t i = 1; i < line; ++i) at = text.find('\n', at) + 1;
    const std::size_t hit = text.find(from, at);
    EXPECT_LT(hit, text.find('\n', at)) << from;
    return text.substr(0, hit) + to + text.substr(hit + from.size());
  };
  struct Case {
    bool summary;
    std::size_t line;
    std::string from, to, message;
  };
  // Line 3 of the summary is cell 1.2 %; its grant-exclusive count is 0 of 7 (rate 0, Wilson upper bound 0.354330).
  const std::vector<Case> cases = {
      {true, 3, ",7,0,0.000000,", ",7,1,0.000000,", "grant-exclusive.rate,ci_low,ci_high are '0.000000,0.000000,0.354330', "
                                                      "but 1 of 7 runs give '0.142857,"},
      {true, 3, ",7,0,0.000000,", ",7,8,0.000000,", "grant-exclusive.violated is 8, more than the row's 7 runs"},
      {true, 3, ",7,0,0.000000,0.000000,0.354330", ",7,0,0.000000,0.000000,0.354331", "are '0.000000,0.000000,0.354331'"},
      {true, 3, ",7,0,", ",6,0,", "runs is '6', but --seeds is 7"},
      {true, 3, ",7,0,", ",7,0,0,", "it has 41 fields, but the header has 40"},
      {true, 3, "1.2%", "1.25%", "it is not this cell's row (it should start with 'redlock-clock-drift,base,1.2%,')"},
      {false, 9, ",0,0,0,0,0,,", ",2,0,0,0,0,,", "grant-exclusive is '2', not 0 or 1"},
      {false, 9, ",0,0,0,0,0,,", ",0,0,0,0,0,1.000000,", "grant-exclusive holds (0) but has a first-witness time"},
      {false, 2, "base,1.1%,0,", "base,1.1%,1,", "it is not run 0 of this cell"},
  };
  for (const Case& c : cases) {
    copy_cut("whole", "bad", whole.first.size(), whole.second.size());
    const std::string file = c.summary ? path("bad.csv") : path("bad.runs.csv");
    const std::string bad = tamper(c.summary ? whole.first : whole.second, c.line, c.from, c.to);
    spill(file, bad);
    std::string error;
    run("bad", plan({1, 1}), 2, 0, true, &error);
    EXPECT_NE(error.find("--resume: " + file + ":" + std::to_string(c.line) + ": "), std::string::npos) << error;
    EXPECT_NE(error.find(c.message), std::string::npos) << error << "\n" << c.message;
    EXPECT_EQ(slurp(file), bad) << "a refused --resume changes nothing";
  }
}

// A per-run row whose seed is not the derived one is refused, naming both seeds.
TEST_F(SweepRunner, ResumeChecksPerRunSeeds) {
  const auto whole = run("whole", plan({1, 1}), 2, 0);
  copy_cut("whole", "seed", whole.first.size(), whole.second.size());
  std::string runs = whole.second;
  const std::size_t line2 = runs.find('\n') + 1;
  const std::size_t seed_at = runs.find(",0,", line2) + 3;  // after "replica 0,"
  runs.insert(seed_at, "1");
  spill(path("seed.runs.csv"), runs);
  std::string error;
  run("seed", plan({1, 1}), 2, 0, true, &error);
  EXPECT_NE(error.find(":2: its seed is '1"), std::string::npos) << error;
  EXPECT_NE(error.find("but run 0 of this cell has seed"), std::string::npos) << error;
}

// A cell that cannot be resolved stops the sweep there, with every row before it written and none after, for any
// thread count and chunk size.
TEST_F(SweepRunner, AnUnresolvableCellStopsTheSweepAfterTheRowsBeforeIt) {
  fail_at_ = 3;
  for (unsigned threads : {1U, 3U}) {
    std::string error;
    const auto part = run("stop" + std::to_string(threads), plan({1, 1}), threads, threads == 1 ? 0 : 1, false, &error);
    EXPECT_EQ(error, "cannot resolve cell 3");
    EXPECT_EQ(std::count(part.first.begin(), part.first.end(), '\n'), 4);    // header + cells 0..2
    EXPECT_EQ(std::count(part.second.begin(), part.second.end(), '\n'), 22);  // header + 3 x 7 runs
  }
  // The rows kept are the uninterrupted sweep's, so a --resume (here with the cause gone) completes it.
  fail_at_ = SIZE_MAX;
  const auto whole = run("whole", plan({1, 1}), 2, 0);
  EXPECT_EQ(run("stop1", plan({1, 1}), 2, 0, true), whole);
}

}  // namespace
}  // namespace locksim::sweep
