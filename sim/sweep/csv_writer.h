// The sweep's CSV files: the column layout, the rows, and an output file that
// is flushed row by row (a killed sweep leaves only complete rows behind,
// plus at most one partial last line that --resume cuts off).
//
// Summary file, one row per cell:
//   scenario,variant,<key1>,...,<keyK>,runs,
//   then for each property (grant-exclusive, belief-exclusive,
//   resource-exclusive, resource-current, invariant):
//     <p>.violated,<p>.rate,<p>.ci_low,<p>.ci_high
//   then sessions.mean,acquire_attempts.mean,acquire_ok_rate.mean,
//     acquire_latency_ms.mean,longest_stuck_ms.mean,unheld_ms.mean,
//     expired_grants.mean, (format 3) commits.mean,rollbacks.mean,
//     wasted_ms.mean,committed_per_s.mean (a transactional resource's
//     efficiency; 0 elsewhere)
//   then (format 2) the columns of columns.h: <p>.first_seed x5,
//     fault.<name>.fired per fault, six figures per client, <key>_s|_ppm
// Per-run file (--per-run), one row per run:
//   scenario,variant,<keys>,replica,seed,<p>.violated x5 (1 violated / 0
//   holds: the summary's count over one run), <p>.first_witness_ms x5 (empty
//   when it holds),sessions,longest_stuck_ms, then (format 4)
//   fault.<name>.fired per fault (1 fired with an effect / 0),
//   <client>.longest_wait_ms, <key>_s|_ppm
//
// Rates, interval bounds and means print with six decimals (%.6f); the two
// means that may not exist (acquire_ok_rate with no attempt, latency with no
// session, in every run of the cell) print empty. Per-run times are exact
// (nanoseconds written as milliseconds with six decimals). Fields are quoted
// only when they must be (a comma, a quote, a line break, or leading or
// trailing space), RFC 4180 style.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "sim/sweep/summary.h"

namespace locksim::sweep {

// The layout's version, recorded in the manifest (manifest.h): bump it when
// a column is added, removed or printed differently.
inline constexpr std::uint64_t kCsvFormat = 4;

std::string csv_field(std::string_view text);

// Everything a row needs to name its cell.
struct CellLabel {
  const std::string& scenario;
  const std::string& variant;
  const std::vector<std::string>& values;
  std::uint64_t seed_base = 0;  // seeds.h: the cell's replicas' seeds (for <p>.first_seed)
};

// "scenario,variant,value1,...,valueK,": how every row of a cell starts.
std::string cell_columns(const CellLabel& cell);

std::string summary_header(const ColumnLayout& layout);
std::string summary_row(const CellLabel& cell, const CellAccumulator& acc, const ColumnLayout& layout);
// The start of a cell's summary row, up to and including "runs,".
std::string summary_row_prefix(const CellLabel& cell, std::int64_t runs);
// "<p>.violated,<p>.rate,<p>.ci_low,<p>.ci_high" as a row prints them for
// |violated| of |runs| runs: what --resume recomputes to check a row.
std::string property_columns(std::int64_t violated, std::int64_t runs);
// A rate or mean as rows print it ("%.6f").
std::string fixed6(double value);

std::string per_run_header(const ColumnLayout& layout);
std::string per_run_row(const CellLabel& cell, std::uint64_t replica, std::uint64_t seed, const RunSummary& run,
                        const ColumnLayout& layout);
// The columns after the liveness means (summary) or the longest stuck time
// (per run), and their values: columns.h.
std::string summary_extra_header(const ColumnLayout& layout);
std::string per_run_extra_header(const ColumnLayout& layout);
// The start of a per-run row, up to and including "replica,seed,".
std::string per_run_row_prefix(const CellLabel& cell, std::uint64_t replica, std::uint64_t seed);

// An output file written row by row. Each write is flushed, so what is in
// the file is what a reader (or a --resume) sees.
class CsvOutput {
 public:
  CsvOutput() = default;
  CsvOutput(const CsvOutput&) = delete;
  CsvOutput& operator=(const CsvOutput&) = delete;
  ~CsvOutput();

  // Opens |path| for writing (truncating) or appending; "" means stdout.
  bool open(const std::string& path, bool append, std::string& error);
  // Writes and flushes; false (with |error| set) when the disk says no.
  bool write(std::string_view text, std::string& error);
  bool is_open() const { return file_ != nullptr; }

 private:
  std::FILE* file_ = nullptr;
  bool owned_ = false;
  std::string path_;
};

}  // namespace locksim::sweep
