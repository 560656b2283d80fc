#include "sim/sweep/manifest.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/core/check.h"
#include "sim/jsontext/json_text.h"

namespace locksim::sweep {

namespace {

using Json = nlohmann::json;

constexpr std::string_view kFormat = "locksim sweep manifest";
constexpr std::size_t kMaxManifestBytes = 16 << 20;
// Deeper than any manifest, shallow enough that a hand-made file of brackets
// cannot make a huge tree.
constexpr int kMaxDepth = 16;

// Reads the members of a manifest object; remembers the first problem.
class Fields {
 public:
  explicit Fields(const Json& object) : object_(object) {}

  void text(const char* name, std::string& out) {
    const Json* v = get(name, &Json::is_string, "a string");
    if (v != nullptr) out = v->get<std::string>();
  }
  void number(const char* name, std::uint64_t& out, const Json* from = nullptr) {
    const Json* v = get(name, &Json::is_number_unsigned, "a whole number", from);
    if (v != nullptr) out = v->get<std::uint64_t>();
  }
  void list(const char* name, std::vector<std::string>& out) {
    const Json* v = get(name, &Json::is_array, "a list of strings");
    if (v == nullptr) return;
    out.clear();
    for (const Json& item : *v) {
      if (!item.is_string()) return problem(name, "a list of strings");
      out.push_back(item.get<std::string>());
    }
  }
  const Json* object(const char* name) { return get(name, &Json::is_object, "an object"); }
  const std::string& error() const { return error_; }

 private:
  const Json* get(const char* name, bool (Json::*is)() const noexcept, const char* kind, const Json* from = nullptr) {
    const Json& in = from != nullptr ? *from : object_;
    const auto v = in.find(name);
    if (v == in.end()) {
      if (error_.empty()) error_ = std::string("no \"") + name + "\"";
      return nullptr;
    }
    if (!((*v).*is)()) {
      problem(name, kind);
      return nullptr;
    }
    return &*v;
  }
  void problem(const char* name, const char* kind) {
    if (error_.empty()) error_ = std::string("\"") + name + "\" is not " + kind;
  }

  const Json& object_;
  std::string error_;
};

// "K/N", digits only.
bool parse_shard_text(const std::string& text, Manifest& m) {
  const std::size_t slash = text.find('/');
  const auto whole = [](std::string_view digits, std::uint64_t& out) {
    if (digits.empty() || digits.size() > 18) return false;
    out = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') return false;
      out = out * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return true;
  };
  return slash != std::string::npos && whole(std::string_view(text).substr(0, slash), m.shard_index) &&
         whole(std::string_view(text).substr(slash + 1), m.shard_count);
}

std::string joined(const std::vector<std::string>& items) {
  if (items.empty()) return "none";
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : " ") + item;
  return out;
}

std::string shard_text(const Manifest& m) { return std::to_string(m.shard_index) + "/" + std::to_string(m.shard_count); }

void differ(std::vector<std::string>& out, const std::string& what, const std::string& file, const std::string& now) {
  if (file != now) out.push_back(what + " differs: the file has " + file + ", this command has " + now);
}

}  // namespace

