#include "sim/sweep/csv_writer.h"

#include <cerrno>
#include <cstring>

#include "sim/check/property.h"
#include "sim/sweep/results_schema.h"
#include "sim/sweep/seeds.h"

namespace locksim::sweep {

namespace {

// |d| in milliseconds with six decimals, exactly (no float on the way).
std::string exact_ms(Duration d) {
  const std::int64_t ns = d.count();
  const std::uint64_t mag = ns < 0 ? static_cast<std::uint64_t>(-(ns + 1)) + 1 : static_cast<std::uint64_t>(ns);
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%s%llu.%06llu", ns < 0 ? "-" : "",
                static_cast<unsigned long long>(mag / 1'000'000), static_cast<unsigned long long>(mag % 1'000'000));
  return buffer;
}

void append_cell(std::string& out, const CellLabel& cell) {
  out += csv_field(cell.scenario);
  out += ',';
  out += csv_field(cell.variant);
  out += ',';
  for (const std::string& v : cell.values) {
    out += csv_field(v);
    out += ',';
  }
}

std::string header_start(const std::vector<std::string>& keys) {
  std::string out = "scenario,variant,";
  for (const std::string& k : keys) out += csv_field(k) + ",";
  return out;
}

}  // namespace

std::string fixed6(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.6f", value);
  return buffer;
}

std::string cell_columns(const CellLabel& cell) {
  std::string out;
  append_cell(out, cell);
  return out;
}

std::string property_columns(std::int64_t violated, std::int64_t runs) {
  const WilsonInterval ci = wilson_interval(violated, runs);
  const double rate = runs == 0 ? 0.0 : static_cast<double>(violated) / static_cast<double>(runs);
  return std::to_string(violated) + ',' + fixed6(rate) + ',' + fixed6(ci.low) + ',' + fixed6(ci.high);
}

