// A seeded mutation fuzzer for the fuzz target (fuzz_target.cc), for
// machines and CI runs without libFuzzer's compiler. It is not coverage
// guided; it makes up for that with a dictionary of the inputs that break
// simulators (durations at and past every limit, extreme integers and rates,
// heavy-tailed distributions, phase triggers, --set lines) and with a pool
// that keeps mutants the parser accepted, so later mutations start from
// valid, runnable scenarios and reach the world and the models.
//
//   locksim_fuzz [--seed S] [--iterations N | --seconds T] [--dict FILE]
//                [--crash-dir DIR] CORPUS_FILE_OR_DIR...
//   locksim_fuzz --replay FILE_OR_DIR...
//
// The same --seed and --iterations give the same inputs in the same order:
// a finding reproduces. Before each input runs it is written to
// DIR/last-input, so when a sanitizer or an abort ends the process the
// input that did it is on disk; a watchdog turns an input that runs longer
// than --timeout seconds into a finding too (a hang). Findings worth keeping
// go to tests/fuzz/regressions/, which the suite replays.
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/core/rng.h"
#include "tests/fuzz/dictionary.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
namespace locksim::fuzz {
extern bool last_input_ran;  // set by the target: some variant parsed and ran
}  // namespace locksim::fuzz

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxInput = 64 << 10;  // a mutant larger than this is cut back
constexpr std::size_t kPoolSize = 256;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every regular file under each path, sorted (so the corpus order is fixed).
std::vector<fs::path> files_under(const std::vector<std::string>& paths) {
  std::vector<fs::path> out;
  for (const std::string& p : paths) {
    if (fs::is_directory(p)) {
      for (const auto& entry : fs::recursive_directory_iterator(p))
        if (entry.is_regular_file()) out.push_back(entry.path());
    } else if (fs::is_regular_file(p)) {
      out.emplace_back(p);
    } else {
      std::cerr << "locksim_fuzz: no such file or directory: " << p << "\n";
      std::exit(2);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> read_dictionary(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "locksim_fuzz: cannot read dictionary " << path << "\n";
    std::exit(2);
  }
  return locksim::fuzz::dictionary_tokens(in);
}

class Mutator {
 public:
  Mutator(std::uint64_t seed, std::vector<std::string> dictionary)
      : rng_(seed), dictionary_(std::move(dictionary)) {}

  std::string mutate(std::string input, const std::vector<std::string>& pool) {
    const std::uint64_t rounds = 1 + rng_.below(6);
    for (std::uint64_t i = 0; i < rounds; ++i) mutate_once(input, pool);
    if (input.size() > kMaxInput) input.resize(kMaxInput);
    return input;
  }

  std::uint64_t below(std::uint64_t n) { return rng_.below(n); }

 private:
  std::size_t position(const std::string& s) { return s.empty() ? 0 : rng_.below(s.size() + 1); }
  const std::string& token() { return dictionary_[rng_.below(dictionary_.size())]; }

  void mutate_once(std::string& s, const std::vector<std::string>& pool) {
    switch (rng_.below(9)) {
      case 0:  // flip one bit
        if (!s.empty()) s[rng_.below(s.size())] ^= static_cast<char>(1u << rng_.below(8));
        return;
      case 1: {  // one byte to an interesting one
        static constexpr char kBytes[] = {'\0', '\n', '"', '\'', '[', ']', '=', ',', '.', '-', '+', '(', ')',
                                          '0',  '9',  'e', '#',  '\\', '{', '}', ' ', '\x7f', '\xff'};
        if (!s.empty()) s[rng_.below(s.size())] = kBytes[rng_.below(sizeof kBytes)];
        return;
      }
      case 2:  // a dictionary token anywhere
      case 3:
        if (!dictionary_.empty()) s.insert(position(s), token());
        return;
      case 4: {  // a quoted value replaced by a token
        const std::size_t open = s.find('"', position(s));
        const std::size_t close = open == std::string::npos ? open : s.find('"', open + 1);
        if (close != std::string::npos && !dictionary_.empty()) s.replace(open + 1, close - open - 1, token());
        return;
      }
      case 5: {  // a run of digits replaced by an extreme number
        static const char* const kNumbers[] = {"0", "-1", "1", "2147483647", "2147483648", "4294967296",
                                               "9223372036854775807", "9223372036854775808", "-9223372036854775808",
                                               "99999999999999", "876000", "876001", "1e308", "0.0000000001"};
        std::size_t i = position(s);
        while (i < s.size() && (s[i] < '0' || s[i] > '9')) ++i;
        std::size_t j = i;
        while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
        if (j > i) s.replace(i, j - i, kNumbers[rng_.below(std::size(kNumbers))]);
        return;
      }
      case 6:  // delete a range
        if (!s.empty()) {
          const std::size_t at = rng_.below(s.size());
          s.erase(at, 1 + rng_.below(std::min<std::size_t>(64, s.size() - at)));
        }
        return;
      case 7:  // duplicate a range (a table twice, a step twice)
        if (!s.empty()) {
          const std::size_t at = rng_.below(s.size());
          const std::string piece = s.substr(at, 1 + rng_.below(std::min<std::size_t>(256, s.size() - at)));
          s.insert(position(s), piece);
        }
        return;
      default: {  // splice: keep a prefix of this input, continue with another's suffix
        const std::string& other = pool[rng_.below(pool.size())];
        if (other.empty()) return;
        s = s.substr(0, position(s)) + other.substr(rng_.below(other.size()));
        return;
      }
    }
  }

  locksim::Rng rng_;
  std::vector<std::string> dictionary_;
};

std::string g_last_input_path;

void on_timeout(int) {
  static const char kMessage[] = "locksim_fuzz: an input ran past the timeout (a hang); it is in last-input\n";
  [[maybe_unused]] const ssize_t written = write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
  _exit(3);
}

void run_one(const std::string& input, unsigned timeout_s) {
  if (!g_last_input_path.empty()) {
    std::ofstream out(g_last_input_path, std::ios::binary | std::ios::trunc);
    out << input;
  }
  alarm(timeout_s);
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
  alarm(0);
}

[[noreturn]] void usage() {
  std::cerr << "usage: locksim_fuzz [--seed S] [--iterations N | --seconds T] [--timeout T] [--dict FILE]\n"
               "                    [--crash-dir DIR] CORPUS_FILE_OR_DIR...\n"
               "       locksim_fuzz [--timeout T] --replay FILE_OR_DIR...\n";
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t seed = 1, iterations = 0;
  double seconds = 0;
  unsigned timeout_s = 60;
  bool replay = false;
  std::string dict_path, crash_dir;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage();
      return argv[++i];
    };
    if (arg == "--seed") seed = std::stoull(value());
    else if (arg == "--iterations") iterations = std::stoull(value());
    else if (arg == "--seconds") seconds = std::stod(value());
    else if (arg == "--timeout") timeout_s = static_cast<unsigned>(std::stoul(value()));
    else if (arg == "--dict") dict_path = value();
    else if (arg == "--crash-dir") crash_dir = value();
    else if (arg == "--replay") replay = true;
    else if (arg.rfind("--", 0) == 0) usage();
    else paths.push_back(arg);
  }
  if (paths.empty() || (!replay && iterations == 0 && seconds <= 0)) usage();
  std::signal(SIGALRM, on_timeout);

  const std::vector<fs::path> files = files_under(paths);
  if (replay) {
    for (const fs::path& f : files) {
      std::cout << "replay " << f.string() << std::endl;
      run_one(read_file(f), timeout_s);
    }
    std::cout << "replayed " << files.size() << " inputs: no crash, no sanitizer report, no hang\n";
    return 0;
  }

  if (!crash_dir.empty()) {
    fs::create_directories(crash_dir);
    g_last_input_path = (fs::path(crash_dir) / "last-input").string();
  }
  std::vector<std::string> pool;
  for (const fs::path& f : files) pool.push_back(read_file(f));
  const std::size_t seeds_in_pool = pool.size();
  Mutator mutator(seed, dict_path.empty() ? std::vector<std::string>{} : read_dictionary(dict_path));

  const std::clock_t start = std::clock();
  const auto elapsed = [&] { return static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC; };
  std::uint64_t executed = 0;
  for (; iterations > 0 ? executed < iterations : elapsed() < seconds; ++executed) {
    const std::string input = mutator.mutate(pool[mutator.below(pool.size())], pool);
    run_one(input, timeout_s);
    // Keep some mutants as starting points: the pool drifts towards inputs
    // that still parse and run, which is where the deep bugs are.
    if (mutator.below(locksim::fuzz::last_input_ran ? 2 : 16) == 0) {
      if (pool.size() < seeds_in_pool + kPoolSize)
        pool.push_back(input);
      else
        pool[seeds_in_pool + mutator.below(kPoolSize)] = input;
    }
  }
  if (!g_last_input_path.empty()) fs::remove(g_last_input_path);
  std::printf("locksim_fuzz: seed %llu: %llu inputs in %.1f s of CPU, no crash, no sanitizer report, no hang\n",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(executed), elapsed());
  return 0;
}
