// Whole numbers on the command line (--seed, --seeds, --threads, --shard).
//
// Boost.Program_options would read "-1" into an unsigned option as 2^64 - 1
// and "1e8" as an error deep in its own message; a seed that silently wraps
// is a different experiment. So numeric options are taken as text and read
// here: decimal digits only (no sign, no exponent, no spaces), within a
// stated range, with a message that names the option and the range.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace locksim::cli {

// |text| as a decimal integer in [min, max]. On failure nullopt and |error|
// reads "--seeds must be a whole number from 1 to 1000000000, got '-1'".
std::optional<std::uint64_t> parse_whole_number(std::string_view text, std::uint64_t min, std::uint64_t max,
                                                std::string_view option, std::string& error);

}  // namespace locksim::cli