std::string csv_field(std::string_view text) {
  bool quote = !text.empty() && (text.front() == ' ' || text.front() == '\t' || text.back() == ' ' ||
                                 text.back() == '\t');
  for (char c : text) quote = quote || c == ',' || c == '"' || c == '\n' || c == '\r';
  if (!quote) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

namespace {

constexpr const char* kClientFigures[] = {"sessions.mean",        "ops_accepted.mean",     "ops_rejected.mean",
                                          "releases_failed.mean", "longest_wait_ms.mean", "longest_wait_ms.max"};

std::string optional6(const std::optional<double>& v) { return v ? fixed6(*v) : std::string(); }

// ",<key>_s,..." for the keys that have a numeric column.
std::string key_unit_header(const ColumnLayout& layout) {
  std::string out;
  for (std::size_t k = 0; k < layout.keys.size(); ++k)
    if (layout.key_units[k] != ValueUnit::none) out += "," + csv_field(base_unit_column(layout.keys[k], layout.key_units[k]));
  return out;
}

std::string key_unit_values(const CellLabel& cell, const ColumnLayout& layout) {
  std::string out;
  for (std::size_t k = 0; k < layout.keys.size(); ++k)
    if (layout.key_units[k] != ValueUnit::none)
      out += "," + (k < cell.values.size() ? base_unit_value(cell.values[k], layout.key_units[k]) : std::string());
  return out;
}

}  // namespace

std::string summary_extra_header(const ColumnLayout& layout) {
  std::string out = first_seed_header();
  for (const std::string& f : layout.faults) out += fault_fired_header(f);
  for (const std::string& c : layout.clients)
    for (const char* figure : kClientFigures) out += "," + csv_field(c + "." + figure);
  return out + key_unit_header(layout);
}

std::string per_run_extra_header(const ColumnLayout& layout) {
  std::string out;
  for (const std::string& f : layout.faults) out += fault_fired_header(f);
  for (const std::string& c : layout.clients) out += "," + csv_field(c + ".longest_wait_ms");
  return out + key_unit_header(layout);
}

std::string summary_header(const ColumnLayout& layout) {
  const std::vector<std::string>& keys = layout.keys;
  std::string out = header_start(keys) + "runs" + property_over_runs_header();
  out += ",sessions.mean,acquire_attempts.mean,acquire_ok_rate.mean,acquire_latency_ms.mean,"
         "longest_stuck_ms.mean,unheld_ms.mean,expired_grants.mean,commits.mean,rollbacks.mean,wasted_ms.mean,"
         "committed_per_s.mean";
  return out + summary_extra_header(layout) + "\n";
}

std::string summary_row_prefix(const CellLabel& cell, std::int64_t runs) {
  std::string out;
  append_cell(out, cell);
  out += std::to_string(runs);
  out += ',';
  return out;
}

std::string summary_row(const CellLabel& cell, const CellAccumulator& acc, const ColumnLayout& layout) {
  std::string out = summary_row_prefix(cell, acc.runs());
  for (Property p : kAllProperties) out += property_columns(acc.violated(p), acc.runs()) + ',';
  out += fixed6(acc.sessions_mean()) + ',' + fixed6(acc.acquire_attempts_mean()) + ',' +
         optional6(acc.acquire_ok_rate_mean()) + ',' + optional6(acc.acquire_latency_ms_mean()) + ',' +
         fixed6(acc.longest_stuck_ms_mean()) + ',' + fixed6(acc.unheld_ms_mean()) + ',' +
         fixed6(acc.expired_grants_mean()) + ',' + fixed6(acc.commits_mean()) + ',' + fixed6(acc.rollbacks_mean()) +
         ',' + fixed6(acc.wasted_ms_mean()) + ',' + fixed6(acc.committed_per_s_mean());
  for (Property p : kAllProperties) {
    out += ',';
    if (const std::optional<std::uint64_t> replica = acc.first_violation(p))
      out += std::to_string(replica_seed(cell.seed_base, *replica));
  }
  for (std::size_t f = 0; f < layout.faults.size(); ++f) out += ',' + optional6(acc.fault_fired_rate(f));
  for (std::size_t c = 0; c < layout.clients.size(); ++c) {
    out += ',' + optional6(acc.client_mean(c, &ClientFigures::sessions)) + ',' +
           optional6(acc.client_mean(c, &ClientFigures::ops_accepted)) + ',' +
           optional6(acc.client_mean(c, &ClientFigures::ops_rejected)) + ',' +
           optional6(acc.client_mean(c, &ClientFigures::releases_failed)) + ',' +
           optional6(acc.client_wait_ms_mean(c)) + ',' + optional6(acc.client_wait_ms_max(c));
  }
  return out + key_unit_values(cell, layout) + '\n';
}

std::string per_run_header(const ColumnLayout& layout) {
  std::string out = header_start(layout.keys) + "replica,seed";
  for (Property p : kAllProperties) out += std::string(",") + property_name(p) + ".violated";
  for (Property p : kAllProperties) out += std::string(",") + property_name(p) + ".first_witness_ms";
  out += ",sessions,longest_stuck_ms";
  return out + per_run_extra_header(layout) + "\n";
}

std::string per_run_row_prefix(const CellLabel& cell, std::uint64_t replica, std::uint64_t seed) {
  std::string out;
  append_cell(out, cell);
  out += std::to_string(replica);
  out += ',';
  out += std::to_string(seed);
  out += ',';
  return out;
}

std::string per_run_row(const CellLabel& cell, std::uint64_t replica, std::uint64_t seed, const RunSummary& run,
                        const ColumnLayout& layout) {
  std::string out = per_run_row_prefix(cell, replica, seed);
  for (std::size_t i = 0; i < kPropertyCount; ++i) out += run.violated[i] ? "1," : "0,";
  for (std::size_t i = 0; i < kPropertyCount; ++i) {
    if (run.first_witness[i]) out += exact_ms(run.first_witness[i]->time_since_epoch());
    out += ',';
  }
  out += std::to_string(run.sessions) + ',' + exact_ms(run.longest_stuck);
  for (std::size_t f = 0; f < layout.faults.size(); ++f) {
    out += ',';
    if (f < run.fault_effective.size() && run.fault_effective[f] >= 0) out += run.fault_effective[f] ? '1' : '0';
  }
  for (std::size_t c = 0; c < layout.clients.size(); ++c) {
    out += ',';
    if (c < run.clients.size() && run.clients[c].present) out += exact_ms(run.clients[c].longest_wait);
  }
  return out + key_unit_values(cell, layout) + '\n';
}

CsvOutput::~CsvOutput() {
  if (file_ != nullptr && owned_) std::fclose(file_);
}

bool CsvOutput::open(const std::string& path, bool append, std::string& error) {
  path_ = path.empty() ? "standard output" : path;
  if (path.empty()) {
    file_ = stdout;
    owned_ = false;
    return true;
  }
  file_ = std::fopen(path.c_str(), append ? "ab" : "wb");
  owned_ = true;
  if (file_ == nullptr) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

bool CsvOutput::write(std::string_view text, std::string& error) {
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size() || std::fflush(file_) != 0) {
    error = "cannot write " + path_ + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

}  // namespace locksim::sweep
