#include "sim/sweep/grid_source.h"

#include <cerrno>
#include <climits>
#include <cstring>
#include <string_view>
#include <sys/types.h>

#include "sim/core/rng.h"

namespace locksim::sweep {

namespace {

constexpr std::uint64_t kFnvBasis = 0xcbf29ce484222325ULL;  // stable_hash's default basis
constexpr char kBom[] = "\xEF\xBB\xBF";

std::string cannot_read(const std::string& path) {
  return "cannot read grid file '" + path + "': " + std::strerror(errno);
}

class ReadThrough final : public io::ByteSourceBase {
 public:
  explicit ReadThrough(GridSource& source) : source_(source) {}
  int read(char* buffer, int size) override { return source_.read(buffer, size); }

 private:
  GridSource& source_;
};

}  // namespace

std::unique_ptr<io::ByteSourceBase> GridSource::byte_source() { return std::make_unique<ReadThrough>(*this); }

std::unique_ptr<GridSource> GridSource::open(const std::string& path, std::uint64_t offset, std::uint64_t line,
                                             std::string& error) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    error = cannot_read(path);
    return nullptr;
  }
  std::unique_ptr<GridSource> source(new GridSource(file, path, offset, line));
  if (offset > 0) {
    if (offset > static_cast<std::uint64_t>(LLONG_MAX) || fseeko(file, static_cast<off_t>(offset), SEEK_SET) != 0) {
      error = cannot_read(path);
      return nullptr;
    }
    return source;
  }
  char start[3];
  if (std::fread(start, 1, 3, file) == 3 && std::memcmp(start, kBom, 3) == 0) {
    source->hash_ = stable_hash(std::string_view(start, 3), source->hash_);
    source->offset_ = 3;
  } else {
    std::rewind(file);  // not a BOM: these bytes are read again as text
  }
  return source;
}

GridSource::GridSource(std::FILE* file, const std::string& path, std::uint64_t offset, std::uint64_t line)
    : file_(file), path_(path), offset_(offset), line_number_(line), hash_(kFnvBasis) {}

GridSource::~GridSource() { std::fclose(file_); }

int GridSource::read(char* buffer, int size) {
  int n = 0;
  if (!began_ && size > 0) {
    buffer[n++] = '\n';
    began_ = true;
  }
  while (n < size && !failed() && !at_end_) {
    const std::size_t got = std::fread(buffer + n, 1, static_cast<std::size_t>(size - n), file_);
    if (got == 0) {
      if (std::ferror(file_) != 0) {
        problem_ = cannot_read(path_);
        problem_line_ = line_number_;
        break;
      }
      at_end_ = true;
      if (line_.bytes > 0) {  // a last line without "\n"
        if (line_.pending > 0 && line_.utf8_column == 0) line_.utf8_column = line_.lead_column;
        if (line_is_bad()) stop_with_line_problem();
      }
      break;
    }
    hash_ = stable_hash(std::string_view(buffer + n, got), hash_);
    const std::size_t good = check(buffer + n, got);
    offset_ += got;
    n += static_cast<int>(good);
  }
  return n;
}

std::size_t GridSource::check(const char* bytes, std::size_t size) {
  for (std::size_t i = 0; i < size; ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c != '\n') {
      check_byte(c);
      if (line_is_bad()) {
        refuse_line(bytes + i + 1, size - i - 1);
        return i;
      }
      continue;
    }
    if (line_.pending > 0 && line_.utf8_column == 0) line_.utf8_column = line_.lead_column;
    if (line_is_bad()) {
      stop_with_line_problem();
      return i;
    }
    ++line_number_;
    line_ = LineCheck{};
    if (line_number_ % kCheckpointLines == 0) line_starts_.push_back({offset_ + i + 1, line_number_});
  }
  return size;
}

void GridSource::check_byte(unsigned char c) {
  LineCheck& l = line_;
  ++l.bytes;
  if (l.bytes > kMaxGridLineBytes + 1) l.too_long = true;  // + 1: a "\r" before the "\n"
  if (c == 0 && l.nul_column == 0) l.nul_column = l.bytes;
  if (l.utf8_column != 0) return;
  if (l.pending > 0) {
    if (c < l.low || c > l.high) {
      l.utf8_column = l.lead_column;
      return;
    }
    --l.pending;
    l.low = 0x80;
    l.high = 0xBF;
    return;
  }
  l.lead_column = l.bytes;
  if (c < 0x80) return;
  if (c >= 0xC2 && c <= 0xDF) {
    l.pending = 1;
  } else if (c >= 0xE0 && c <= 0xEF) {
    l.pending = 2;
    if (c == 0xE0) l.low = 0xA0;   // no overlong forms
    if (c == 0xED) l.high = 0x9F;  // no surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    l.pending = 3;
    if (c == 0xF0) l.low = 0x90;   // no overlong forms
    if (c == 0xF4) l.high = 0x8F;  // nothing past U+10FFFF
  } else {
    l.utf8_column = l.bytes;
  }
}

bool GridSource::line_is_bad() const {
  return line_.too_long || line_.nul_column != 0 || line_.utf8_column != 0 ||
         line_number_ > static_cast<std::uint64_t>(INT_MAX);
}

void GridSource::refuse_line(const char* rest, std::size_t size) {
  std::vector<char> more;
  bool ended = false;
  while (!ended && !line_.too_long) {
    for (std::size_t i = 0; i < size && !line_.too_long; ++i) {
      if (rest[i] == '\n') {
        ended = true;
        break;
      }
      check_byte(static_cast<unsigned char>(rest[i]));
    }
    if (ended || line_.too_long) break;
    more.resize(64 << 10);
    size = std::fread(more.data(), 1, more.size(), file_);
    rest = more.data();
    ended = size == 0;  // the end of the file (or a read error: the line's problem is reported all the same)
  }
  if (line_.pending > 0 && line_.utf8_column == 0) line_.utf8_column = line_.lead_column;
  stop_with_line_problem();
}

void GridSource::stop_with_line_problem() {
  const std::string where = path_ + ":" + std::to_string(line_number_) + ": ";
  if (line_.too_long) {
    problem_ = where + "a line longer than " + std::to_string(kMaxGridLineBytes >> 20) +
               " MiB; a grid row holds a few short values";
  } else if (line_number_ > static_cast<std::uint64_t>(INT_MAX)) {
    problem_ = where + "a grid has at most " + std::to_string(INT_MAX) + " lines";
  } else if (line_.nul_column != 0) {
    problem_ = where + "a NUL byte at column " + std::to_string(line_.nul_column) +
               "; a grid file is CSV text, and this looks like a binary file";
  } else {
    problem_ = where + "a byte that is not UTF-8 at column " + std::to_string(line_.utf8_column) +
               "; a grid file is CSV text in UTF-8";
  }
  problem_line_ = line_number_;
}

}  // namespace locksim::sweep
