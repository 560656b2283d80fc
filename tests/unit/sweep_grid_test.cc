// Grid files: the header names the keys, each row is a cell (canonicalised,
// quoted fields allowed); ragged rows, too many columns, empty and missing
// files are errors that name the file and line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/sweep/grid.h"

namespace locksim::sweep {
namespace {

using Values = std::vector<std::string>;

class SweepGrid : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& text) {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("locksim_sweep_grid_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  std::string error_of(const std::string& path) {
    std::string error;
    EXPECT_FALSE(read_grid(path, error)) << path;
    return error;
  }
};

// Rows become cells in file order, values canonical, quotes and spaces removed, line numbers kept.
TEST_F(SweepGrid, RowsBecomeCanonicalCells) {
  const std::string path = write("grid.csv",
                                 "lock.ttl, clock.C.drift ,network.latency\n"
                                 "10s,0.50%,2ms\n"
                                 "10000ms , 20000ppm,\"uniform(1ms, 5ms)\"\r\n"
                                 "30s,2%,1ms");  // no newline at the end
  std::string error;
  auto table = read_grid(path, error);
  ASSERT_TRUE(table) << error;
  EXPECT_EQ(table->keys, (Values{"lock.ttl", "clock.C.drift", "network.latency"}));
  ASSERT_EQ(table->cells.size(), 3U);
  EXPECT_EQ(table->cells[0], (Values{"10s", "0.5%", "2ms"}));
  EXPECT_EQ(table->cells[1], (Values{"10s", "20000ppm", "uniform(1ms, 5ms)"}));
  EXPECT_EQ(table->cells[2], (Values{"30s", "2%", "1ms"}));
  EXPECT_EQ(table->lines, (std::vector<int>{2, 3, 4}));
}

// One column and eight columns both work (the reader is chosen by column count).
TEST_F(SweepGrid, OneToEightColumns) {
  std::string error;
  auto one = read_grid(write("one.csv", "lock.ttl\n1s\n2s\n"), error);
  ASSERT_TRUE(one) << error;
  EXPECT_EQ(one->cells.size(), 2U);
  auto eight = read_grid(write("eight.csv", "a,b,c,d,e,f,g,h\n1,2,3,4,5,6,7,8\n"), error);
  ASSERT_TRUE(eight) << error;
  EXPECT_EQ(eight->cells[0].back(), "8");
}

// Ragged rows name the line; more than eight columns, duplicate or empty keys, no rows and no file are errors.
TEST_F(SweepGrid, BadGridsAreRejected) {
  const std::string few = write("few.csv", "a,b\n1,2\n3\n");
  EXPECT_EQ(error_of(few), few + ":3: this row has fewer values than the header's 2 keys");
  EXPECT_NE(error_of(write("many.csv", "a,b\n1,2,3\n")).find(":2: this row has more values"), std::string::npos);
  EXPECT_NE(error_of(write("wide.csv", "a,b,c,d,e,f,g,h,i\n1,2,3,4,5,6,7,8,9\n")).find("at most 8 keys"),
            std::string::npos);
  EXPECT_NE(error_of(write("dup.csv", "a,a\n1,2\n")).find("named twice"), std::string::npos);
  EXPECT_NE(error_of(write("blank.csv", "a,\n1,2\n")).find("column 2 has no key"), std::string::npos);
  EXPECT_NE(error_of(write("header.csv", "a,b\n")).find("no cells"), std::string::npos);
  EXPECT_NE(error_of(write("empty.csv", "")).find("empty grid file"), std::string::npos);
  EXPECT_NE(error_of(write("quote.csv", "a\n\"open\n")).find("not closed"), std::string::npos);
  EXPECT_EQ(error_of("/nonexistent/grid.csv"), "cannot read grid file '/nonexistent/grid.csv'");
}

}  // namespace
}  // namespace locksim::sweep
