// Scenario files: loading, variants and --set. Each variant's document is
// the base with the variant merged in (doc.h), then each --set; read_spec()
// (read/spec_reader.h) turns the merged document into a ScenarioSpec.
#include "sim/scenario/file.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/check.h"
#include "sim/core/limits.h"
#include "sim/core/rng.h"
#include "sim/scenario/doc.h"
#include "sim/scenario/read/spec_reader.h"
#include "sim/scenario/reader.h"
#include "sim/scenario/variant_table.h"

namespace locksim {

using scenario::DocNode;
using scenario::in_quotes;
using scenario::join_key;
using scenario::join_list;
using scenario::Reader;
using scenario::trim;

struct ScenarioFile::Impl {
  using Variant = scenario::VariantTable;
  std::string path;
  std::uint64_t content_hash = 0;
  std::shared_ptr<const toml::table> toml;  // owns every value the trees point into
  DocNode base;                             // the document without [variant]
  std::vector<Variant> variants;            // in file order

  const Variant* find_variant(const std::string& name) const {
    for (const Variant& v : variants)
      if (v.name == name) return &v;
    return nullptr;
  }
};

namespace {

constexpr const char* kSetFile = "--set";

// `--set a.b.c=value` as a one-key document merged into |root|.
bool apply_override(const std::string& text, DocNode& root, std::vector<std::shared_ptr<toml::table>>& keep_alive,
                    ScenarioError& error) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos) {
    error = {kSetFile, 0, "", "expected KEY=VALUE such as \"lock.ttl=10s\", got " + in_quotes(text)};
    return false;
  }
  const std::string key = trim(std::string_view(text).substr(0, eq));
  const std::string value = trim(std::string_view(text).substr(eq + 1));
  // One key per --set: a value spanning lines would be read as a TOML
  // document whose second line sets a key nobody checks.
  if (text.find_first_of("\r\n") != std::string::npos) {
    error = {kSetFile, 0, key, "a --set is one KEY=VALUE on one line; give each key its own --set"};
    return false;
  }
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = key.find('.', start);
    parts.push_back(
        trim(std::string_view(key).substr(start, dot == std::string::npos ? std::string::npos : dot - start)));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  for (const std::string& p : parts) {
    if (p.empty()) {
      error = {
          kSetFile, 0, key,
          key.empty() ? "missing key before '=' in " + in_quotes(text) : "empty part in dotted key " + in_quotes(key)};
      return false;
    }
  }
  if (parts.front() == "variant") {
    error = {kSetFile, 0, key, "--set cannot change variants; choose the variant to run instead"};
    return false;
  }
  auto doc = std::make_shared<toml::table>();
  try {
    *doc = toml::parse("v = " + value);
  } catch (const toml::parse_error&) {
    doc->clear();
  }
  if (!doc->contains("v")) doc->insert_or_assign("v", value);  // not TOML: a plain string
  keep_alive.push_back(doc);

  std::string path;
  for (const std::string& p : parts) path = join_key(path, p);
  DocNode node = scenario::doc_from_value(*doc->get("v"), parts.back(), path, SourcePos{kSetFile, 0}, false);
  for (std::size_t i = parts.size() - 1; i-- > 0;) {
    DocNode parent;
    parent.key = parts[i];
    parent.path = path.substr(0, path.size() - join_key("", node.key).size() - 1);
    path = parent.path;
    parent.pos = {kSetFile, 0};
    parent.table = true;
    parent.members.push_back(std::move(node));
    node = std::move(parent);
  }
  DocNode wrapper;
  wrapper.table = true;
  wrapper.members.push_back(std::move(node));
  merge_into(root, wrapper);
  return true;
}

std::string variant_note(const std::string& variant) { return " (in variant " + in_quotes(variant) + ")"; }

// |message| without the note variant_note() appended, if it has one.
std::string strip_variant_note(const std::string& message) {
  const std::size_t note = message.rfind(" (in variant \"");
  return note == std::string::npos || message.back() != ')' ? message : message.substr(0, note);
}

std::string string_at(const DocNode& root, std::string_view table, std::string_view key) {
  const DocNode* t = root.find(table);
  const DocNode* v = t != nullptr && t->table ? t->find(key) : nullptr;
  if (v == nullptr || v->table || !v->value->is_string()) return "";
  return *v->value->value<std::string>();
}

}  // namespace

