#include "tests/redis_diff/command_gen.h"

#include <cctype>
#include <cstdio>
#include <map>

#include "sim/core/rng.h"

namespace locksim::redis_diff {

const char* const kCompareAndDelete =
    "if redis.call(\"get\",KEYS[1]) == ARGV[1] then return redis.call(\"del\",KEYS[1]) else return 0 end";
const char* const kCompareAndPexpire =
    "if redis.call(\"get\",KEYS[1]) == ARGV[1] then return redis.call(\"pexpire\",KEYS[1],ARGV[2]) else return 0 "
    "end";
const char* const kLockAndIncr =
    "if redis.call(\"set\",KEYS[1],ARGV[1],\"NX\",\"PX\",ARGV[2]) then return redis.call(\"incr\",KEYS[2]) else "
    "return 0 end";

const std::vector<std::string>& keys() {
  static const std::vector<std::string> names = {"k1", "k2", "k3"};
  return names;
}

namespace {

std::string lower(std::string word) {
  for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return word;
}

template <typename T>
const T& one_of(const std::vector<T>& options, Rng& rng) {
  return options[rng.below(options.size())];
}

// A lock token as clients write it: 16 hex digits. One in eight is made of
// decimal digits only — an integer to Redis's INCR and equal, byte for byte,
// to the integer it reads as — and one in four of those starts with 0, which
// Redis's string2ll refuses.
std::string token(Rng& rng) {
  char text[17];
  if (rng.below(8) == 0) {
    for (int i = 0; i < 16; ++i) text[i] = static_cast<char>('0' + rng.below(10));
    text[0] = rng.below(4) == 0 ? '0' : static_cast<char>('1' + rng.below(9));
    text[16] = '\0';
    return text;
  }
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

// What the sequence has written so far — every value, and the last per key —
// and the server's wall clock, for the absolute deadlines of PXAT/EXAT.
struct Written {
  std::vector<std::string> values;
  std::map<std::string, std::string> last;
  std::int64_t now_ms = 0;
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
  if (pick == 4 && rng.below(4) == 0)  // overflows the deadline: an error, raised inside a script too
    return one_of<std::string>({"9223372036854775807", "9223372036854775000", "-9223372036854775808"}, rng);
  return std::to_string(rng.between(1, 20'000));
}

// An absolute deadline near the server's clock, past or future, in ms or s.
std::string at_amount(const char* unit, Rng& rng, const Written& w) {
  const std::int64_t ms = w.now_ms + rng.between(-3'000, 20'000);
  if (std::string(unit) == "EXAT") return std::to_string(ms / 1000 + (rng.below(2) == 0 ? 0 : 1));
  if (rng.below(8) == 0) return one_of<std::string>({"0", "-1", "1"}, rng);
  return std::to_string(ms);
}

std::string s_amount(Rng& rng) {
  if (rng.below(6) == 0) return one_of<std::string>({"0", "-1"}, rng);
  return std::to_string(rng.between(1, 20));
}

// A step of the server's wall clock: small and large, forward and back.
Step clock_step(Rng& rng, Written& w) {
  const std::uint64_t pick = rng.below(6);
  std::int64_t ms = 0;
  if (pick == 0) ms = one_of<std::int64_t>({1, 999, 1000, 1001}, rng);
  if (pick == 1) ms = -one_of<std::int64_t>({1, 1000}, rng);
  if (pick == 2 || pick == 3) ms = rng.between(1, 3'000);
  if (pick == 4) ms = rng.between(3'000, 25'000);
  if (pick == 5) ms = -rng.between(1, 15'000);
  w.now_ms += ms;
  return Step{{"CLOCK", (ms >= 0 ? "+" : "") + std::to_string(ms)}};
}

// EXPIRE/PEXPIRE, with one of Redis 7's options two times in five, and now
// and then two of them (XX LT is its own rule; NX GT an error).
Step expire(const char* name, std::string amount, const std::string& key, Rng& rng) {
  Step s{{name, key, std::move(amount)}};
  if (rng.below(5) < 2) s.argv.push_back(one_of<std::string>({"NX", "XX", "GT", "LT"}, rng));
  if (rng.below(10) == 0) s.argv.push_back(one_of<std::string>({"XX", "GT", "LT", "nx", "xx"}, rng));
  return s;
}

// SET key value with its options: NX or XX, GET, and an expiry — relative
// (PX, EX), absolute (PXAT, EXAT) — or KEEPTTL, in a random order.
Step set(const std::string& key, Rng& rng, Written& w) {
  Step s{{"SET", key, value(rng, w.values)}};
  w.last[key] = s.argv[2];
  std::vector<std::vector<std::string>> options;
  const std::uint64_t cond = rng.below(4);
  if (cond == 0) options.push_back({"NX"});
  if (cond == 1) options.push_back({"XX"});
  if (rng.below(6) == 0) options.push_back({"GET"});
  const std::uint64_t expiry = rng.below(10);
  if (expiry <= 3) options.push_back({"PX", ms_amount(rng)});
  if (expiry == 4 || expiry == 5) options.push_back({"EX", s_amount(rng)});
  if (expiry == 6) options.push_back({"PXAT", at_amount("PXAT", rng, w)});
  if (expiry == 7) options.push_back({"EXAT", at_amount("EXAT", rng, w)});
  if (expiry == 8) options.push_back({"KEEPTTL"});
  for (std::size_t i = options.size(); i > 1; --i) std::swap(options[i - 1], options[rng.below(i)]);
  for (const auto& words : options) s.argv.insert(s.argv.end(), words.begin(), words.end());
  return s;
}

// A malformed or unusual form of a well-formed command, as people type them:
// a word missing or added, an option repeated or in lower case, a conflicting
// option, an amount that is not an integer. Redis answers most with an error
// whose text the model must match.
// DEL of many keys and scripts other than the two are outside the model, so a
// DEL is left alone and an EVAL only gets a bad key count.
Step mangled(Step s, Rng& rng) {
  std::vector<std::string>& argv = s.argv;
  if (argv[0] == "DEL") return s;
  if (argv[0] == "EVAL") {
    argv[2] = one_of<std::string>({"abc", "-1", "9"}, rng);
    return s;
  }
  // The value of SET/SETNX stays one the model can hold.
  const std::size_t first_argument = argv[0] == "SET" || argv[0] == "SETNX" ? 3 : 2;
  switch (rng.below(6)) {
    case 0: argv.pop_back(); break;
    case 1: argv.push_back(one_of<std::string>({"NX", "XX", "GT", "PX", "EX", "KEEPTTL", "GET", "FOO"}, rng)); break;
    case 2: argv.insert(argv.end(), {one_of<std::string>({"PX", "EX", "PXAT", "px", "ex"}, rng), "100"}); break;
    case 3:
      for (std::size_t j = first_argument; j < argv.size(); ++j)
        if (std::isdigit(static_cast<unsigned char>(argv[j].back()))) {
          argv[j] = one_of<std::string>({"abc", "1.5", "+5", "05", " 5", "-0", "99999999999999999999"}, rng);
          break;
        }
      break;
    case 4:
      for (std::string& word : argv) word = rng.below(2) == 0 ? word : lower(word);
      break;
    default: argv.push_back(argv.back()); break;
  }
  return s;
}

Step well_formed(Rng& rng, Written& w) {
  const std::string key = one_of(keys(), rng);
  switch (rng.below(17)) {
    case 0:
    case 1:
    case 2: return set(key, rng, w);  // SET, the lock's own command, with its options
    case 15: {  // the lock and its fencing token in one script; the counter may be any key, the lock's own too
      Step s{{"EVAL", kLockAndIncr, "2", key, one_of(keys(), rng), value(rng, w.values), ms_amount(rng)}};
      w.last[key] = s.argv[5];
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

// One command in twelve is mangled.
Step command(Rng& rng, Written& w) {
  Step s = well_formed(rng, w);
  return rng.below(12) == 0 ? mangled(std::move(s), rng) : s;
}

}  // namespace

std::vector<Step> generate_sequence(std::uint64_t seed, int commands, std::int64_t epoch_ms) {
  Rng rng = Rng::derive(seed, "redis-diff", "sequence");
  Written written;
  written.now_ms = epoch_ms;
  std::vector<Step> steps;
  for (int i = 0; i < commands; ++i)
    steps.push_back(rng.below(4) == 0 ? clock_step(rng, written) : command(rng, written));
  return steps;
}

std::string describe(const Step& step) {
  std::string out;
  for (const std::string& word : step.argv) {
    std::string w = word;
    if (w == kCompareAndDelete) w = "compare-and-delete";
    if (w == kCompareAndPexpire) w = "compare-and-pexpire";
    if (w == kLockAndIncr) w = "lock-and-incr";
    out += (out.empty() ? "" : " ") + w;
  }
  return out;
}

}  // namespace locksim::redis_diff
