// The differential test: the same seeded command sequences, with the same
// wall-clock steps, against the model's RedisNode and a real redis-server;
// every reply, and GET and PTTL of every key after every step, must be the
// same bytes. A mismatch is shrunk to the fewest steps that still show one
// and printed as a reproducer. run.sh starts the server; see docs/fidelity.md,
// "Fidelity to real Redis".
//
// locksim_redis_diff --port P --clock-file F [--seed S] [--sequences N] [--commands M]
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tests/redis_diff/command_gen.h"
#include "tests/redis_diff/model_side.h"
#include "tests/redis_diff/real_side.h"

namespace locksim::redis_diff {
namespace {

// 2001-09-09 01:46:40 UTC: both clocks start here for every sequence. The
// same reading on both sides, because SET ... PXAT names a Unix time; and an
// early one, because a simulated clock may read at most 150 years over a run
// of up to 100 (core/limits.h).
constexpr std::int64_t kEpochMs = 1'000'000'000'000;

struct Mismatch {
  std::size_t step = 0;    // the step after which the two sides disagreed
  std::string asked;       // the command whose replies differ
  std::string model;
  std::string real;
};

struct Tally {
  std::uint64_t steps = 0;
  std::uint64_t replies = 0;  // replies compared: commands plus GET/PTTL probes
  // Per command (not the probes), how often each kind of reply came: what
  // the sequences covered ("SET" -> "+OK" 812, "(nil)" 301, "-ERR invalid ..." 40).
  std::map<std::string, std::map<std::string, std::uint64_t>> kinds;
};

// A reply's kind for the tally: errors by text, integers by value up to 1,
// bulk strings and larger integers by their type only.
std::string kind_of(const std::string& reply) {
  if (reply.empty() || reply[0] == '-' || reply == "+OK" || reply == "(nil)") return reply;
  if (reply[0] == ':') return reply == ":0" || reply == ":1" || reply == ":-1" || reply == ":-2" ? reply : ":n";
  return reply.substr(0, 1) + "...";
}

// Set by --break-model-clock: the model ignores the clock steps, so the test
// must report a mismatch (the self-test proves it can fail).
bool g_break_model_clock = false;

// Runs |steps| on a fresh model and a flushed server from kEpochMs; the first
// disagreement, if any.
std::optional<Mismatch> run_sequence(RealRedis& real, const std::vector<Step>& steps, Tally& tally) {
  real.command({"FLUSHALL"});
  std::int64_t now_ms = kEpochMs;
  real.set_clock(now_ms);
  ModelRedis model(kEpochMs);
  const auto compare = [&](std::size_t i, const std::vector<std::string>& argv,
                           bool probe) -> std::optional<Mismatch> {
    const std::optional<std::string> m = model.command(argv);
    const std::string r = real.command(argv);
    ++tally.replies;
    if (!probe) ++tally.kinds[argv[0]][kind_of(r)];
    if (m && *m == r) return std::nullopt;
    return Mismatch{i, describe(Step{argv}), m.value_or("(the model cannot carry this command)"), r};
  };
  for (std::size_t i = 0; i < steps.size(); ++i) {
    ++tally.steps;
    const Step& s = steps[i];
    if (s.is_clock()) {
      const std::int64_t ms = std::stoll(s.argv[1]);
      now_ms += ms;
      real.set_clock(now_ms);
      if (!g_break_model_clock) model.step_clock(ms);
    } else if (auto m = compare(i, s.argv, false)) {
      return m;
    }
    for (const std::string& key : keys()) {
      for (const char* probe : {"GET", "PTTL"})
        if (auto m = compare(i, {probe, key}, true)) return m;
    }
  }
  return std::nullopt;
}

// Delta debugging (ddmin, simplified): drop chunks of steps, halving the
// chunk size, while some mismatch remains.
std::vector<Step> shrink(RealRedis& real, std::vector<Step> steps) {
  Tally ignored;
  for (std::size_t chunk = steps.size() / 2; chunk >= 1; chunk /= 2) {
    for (std::size_t start = 0; start + chunk <= steps.size();) {
      std::vector<Step> fewer(steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(start));
      fewer.insert(fewer.end(), steps.begin() + static_cast<std::ptrdiff_t>(start + chunk), steps.end());
      if (run_sequence(real, fewer, ignored))
        steps = std::move(fewer);
      else
        start += chunk;
    }
    if (chunk == 1) break;
  }
  return steps;
}

// libfaketime must really hold the server's clock: TIME must read what the
// file says, to the microsecond, before and after a step.
bool clock_is_controlled(RealRedis& real) {
  for (const std::int64_t at : {kEpochMs, kEpochMs + 1'234, kEpochMs - 56'789}) {
    real.set_clock(at);
    const std::string expected =
        "*[$" + std::to_string(at / 1000) + ", $" + std::to_string(at % 1000 * 1000) + "]";
    const std::string got = real.command({"TIME"});
    if (got != expected) {
      std::cerr << "redis-diff: the wall-clock shim does not control the server's clock: TIME says " << got << ", expected "
                << expected << "\n";
      return false;
    }
  }
  return true;
}

std::uint64_t number(const char* text, const char* what) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0') {
    std::cerr << "redis-diff: " << what << " expects a whole number, got '" << text << "'\n";
    std::exit(2);
  }
  return v;
}

}  // namespace
}  // namespace locksim::redis_diff