std::string manifest_json(const Manifest& m) {
  nlohmann::ordered_json j;  // members in the order written here
  j["format"] = kFormat;
  j["manifest_version"] = kManifestVersion;
  j["csv_format"] = m.csv_format;
  j["file"] = m.file;
  j["locksim_version"] = m.locksim_version;
  j["scenario_path"] = m.scenario_path;
  j["scenario_name"] = m.scenario_name;
  j["scenario_hash"] = m.scenario_hash;
  j["variants"] = m.variants;
  j["set"] = m.sets;
  j["vary"] = m.varies;
  j["grid_path"] = m.grid_path;
  j["grid_hash"] = m.grid_hash;
  j["keys"] = m.keys;
  j["cells"] = m.cells;
  j["seeds"] = m.seeds;
  j["shard"] = shard_text(m);
  j["shard_cells"] = {{"begin", m.shard_begin}, {"end", m.shard_end}};
  j["command_line"] = m.command_line;
  j["faults"] = m.faults;
  j["story_faults"] = m.story_faults;
  j["clients"] = m.clients;
  j["expect"] = nlohmann::ordered_json::object();
  for (const VariantExpect& e : m.expect) {
    j["expect"][e.variant] = nlohmann::ordered_json::object();
    for (const auto& [property, verdict] : e.verdicts) j["expect"][e.variant][property] = verdict;
  }
  // A path or an argument need not be UTF-8; JSON text must be, so such bytes are written as U+FFFD.
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

namespace {

// |json| as a JSON value, or nullopt with |error| in our words.
std::optional<Json> parse_json(std::string_view json, std::string& error) {
  return parse_json_text(json, kMaxDepth, error);
}

}  // namespace

std::optional<Manifest> parse_manifest(std::string_view json, std::string& error) {
  const std::optional<Json> parsed = parse_json(json, error);
  if (!parsed) return std::nullopt;
  const Json& root = *parsed;
  if (!root.is_object()) {
    error = "not a JSON object";
    return std::nullopt;
  }
  Manifest m;
  Fields f(root);
  std::string format, shard;
  f.text("format", format);
  if (f.error().empty() && format != kFormat) {
    error = "its \"format\" is not \"" + std::string(kFormat) + "\"";
    return std::nullopt;
  }
  std::uint64_t version = 1;
  if (root.contains("manifest_version")) f.number("manifest_version", version);
  if (f.error().empty() && version > kManifestVersion) {
    error = "it has manifest version " + std::to_string(version) + ", and this locksim reads versions up to " +
            std::to_string(kManifestVersion) + " (a newer locksim wrote it)";
    return std::nullopt;
  }
  f.number("csv_format", m.csv_format);
  f.text("file", m.file);
  f.text("locksim_version", m.locksim_version);
  f.text("scenario_path", m.scenario_path);
  f.text("scenario_name", m.scenario_name);
  f.text("scenario_hash", m.scenario_hash);
  if (version >= 2) {
    f.list("variants", m.variants);
  } else {
    m.variants.emplace_back();
    f.text("variant", m.variants.back());
  }
  f.list("set", m.sets);
  f.list("vary", m.varies);
  f.text("grid_path", m.grid_path);
  f.text("grid_hash", m.grid_hash);
  f.list("keys", m.keys);
  f.number("cells", m.cells);
  f.number("seeds", m.seeds);
  f.text("shard", shard);
  if (const Json* range = f.object("shard_cells")) {
    f.number("begin", m.shard_begin, range);
    f.number("end", m.shard_end, range);
  }
  f.list("command_line", m.command_line);
  if (f.error().empty() && !parse_shard_text(shard, m)) {
    error = "its \"shard\" is not K/N";
    return std::nullopt;
  }
  if (!f.error().empty()) {
    error = f.error();
    return std::nullopt;
  }
  return m;
}

std::vector<std::string> manifest_differences(const Manifest& file, const Manifest& command) {
  std::string error;
  const std::optional<Manifest> written = parse_manifest(manifest_json(command), error);
  LOCKSIM_CHECK(written.has_value(), "a manifest reads back what it wrote");
  const Manifest& now = *written;
  std::vector<std::string> out;
  if (file.locksim_version != now.locksim_version)
    out.push_back("the locksim version differs: the file was written by " + file.locksim_version + ", this is " +
                  now.locksim_version);
  if (file.csv_format != now.csv_format)
    out.push_back("the CSV format differs: the file has format " + std::to_string(file.csv_format) +
                  ", this locksim writes format " + std::to_string(now.csv_format));
  if (file.file != now.file)
    out.push_back("the file differs: it is a " + file.file + " file, this command writes a " + now.file + " file there");
  differ(out, "the scenario", file.scenario_name, now.scenario_name);
  if (file.scenario_hash != now.scenario_hash)
    out.push_back("the scenario file changed since the sweep started (hash " + file.scenario_hash + " vs " +
                  now.scenario_hash + ")");
  differ(out, "--variant", joined(file.variants), joined(now.variants));
  differ(out, "--set", joined(file.sets), joined(now.sets));
  differ(out, "--vary", joined(file.varies), joined(now.varies));
  if (file.grid_hash.empty() != now.grid_hash.empty())
    differ(out, "--grid", file.grid_hash.empty() ? "none" : file.grid_path, now.grid_hash.empty() ? "none" : now.grid_path);
  else if (file.grid_hash != now.grid_hash)
    out.push_back("the grid file changed since the sweep started (hash " + file.grid_hash + " vs " + now.grid_hash + ")");
  differ(out, "--seeds", std::to_string(file.seeds), std::to_string(now.seeds));
  differ(out, "--shard", shard_text(file), shard_text(now));
  // The rest follows from the above for one locksim version; compared in
  // case a manifest was edited by hand.
  if (out.empty()) {
    differ(out, "the keys", joined(file.keys), joined(now.keys));
    differ(out, "the cell count", std::to_string(file.cells), std::to_string(now.cells));
    differ(out, "the shard's cells", std::to_string(file.shard_begin) + ".." + std::to_string(file.shard_end),
           std::to_string(now.shard_begin) + ".." + std::to_string(now.shard_end));
  }
  return out;
}

bool gets_manifest(const std::string& csv_path) {
  if (csv_path.empty()) return false;
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(csv_path, ec);
  return !std::filesystem::exists(status) || std::filesystem::is_regular_file(status);
}

bool write_manifest(const std::string& path, const Manifest& manifest, std::string& error) {
  const std::string text = manifest_json(manifest);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  bool ok = f != nullptr && std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (f != nullptr) ok = std::fclose(f) == 0 && ok;
  if (!ok) error = "cannot write " + path + ": " + std::strerror(errno);
  return ok;
}

std::optional<Manifest> read_manifest(const std::string& path, std::string& error) {
  std::error_code ec;
  if (std::filesystem::file_size(path, ec) > kMaxManifestBytes && !ec) {
    error = path + " is not a sweep manifest: it is larger than 16 MiB";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read " + path + ": " + std::strerror(errno);
    return std::nullopt;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  std::optional<Manifest> m = parse_manifest(text, error);
  if (!m) error = path + " is not a sweep manifest: " + error;
  return m;
}

}  // namespace locksim::sweep
