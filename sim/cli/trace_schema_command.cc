// locksim trace-schema: the trace's line format as data (sim/world/trace_schema.h)
// — the JSON the analysis reads, the tables docs/trace.md holds, and the
// command that keeps them there.
#include <boost/program_options.hpp>
#include <iostream>

#include "sim/cli/commands.h"
#include "sim/cli/marked_file.h"
#include "sim/cli/options.h"
#include "sim/core/marked_regions.h"
#include "sim/world/trace_schema.h"

namespace po = boost::program_options;

namespace locksim::cli {

namespace {

constexpr const char* kTraceSchemaUsage =
    "locksim trace-schema [--markdown TABLE] [--update FILE]\n\n"
    "The trace's line format (what locksim run --trace writes): every line type\n"
    "and message payload with its fields, as JSON (analysis/trace_schema.json is\n"
    "this output). --markdown prints one table (header, message, fact, after-end,\n"
    "judged, payload); --update rewrites the tables between <!-- trace: TABLE -->\n"
    "and <!-- /trace --> in FILE (docs/trace.md).\n\noptions";

std::string regenerate(std::string_view text, std::vector<std::string>& problems) {
  return regenerate_marked_regions(text, "trace", trace_schema_table, problems);
}

}  // namespace

int trace_schema_command(const std::string&, const std::vector<std::string>& args) {
  po::options_description options(kTraceSchemaUsage);
  std::string update_path;
  std::string markdown;
  options.add_options()("help,h", "show this help")("update", po::value(&update_path),
                                                     "rewrite the marked tables in this Markdown file")(
      "markdown", po::value(&markdown), "print this table as Markdown");
  std::vector<std::string> positional;
  po::variables_map vm;
  int code = kExitOk;
  if (!parse_command_line("trace-schema", options, args, positional, 0, vm, code)) return code;
  if (!update_path.empty()) return update_marked_file("trace-schema", update_path, regenerate);
  if (!markdown.empty()) {
    const std::string table = trace_schema_table(markdown);
    if (table.empty()) {
      std::cerr << "locksim trace-schema: no table \"" << markdown
                << "\"; tables: header, message, fact, after-end, judged, payload\n";
      return kExitBadInput;
    }
    std::cout << table;
    return kExitOk;
  }
  std::cout << trace_schema_json();
  return kExitOk;
}

}  // namespace locksim::cli