int main(int argc, char** argv) {
  using namespace locksim::redis_diff;
  int port = 0;
  std::string clock_file;
  std::uint64_t seed = 1, sequences = 100, commands = 100;
  for (int i = 1; i < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--break-model-clock") {
      g_break_model_clock = true;
      --i;
      continue;
    }
    if (i + 1 >= argc) {
      std::cerr << "redis-diff: " << flag << " needs a value\n";
      return 2;
    }
    if (flag == "--port") port = static_cast<int>(number(argv[i + 1], "--port"));
    else if (flag == "--clock-file") clock_file = argv[i + 1];
    else if (flag == "--seed") seed = number(argv[i + 1], "--seed");
    else if (flag == "--sequences") sequences = number(argv[i + 1], "--sequences");
    else if (flag == "--commands") commands = number(argv[i + 1], "--commands");
    else {
      std::cerr << "redis-diff: unknown option " << flag << "\n";
      return 2;
    }
  }
  if (port == 0 || clock_file.empty()) {
    std::cerr << "usage: locksim_redis_diff --port P --clock-file F [--seed S] [--sequences N] [--commands M]\n"
                 "(tests/redis_diff/run.sh starts the server and passes both)\n";
    return 2;
  }
  try {
    RealRedis real(port, clock_file);
    if (!clock_is_controlled(real)) return 1;
    Tally tally;
    for (std::uint64_t s = 0; s < sequences; ++s) {
      const std::uint64_t sequence_seed = seed + s;
      const std::vector<Step> steps = generate_sequence(sequence_seed, static_cast<int>(commands), kEpochMs);
      if (!run_sequence(real, steps, tally)) continue;
      const std::vector<Step> small = shrink(real, steps);
      Tally again;
      const Mismatch m = *run_sequence(real, small, again);
      std::cerr << "redis-diff: sequence " << sequence_seed << " disagrees; shrunk from " << steps.size() << " to "
                << small.size() << " steps (the clocks start at 2001-09-09 01:46:40 UTC, keys empty):\n";
      for (std::size_t i = 0; i <= m.step && i < small.size(); ++i) std::cerr << "  " << describe(small[i]) << "\n";
      std::cerr << "then " << m.asked << ":\n  model: " << m.model << "\n  redis: " << m.real << "\n"
                << "reproduce: locksim_redis_diff ... --seed " << sequence_seed << " --sequences 1 --commands "
                << commands << "\n";
      return 1;
    }
    std::cout << "redis-diff: " << sequences << " sequences, " << tally.steps << " steps, " << tally.replies
              << " replies compared: model and redis-server agree on every one\n";
    for (const auto& [command, kinds] : tally.kinds) {
      std::cout << "  " << command << ":";
      for (const auto& [kind, n] : kinds) std::cout << " " << kind << " x" << n << ";";
      std::cout << "\n";
    }
  } catch (const std::exception& e) {
    std::cerr << "redis-diff: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
