#include "sim/sweep/grid_lines.h"

#include <cerrno>
#include <climits>
#include <cstring>

#include "sim/core/rng.h"

namespace locksim::sweep {

namespace {

constexpr std::size_t kBlockBytes = 64 << 10;
constexpr std::uint64_t kFnvBasis = 0xcbf29ce484222325ULL;  // stable_hash's default basis

bool trim_char(char c) { return c == ' ' || c == '\t'; }

// The byte length of the UTF-8 sequence at text[i], or 0 when it is not one.
std::size_t utf8_sequence(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3;
    if (b0 == 0xE0) low = 0xA0;   // no overlong forms
    if (b0 == 0xED) high = 0x9F;  // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4;
    if (b0 == 0xF0) low = 0x90;   // no overlong forms
    if (b0 == 0xF4) high = 0x8F;  // nothing past U+10FFFF
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return length;
}

}  // namespace

GridLineReader::~GridLineReader() {
  if (file_ != nullptr) std::fclose(file_);
}

bool GridLineReader::open(const std::string& path, std::uint64_t offset, std::uint64_t line, std::string& error) {
  path_ = path;
  file_ = std::fopen(path.c_str(), "rb");
  if (file_ == nullptr) {
    error = "cannot read grid file '" + path + "': " + std::strerror(errno);
    return false;
  }
  if (offset > LONG_MAX || std::fseek(file_, static_cast<long>(offset), SEEK_SET) != 0) {
    error = "cannot read grid file '" + path + "': " + std::strerror(errno);
    return false;
  }
  block_.resize(kBlockBytes);
  offset_ = offset;
  next_line_ = line;
  hash_ = kFnvBasis;
  if (offset == 0) {
    if (!fill(error)) return false;
    static constexpr char kBom[] = "\xEF\xBB\xBF";
    if (block_end_ >= 3 && std::memcmp(block_.data(), kBom, 3) == 0) {
      block_begin_ = 3;
      offset_ = 3;
    }
  }
  return true;
}

bool GridLineReader::fill(std::string& error) {
  block_begin_ = 0;
  block_end_ = std::fread(block_.data(), 1, block_.size(), file_);
  if (block_end_ < block_.size()) {
    if (std::ferror(file_) != 0) {
      error = "cannot read grid file '" + path_ + "': " + std::strerror(errno);
      return false;
    }
    eof_ = true;
  }
  hash_ = stable_hash(std::string_view(block_.data(), block_end_), hash_);
  return true;
}

bool GridLineReader::next(std::string& line, std::string& error) {
  line.clear();
  const std::uint64_t start = offset_;
  bool newline = false;
  while (!newline) {
    if (block_begin_ == block_end_) {
      if (eof_) break;
      if (!fill(error)) return false;
      continue;
    }
    const char* begin = block_.data() + block_begin_;
    const std::size_t available = block_end_ - block_begin_;
    const void* found = std::memchr(begin, '\n', available);
    const std::size_t take = found != nullptr ? static_cast<std::size_t>(static_cast<const char*>(found) - begin)
                                              : available;
    if (line.size() + take > kMaxGridLineBytes + 1) {  // + 1: a "\r" before the "\n"
      error = path_ + ":" + std::to_string(next_line_) + ": a line longer than " +
              std::to_string(kMaxGridLineBytes >> 20) + " MiB; a grid row holds a few short values";
      return false;
    }
    line.append(begin, take);
    newline = found != nullptr;
    const std::size_t consumed = take + (newline ? 1 : 0);
    block_begin_ += consumed;
    offset_ += consumed;
  }
  if (!newline && line.empty()) return false;  // the end of the file
  line_number_ = next_line_++;
  line_offset_ = start;
  const std::string where = path_ + ":" + std::to_string(line_number_) + ": ";
  if (line_number_ > static_cast<std::uint64_t>(INT_MAX)) {
    error = where + "a grid has at most " + std::to_string(INT_MAX) + " lines";
    return false;
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (const void* nul = std::memchr(line.data(), '\0', line.size()); nul != nullptr) {
    const auto column = static_cast<const char*>(nul) - line.data() + 1;
    error = where + "a NUL byte at column " + std::to_string(column) +
            "; a grid file is CSV text, and this looks like a binary file";
    return false;
  }
  if (const std::size_t good = utf8_prefix(line); good < line.size()) {
    error = where + "a byte that is not UTF-8 at column " + std::to_string(good + 1) +
            "; a grid file is CSV text in UTF-8";
    return false;
  }
  return true;
}

bool is_blank_line(std::string_view line) {
  for (char c : line)
    if (!trim_char(c)) return false;
  return true;
}

bool split_grid_fields(std::string_view line, std::vector<std::string>& fields, std::string& problem) {
  fields.clear();
  std::size_t begin = 0;
  while (true) {
    // Find the field's end: a comma outside quoted runs.
    std::size_t end = begin;
    while (end < line.size() && line[end] != ',') {
      if (line[end] != '"') {
        ++end;
        continue;
      }
      do {  // a quoted run, and any run that follows it directly ("a""b")
        const std::size_t close = line.find('"', end + 1);
        if (close == std::string_view::npos) {
          problem = "a quoted value is not closed";
          return false;
        }
        end = close + 1;
      } while (end < line.size() && line[end] == '"');
    }
    std::size_t b = begin, e = end;
    while (b < e && trim_char(line[b])) ++b;
    while (e > b && trim_char(line[e - 1])) --e;
    std::string field;
    if (e - b >= 2 && line[b] == '"' && line[e - 1] == '"') {
      for (std::size_t i = b + 1; i + 1 < e; ++i) {
        field.push_back(line[i]);
        if (line[i] == '"' && i + 2 < e && line[i + 1] == '"') ++i;
      }
    } else {
      field.assign(line.substr(b, e - b));
    }
    fields.push_back(std::move(field));
    if (end >= line.size()) return true;
    begin = end + 1;
  }
}

std::size_t utf8_prefix(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t length = utf8_sequence(text, i);
    if (length == 0) return i;
    i += length;
  }
  return i;
}

}  // namespace locksim::sweep
