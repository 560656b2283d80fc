// Manifests round-trip through their JSON (any text in any string; bytes
// that are not UTF-8 become U+FFFD, and compare so), name every differing
// field with both values and never compare the command line; JSON that
// nlohmann::json refuses is reported in our words with where it stopped.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

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
  m.variants = {"base"};
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
  EXPECT_EQ(one([](Manifest& m) { m.variants = {"fenced"}; }), "--variant differs: the file has base, this command has fenced");
  EXPECT_EQ(one([](Manifest& m) { m.variants = {"base", "fenced"}; }),
            "--variant differs: the file has base, this command has base fenced");
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

// Version 2 keeps every variant and each one's expectations; a version 1 manifest (one "variant", no
// "manifest_version") still reads, and a version from a newer locksim is refused by number.
TEST(SweepManifest, VersionTwoListsTheVariantsAndVersionOneStillReads) {
  Manifest m = sample();
  m.variants = {"base", "etcd"};
  m.expect = {{"base", {{"grant-exclusive", "violated"}}}, {"etcd", {{"grant-exclusive", "holds"}}}};
  const std::string json = manifest_json(m);
  EXPECT_NE(json.find("\"manifest_version\": 2,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"variants\": [\n    \"base\",\n    \"etcd\"\n  ]"), std::string::npos) << json;
  EXPECT_NE(json.find("\"expect\": {\n    \"base\": {\n      \"grant-exclusive\": \"violated\"\n    },\n"
                      "    \"etcd\": {\n      \"grant-exclusive\": \"holds\"\n    }\n  }"),
            std::string::npos)
      << json;
  std::string error;
  ASSERT_TRUE(parse_manifest(json, error)) << error;
  EXPECT_EQ(parse_manifest(json, error)->variants, m.variants);

  std::string v1 = manifest_json(sample());
  const std::string version_line = "  \"manifest_version\": 2,\n";
  const std::string variants_list = "\"variants\": [\n    \"base\"\n  ]";
  const std::size_t version_at = v1.find(version_line);
  ASSERT_NE(version_at, std::string::npos) << v1;
  v1.erase(version_at, version_line.size());
  const std::size_t variants_at = v1.find(variants_list);
  ASSERT_NE(variants_at, std::string::npos) << v1;
  v1.replace(variants_at, variants_list.size(), "\"variant\": \"fast\"");
  const std::optional<Manifest> old = parse_manifest(v1, error);
  ASSERT_TRUE(old) << error << "\n" << v1;
  EXPECT_EQ(old->variants, std::vector<std::string>{"fast"});

  std::string future = json;
  const std::size_t two = future.find("\"manifest_version\": 2");
  ASSERT_NE(two, std::string::npos) << future;
  future[two + 20] = '3';
  EXPECT_FALSE(parse_manifest(future, error));
  EXPECT_EQ(error, "it has manifest version 3, and this locksim reads versions up to 2 (a newer locksim wrote it)");
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

// Escapes and surrogate pairs decode to UTF-8; lone surrogates, unclosed strings, control characters, bad escapes,
// stray commas and deep nesting are refused in our words (never the library's), saying where; numbers that are not
// whole, negative or past 2^64 - 1 are not whole numbers.
TEST(SweepManifest, JsonIsReadStrictly) {
  std::string error;
  std::string json = manifest_json(sample());
  json.replace(json.find("\"base\""), 6, R"("\u00e9\ud834\udd1e\n\"")");
  auto m = parse_manifest(json, error);
  ASSERT_TRUE(m) << error;
  EXPECT_EQ(m->variants, std::vector<std::string>{"é𝄞\n\""});
  for (const char* bad : {R"("\ud834")", R"("\udd1e")", "\"open", "[1,]", "{\"a\" 1}", "\"tab\there\"", "-", "{\"a\": 1,",
                          R"("\x")", R"("\u12")", "\"caf\xE9\"", "", "tru", "{\"a\": 1 \"b\": 2}"}) {
    EXPECT_FALSE(parse_manifest(bad, error)) << bad;
    EXPECT_EQ(error.rfind("at byte ", 0), 0U) << error;
    EXPECT_EQ(error.find("syntax error"), std::string::npos) << error;
    EXPECT_EQ(error.find("json.exception"), std::string::npos) << error;
  }
  const auto problem = [&](const std::string& text) {
    EXPECT_FALSE(parse_manifest(text, error)) << text;
    return error;
  };
  EXPECT_EQ(problem("\"open"), "at byte 6: a string that is not closed");
  EXPECT_EQ(problem("[1,]"), "at byte 4: not a JSON value");
  EXPECT_EQ(problem("{\"a\" 1}"), "at byte 6: expected ':' after a member name");
  EXPECT_EQ(problem("[1 2]"), "at byte 4: expected ',' or ']' in an array");
  EXPECT_EQ(problem("{\"a\": 1 \"b\": 2}"), "at byte 11: expected ',' or '}' in an object");
  EXPECT_EQ(problem(R"("\ud834")"), "at byte 8: a lone high surrogate in a string");
  EXPECT_EQ(problem(""), "at byte 1: the text ends where a value should be");
  EXPECT_EQ(problem("  tru"), "at byte 3: not a JSON value");
  const auto nested = [&](int depth) {
    std::string text = manifest_json(sample());
    text.insert(2, "\"deep\": " + std::string(depth, '[') + std::string(depth, ']') + ",\n");
    return text;
  };
  EXPECT_TRUE(parse_manifest(nested(15), error)) << error;
  EXPECT_EQ(problem(nested(16)), "nested more than 16 levels deep");
  for (const char* number : {"1.5", "1e3", "-3", "18446744073709551616"}) {
    std::string text = manifest_json(sample());
    text.replace(text.find("\"seeds\": 20"), 11, std::string("\"seeds\": ") + number);
    EXPECT_EQ(problem(text), "\"seeds\" is not a whole number") << number;
  }
}

// Bytes that are not UTF-8 (a --set value, a path) are written as U+FFFD, and a command compares as its file reads.
TEST(SweepManifest, BytesThatAreNotUtf8) {
  Manifest m = sample();
  m.sets = {"lock.key=caf\xE9"};
  m.command_line.push_back("grid-\xFF.csv");
  std::string error;
  auto back = parse_manifest(manifest_json(m), error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->sets, std::vector<std::string>{"lock.key=caf\xEF\xBF\xBD"});
  EXPECT_TRUE(manifest_differences(*back, m).empty());
  Manifest other = m;
  other.sets = {"lock.key=cafe"};
  EXPECT_EQ(manifest_differences(*back, other).size(), 1U);
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
