// Seeded sequences of Redis commands for the differential test: the commands
// a lock uses, with the boundary values where the model and Redis could
// disagree, and steps of the server's wall clock between them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace locksim::redis_diff {

// One step: a command as Redis receives it (argv), or a wall-clock step
// {"CLOCK", "+250"} / {"CLOCK", "-1000"} in milliseconds.
struct Step {
  std::vector<std::string> argv;
  bool is_clock() const { return !argv.empty() && argv[0] == "CLOCK"; }
};

// The keys every sequence uses; after each step both sides are asked for
// GET and PTTL of each.
const std::vector<std::string>& keys();

// The two scripts every lock uses, and the one that takes a lock with its
// fencing token, as the clients send them.
extern const char* const kCompareAndDelete;
extern const char* const kCompareAndPexpire;
extern const char* const kLockAndIncr;

// |commands| steps drawn from |seed|: the same seed, the same sequence. The
// server's wall clock reads |epoch_ms| (Unix ms) at the start: absolute
// deadlines (SET ... PXAT) are drawn near it.
std::vector<Step> generate_sequence(std::uint64_t seed, int commands, std::int64_t epoch_ms);

// "SET k1 1f..a NX PX 100", "CLOCK +250", "EVAL compare-and-delete k1 1f..a".
std::string describe(const Step& step);

}  // namespace locksim::redis_diff
