// Reading a grid file: lines streamed in fixed-size blocks, each one checked
// to be text, then split into CSV fields.
//
// A grid may have millions of rows, and every shard reads all of them (to
// count the cells and check the values) before it reads its own block again
// to run it, so the file is never held whole: memory is one block plus the
// longest line, which is capped (kMaxGridLineBytes). What a spreadsheet or a
// script writes is accepted: a UTF-8 byte-order mark at the start, "\r\n"
// line ends, a last line with or without "\n", and blank lines anywhere
// (skipped by the caller). What is not text is refused with the file and line,
// in our words: a NUL byte, bytes that are not UTF-8 (RFC 3629: no overlong
// forms, no surrogates, nothing past U+10FFFF), a line past the cap.
//
// Fields follow fast-cpp-csv-parser's rules, which grids were read with
// before (so every grid that worked still gives the same cells): a field
// ends at a comma outside double quotes, a quote anywhere opens a quoted run
// that ends at the next quote ("" inside it stays quoted), spaces and tabs
// around a field are trimmed, and a field that then starts and ends with a
// quote loses them and has each "" inside turned into ". A quoted run cannot
// span lines.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace locksim::sweep {

// A grid row names at most eight values; a megabyte is far past any of them.
inline constexpr std::size_t kMaxGridLineBytes = 1 << 20;

class GridLineReader {
 public:
  GridLineReader() = default;
  GridLineReader(const GridLineReader&) = delete;
  GridLineReader& operator=(const GridLineReader&) = delete;
  ~GridLineReader();

  // Opens |path| at byte |offset|, whose line is |line| (1-based). A
  // byte-order mark is skipped when |offset| is 0. False with |error| when
  // the file cannot be opened.
  bool open(const std::string& path, std::uint64_t offset, std::uint64_t line, std::string& error);

  // The next line, without "\n" or "\r\n". Returns false at the end of the
  // file (|error| untouched) or on a line that is not text (|error| set to
  // "PATH:LINE: ...").
  bool next(std::string& line, std::string& error);

  // Of the line last returned: its number and the byte offset it starts at.
  std::uint64_t line_number() const { return line_number_; }
  std::uint64_t line_offset() const { return line_offset_; }
  // Of the line next() returns next.
  std::uint64_t next_line_number() const { return next_line_; }
  std::uint64_t next_line_offset() const { return offset_; }
  // FNV-1a (stable_hash) of every byte read so far; at the end of a file
  // opened at offset 0, the file's content hash.
  std::uint64_t hash() const { return hash_; }

 private:
  bool fill(std::string& error);

  std::FILE* file_ = nullptr;
  std::string path_;
  std::vector<char> block_;
  std::size_t block_begin_ = 0;  // next unread byte of block_
  std::size_t block_end_ = 0;
  bool eof_ = false;
  std::uint64_t offset_ = 0;  // of block_[block_begin_] in the file
  std::uint64_t next_line_ = 1;
  std::uint64_t line_number_ = 0;
  std::uint64_t line_offset_ = 0;
  std::uint64_t hash_ = 0;
};

// True when |line| holds nothing but spaces and tabs.
bool is_blank_line(std::string_view line);

// Splits one line into fields (rules above). False with |problem| ("a quoted
// value is not closed") when it cannot.
bool split_grid_fields(std::string_view line, std::vector<std::string>& fields, std::string& problem);

// Where |text| stops being UTF-8: the offset of the first bad byte, or
// text.size() when it is all UTF-8.
std::size_t utf8_prefix(std::string_view text);

}  // namespace locksim::sweep
