#include "sim/sweep/grid.h"

// GCC 12 sees a strncpy in the library's error type that may truncate a
// 255-byte file name (it may, by design: the name is only for messages).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-truncation"
#endif
#include <libfccp/csv.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include <array>
#include <filesystem>
#include <fstream>
#include <utility>
#include <vector>

#include "sim/sweep/axis.h"

namespace locksim::sweep {

namespace {

using TrimPolicy = io::trim_chars<' ', '\t'>;
using QuotePolicy = io::double_quote_escape<',', '"'>;

std::string trim(const std::string& text) {
  std::size_t b = 0, e = text.size();
  while (b < e && (text[b] == ' ' || text[b] == '\t')) ++b;
  while (e > b && (text[e - 1] == ' ' || text[e - 1] == '\t')) --e;
  return text.substr(b, e - b);
}

// The header's column names, split as the reader will split them: commas
// outside double quotes, "" inside quotes for one quote, fields trimmed.
std::vector<std::string> split_header(std::string line) {
  if (!line.empty() && line.back() == '\r') line.pop_back();
  std::vector<std::string> names;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field.push_back('"');
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field.push_back(c);
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      names.push_back(trim(field));
      field.clear();
    } else {
      field.push_back(c);
    }
  }
  names.push_back(trim(field));
  return names;
}

template <std::size_t N, std::size_t... I>
bool read_rows(const std::string& path, const std::vector<std::string>& names, CellTable& table,
               std::string& error, std::index_sequence<I...>) {
  try {
    io::CSVReader<N, TrimPolicy, QuotePolicy> reader(path);
    reader.read_header(io::ignore_no_column, names[I]...);
    std::array<std::string, N> row;
    while (reader.read_row(row[I]...)) {
      std::vector<std::string> values;
      values.reserve(N);
      for (const std::string& v : row) values.push_back(canonical_value(v));
      table.cells.push_back(std::move(values));
      table.lines.push_back(static_cast<int>(reader.get_file_line()));
    }
  } catch (const io::error::too_few_columns& e) {
    error = path + ":" + std::to_string(e.file_line) + ": this row has fewer values than the header's " +
            std::to_string(N) + " keys";
    return false;
  } catch (const io::error::too_many_columns& e) {
    error = path + ":" + std::to_string(e.file_line) + ": this row has more values than the header's " +
            std::to_string(N) + " keys";
    return false;
  } catch (const io::error::escaped_string_not_closed& e) {
    error = path + ":" + std::to_string(e.file_line) + ": a quoted value is not closed";
    return false;
  } catch (const io::error::base& e) {
    error = path + ": " + e.what();
    return false;
  }
  return true;
}

template <std::size_t N>
bool read_rows(const std::string& path, const std::vector<std::string>& names, CellTable& table,
               std::string& error) {
  return read_rows<N>(path, names, table, error, std::make_index_sequence<N>{});
}

}  // namespace

std::optional<CellTable> read_grid(const std::string& path, std::string& error) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    error = "cannot read grid file '" + path + "': it is a directory";
    return std::nullopt;
  }
  std::ifstream in(path);
  if (!in) {
    error = "cannot read grid file '" + path + "'";
    return std::nullopt;
  }
  std::string header;
  if (!std::getline(in, header)) {
    error = path + ": empty grid file; its first line names the keys, such as lock.ttl,clock.C.drift";
    return std::nullopt;
  }
  in.close();
  CellTable table;
  table.keys = split_header(header);
  const std::size_t n = table.keys.size();
  if (n > kMaxGridColumns) {
    error = path + ":1: " + std::to_string(n) + " columns; a grid has at most " + std::to_string(kMaxGridColumns) +
            " keys";
    return std::nullopt;
  }
  for (std::size_t k = 0; k < n; ++k) {
    if (table.keys[k].empty()) {
      error = path + ":1: column " + std::to_string(k + 1) + " has no key; the header names the keys, such as "
              "lock.ttl,clock.C.drift";
      return std::nullopt;
    }
    for (std::size_t j = 0; j < k; ++j) {
      if (table.keys[j] == table.keys[k]) {
        error = path + ":1: key '" + table.keys[k] + "' is named twice";
        return std::nullopt;
      }
    }
  }
  bool ok = false;
  switch (n) {
    case 1: ok = read_rows<1>(path, table.keys, table, error); break;
    case 2: ok = read_rows<2>(path, table.keys, table, error); break;
    case 3: ok = read_rows<3>(path, table.keys, table, error); break;
    case 4: ok = read_rows<4>(path, table.keys, table, error); break;
    case 5: ok = read_rows<5>(path, table.keys, table, error); break;
    case 6: ok = read_rows<6>(path, table.keys, table, error); break;
    case 7: ok = read_rows<7>(path, table.keys, table, error); break;
    case 8: ok = read_rows<8>(path, table.keys, table, error); break;
    default: error = path + ":1: no keys in the header"; return std::nullopt;
  }
  if (!ok) return std::nullopt;
  if (table.cells.empty()) {
    error = path + ": no cells; the grid has a header but no rows";
    return std::nullopt;
  }
  if (table.cells.size() > kMaxCells) {
    error = path + ": more than " + std::to_string(kMaxCells) + " cells";
    return std::nullopt;
  }
  return table;
}

}  // namespace locksim::sweep
