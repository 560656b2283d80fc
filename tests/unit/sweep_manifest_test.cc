// Manifests round-trip through their JSON (any bytes in any string), name
// every differing field with both values and never compare the command line;
// the JSON reader is strict and says where it stopped.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/sweep/json_value.h"
#include "sim/sweep/manifest.h"

namespace locksim::sweep {
namespace {

Manifest sample() {
  Manifest m;
  m.file = "summary";
  m.csv_format = 1;
  m.locksim_version = "0.8.0";
  m.scenario_path = "scenarios/redlock-clock-drift.toml";
  m.scenario_name = "redlock-clock-drift";
  m.scenario_hash = "0123456789abcdef";
  m.variant = "base";
  m.sets = {"lock.ttl=5s", "network.latency=uniform(500us, 2ms)"};
  m.varies = {"clock.C.drift=0.5%..2%:0.5%"};
  m.keys = {"clock.C.drift"};
  m.cells = 4;
  m.seeds = 20;
  m.shard_index = 2;
  m.shard_count = 3;
  m.shard_begin = 1;
  m.shard_end = 2;
  m.command_line = {"locksim", "sweep", "x.toml", "--threads", "2"};
  return m;
}

bool same(const Manifest& a, const Manifest& b) {
  return manifest_json(a) == manifest_json(b);
}

// Every field survives writing and reading, including quotes, backslashes, control bytes and non-ASCII text.
TEST(SweepManifest, RoundTrips) {
  Manifest m = sample();
  m.sets.push_back("k=\"quoted\" \\ back\tslash\nnew\x01line µs ☕");
  m.grid_path = "grids/ünï.csv";
  m.grid_hash = "fedcba9876543210";
  std::string error;
  const std::string json = manifest_json(m);
  EXPECT_EQ(json.substr(0, 40), "{\n  \"format\": \"locksim sweep manifest\",\n");
  auto back = parse_manifest(json, error);
  ASSERT_TRUE(back) << error;
  EXPECT_TRUE(same(*back, m)) << manifest_json(*back);
  EXPECT_EQ(back->sets.back(), m.sets.back());
  EXPECT_EQ(back->shard_index, 2U);
  EXPECT_EQ(back->shard_end, 2U);
}

// Each differing field is named with the file's value and this command's; the command line never is.
TEST(SweepManifest, DifferencesNameEachField) {
  const Manifest file = sample();
  Manifest now = file;
  now.command_line = {"locksim", "sweep", "--resume", "--threads", "8"};
  EXPECT_TRUE(manifest_differences(file, now).empty());
  now.sets[0] = "lock.ttl=10s";
  now.seeds = 30;
  now.scenario_hash = "aaaaaaaaaaaaaaaa";
  now.shard_index = 3;
  const std::vector<std::string> d = manifest_differences(file, now);
  ASSERT_EQ(d.size(), 4U);
  EXPECT_EQ(d[0], "the scenario file changed since the sweep started (hash 0123456789abcdef vs aaaaaaaaaaaaaaaa)");
  EXPECT_EQ(d[1], "--set differs: the file has lock.ttl=5s network.latency=uniform(500us, 2ms), this command has "
                  "lock.ttl=10s network.latency=uniform(500us, 2ms)");
  EXPECT_EQ(d[2], "--seeds differs: the file has 20, this command has 30");
  EXPECT_EQ(d[3], "--shard differs: the file has 2/3, this command has 3/3");
}

// Version, format, file kind, variant, --vary and grids are compared too; no --set reads "none".
TEST(SweepManifest, EveryIdentityFieldIsCompared) {
  const Manifest file = sample();
  const auto one = [&](auto change) {
    Manifest now = file;
    change(now);
    const std::vector<std::string> d = manifest_differences(file, now);
    EXPECT_EQ(d.size(), 1U);
    return d.empty() ? std::string() : d[0];
  };
  EXPECT_EQ(one([](Manifest& m) { m.locksim_version = "0.9.0"; }),
            "the locksim version differs: the file was written by 0.8.0, this is 0.9.0");
  EXPECT_EQ(one([](Manifest& m) { m.csv_format = 2; }),
            "the CSV format differs: the file has format 1, this locksim writes format 2");
  EXPECT_EQ(one([](Manifest& m) { m.file = "per-run"; }),
            "the file differs: it is a summary file, this command writes a per-run file there");
  EXPECT_EQ(one([](Manifest& m) { m.variant = "fenced"; }), "--variant differs: the file has base, this command has fenced");
  EXPECT_EQ(one([](Manifest& m) { m.sets.clear(); }),
            "--set differs: the file has lock.ttl=5s network.latency=uniform(500us, 2ms), this command has none");
  EXPECT_EQ(one([](Manifest& m) { m.varies = {"clock.C.drift=0.5%,1%,1.5%,2%"}; }),
            "--vary differs: the file has clock.C.drift=0.5%..2%:0.5%, this command has clock.C.drift=0.5%,1%,1.5%,2%");
  EXPECT_EQ(one([](Manifest& m) { m.scenario_name = "other"; }),
            "the scenario differs: the file has redlock-clock-drift, this command has other");
  Manifest grid = file;
  grid.varies.clear();
  grid.grid_path = "g.csv";
  grid.grid_hash = "1111111111111111";
  Manifest edited = grid;
  edited.grid_hash = "2222222222222222";
  EXPECT_EQ(manifest_differences(grid, edited),
            std::vector<std::string>{"the grid file changed since the sweep started (hash 1111111111111111 vs 2222222222222222)"});
  edited.grid_path = "moved/g.csv";
  edited.grid_hash = grid.grid_hash;
  EXPECT_TRUE(manifest_differences(grid, edited).empty()) << "a grid is its content, not its path";
  Manifest hand_edited = file;
  hand_edited.cells = 5;
  EXPECT_EQ(manifest_differences(file, hand_edited),
            std::vector<std::string>{"the cell count differs: the file has 4, this command has 5"});
}

// Text that is not a manifest is refused with what is wrong; unknown members are ignored.
TEST(SweepManifest, BadManifestsAreRefused) {
  std::string error;
  EXPECT_FALSE(parse_manifest("not json", error));
  EXPECT_EQ(error, "at byte 1: not a JSON value");
  EXPECT_FALSE(parse_manifest("[]", error));
  EXPECT_EQ(error, "not a JSON object");
  EXPECT_FALSE(parse_manifest("{\"format\": \"something else\"}", error));
  EXPECT_NE(error.find("\"format\" is not \"locksim sweep manifest\""), std::string::npos);
  std::string json = manifest_json(sample());
  const std::string without_seeds = json.substr(0, json.find("  \"seeds\"")) + json.substr(json.find("  \"shard\""));
  EXPECT_FALSE(parse_manifest(without_seeds, error));
  EXPECT_EQ(error, "no \"seeds\"");
  std::string wrong_type = json;
  wrong_type.replace(wrong_type.find("\"seeds\": 20"), 11, "\"seeds\": \"20\"");
  EXPECT_FALSE(parse_manifest(wrong_type, error));
  EXPECT_EQ(error, "\"seeds\" is not a whole number");
  std::string extra = json;
  extra.insert(2, "\"from_the_future\": [1, {\"x\": null}],\n");
  EXPECT_TRUE(parse_manifest(extra, error)) << error;
  EXPECT_FALSE(parse_manifest(json + "x", error));
  EXPECT_NE(error.find("text after the JSON value"), std::string::npos);
}

// The JSON reader: escapes and surrogate pairs decode to UTF-8; lone surrogates, fractions, leading zeros, deep
// nesting and unclosed strings are refused.
TEST(SweepManifest, JsonReaderIsStrict) {
  std::string error;
  auto v = parse_json(R"({"a": "\u00e9\ud834\udd1e\n\"", "b": [0, 18446744073709551615, -3, true, false, null]})", error);
  ASSERT_TRUE(v) << error;
  EXPECT_EQ(v->find("a")->text, "é𝄞\n\"");
  EXPECT_EQ(v->find("b")->items[1].number, UINT64_MAX);
  EXPECT_TRUE(v->find("b")->items[2].negative);
  EXPECT_EQ(v->find("c"), nullptr);
  for (const char* bad : {R"("\ud834")", R"("\udd1e")", "1.5", "1e3", "01", "18446744073709551616", "\"open",
                          "[1,]", "{\"a\" 1}", "\"tab\there\"", "-"}) {
    EXPECT_FALSE(parse_json(bad, error)) << bad;
    EXPECT_EQ(error.rfind("at byte ", 0), 0U) << error;
  }
  EXPECT_FALSE(parse_json(std::string(17, '[') + std::string(17, ']'), error));
  EXPECT_NE(error.find("nested too deeply"), std::string::npos);
  EXPECT_TRUE(parse_json(std::string(16, '[') + std::string(16, ']'), error)) << error;
}

// write_manifest and read_manifest use files; a missing one says it cannot be read.
TEST(SweepManifest, FilesRoundTrip) {
  const std::string path = (std::filesystem::temp_directory_path() / "locksim_sweep_manifest_test.csv.json").string();
  std::string error;
  ASSERT_TRUE(write_manifest(path, sample(), error)) << error;
  auto back = read_manifest(path, error);
  ASSERT_TRUE(back) << error;
  EXPECT_TRUE(same(*back, sample()));
  std::ofstream(path) << "{";
  EXPECT_FALSE(read_manifest(path, error));
  EXPECT_EQ(error, path + " is not a sweep manifest: at byte 2: expected a member name in quotes");
  std::filesystem::remove(path);
  EXPECT_FALSE(read_manifest(path, error));
  EXPECT_EQ(error, "cannot read " + path + ": No such file or directory");
  EXPECT_EQ(manifest_path("out/results.csv"), "out/results.csv.json");
}

}  // namespace
}  // namespace locksim::sweep