std::optional<ScenarioFile> ScenarioFile::load(const std::string& path, ScenarioError& error) {
  ScenarioErrors errors;
  std::optional<ScenarioFile> file = load(path, errors);
  if (!file) error = errors.front();
  return file;
}

std::optional<ScenarioFile> ScenarioFile::load(const std::string& path, ScenarioErrors& errors) {
  errors.clear();
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    errors.push_back({path, 0, "", "is a directory, not a scenario file"});
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    errors.push_back({path, 0, "", std::string("cannot open the scenario file: ") + std::strerror(errno)});
    return std::nullopt;
  }
  // Read at most one byte past the limit: /dev/zero or a mistaken log file
  // must be refused, not read until memory runs out.
  std::string text(kMaxScenarioBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) {
    errors.push_back({path, 0, "", "cannot read the scenario file"});
    return std::nullopt;
  }
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxScenarioBytes) {
    errors.push_back({path, 0, "",
                      "is larger than " + std::to_string(kMaxScenarioBytes >> 20) +
                          " MiB, the most a scenario file may be (is it a scenario file?)"});
    return std::nullopt;
  }
  return from_string(text, path, errors);
}

std::optional<ScenarioFile> ScenarioFile::from_string(std::string_view text, const std::string& path,
                                                      ScenarioError& error) {
  ScenarioErrors errors;
  std::optional<ScenarioFile> file = from_string(text, path, errors);
  if (!file) error = errors.front();
  return file;
}

std::optional<ScenarioFile> ScenarioFile::from_string(std::string_view text, const std::string& path,
                                                      ScenarioErrors& errors) {
  errors.clear();
  auto impl = std::make_shared<Impl>();
  impl->path = path;
  impl->content_hash = stable_hash(text);
  try {
    impl->toml = std::make_shared<const toml::table>(toml::parse(text, std::string_view(path)));
  } catch (const toml::parse_error& e) {
    errors.push_back({path, static_cast<int>(e.source().begin.line), "", "invalid TOML: " + std::string(e.description())});
    return std::nullopt;
  }

  Reader r;
  const DocNode root = scenario::doc_from_toml(*impl->toml, path, true);
  impl->base = root;
  impl->base.members.clear();
  impl->base.pos.line = 0;
  for (const DocNode& section : root.members) {
    if (section.key != "variant") {
      impl->base.members.push_back(section);
      continue;
    }
    if (!section.table) {
      r.fail(section,
             "expected variant tables such as [variant.fenced], got " + scenario::describe_value(*section.value));
      continue;
    }
    for (const DocNode& v : section.members) {
      if (!v.table) {
        r.fail(v, "expected a table such as [variant." + v.key + "], got " + scenario::describe_value(*v.value));
        continue;
      }
      if (v.key == "base") {
        r.fail(v, "\"base\" is the scenario itself; give the variant another name");
        continue;
      }
      impl->variants.push_back(scenario::read_variant_table(r, v));
    }
  }
  scenario::check_extends(r, impl->variants);
  errors = r.errors();

  // Every variant is validated, and every error reported once: a mistake in
  // the base shows up in each variant too, and is listed only for the base
  // (or for the variant that others extend). A variant whose extends chain
  // is broken is not resolved: check_extends said why.
  ScenarioFile file(std::move(impl));
  for (const std::string& variant : file.variants()) {
    if (variant != "base" && scenario::lineage(file.impl_->variants, variant).empty()) continue;
    ScenarioErrors variant_errors;
    if (file.resolve(variant, {}, variant_errors)) continue;
    for (ScenarioError& e : variant_errors) {
      const bool seen = std::any_of(errors.begin(), errors.end(), [&](const ScenarioError& known) {
        return known.file == e.file && known.line == e.line && known.key == e.key &&
               known.message.rfind(strip_variant_note(e.message), 0) == 0;
      });
      if (!seen) errors.push_back(std::move(e));
    }
  }
  if (!errors.empty()) return std::nullopt;
  return file;
}

const std::string& ScenarioFile::path() const { return impl_->path; }

std::string ScenarioFile::content_hash() const {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(impl_->content_hash));
  return hex;
}
std::string ScenarioFile::name() const { return string_at(impl_->base, "scenario", "name"); }
std::string ScenarioFile::title() const { return string_at(impl_->base, "scenario", "title"); }
std::string ScenarioFile::story() const { return string_at(impl_->base, "scenario", "story"); }

