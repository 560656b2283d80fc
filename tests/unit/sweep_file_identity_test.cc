// Files are compared by identity, not by spelling: "./a", "d/../a", symlinks
// and hard links are the same file, files that do not exist yet compare by
// the path they would be written at (relative spellings and dangling
// symlinks included), and devices are never the same file as anything.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "sim/sweep/file_identity.h"
#include "tests/unit/own_test_dir.h"

namespace locksim::sweep {
namespace {

namespace fs = std::filesystem;

class SweepFileIdentity : public ::testing::Test {
 protected:
  void SetUp() override {
    // Not one directory for the suite: emptied by one test's SetUp while
    // another used it, it failed NewFilesCompareByCanonicalPath in CI.
    dir_ = own_test_dir("sweep_file_identity");
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "d");
    std::ofstream(p("a.csv")) << "x";
  }
  std::string p(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

// Spellings, symlinks and hard links of one existing file are the same file; another file is not.
TEST_F(SweepFileIdentity, ExistingFilesCompareByInode) {
  EXPECT_TRUE(same_file(p("a.csv"), p("a.csv")));
  EXPECT_TRUE(same_file(p("a.csv"), p("./a.csv")));
  EXPECT_TRUE(same_file(p("a.csv"), p("d/../a.csv")));
  fs::create_symlink(p("a.csv"), p("link.csv"));
  EXPECT_TRUE(same_file(p("a.csv"), p("link.csv")));
  fs::create_hard_link(p("a.csv"), p("hard.csv"));
  EXPECT_TRUE(same_file(p("hard.csv"), p("link.csv")));
  std::ofstream(p("b.csv")) << "y";
  EXPECT_FALSE(same_file(p("a.csv"), p("b.csv")));
}

// Files that do not exist yet compare by canonical path, through a symlinked directory too.
TEST_F(SweepFileIdentity, NewFilesCompareByCanonicalPath) {
  EXPECT_TRUE(same_file(p("new.csv"), p("d/../new.csv")));
  EXPECT_FALSE(same_file(p("new.csv"), p("new.csv.json")));
  fs::create_directory_symlink(p("d"), p("dlink"));
  EXPECT_TRUE(same_file(p("d/new.csv"), p("dlink/new.csv")));
  EXPECT_FALSE(same_file(p("a.csv"), p("new.csv")));
}

// Relative spellings of one new file are one file, whatever the working
// directory's own spelling: "x.csv", "./x.csv" and "../DIR/x.csv".
TEST_F(SweepFileIdentity, RelativeSpellingsOfANewFile) {
  const fs::path before = fs::current_path();
  fs::current_path(dir_ / "d");
  EXPECT_TRUE(same_file("x.csv", "./x.csv"));
  EXPECT_TRUE(same_file("x.csv", "../d/x.csv"));
  EXPECT_TRUE(same_file("x.csv", p("d/x.csv")));
  EXPECT_FALSE(same_file("x.csv", "../x.csv"));
  fs::current_path(before);
}

// A symlink whose target does not exist yet: writing through it creates the
// target, so the two are one file (weakly_canonical alone says they differ).
TEST_F(SweepFileIdentity, DanglingSymlinkIsItsTarget) {
  fs::create_symlink("d/later.csv", p("dangling.csv"));
  EXPECT_TRUE(same_file(p("dangling.csv"), p("d/later.csv")));
  fs::create_symlink(p("d"), p("abs-dlink"));
  fs::create_symlink("../abs-dlink/../d/x.csv", p("d/rel.csv"));
  EXPECT_TRUE(same_file(p("d/rel.csv"), p("d/x.csv")));
  EXPECT_FALSE(same_file(p("dangling.csv"), p("d/x.csv")));
  fs::create_symlink(p("loop1"), p("loop2"));
  fs::create_symlink(p("loop2"), p("loop1"));
  EXPECT_FALSE(same_file(p("loop1"), p("a.csv")));  // ends, whatever it answers for the loop itself
}

// The message names both roles and both paths; empty paths and devices are skipped.
TEST_F(SweepFileIdentity, CheckNamesBothPaths) {
  std::string error;
  EXPECT_TRUE(check_distinct_files({{"--out", p("a.csv")}, {"--per-run", ""}, {"--grid", ""}}, error));
  EXPECT_TRUE(check_distinct_files({{"--out", "/dev/null"}, {"--per-run", "/dev/null"}}, error));
  EXPECT_FALSE(check_distinct_files({{"the scenario file", p("s.toml")},
                                     {"--out", p("a.csv")},
                                     {"the manifest of --out", p("a.csv.json")},
                                     {"--per-run", p("./a.csv")}},
                                    error));
  EXPECT_EQ(error, "--out " + p("a.csv") + " and --per-run " + p("./a.csv") + " are the same file; give each its own");
  // Two files that are only read may be one (compare FILE FILE); a read and a written one may not.
  EXPECT_TRUE(check_distinct_files({{"FILE", p("a.csv"), false}, {"FILE", p("./a.csv"), false}}, error));
  EXPECT_FALSE(check_distinct_files({{"FILE", p("a.csv"), false}, {"--out", p("./a.csv")}}, error));
}

}  // namespace
}  // namespace locksim::sweep
