// The key tables in scenarios/FORMAT.md are the declarations' own.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "sim/scenario/file.h"
#include "sim/scenario/key_docs.h"
#include "sim/scenario/read/sections.h"

namespace locksim::scenario {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(KeyDocs, FormatMdHoldsTheDeclaredTables) {
  // Proves every marked table in FORMAT.md is what the declarations generate
  // (run `locksim keys --update scenarios/FORMAT.md` after changing a key).
  const std::string path = std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/FORMAT.md";
  const std::string text = read_file(path);
  ASSERT_FALSE(text.empty()) << path;
  std::vector<std::string> problems;
  EXPECT_EQ(regenerate_key_tables(text, problems), text) << "run: locksim keys --update scenarios/FORMAT.md";
  EXPECT_TRUE(problems.empty());
  for (const std::string& name : key_table_names())
    EXPECT_NE(text.find("<!-- keys: " + name + " -->"), std::string::npos) << name << " has no table in FORMAT.md";
}

TEST(KeyDocs, RegionsAreRewrittenAndBadMarksReported) {
  // Proves a stale table between marks is replaced, text outside the marks is kept, and an unknown or unclosed
  // mark is reported.
  std::vector<std::string> problems;
  const std::string stale = "before\n<!-- keys: network -->\n| stale |\n<!-- /keys -->\nafter\n";
  const std::string fresh = regenerate_key_tables(stale, problems);
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(fresh, "before\n<!-- keys: network -->\n" + key_table("network") + "<!-- /keys -->\nafter\n");
  regenerate_key_tables("<!-- keys: nothing -->\n| x |\n<!-- /keys -->\n", problems);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("names no keys table"), std::string::npos);
  problems.clear();
  regenerate_key_tables("<!-- keys: lock -->\n| x |\n", problems);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("never closed"), std::string::npos);
}

TEST(KeyDocs, EveryDeclaredDefaultIsWhatAnEmptyFileGets) {
  // Proves the default the table shows is the value the reader stores: a file with only its required keys reads
  // back each section's declared defaults.
  ScenarioError error;
  const auto file = ScenarioFile::from_string("[scenario]\nname = \"d\"\n[client.c1]\n", "d.toml", error);
  ASSERT_TRUE(file.has_value()) << error.to_string();
  const auto spec = file->resolve("base", {}, error);
  ASSERT_TRUE(spec.has_value()) << error.to_string();
  EXPECT_EQ(default_text(*find_section("lock")->find("ttl")), "`\"10s\"`");
  EXPECT_EQ(spec->lock.ttl, std::chrono::seconds(10));
  EXPECT_EQ(default_text(*find_section("network")->find("latency")), "`\"1ms\"`");
  EXPECT_EQ(spec->network.default_link.latency.a, std::chrono::milliseconds(1));
  EXPECT_EQ(default_text(*find_section("sentinel")->find("failover_timeout")), "`\"180s\"`");
  EXPECT_EQ(spec->sentinel.failover_timeout, std::chrono::seconds(180));
  EXPECT_EQ(default_text(*find_section("client")->find("release")), "`true`");
  EXPECT_TRUE(spec->clients.at(0).release);
}

}  // namespace
}  // namespace locksim::scenario