std::vector<std::string> ScenarioFile::variants() const {
  std::vector<std::string> names{"base"};
  for (const Impl::Variant& v : impl_->variants) names.push_back(v.name);
  return names;
}

std::string ScenarioFile::variant_description(const std::string& variant) const {
  const Impl::Variant* v = impl_->find_variant(variant);
  return v != nullptr ? v->description : "";
}

std::optional<ScenarioSpec> ScenarioFile::resolve(const std::string& variant, const std::vector<std::string>& overrides,
                                                  ScenarioError& error) const {
  ScenarioErrors errors;
  std::optional<ScenarioSpec> spec = resolve(variant, overrides, errors);
  if (!spec) error = errors.front();
  return spec;
}

struct ScenarioFile::Merged {
  DocNode root;
  std::vector<std::shared_ptr<toml::table>> set_values;  // the --set documents the tree points into
  const Impl::Variant* variant = nullptr;                // null for "base"
};

bool ScenarioFile::merge(const std::string& variant, const std::vector<std::string>& overrides, Merged& out,
                         ScenarioErrors& errors) const {
  errors.clear();
  const Impl& impl = *impl_;
  DocNode& root = out.root;
  root = impl.base;
  if (variant != "base") {
    const Impl::Variant* v = impl.find_variant(variant);
    out.variant = v;
    if (v == nullptr) {
      const std::vector<std::string> known = variants();
      errors.push_back({impl.path, 0, "",
                        "unknown variant " + in_quotes(variant) + scenario::did_you_mean(variant, known) +
                            "; variants: " + join_list(known)});
      return false;
    }
    // Each variant it builds on, the base-most first: what that one
    // inherited, less its unset entries, plus its own keys.
    const std::vector<const Impl::Variant*> chain = scenario::lineage(impl.variants, variant);
    LOCKSIM_CHECK(!chain.empty(), "a loaded file has no broken extends chain (from_string checks them)");
    for (const Impl::Variant* step : chain) {
      scenario::apply_unset(*step, root, errors);
      merge_into(root, step->doc);
    }
    if (!errors.empty()) return false;
  }
  for (const std::string& o : overrides) {
    ScenarioError error;
    if (!apply_override(o, root, out.set_values, error)) {
      errors.push_back(std::move(error));
      return false;
    }
  }
  return true;
}

namespace {

// |node|'s tree as a TOML table: tables in the order the document wrote them
// (toml++ sorts them when it prints), leaves copied from the parsed values.
void to_toml(const DocNode& node, toml::table& out) {
  for (const DocNode& m : node.members) {
    if (m.table) {
      toml::table inner;
      to_toml(m, inner);
      out.insert_or_assign(m.key, std::move(inner));
    } else {
      m.value->visit([&](const auto& value) { out.insert_or_assign(m.key, value); });
    }
  }
}

}  // namespace

std::optional<std::string> ScenarioFile::merged_toml(const std::string& variant,
                                                     const std::vector<std::string>& overrides,
                                                     ScenarioErrors& errors) const {
  Merged merged;
  if (!merge(variant, overrides, merged, errors)) return std::nullopt;
  toml::table document;
  to_toml(merged.root, document);
  std::ostringstream text;
  text << toml::toml_formatter(document, toml::format_flags::none);
  return text.str();
}

std::optional<ScenarioSpec> ScenarioFile::resolve(const std::string& variant, const std::vector<std::string>& overrides,
                                                  ScenarioErrors& errors) const {
  const Impl& impl = *impl_;
  Merged merged;
  if (!merge(variant, overrides, merged, errors)) return std::nullopt;
  const DocNode& root = merged.root;
  const Impl::Variant* v = merged.variant;

  Reader r;
  ScenarioSpec spec = scenario::read_spec(r, root, impl.path);
  if (r.failed()) {
    errors = r.errors();
    // A base key that only breaks with this variant: say which variant.
    for (ScenarioError& e : errors)
      if (v != nullptr && e.file != kSetFile && e.key.rfind(join_key("variant", variant) + ".", 0) != 0)
        e.message += variant_note(variant);
    return std::nullopt;
  }
  spec.file = impl.path;
  spec.variant = variant;
  spec.variant_description = v != nullptr ? v->description : "";
  return spec;
}

}  // namespace locksim
