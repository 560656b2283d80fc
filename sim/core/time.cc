#include "sim/core/time.h"

#include <algorithm>
#include <cstdlib>

namespace locksim {

namespace {

// Writes |ns| in |unit_ns| units with up to |max_decimals| digits, trimming
// trailing zeros; returns false when it would not be exact.
bool format_exact(std::int64_t ns, std::int64_t unit_ns, int max_decimals, const char* suffix, std::string& out) {
  std::int64_t whole = ns / unit_ns;
  std::int64_t rest = ns % unit_ns;
  std::string decimals;
  std::int64_t scale = unit_ns;
  for (int i = 0; i < max_decimals && rest != 0; ++i) {
    scale /= 10;
    if (scale == 0) return false;
    decimals.push_back(static_cast<char>('0' + rest / scale));
    rest %= scale;
  }
  if (rest != 0) return false;
  out = std::to_string(whole);
  if (!decimals.empty()) out += "." + decimals;
  out += suffix;
  return true;
}

}  // namespace

std::string format_duration_rounded(Duration d) {
  const std::int64_t ns = d.count();
  if (ns == std::numeric_limits<std::int64_t>::max() || ns == std::numeric_limits<std::int64_t>::min())
    return format_duration(d);
  const std::uint64_t mag = ns < 0 ? static_cast<std::uint64_t>(-(ns + 1)) + 1 : static_cast<std::uint64_t>(ns);
  const std::uint64_t unit = mag < 1'000'000'000 ? 1'000 : 1'000'000;
  // Half up; INT64_MAX - 1ms is still far from the sentinels.
  const std::uint64_t rounded = std::min<std::uint64_t>((mag + unit / 2) / unit * unit, INT64_MAX - 1'000'000);
  const auto value = static_cast<std::int64_t>(rounded);
  return format_duration(Duration{ns < 0 ? -value : value});
}

std::string format_duration(Duration d) {
  std::int64_t ns = d.count();
  if (ns == 0) return "0s";
  if (ns == std::numeric_limits<std::int64_t>::max()) return "never";
  std::string sign = ns < 0 ? "-" : "";
  std::uint64_t mag = ns < 0 ? static_cast<std::uint64_t>(-(ns + 1)) + 1 : static_cast<std::uint64_t>(ns);
  auto abs_ns = static_cast<std::int64_t>(mag);
  std::string out;
  // The largest unit the value reaches, with as many decimals as it needs
  // (never more than that unit's resolution): 10.002s, 250ms, 1.5us,
  // 25.902059ms, 1.000000001s.
  if (abs_ns >= 1'000'000'000 && format_exact(abs_ns, 1'000'000'000, 9, "s", out)) return sign + out;
  if (abs_ns >= 1'000'000 && format_exact(abs_ns, 1'000'000, 6, "ms", out)) return sign + out;
  if (abs_ns >= 1'000 && format_exact(abs_ns, 1'000, 3, "us", out)) return sign + out;
  return sign + std::to_string(mag) + "ns";
}

}  // namespace locksim
