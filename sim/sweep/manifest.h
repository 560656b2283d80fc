// A sweep's manifest: what wrote a CSV file, kept beside it as FILE.json.
//
// A sweep's rows say which cell they are, but not which experiment: the
// same cells with another --set value, another seed count or an edited
// scenario give rows that look alike and mean something else. So every sweep
// that writes a file also writes its manifest — before the first row — and
// --resume compares the manifest with what this command would write. A
// mismatch is refused with each differing field and both of its values;
// a file without a manifest is refused too, since nothing says which sweep
// wrote it. The command line is recorded for people and never compared: a
// resumed sweep legitimately differs in --threads and --resume itself.
//
// The manifest is JSON (nlohmann::json, Debian's nlohmann-json3-dev), its
// members in a fixed order, indented by two spaces. Bytes that are not UTF-8
// (a path or an argument may hold them) are written as U+FFFD. Fields:
//   format            "locksim sweep manifest"
//   manifest_version  kManifestVersion: how the fields below are laid out
//                     (absent in version 1)
//   csv_format        the CSV layout's version (csv_writer.h, kCsvFormat)
//   file              "summary" (--out) or "per-run" (--per-run)
//   locksim_version   kVersion of the locksim that wrote it
//   scenario_path, scenario_name, scenario_hash (FNV-1a of the file's bytes)
//   variants (the variants swept, in the order their rows come: version 2;
//   version 1 had one, "variant"), set (the --set values in order), vary
//   (the --vary specs in order), grid_path and grid_hash ("" without --grid)
//   keys              the cells' keys, in column order
//   cells             cells in the whole sweep
//   seeds             runs per cell
//   shard             "K/N"
//   shard_cells       {"begin": B, "end": E}: the shard's cells [B, E), 0-based
//   command_line      the arguments, program name first
//   faults, clients   the fault and client names of each variant's first
//                     cell, the first variant's first (the columns of
//                     columns.h); story_faults: those faults any variant's
//                     story needs (story_gap.h, story_needs); and expect: per
//                     variant, its [expect] verdicts by property name
//                     ({"base": {"invariant": "violated"}, ...}; version 1
//                     had the one variant's verdicts alone) — for the plot
//                     and report commands, which judge each row by its own
//                     variant's and warn where a fault the story needs fired
//                     in too few of a cell's runs (written, never compared,
//                     and so not read back here)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace locksim::sweep {

// Version 2: "variants" (a list) and "expect" per variant, for sweeps of
// several variants. Bump it when a field changes its meaning or shape, and
// keep parse_manifest() reading every version up to it: a --resume of a
// sweep that an older locksim started is then refused for its locksim
// version, by name, not for a field this one cannot read. (kCsvFormat,
// csv_writer.h, versions the CSV's columns, which version 2 left alone.)
inline constexpr std::uint64_t kManifestVersion = 2;

// One variant's [expect] verdicts: property name -> "holds" | "violated".
struct VariantExpect {
  std::string variant;
  std::vector<std::pair<std::string, std::string>> verdicts;
};

struct Manifest {
  std::string file;  // "summary" or "per-run"
  std::uint64_t csv_format = 0;
  std::string locksim_version;
  std::string scenario_path;
  std::string scenario_name;
  std::string scenario_hash;
  std::vector<std::string> variants;
  std::vector<std::string> sets;
  std::vector<std::string> varies;
  std::string grid_path;
  std::string grid_hash;
  std::vector<std::string> keys;
  std::uint64_t cells = 0;
  std::uint64_t seeds = 0;
  std::uint64_t shard_index = 1;
  std::uint64_t shard_count = 1;
  std::uint64_t shard_begin = 0;
  std::uint64_t shard_end = 0;
  std::vector<std::string> command_line;
  std::vector<std::string> faults;
  std::vector<std::string> story_faults;  // the faults [expect] fired lists (all when it lists none)
  std::vector<std::string> clients;
  std::vector<VariantExpect> expect;  // per variant, in the order of |variants|
};

// Where the manifest of the CSV at |csv_path| lives.
inline std::string manifest_path(const std::string& csv_path) { return csv_path + ".json"; }
// Whether the CSV at |csv_path| gets a manifest: a file path ("" is standard
// output) that is a regular file or does not exist yet — not /dev/null.
bool gets_manifest(const std::string& csv_path);

std::string manifest_json(const Manifest& manifest);
// nullopt with |error| when |json| is not a manifest: "at byte N: ..." when it
// is not JSON (or nests deeper than 16), else what is missing or wrong.
std::optional<Manifest> parse_manifest(std::string_view json, std::string& error);

// What differs between the manifest of an existing file (|file|) and this
// command's (|command|, compared as its file would hold it), one phrase per
// field: "--set differs: the file has lock.ttl=5s, this command has
// lock.ttl=10s". Empty when they match; the command line is not compared.
std::vector<std::string> manifest_differences(const Manifest& file, const Manifest& command);

// Writes |manifest| to |path|, replacing it; false with |error| on an I/O error.
bool write_manifest(const std::string& path, const Manifest& manifest, std::string& error);
// Reads the manifest at |path|; nullopt with |error| when it is missing,
// unreadable or not a manifest.
std::optional<Manifest> read_manifest(const std::string& path, std::string& error);

}  // namespace locksim::sweep
