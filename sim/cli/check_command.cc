// locksim check: judges a recorded history (docs/history.md) — a simulated
// run's (run --history) or a real system's — with the five properties,
// saying unknown wherever the history and the clocks' bounds allow both
// answers.
#include <boost/program_options.hpp>
#include <fstream>
#include <iostream>
#include <optional>

#include "sim/cli/check_report.h"
#include "sim/cli/commands.h"
#include "sim/cli/options.h"
#include "sim/cli/output_dir.h"
#include "sim/recorded/history_reader.h"
#include "sim/recorded/history_trace.h"
#include "sim/recorded/recorded_judge.h"
#include "sim/scenario/reader.h"

namespace po = boost::program_options;

namespace locksim::cli {

namespace {

struct CheckOptions {
  std::string file;
  std::string trace_path;
  std::optional<Duration> uncertainty;
  bool json = false;
};

bool read_options(const std::vector<std::string>& args, CheckOptions& o, int& exit_code) {
  po::options_description options(
      "locksim check FILE [options]\n\nJudges a history (docs/history.md: what a real system or locksim run --history\n"
      "recorded) with the five safety properties: violated, holds, or unknown where\nthe history cannot decide. "
      "Exit 0: none violated; 1: one is; 2: the history was refused.\n\noptions");
  std::string uncertainty;
  options.add_options()("help,h", "show this help")("json", "print one JSON object instead of the table")(
      "trace", po::value(&o.trace_path),
      "write a trace of the history (docs/trace.md) here, for the timeline and the report")(
      "clock-uncertainty", po::value(&uncertainty),
      "how far apart any two processes' clocks may be, e.g. 5ms: needed for a history with no common clock (time = "
      "local)");
  std::vector<std::string> positional;
  po::variables_map vm;
  exit_code = kExitOk;
  if (!parse_command_line("check", options, args, positional, 1, vm, exit_code)) return false;
  exit_code = kExitBadInput;
  if (positional.empty()) {
    std::cerr << "locksim check: which history? (locksim check FILE; locksim run ... --history FILE writes one)\n";
    return false;
  }
  o.file = positional.front();
  o.json = vm.count("json") > 0;
  if (vm.count("clock-uncertainty") > 0) {
    std::string error;
    o.uncertainty = scenario::duration_from_text(uncertainty, scenario::Sign::non_negative, error);
    if (!o.uncertainty) {
      std::cerr << "locksim check: --clock-uncertainty: " << error << "\n";
      return false;
    }
    // Clocks a day apart order nothing; the bound also keeps the judge's
    // arithmetic (readings scaled, offsets added) far from overflowing.
    if (*o.uncertainty > std::chrono::hours(24)) {
      std::cerr << "locksim check: --clock-uncertainty: " << uncertainty
                << " is more than a day: clocks that far apart order no two events\n";
      return false;
    }
  }
  exit_code = kExitOk;
  return true;
}

// The history's trace (history_trace.h); false after saying why it could not be written.
bool write_trace(const CheckOptions& o, const RecordedHistory& h, const RecordedJudgement& j) {
  std::ofstream out;
  if (!open_output("check", o.trace_path, out, std::cerr)) return false;
  StreamTrace trace(out);
  write_history_trace(trace, o.file, h, j);
  out.close();
  if (!out) {
    std::cerr << "locksim check: cannot write " << o.trace_path << "\n";
    return false;
  }
  return true;
}

}  // namespace

int check_command(const std::string& /*program*/, const std::vector<std::string>& args) {
  CheckOptions o;
  if (int code = kExitOk; !read_options(args, o, code)) return code;
  std::ifstream in(o.file);
  if (!in) {
    std::cerr << "locksim check: cannot read " << o.file << "\n";
    return kExitBadInput;
  }
  std::string error;
  const std::optional<RecordedHistory> history = read_history(in, o.file, error);
  if (!history) {
    std::cerr << "locksim check: " << error << "\n";
    return kExitBadInput;
  }
  if (!history->common_time && !o.uncertainty) {
    std::cerr << "locksim check: " << o.file
              << ": the history has no common clock (time = local): say how far apart its processes' clocks may be "
                 "with --clock-uncertainty D (docs/history.md)\n";
    return kExitBadInput;
  }
  if (history->common_time && o.uncertainty) {
    std::cerr << "locksim check: " << o.file
              << ": --clock-uncertainty is for a history on local clocks; this one has a common clock (time = common), "
                 "which orders its events\n";
    return kExitBadInput;
  }
  const RecordedJudgement judgement = judge_recorded(*history, o.uncertainty);
  if (!o.trace_path.empty() && !write_trace(o, *history, judgement)) return kExitBadInput;
  if (o.json)
    print_check_json(std::cout, o.file, *history, judgement, o.uncertainty);
  else
    print_check_table(std::cout, o.file, *history, judgement, o.uncertainty);
  for (const RecordedVerdict& v : judgement.verdicts)
    if (v.status == RecordedStatus::violated) return kExitMismatch;
  return kExitOk;
}

}  // namespace locksim::cli
