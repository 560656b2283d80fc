#include "sim/sweep/columns.h"

#include <cstdio>

#include "sim/scenario/reader.h"
#include "sim/world/latency.h"

namespace locksim::sweep {

namespace {

ValueUnit unit_of(std::string_view value) {
  const std::string text(value);
  if (text == "0") return ValueUnit::none;  // canonical values write a duration 0 as "0s": this is a count
  if (parse_duration(text)) return ValueUnit::seconds;
  std::string error;
  if (!text.empty() && (text.back() == '%' || text.ends_with("ppm")) && scenario::ppm_from_text(text, error))
    return ValueUnit::ppm;
  return ValueUnit::none;
}

// |ns| as seconds, exactly, without trailing zeros: 1500000000 -> "1.5".
std::string exact_seconds(std::int64_t ns) {
  const bool negative = ns < 0;
  const std::uint64_t mag = negative ? static_cast<std::uint64_t>(-(ns + 1)) + 1 : static_cast<std::uint64_t>(ns);
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%s%llu.%09llu", negative ? "-" : "",
                static_cast<unsigned long long>(mag / 1'000'000'000),
                static_cast<unsigned long long>(mag % 1'000'000'000));
  std::string out = buffer;
  while (out.back() == '0') out.pop_back();
  if (out.back() == '.') out.pop_back();
  return out;
}

}  // namespace

ColumnLayout column_layout(const std::vector<std::string>& keys, const std::vector<std::string>& first_values,
                           const ScenarioSpec& first_cell) {
  ColumnLayout layout;
  layout.keys = keys;
  for (std::size_t k = 0; k < keys.size(); ++k)
    layout.key_units.push_back(k < first_values.size() ? unit_of(first_values[k]) : ValueUnit::none);
  for (const FaultSpec& f : first_cell.faults) layout.faults.push_back(f.name);
  for (const ClientSpec& c : first_cell.clients) layout.clients.push_back(c.name);
  return layout;
}

std::string base_unit_value(std::string_view value, ValueUnit unit) {
  const std::string text(value);
  switch (unit) {
    case ValueUnit::none: return "";
    case ValueUnit::seconds: {
      const std::optional<Duration> d = parse_duration(text);
      return d ? exact_seconds(d->count()) : "";
    }
    case ValueUnit::ppm: {
      std::string error;
      const std::optional<std::int64_t> ppm = scenario::ppm_from_text(text, error);
      return ppm ? std::to_string(*ppm) : "";
    }
  }
  return "";
}

std::string base_unit_column(const std::string& key, ValueUnit unit) {
  switch (unit) {
    case ValueUnit::none: return "";
    case ValueUnit::seconds: return key + "_s";
    case ValueUnit::ppm: return key + "_ppm";
  }
  return "";
}

}  // namespace locksim::sweep
