#include "sim/cli/numbers.h"

namespace locksim::cli {

std::optional<std::uint64_t> parse_whole_number(std::string_view text, std::uint64_t min, std::uint64_t max,
                                                std::string_view option, std::string& error) {
  const auto fail = [&]() -> std::optional<std::uint64_t> {
    error = std::string(option) + " must be a whole number from " + std::to_string(min) + " to " +
            std::to_string(max) + ", got '" + std::string(text) + "'";
    return std::nullopt;
  };
  if (text.empty() || text.size() > 20) return fail();
  std::uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return fail();
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (value > (UINT64_MAX - digit) / 10) return fail();
    value = value * 10 + digit;
  }
  if (value < min || value > max) return fail();
  return value;
}

}  // namespace locksim::cli
