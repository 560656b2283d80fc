// locksim keys: every scenario key with its type, default and meaning, as
// declared by the section that reads it — the tables scenarios/FORMAT.md
// holds, and the command that keeps them there.
#include <boost/program_options.hpp>
#include <iostream>

#include "sim/cli/commands.h"
#include "sim/cli/marked_file.h"
#include "sim/cli/options.h"
#include "sim/scenario/fuzz_dictionary.h"
#include "sim/scenario/key_docs.h"

namespace po = boost::program_options;

namespace locksim::cli {

namespace {

constexpr const char* kKeysUsage =
    "locksim keys [TABLE]... [--update FILE]\n\n"
    "The scenario keys, as Markdown tables: every section's ([lock], [client.NAME], ...)\n"
    "and each fault kind's (fault-kinds), or only the TABLEs named. With --update,\n"
    "rewrites the tables between <!-- keys: TABLE --> and <!-- /keys --> in FILE\n"
    "(scenarios/FORMAT.md) instead, and the fuzz dictionary's tokens between\n"
    "# <!-- fuzz: tokens --> and # <!-- /fuzz --> (tests/fuzz/scenario.dict).\n\noptions";

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

}  // namespace

int keys_command(const std::string&, const std::vector<std::string>& args) {
  po::options_description options(kKeysUsage);
  std::string update_path;
  options.add_options()("help,h", "show this help")("update", po::value(&update_path),
                                                     "rewrite the marked tables in this Markdown file");
  std::vector<std::string> tables;
  po::variables_map vm;
  int code = kExitOk;
  if (!parse_command_line("keys", options, args, tables, -1, vm, code)) return code;
  if (!update_path.empty())
    return update_marked_file("keys", update_path, [](std::string_view text, std::vector<std::string>& problems) {
      return scenario::regenerate_fuzz_dictionary(scenario::regenerate_key_tables(text, problems), problems);
    });
  if (tables.empty()) tables = scenario::key_table_names();
  for (const std::string& name : tables) {
    const std::string table = scenario::key_table(name);
    if (table.empty()) {
      std::cerr << "locksim keys: no table \"" << name << "\"; tables: " << join(scenario::key_table_names()) << "\n";
      return kExitBadInput;
    }
    std::cout << "### " << name << "\n\n" << table << "\n";
  }
  return kExitOk;
}

}  // namespace locksim::cli
