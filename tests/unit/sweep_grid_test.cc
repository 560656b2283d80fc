// Grid files: the header names the keys, each row is a cell (canonicalised,
// quoted fields allowed); BOMs, CRLF and blank lines are accepted; ragged
// rows, binary bytes, long lines, too many columns, empty and missing files
// are errors that name the file and line, the first in the file first and
// never in the CSV library's words; cursors read any block, even after a
// checkpoint; scan() shows each new (key, value) pair once.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/core/rng.h"
#include "sim/sweep/grid.h"
#include "sim/sweep/grid_source.h"
#include "tests/unit/own_test_dir.h"

namespace locksim::sweep {
namespace {

using Values = std::vector<std::string>;
using namespace std::string_literals;

struct ReadGrid {
  Values keys;
  std::vector<Cell> cells;
  std::string hash;
};

class SweepGrid : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& text) {
    const auto dir = own_test_dir("sweep_grid");
    std::filesystem::create_directories(dir);
    const std::string path = (dir / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  // Opens, scans (accepting every row) and reads every cell back with a cursor.
  std::optional<ReadGrid> read(const std::string& path, std::string& error) {
    auto grid = GridCells::open(path, error);
    if (!grid || !grid->scan([](const Cell&, std::string&) { return true; }, error)) return std::nullopt;
    ReadGrid out{grid->keys(), {}, grid->content_hash()};
    auto cursor = grid->open(0, grid->size(), error);
    if (!cursor) return std::nullopt;
    Cell cell;
    while (cursor->next(cell, error)) out.cells.push_back(cell);
    if (!error.empty()) return std::nullopt;
    return out;
  }
  std::string error_of(const std::string& path) {
    std::string error;
    EXPECT_FALSE(read(path, error)) << path;
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
  auto grid = read(path, error);
  ASSERT_TRUE(grid) << error;
  EXPECT_EQ(grid->keys, (Values{"lock.ttl", "clock.C.drift", "network.latency"}));
  ASSERT_EQ(grid->cells.size(), 3U);
  EXPECT_EQ(grid->cells[0].values, (Values{"10s", "0.5%", "2ms"}));
  EXPECT_EQ(grid->cells[1].values, (Values{"10s", "20000ppm", "uniform(1ms, 5ms)"}));
  EXPECT_EQ(grid->cells[2].values, (Values{"30s", "2%", "1ms"}));
  EXPECT_EQ(grid->cells[2].index, 2U);
  EXPECT_EQ(grid->cells[1].line, 3);
  EXPECT_EQ(grid->cells[2].line, 4);
}

// One column and eight columns both work.
TEST_F(SweepGrid, OneToEightColumns) {
  std::string error;
  auto one = read(write("one.csv", "lock.ttl\n1s\n2s\n"), error);
  ASSERT_TRUE(one) << error;
  EXPECT_EQ(one->cells.size(), 2U);
  auto eight = read(write("eight.csv", "a,b,c,d,e,f,g,h\n1,2,3,4,5,6,7,8\n"), error);
  ASSERT_TRUE(eight) << error;
  EXPECT_EQ(eight->cells[0].values.back(), "8");
}

// A UTF-8 byte-order mark, CRLF line ends and blank lines (a blank last line above all) are what editors write: accepted.
TEST_F(SweepGrid, BomCrlfAndBlankLinesAreAccepted) {
  std::string error;
  auto grid = read(write("bom.csv", "\xEF\xBB\xBFlock.ttl,x\r\n\r\n1s,2\r\n \t\r\n3s,4\r\n\r\n"), error);
  ASSERT_TRUE(grid) << error;
  EXPECT_EQ(grid->keys, (Values{"lock.ttl", "x"}));
  ASSERT_EQ(grid->cells.size(), 2U);
  EXPECT_EQ(grid->cells[0].line, 3);
  EXPECT_EQ(grid->cells[1].values, (Values{"3s", "4"}));
  EXPECT_EQ(grid->cells[1].line, 5);
  auto blank_first = read(write("lead.csv", "\n\nlock.ttl\n\n1s\n\n"), error);
  ASSERT_TRUE(blank_first) << error;
  EXPECT_EQ(blank_first->cells.at(0).line, 5);
  auto twice = read(write("bom2.csv", "\xEF\xBB\xBF\xEF\xBB\xBFk\n1\n"), error);
  ASSERT_TRUE(twice) << error;
  EXPECT_EQ(twice->keys, (Values{"\xEF\xBB\xBFk"})) << "only the first BOM is the file's mark";
  auto text = read(write("utf8.csv", "note\ncafé ☕ 𝄞\n"), error);
  ASSERT_TRUE(text) << error;
  EXPECT_EQ(text->cells.at(0).values[0], "café ☕ 𝄞");
}

// Ragged rows name the line; more than eight columns, duplicate or empty keys, no rows and no file are errors.
TEST_F(SweepGrid, BadGridsAreRejected) {
  const std::string few = write("few.csv", "a,b\n1,2\n3\n");
  EXPECT_EQ(error_of(few), few + ":3: this row has fewer values than the header's 2 keys");
  EXPECT_NE(error_of(write("many.csv", "a,b\n1,2,3\n")).find(":2: this row has more values"), std::string::npos);
  EXPECT_NE(error_of(write("wide.csv", "a,b,c,d,e,f,g,h,i\n1,2,3,4,5,6,7,8,9\n")).find(":1: 9 columns; a grid has at most 8 keys"),
            std::string::npos);
  EXPECT_NE(error_of(write("dup.csv", "a,a\n1,2\n")).find("named twice"), std::string::npos);
  EXPECT_NE(error_of(write("blank.csv", "a,\n1,2\n")).find("column 2 has no key"), std::string::npos);
  EXPECT_NE(error_of(write("header.csv", "a,b\n\n\n")).find("no cells"), std::string::npos);
  EXPECT_NE(error_of(write("empty.csv", "")).find("empty grid file"), std::string::npos);
  EXPECT_NE(error_of(write("blanks.csv", "\xEF\xBB\xBF\r\n  \n")).find("empty grid file"), std::string::npos);
  EXPECT_NE(error_of(write("quote.csv", "a\n\"open\n")).find(":2: a quoted value is not closed"), std::string::npos);
  EXPECT_EQ(error_of("/nonexistent/grid.csv"), "cannot read grid file '/nonexistent/grid.csv': No such file or directory");
  EXPECT_NE(error_of(std::filesystem::temp_directory_path().string()).find("it is a directory"), std::string::npos);
}

// Bytes that are not text get the file, the line and our own words: NUL, invalid UTF-8, a line past 1 MiB.
TEST_F(SweepGrid, BinaryGridsNameTheLine) {
  const std::string nul = write("nul.csv", std::string("a\n1\n2\0x\n", 8));
  EXPECT_EQ(error_of(nul), nul + ":3: a NUL byte at column 2; a grid file is CSV text, and this looks like a binary file");
  const std::string latin1 = write("latin1.csv", "a\ncaf\xE9\n");
  EXPECT_EQ(error_of(latin1), latin1 + ":2: a byte that is not UTF-8 at column 4; a grid file is CSV text in UTF-8");
  EXPECT_NE(error_of(write("png.csv", "\x89PNG\r\n\x1a\n")).find(":1: a byte that is not UTF-8 at column 1"),
            std::string::npos);
  for (const char* bad : {"\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xE2\x82", "\x80"})
    EXPECT_NE(error_of(write("bad.csv", std::string("a\n") + bad + "\n")).find(":2: a byte that is not UTF-8"),
              std::string::npos)
        << bad;
  const std::string long_line = write("long.csv", "a\n" + std::string(kMaxGridLineBytes + 2, 'x') + "\n");
  EXPECT_EQ(error_of(long_line), long_line + ":2: a line longer than 1 MiB; a grid row holds a few short values");
  std::string error;
  EXPECT_TRUE(read(write("just.csv", "a\n" + std::string(kMaxGridLineBytes, 'x') + "\r\n"), error)) << error;
}

// Fields split as fast-cpp-csv-parser splits them (it reads the grid), header and rows alike.
TEST_F(SweepGrid, FieldsSplitLikeTheCsvLibrary) {
  const std::string line = "a,\"b,c\", d ,\"e\"\"f\",g\"h,i\"j,";
  std::string error;
  auto grid = read(write("split.csv", line + "k\n" + line + "\n\" x \",\"\",3,4,5,6\n"), error);
  ASSERT_TRUE(grid) << error;
  const Values fields{"a", "b,c", "d", "e\"f", "g\"h,i\"j", ""};
  EXPECT_EQ(grid->keys, (Values{"a", "b,c", "d", "e\"f", "g\"h,i\"j", "k"}));
  ASSERT_EQ(grid->cells.size(), 2U);
  EXPECT_EQ(grid->cells[0].values, fields);
  EXPECT_EQ(grid->cells[1].values, (Values{"x", "", "3", "4", "5", "6"})) << "quotes keep spaces, canonical values don't";
  const std::string open_quote = write("open.csv", "a,\"b\n1,2\n");
  EXPECT_EQ(error_of(open_quote), open_quote + ":1: a quoted value is not closed");
}

// The library's objections are ours, with the line; the first problem in the file is the one reported.
TEST_F(SweepGrid, FirstProblemInTheFileIsReported) {
  const std::string columns_first = write("columns_first.csv", "a,b\n1,2\n3\n4,\0\n"s);
  EXPECT_EQ(error_of(columns_first), columns_first + ":3: this row has fewer values than the header's 2 keys");
  const std::string nul_first = write("nul_first.csv", "a,b\n1,\0\n3\n"s);
  EXPECT_EQ(error_of(nul_first), nul_first + ":2: a NUL byte at column 3; a grid file is CSV text, and this looks like "
                                             "a binary file");
  // In one line: a NUL outranks a bad byte before it, and a long line outranks both.
  const std::string both = write("both.csv", "a\n\xE9\0\n"s);
  EXPECT_EQ(error_of(both), both + ":2: a NUL byte at column 2; a grid file is CSV text, and this looks like a binary file");
  const std::string longest = write("longest.csv", "a\n\xE9" + std::string(kMaxGridLineBytes + 1, 'x') + "\n");
  EXPECT_EQ(error_of(longest), longest + ":2: a line longer than 1 MiB; a grid row holds a few short values");
  // A sequence cut short by the end of the line or of the file.
  const std::string cut = write("cut.csv", "a\nab\xC3");
  EXPECT_EQ(error_of(cut), cut + ":2: a byte that is not UTF-8 at column 3; a grid file is CSV text in UTF-8");
  std::string error;
  EXPECT_TRUE(read(write("whole.csv", "a\nab\xC3\xA9z\n"), error)) << error;
  const std::string quoted = write("quoted.csv", "a\n\"x\n1\n");
  const std::string message = error_of(quoted);
  EXPECT_EQ(message, quoted + ":2: a quoted value is not closed");
  EXPECT_EQ(message.find("Escaped"), std::string::npos);
}

// scan() shows a row only when it holds a (key, value) pair not seen before: here rows 1, 2 and 3, not 4.
TEST_F(SweepGrid, ScanShowsEachNewPairOnce) {
  std::string error;
  auto grid = GridCells::open(write("pairs.csv", "a,b\n1,x\n1,y\n2,x\n1,x\n2,y\n"), error);
  ASSERT_TRUE(grid) << error;
  std::vector<int> shown;
  ASSERT_TRUE(grid->scan(
      [&](const Cell& row, std::string&) {
        shown.push_back(row.line);
        return true;
      },
      error));
  EXPECT_EQ(shown, (std::vector<int>{2, 3, 4}));
  EXPECT_EQ(grid->size(), 5U);
  // A check that says no stops the scan with its message.
  auto again = GridCells::open(write("stop.csv", "a\n1\n2\n"), error);
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->scan(
      [](const Cell& row, std::string& e) {
        e = "no " + row.values[0];
        return row.index < 1;
      },
      error));
  EXPECT_EQ(error, "no 2");
}

// The manifest's grid hash is FNV-1a of the file's bytes, BOM and all.
TEST_F(SweepGrid, ContentHashIsTheFilesFnv) {
  const std::string text = "\xEF\xBB\xBFlock.ttl\n1s\n";
  std::string error;
  auto grid = read(write("hash.csv", text), error);
  ASSERT_TRUE(grid) << error;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(stable_hash(text)));
  EXPECT_EQ(grid->hash, hex);
}

// A cursor reads any block, past checkpoints and blank lines, and says so when the file lost rows since the scan.
TEST_F(SweepGrid, CursorsReadAnyBlock) {
  std::string text = "n\n";
  const std::size_t rows = 2 * kCheckpointLines + 100;
  for (std::size_t i = 0; i < rows; ++i) text += std::to_string(i) + (i % 1000 == 7 ? "\n\n" : "\n");
  const std::string path = write("big.csv", text);
  std::string error;
  auto grid = GridCells::open(path, error);
  ASSERT_TRUE(grid && grid->scan([](const Cell&, std::string&) { return true; }, error)) << error;
  ASSERT_EQ(grid->size(), rows);
  for (std::size_t first : {std::size_t{0}, kCheckpointLines - 1, kCheckpointLines, 2 * kCheckpointLines + 3}) {
    auto cursor = grid->open(first, first + 5, error);
    ASSERT_TRUE(cursor) << error;
    Cell cell;
    for (std::size_t i = first; i < first + 5; ++i) {
      ASSERT_TRUE(cursor->next(cell, error)) << error;
      EXPECT_EQ(cell.index, i);
      EXPECT_EQ(cell.values, (Values{std::to_string(i)}));
    }
    EXPECT_FALSE(cursor->next(cell, error));
    EXPECT_TRUE(error.empty()) << error;
  }
  auto empty = grid->open(rows, rows, error);
  ASSERT_TRUE(empty);
  std::ofstream(path, std::ios::binary) << "n\n0\n1\n";
  auto cursor = grid->open(1, 3, error);
  ASSERT_TRUE(cursor);
  Cell cell;
  EXPECT_TRUE(cursor->next(cell, error));
  EXPECT_FALSE(cursor->next(cell, error));
  EXPECT_NE(error.find("fewer rows than when the sweep started"), std::string::npos) << error;
}

// A row that starts with U+FEFF where a cursor starts reading keeps it: only the file's first bytes can be a BOM.
TEST_F(SweepGrid, ByteOrderMarkInsideTheFileIsText) {
  std::string text = "n\n";
  for (std::size_t line = 2; line <= kCheckpointLines + 1; ++line)
    text += (line == kCheckpointLines ? "\xEF\xBB\xBF" : "") + std::to_string(line) + "\n";
  std::string error;
  auto grid = read(write("mark.csv", text), error);  // one cursor from the top
  ASSERT_TRUE(grid) << error;
  const Values marked{"\xEF\xBB\xBF" + std::to_string(kCheckpointLines)};
  const std::size_t row = kCheckpointLines - 2;  // line 2 is row 0
  ASSERT_EQ(grid->cells.at(row).line, static_cast<int>(kCheckpointLines));
  EXPECT_EQ(grid->cells[row].values, marked);
  auto scanned = GridCells::open(write("mark.csv", text), error);
  ASSERT_TRUE(scanned && scanned->scan([](const Cell&, std::string&) { return true; }, error)) << error;
  auto cursor = scanned->open(row, row + 2, error);  // from the checkpoint at that line
  ASSERT_TRUE(cursor) << error;
  Cell cell;
  ASSERT_TRUE(cursor->next(cell, error)) << error;
  EXPECT_EQ(cell.line, static_cast<int>(kCheckpointLines));
  EXPECT_EQ(cell.values, marked);
  ASSERT_TRUE(cursor->next(cell, error)) << error;
  EXPECT_EQ(cell.values, Values{std::to_string(kCheckpointLines + 1)});
}

}  // namespace
}  // namespace locksim::sweep
