// The bytes of a grid file as fast-cpp-csv-parser reads them, checked as text
// on the way.
//
// The library (Debian's libfccp-dev) splits lines and fields; what it does
// not do is say no to a file that is not text: it reads a NUL byte as the end
// of a line, passes any byte through, and allows lines up to 16 MiB. So the
// library reads the file through this source (its byte_source()), which passes on only what is
// text and remembers, in our words and with the file and line, why it
// stopped: a NUL byte, bytes that are not UTF-8 (RFC 3629: no overlong forms,
// no surrogates, nothing past U+10FFFF), a line past kMaxGridLineBytes, more
// than INT_MAX lines, a read error. The caller (grid.cc) reports that problem
// in place of anything the library says about that line or a later one, so
// the first problem in the file is the one reported, as a line-by-line reader
// would. The library's parser reads ahead in large blocks, which is why the
// problem is kept and not thrown.
//
// Where a grid starts (offset 0) a UTF-8 byte-order mark is skipped. The
// source hashes every byte it reads (FNV-1a, stable_hash), BOM included: at
// the end of a file read from offset 0, the content hash a manifest records.
// It also notes where every kCheckpointLines-th line starts, so a later
// reader can start there instead of at the top.
//
// Before the file's bytes the source passes one "\n" of its own: the
// library's reader drops a byte-order mark from the first three bytes it is
// given, which must never be the file's (ours is already gone, and a row read
// from an offset may start with U+FEFF as part of its value). So the library
// counts one line more than it reads from the file: grid.cc starts its count
// at start_line - 1, and the library's line L is then the file's line L - 1.
#pragma once

// fast-cpp-csv-parser without its reading thread: this source's state is read
// between rows, and a reader is opened per shard block. Every file that
// includes the library includes it through this header, so the library's
// classes have one layout throughout.
#define CSV_IO_NO_THREAD
// GCC 12 sees a strncpy in the library's error types that may truncate a
// 255-byte file name (it may, by design: the name is only for its messages).
// (Clang has no such warning, and would warn about the unknown name.)
#pragma GCC diagnostic push
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-truncation"
#endif
#include <libfccp/csv.h>
#pragma GCC diagnostic pop

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace locksim::sweep {

// A grid row names at most eight values; a megabyte is far past any of them.
inline constexpr std::size_t kMaxGridLineBytes = 1 << 20;
// How often the source notes where a line starts.
inline constexpr std::uint64_t kCheckpointLines = 1 << 16;

class GridSource {
 public:
  // Where a line starts in the file.
  struct LineStart {
    std::uint64_t offset = 0;
    std::uint64_t line = 0;
  };

  // Opens |path| at byte |offset|, whose line is |line| (1-based). nullptr
  // with |error| when the file cannot be opened.
  static std::unique_ptr<GridSource> open(const std::string& path, std::uint64_t offset, std::uint64_t line,
                                          std::string& error);
  GridSource(const GridSource&) = delete;
  GridSource& operator=(const GridSource&) = delete;
  ~GridSource();

  // What the library's reader is given: an io::ByteSourceBase that reads
  // through this source. The reader owns it and drops it once it has read
  // the file to its end, so it owns nothing itself: this source (and what it
  // found) lives on. REQUIRES: this source outlives the reader.
  std::unique_ptr<io::ByteSourceBase> byte_source();
  // Fills |buffer| with up to |size| bytes, fewer only at the end of the file
  // or where a problem was found.
  int read(char* buffer, int size);

  // Why the source stopped early, if it did: "PATH:LINE: ..." (or "cannot
  // read grid file ..."), and the line that holds the problem. Rows at that
  // line or after it are not the file's.
  bool failed() const { return !problem_.empty(); }
  const std::string& problem() const { return problem_; }
  std::uint64_t problem_line() const { return problem_line_; }
  // True once the whole file has been read (and nothing was refused).
  bool at_end() const { return at_end_ && !failed(); }
  // FNV-1a of every byte read so far.
  std::uint64_t hash() const { return hash_; }
  // The starts of lines kCheckpointLines, 2 * kCheckpointLines, ... read so far.
  const std::vector<LineStart>& line_starts() const { return line_starts_; }

 private:
  // What the current line holds that is not text, in the order it is reported.
  struct LineCheck {
    std::size_t bytes = 0;        // of the line so far, without "\n"
    bool too_long = false;        // past kMaxGridLineBytes (+ 1 for a "\r")
    std::size_t nul_column = 0;   // of the first NUL byte (0: none)
    std::size_t utf8_column = 0;  // where the first byte sequence that is not UTF-8 starts (0: none)
    int pending = 0;              // continuation bytes the current sequence still needs
    unsigned char low = 0x80, high = 0xBF;  // the range allowed for the next of them
    std::size_t lead_column = 0;  // where the current sequence started
  };

  GridSource(std::FILE* file, const std::string& path, std::uint64_t offset, std::uint64_t line);
  // Checks |size| bytes just read; returns how many of them may be passed on.
  std::size_t check(const char* bytes, std::size_t size);
  // Feeds one byte of the current line (not "\n") to line_.
  void check_byte(unsigned char c);
  bool line_is_bad() const;
  // After a problem: reads the rest of its line (from |rest|, then the file),
  // so the message is the one the whole line deserves, and stops.
  void refuse_line(const char* rest, std::size_t size);
  void stop_with_line_problem();

  std::FILE* file_;
  const std::string path_;
  std::uint64_t offset_;  // of the next byte read from the file
  std::uint64_t line_number_;
  LineCheck line_;
  bool began_ = false;  // the "\n" of our own was passed on
  bool at_end_ = false;
  std::uint64_t hash_;
  std::string problem_;
  std::uint64_t problem_line_ = 0;
  std::vector<LineStart> line_starts_;
};

}  // namespace locksim::sweep
