#include "sim/sweep/manifest.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/trace.h"
#include "sim/sweep/json_value.h"

namespace locksim::sweep {

namespace {

constexpr std::string_view kFormat = "locksim sweep manifest";
constexpr std::size_t kMaxManifestBytes = 16 << 20;

std::string string_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i > 0 ? ", " : "") + json_quote(items[i]);
  return out + "]";
}

// Reads the members of a manifest object; remembers the first problem.
class Fields {
 public:
  explicit Fields(const JsonValue& object) : object_(object) {}

  void text(const char* name, std::string& out) {
    const JsonValue* v = get(name, JsonValue::Type::string, "a string");
    if (v != nullptr) out = v->text;
  }
  void number(const char* name, std::uint64_t& out, const JsonValue* from = nullptr) {
    const JsonValue* v = get(name, JsonValue::Type::number, "a whole number", from);
    if (v != nullptr && v->negative) problem(name, "a whole number");
    else if (v != nullptr) out = v->number;
  }
  void list(const char* name, std::vector<std::string>& out) {
    const JsonValue* v = get(name, JsonValue::Type::array, "a list of strings");
    if (v == nullptr) return;
    out.clear();
    for (const JsonValue& item : v->items) {
      if (item.type != JsonValue::Type::string) return problem(name, "a list of strings");
      out.push_back(item.text);
    }
  }
  const JsonValue* object(const char* name) { return get(name, JsonValue::Type::object, "an object"); }
  const std::string& error() const { return error_; }

 private:
  const JsonValue* get(const char* name, JsonValue::Type type, const char* kind, const JsonValue* from = nullptr) {
    const JsonValue* v = (from != nullptr ? *from : object_).find(name);
    if (v == nullptr) {
      if (error_.empty()) error_ = std::string("no \"") + name + "\"";
      return nullptr;
    }
    if (v->type != type) {
      problem(name, kind);
      return nullptr;
    }
    return v;
  }
  void problem(const char* name, const char* kind) {
    if (error_.empty()) error_ = std::string("\"") + name + "\" is not " + kind;
  }

  const JsonValue& object_;
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
  std::string out = "{\n";
  const auto member = [&](const char* name, const std::string& json, bool last = false) {
    out += "  " + json_quote(name) + ": " + json + (last ? "\n" : ",\n");
  };
  member("format", json_quote(kFormat));
  member("csv_format", std::to_string(m.csv_format));
  member("file", json_quote(m.file));
  member("locksim_version", json_quote(m.locksim_version));
  member("scenario_path", json_quote(m.scenario_path));
  member("scenario_name", json_quote(m.scenario_name));
  member("scenario_hash", json_quote(m.scenario_hash));
  member("variant", json_quote(m.variant));
  member("set", string_list(m.sets));
  member("vary", string_list(m.varies));
  member("grid_path", json_quote(m.grid_path));
  member("grid_hash", json_quote(m.grid_hash));
  member("keys", string_list(m.keys));
  member("cells", std::to_string(m.cells));
  member("seeds", std::to_string(m.seeds));
  member("shard", json_quote(shard_text(m)));
  member("shard_cells",
         "{\"begin\": " + std::to_string(m.shard_begin) + ", \"end\": " + std::to_string(m.shard_end) + "}");
  member("command_line", string_list(m.command_line), true);
  return out + "}\n";
}

std::optional<Manifest> parse_manifest(std::string_view json, std::string& error) {
  std::optional<JsonValue> root = parse_json(json, error);
  if (!root) return std::nullopt;
  if (root->type != JsonValue::Type::object) {
    error = "not a JSON object";
    return std::nullopt;
  }
  Manifest m;
  Fields f(*root);
  std::string format, shard;
  f.text("format", format);
  if (f.error().empty() && format != kFormat) {
    error = "its \"format\" is not \"" + std::string(kFormat) + "\"";
    return std::nullopt;
  }
  f.number("csv_format", m.csv_format);
  f.text("file", m.file);
  f.text("locksim_version", m.locksim_version);
  f.text("scenario_path", m.scenario_path);
  f.text("scenario_name", m.scenario_name);
  f.text("scenario_hash", m.scenario_hash);
  f.text("variant", m.variant);
  f.list("set", m.sets);
  f.list("vary", m.varies);
  f.text("grid_path", m.grid_path);
  f.text("grid_hash", m.grid_hash);
  f.list("keys", m.keys);
  f.number("cells", m.cells);
  f.number("seeds", m.seeds);
  f.text("shard", shard);
  if (const JsonValue* range = f.object("shard_cells")) {
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

std::vector<std::string> manifest_differences(const Manifest& file, const Manifest& now) {
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
  differ(out, "--variant", file.variant, now.variant);
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
