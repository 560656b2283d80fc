// The sweep runner writes the same bytes for any thread count, chunk size and
// shard split, resumes a cut-off file to the uninterrupted result, and refuses
// to resume a file written by a different sweep.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/scenario/parse.h"
#include "sim/sweep/axis.h"
#include "sim/sweep/runner.h"

namespace locksim::sweep {
namespace {

namespace fs = std::filesystem;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class SweepRunner : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("locksim_sweep_runner_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
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
    auto table = cross_product({*axis}, message);
    ASSERT_TRUE(table) << message;
    table_ = *table;
  }

  // The plan for shard |shard| of the 5-cell sweep with |seeds| seeds.
  SweepPlan plan(Shard shard, std::uint64_t seeds = 7) {
    SweepPlan p;
    p.scenario = file_->name();
    p.variant = "base";
    p.keys = table_.keys;
    p.seeds = seeds;
    p.writes_header = shard.index == 1;
    const CellRange range = shard_cells(table_.cells.size(), shard);
    for (std::size_t i = range.begin; i < range.end; ++i) {
      std::vector<std::string> overrides = {"network.latency=uniform(1ms, 5ms)"};
      for (auto& o : cell_overrides(table_.keys, table_.cells[i])) overrides.push_back(o);
      ScenarioError error;
      auto spec = file_->resolve("base", overrides, error);
      EXPECT_TRUE(spec) << error.to_string();
      p.values.push_back(table_.cells[i]);
      p.specs.push_back(*spec);
    }
    return p;
  }

  // Runs and returns {summary, per-run} file contents.
  std::pair<std::string, std::string> run(const std::string& name, SweepPlan p, unsigned threads,
                                          std::uint64_t chunk, bool resume = false, std::string* error_out = nullptr) {
    RunnerOptions options;
    options.threads = threads;
    options.chunk_runs = chunk;
    options.out_path = (dir_ / (name + ".csv")).string();
    options.per_run_path = (dir_ / (name + ".runs.csv")).string();
    options.resume = resume;
    SweepOutcome outcome;
    std::string error;
    const bool ok = run_sweep(std::move(p), options, outcome, error);
    if (error_out != nullptr) *error_out = error;
    else EXPECT_TRUE(ok) << error;
    return {slurp(options.out_path), slurp(options.per_run_path)};
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
  std::optional<ScenarioFile> file_;
  CellTable table_;
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

// Shard bounds are floor((K-1)C/N)..floor(KC/N) and cover every cell once; K/N is validated.
TEST_F(SweepRunner, ShardBoundsAndParsing) {
  EXPECT_EQ(shard_cells(5, {1, 3}).begin, 0U);
  EXPECT_EQ(shard_cells(5, {1, 3}).end, 1U);
  EXPECT_EQ(shard_cells(5, {2, 3}).end, 3U);
  EXPECT_EQ(shard_cells(5, {3, 3}).end, 5U);
  EXPECT_EQ(shard_cells(2, {1, 4}).end - shard_cells(2, {1, 4}).begin, 0U);  // more shards than cells: some empty
  std::string error;
  ASSERT_TRUE(parse_shard("2/4", error));
  EXPECT_EQ(parse_shard("2/4", error)->index, 2U);
  for (const char* bad : {"0/4", "5/4", "1/0", "2", "a/b", "1/2/3", "-1/2", ""}) {
    EXPECT_FALSE(parse_shard(bad, error)) << bad;
    EXPECT_NE(error.find("K/N"), std::string::npos);
  }
}

// A sweep cut off mid-row resumes to exactly the uninterrupted files.
TEST_F(SweepRunner, ResumeAfterACutEqualsTheUninterruptedRun) {
  const auto whole = run("whole", plan({1, 1}), 2, 0);
  // Keep the header, two rows and half of the third; the per-run file a bit further on, mid-row.
  const std::size_t cut = whole.first.find('\n', whole.first.find('\n', whole.first.find('\n') + 1) + 1) + 20;
  std::ofstream(path("cut.csv"), std::ios::binary) << whole.first.substr(0, cut);
  std::ofstream(path("cut.runs.csv"), std::ios::binary) << whole.second.substr(0, whole.second.size() * 3 / 4);
  EXPECT_EQ(run("cut", plan({1, 1}), 2, 3, true), whole);
  // Resuming a finished sweep changes nothing.
  EXPECT_EQ(run("cut", plan({1, 1}), 1, 0, true), whole);
  // A missing file is a fresh start.
  EXPECT_EQ(run("fresh", plan({1, 1}), 2, 0, true), whole);
}

// Resume refuses rows that belong to a different sweep (here: another seed count) and runs nothing.
TEST_F(SweepRunner, ResumeRefusesAnotherSweepsFile) {
  const auto other = run("mixed", plan({1, 1}, 3), 2, 0);
  std::string error;
  run("mixed", plan({1, 1}, 7), 2, 0, true, &error);
  EXPECT_NE(error.find("--resume"), std::string::npos) << error;
  EXPECT_NE(error.find("different sweep"), std::string::npos) << error;
  EXPECT_EQ(slurp(path("mixed.csv")), other.first);  // untouched
}

}  // namespace
}  // namespace locksim::sweep
