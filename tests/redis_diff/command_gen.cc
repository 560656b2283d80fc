#include "tests/redis_diff/command_gen.h"

#include <cstdio>
#include <map>

#include "sim/core/rng.h"

namespace locksim::redis_diff {

const char* const kCompareAndDelete =
    "if redis.call(\"get\",KEYS[1]) == ARGV[1] then return redis.call(\"del\",KEYS[1]) else return 0 end";
const char* const kCompareAndPexpire =
    "if redis.call(\"get\",KEYS[1]) == ARGV[1] then return redis.call(\"pexpire\",KEYS[1],ARGV[2]) else return 0 "
    "end";

const std::vector<std::string>& keys() {
  static const std::vector<std::string> names = {"k1", "k2", "k3"};
  return names;
}

namespace {

template <typename T>
const T& one_of(const std::vector<T>& options, Rng& rng) {
  return options[rng.below(options.size())];
}

// A lock token as clients write it: 16 hex digits. (One made only of decimal
// digits is an integer to Redis, and to the model's driver too.)
std::string token(Rng& rng) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(rng.next_u64()));
  return text;
}

// Values: mostly tokens, some integers for INCR, including the edges of int64.
std::string value(Rng& rng, std::vector<std::string>& seen) {
  const std::uint64_t pick = rng.below(10);
  std::string v;
  if (pick < 6) {
    v = token(rng);
  } else if (pick < 9) {
    v = std::to_string(rng.between(-3, 5));
  } else {
    v = one_of<std::string>({"9223372036854775806", "9223372036854775807", "-9223372036854775808"}, rng);
  }
  seen.push_back(v);
  return v;
}

// What the sequence has written so far: every value, and the last per key.
struct Written {
  std::vector<std::string> values;
  std::map<std::string, std::string> last;
};

// A value a compare script is likely to find: half the time the last value
// written to the key (the lock's own token), else an older one or a new one.
std::string compared_value(const std::string& key, Rng& rng, Written& w) {
  const auto last = w.last.find(key);
  if (last != w.last.end() && rng.below(2) == 0) return last->second;
  if (!w.values.empty() && rng.below(2) == 0) return w.values[rng.below(w.values.size())];
  return value(rng, w.values);
}

// Milliseconds around the boundaries that matter: a deadline millisecond, a
// second, the TTLs locks use; zero and negative (errors, or deletion).
std::string ms_amount(Rng& rng) {
  const std::uint64_t pick = rng.below(8);
  if (pick == 0) return one_of<std::string>({"0", "-1", "-1000"}, rng);
  if (pick < 4) return std::to_string(one_of<std::int64_t>({1, 2, 499, 500, 501, 999, 1000, 1001, 1500}, rng));
  return std::to_string(rng.between(1, 20'000));
}

std::string s_amount(Rng& rng) {
  if (rng.below(6) == 0) return one_of<std::string>({"0", "-1"}, rng);
  return std::to_string(rng.between(1, 20));
}

// A step of the server's wall clock: small and large, forward and back.
Step clock_step(Rng& rng) {
  const std::uint64_t pick = rng.below(6);
  std::int64_t ms = 0;
  if (pick == 0) ms = one_of<std::int64_t>({1, 999, 1000, 1001}, rng);
  if (pick == 1) ms = -one_of<std::int64_t>({1, 1000}, rng);
  if (pick == 2 || pick == 3) ms = rng.between(1, 3'000);
  if (pick == 4) ms = rng.between(3'000, 25'000);
  if (pick == 5) ms = -rng.between(1, 15'000);
  return Step{{"CLOCK", (ms >= 0 ? "+" : "") + std::to_string(ms)}};
}

// EXPIRE/PEXPIRE, with one of Redis 7's options two times in five.
Step expire(const char* name, std::string amount, const std::string& key, Rng& rng) {
  Step s{{name, key, std::move(amount)}};
  if (rng.below(5) < 2) s.argv.push_back(one_of<std::string>({"NX", "XX", "GT", "LT"}, rng));
  return s;
}

Step command(Rng& rng, Written& w) {
  const std::string key = one_of(keys(), rng);
  switch (rng.below(16)) {
    case 0:
    case 1:
    case 2: {  // SET, the lock's own command, with its options
      Step s{{"SET", key, value(rng, w.values)}};
      w.last[key] = s.argv[2];
      const std::uint64_t cond = rng.below(4);
      if (cond == 0) s.argv.push_back("NX");
      if (cond == 1) s.argv.push_back("XX");
      const std::uint64_t expiry = rng.below(4);
      if (expiry <= 1) s.argv.insert(s.argv.end(), {"PX", ms_amount(rng)});
      if (expiry == 2) s.argv.insert(s.argv.end(), {"EX", s_amount(rng)});
      return s;
    }
    case 3: {
      Step s{{"SETNX", key, value(rng, w.values)}};
      w.last[key] = s.argv[2];
      return s;
    }
    case 4:
    case 5: return Step{{"GET", key}};
    case 6: return Step{{"DEL", key}};
    case 7: return expire("PEXPIRE", ms_amount(rng), key, rng);
    case 8: return expire("EXPIRE", s_amount(rng), key, rng);
    case 9: return Step{{"PTTL", key}};
    case 13: return Step{{"TTL", key}};
    case 14: return Step{{"PERSIST", key}};
    case 10: return Step{{"INCR", key}};
    case 11: return Step{{"EVAL", kCompareAndDelete, "1", key, compared_value(key, rng, w)}};
    default: return Step{{"EVAL", kCompareAndPexpire, "1", key, compared_value(key, rng, w), ms_amount(rng)}};
  }
}

}  // namespace

std::vector<Step> generate_sequence(std::uint64_t seed, int commands) {
  Rng rng = Rng::derive(seed, "redis-diff", "sequence");
  Written written;
  std::vector<Step> steps;
  for (int i = 0; i < commands; ++i)
    steps.push_back(rng.below(4) == 0 ? clock_step(rng) : command(rng, written));
  return steps;
}

std::string describe(const Step& step) {
  std::string out;
  for (const std::string& word : step.argv) {
    std::string w = word;
    if (w == kCompareAndDelete) w = "compare-and-delete";
    if (w == kCompareAndPexpire) w = "compare-and-pexpire";
    out += (out.empty() ? "" : " ") + w;
  }
  return out;
}

}  // namespace locksim::redis_diff
