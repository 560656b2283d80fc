// The fuzz target: one input is a scenario file, plus command-line values
// carried in comment lines the TOML parser ignores:
//
//   #!set KEY=VALUE     a --set override (applied to every variant)
//   #!seed TEXT         a --seed as typed (read as the CLI reads it)
//   #!vary KEY=SPEC     a sweep axis (expanded as `locksim sweep` does)
//
// For each input it does what `locksim validate` and `locksim run` would:
// parse and validate every variant, then run up to four of them, twice each
// with the same seed, and check that the two traces hash the same. Runs are
// bounded (a small event and fact budget), so no input can hang it; a
// RunError is bad input found late, an outcome like an error message.
//
// What counts as a finding: a crash, an abort (LOCKSIM_CHECK), a sanitizer
// report (ASan, UBSan: signed overflow included) or two runs of one seed
// that differ. Both engines call this: libFuzzer (clang) and the seeded
// mutation driver in mutation_driver.cc (any compiler), which CI runs.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "sim/cli/numbers.h"
#include "sim/core/run_error.h"
#include "sim/core/trace.h"
#include "sim/run/run.h"
#include "sim/scenario/file.h"
#include "sim/sweep/axis.h"

namespace locksim::fuzz {
bool last_input_ran = false;
}  // namespace locksim::fuzz

namespace {

constexpr std::uint64_t kFuzzMaxEvents = 20'000;
constexpr std::uint64_t kFuzzMaxFacts = 20'000;
constexpr std::size_t kFuzzMaxVariants = 4;

struct Extras {
  std::vector<std::string> sets;
  std::vector<std::string> seeds;
  std::vector<std::string> varies;
};

Extras extras_of(std::string_view text) {
  Extras out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    const auto take = [&](std::string_view prefix, std::vector<std::string>& into) {
      if (line.substr(0, prefix.size()) == prefix) into.emplace_back(line.substr(prefix.size()));
    };
    take("#!set ", out.sets);
    take("#!seed ", out.seeds);
    take("#!vary ", out.varies);
    start = end + 1;
  }
  return out;
}

[[noreturn]] void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz finding: %s: %s\n", what, detail.c_str());
  std::abort();
}

void run_bounded(const locksim::ScenarioSpec& given, std::uint64_t seed) {
  locksim::ScenarioSpec spec = given;
  spec.max_events = std::min(spec.max_events, kFuzzMaxEvents);
  spec.max_facts = std::min(spec.max_facts, kFuzzMaxFacts);
  std::uint64_t hashes[2] = {0, 0};
  std::string errors[2];
  for (int i = 0; i < 2; ++i) {
    locksim::HashingTrace trace;
    try {
      const locksim::RunResult result = locksim::run_scenario(spec, seed, trace);
      hashes[i] = trace.hash() ^ result.events;
    } catch (const locksim::RunError& e) {
      errors[i] = e.what();
    }
  }
  if (hashes[0] != hashes[1] || errors[0] != errors[1])
    finding("nondeterminism", "variant " + spec.variant + " seed " + std::to_string(seed) + " ran two ways");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const Extras extras = extras_of(text);
  locksim::fuzz::last_input_ran = false;

  std::string error;
  std::uint64_t seed = 1;
  for (const std::string& s : extras.seeds)
    if (auto v = locksim::cli::parse_whole_number(s, 0, UINT64_MAX, "--seed", error)) seed = *v;
  for (const std::string& v : extras.varies) {
    if (auto axis = locksim::sweep::parse_axis(v, error)) {
      // Axes are lazy: look at their first values only (a million-value
      // axis is legal and costs nothing until it is walked).
      int looked = 0;
      for (const std::string& value : axis->values) {
        if (value.empty()) finding("empty sweep value", v);
        if (++looked == 1000) break;
      }
    }
  }

  locksim::ScenarioErrors errors;
  const std::optional<locksim::ScenarioFile> file = locksim::ScenarioFile::from_string(text, "fuzz.toml", errors);
  if (!file) {
    if (errors.empty()) finding("refused without an error", "");
    return 0;
  }
  std::size_t ran = 0;
  for (const std::string& variant : file->variants()) {
    if (ran++ == kFuzzMaxVariants) break;
    const std::optional<locksim::ScenarioSpec> spec = file->resolve(variant, extras.sets, errors);
    if (!spec) {
      if (errors.empty()) finding("refused without an error", variant);
      continue;
    }
    run_bounded(*spec, extras.seeds.empty() ? spec->seed : seed);
    locksim::fuzz::last_input_ran = true;
  }
  return 0;
}
