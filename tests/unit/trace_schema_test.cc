// The trace schema (sim/world/trace_schema.h) is the writer's own: every line
// of every catalogue variant's trace (and of the hand-made traces the
// analysis tests read) is one the schema declares, field by field, and every
// declared line, payload and field is written somewhere — so neither the
// writer nor the schema can change alone. The JSON the analysis loads and
// the tables in docs/trace.md are the schema's output, kept equal here.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "sim/core/marked_regions.h"
#include "sim/core/trace.h"
#include "sim/recorded/history_reader.h"
#include "sim/recorded/history_trace.h"
#include "sim/run/run.h"
#include "sim/world/trace_schema.h"
#include "tests/unit/catalogue_variants.h"

namespace locksim {
namespace {

using nlohmann::json;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool has_type(const json& v, char type) {
  switch (type) {
    case 's': return v.is_string();
    case 'i': return v.is_number_integer();
    case 'b': return v.is_boolean();
    case 'o': return v.is_object();
    case 'l': return v.is_array();
  }
  return false;
}

// Holds lines to the schema and remembers which lines, payloads and fields
// it saw.
class Conformance {
 public:
  // The problems with one line ("" when none).
  std::string check(const std::string& text) {
    const json line = json::parse(text);
    const std::string type = line.value("type", "");
    const TraceLineDecl* decl = find_trace_line(type);
    if (decl == nullptr) return "undeclared line type \"" + type + "\"";
    const TraceLineDecl* payload = nullptr;
    if (decl->section == TraceSection::message) {
      payload = find_trace_payload(line.value("kind", ""));
      if (payload == nullptr) return type + ": undeclared payload kind \"" + line.value("kind", "") + "\"";
      seen_.insert("payload " + std::string(payload->name));
    }
    seen_.insert(type);
    std::string problems;
    for (const auto& [key, value] : line.items()) {
      if (key == "t" || key == "type") continue;
      std::string owner = type;
      const TraceField* f = find(decl->fields, key);
      if (f == nullptr && payload != nullptr) {
        owner = "payload " + std::string(payload->name);
        f = find(payload->fields, key);
      }
      if (f == nullptr) {
        problems += owner + ": undeclared field \"" + key + "\"; ";
        continue;
      }
      seen_.insert(owner + "." + key);
      if (value.is_null() ? !f->nullable() : !has_type(value, f->type()))
        problems += owner + "." + key + ": " + value.dump() + " is not a " + std::string(f->spec) + "; ";
    }
    for (const TraceLineDecl* d : {decl, payload})
      if (d != nullptr)
        for (const TraceField& f : d->fields)
          if (!f.optional() && !line.contains(std::string(f.name)))
            problems += std::string(d->name) + ": required field \"" + std::string(f.name) + "\" missing; ";
    return problems;
  }
  // What the schema declares that no line checked so far used.
  std::vector<std::string> never_written() const {
    std::vector<std::string> out;
    for (const TraceLineDecl& d : trace_line_decls()) {
      if (!seen_.count(std::string(d.name))) out.push_back(std::string(d.name));
      if (d.section == TraceSection::message) continue;  // the shared fields: seen with any payload
      for (const TraceField& f : d.fields)
        if (!seen_.count(std::string(d.name) + "." + std::string(f.name)))
          out.push_back(std::string(d.name) + "." + std::string(f.name));
    }
    for (const TraceLineDecl& d : trace_payload_decls()) {
      const std::string name = "payload " + std::string(d.name);
      if (!seen_.count(name)) out.push_back(name);
      for (const TraceField& f : d.fields)
        if (!seen_.count(name + "." + std::string(f.name))) out.push_back(name + "." + std::string(f.name));
    }
    return out;
  }

 private:
  static const TraceField* find(const std::vector<TraceField>& fields, const std::string& key) {
    const auto f = std::find_if(fields.begin(), fields.end(), [&](const TraceField& d) { return d.name == key; });
    return f == fields.end() ? nullptr : &*f;
  }
  std::set<std::string> seen_;
};

TEST(TraceSchema, EveryWrittenLineIsDeclaredAndEveryDeclarationIsWritten) {
  Conformance conformance;
  std::map<std::string, int> failures;
  for (const CatalogueVariant& c : catalogue_variants()) {
    StringTrace trace;
    run_scenario(c.spec, 1, trace);
    std::istringstream lines(trace.text());
    std::string text;
    int number = 0;
    while (std::getline(lines, text)) {
      ++number;
      const std::string problems = conformance.check(text);
      if (!problems.empty() && failures[problems]++ == 0)
        ADD_FAILURE() << c.scenario << " · " << c.variant << " line " << number << ": " << problems << "\n" << text;
    }
  }
  // The analysis tests' hand-made traces follow the same format (they write
  // lines no catalogue story does: a clock slew, a lost message, ...).
  const auto fixtures = std::filesystem::path(LOCKSIM_SOURCE_DIR) / "tests" / "python" / "data";
  for (const auto& entry : std::filesystem::directory_iterator(fixtures)) {
    if (entry.path().extension() != ".jsonl") continue;
    std::istringstream lines(read_file(entry.path().string()));
    std::string text;
    for (int number = 1; std::getline(lines, text); ++number) {
      if (text.empty()) continue;
      const std::string problems = conformance.check(text);
      EXPECT_EQ(problems, "") << entry.path().filename() << ":" << number << "\n" << text;
    }
  }
  // And locksim check's traces of the histories in the docs: a header that
  // names its history, one that did not record the service's keys.
  for (const char* name : {"gc-pause.history.jsonl", "real-etcd-gc-pause.history.jsonl"}) {
    const auto path = std::filesystem::path(LOCKSIM_SOURCE_DIR) / "docs" / "examples" / name;
    std::ifstream in(path);
    std::string error;
    const auto history = read_history(in, path.string(), error);
    ASSERT_TRUE(history.has_value()) << error;
    StringTrace trace;
    write_history_trace(trace, name, *history, judge_recorded(*history, std::nullopt));
    std::istringstream lines(trace.text());
    std::string text;
    for (int number = 1; std::getline(lines, text); ++number)
      EXPECT_EQ(conformance.check(text), "") << name << "'s trace line " << number << "\n" << text;
  }
  // What neither writes: options no simulated client sends, and this list
  // says so.
  const std::set<std::string> written_elsewhere = {
      "payload redis-request.pxat_ms", "payload redis-request.exat_s", "payload redis-request.get",
      "payload redis-request.keepttl",  "payload redis-request.ex_s",   "payload redis-request.condition",
      "payload redis-request.numreplicas", "payload redis-request.timeout_ms", "payload redis-reply.value",
      "payload replication-getack", "unsent"};
  const std::vector<std::string> never = conformance.never_written();
  for (const std::string& missing : never)
    EXPECT_TRUE(written_elsewhere.count(missing)) << "the schema declares " << missing
                                                  << ", which no catalogue trace writes: write it, or drop it";
  for (const std::string& listed : written_elsewhere)
    EXPECT_TRUE(std::find(never.begin(), never.end(), listed) != never.end())
        << listed << " is written now: drop it from written_elsewhere";
}

TEST(TraceSchema, TheCheckFailsOnAnUndeclaredOrMistypedField) {
  // Proves the conformance check can fail: a field no line declares, a
  // required field left out, a string where an integer belongs, a null in a
  // field that cannot be null, a line type and a payload kind nobody knows.
  Conformance c;
  EXPECT_EQ(c.check(R"({"t":0,"type":"want","client":"c1"})"), "");
  EXPECT_NE(c.check(R"({"t":0,"type":"want","client":"c1","extra":1})").find("undeclared field \"extra\""),
            std::string::npos);
  EXPECT_NE(c.check(R"({"t":0,"type":"want"})").find("required field \"client\" missing"), std::string::npos);
  EXPECT_NE(c.check(R"({"t":0,"type":"release","session":"1","client":"c1"})").find("release.session"),
            std::string::npos);
  EXPECT_NE(c.check(R"({"t":0,"type":"release","session":null,"client":"c1"})").find("release.session"),
            std::string::npos);
  EXPECT_NE(c.check(R"({"t":0,"type":"wants","client":"c1"})").find("undeclared line type"), std::string::npos);
  EXPECT_NE(c.check(R"({"t":0,"type":"send","from":"a","to":"b","msg":"x","kind":"nope"})").find("payload kind"),
            std::string::npos);
}

TEST(TraceSchema, TheAnalysisReadsTheSchemaItPrints) {
  // analysis/trace_schema.json is `locksim trace-schema`'s output, byte for
  // byte (after a change to the schema: locksim trace-schema > analysis/trace_schema.json).
  const std::string path = std::string(LOCKSIM_SOURCE_DIR) + "/analysis/trace_schema.json";
  EXPECT_EQ(read_file(path), trace_schema_json()) << "run: locksim trace-schema > analysis/trace_schema.json";
}

TEST(TraceSchema, DocsTraceMdHoldsTheSchemasTables) {
  const std::string path = std::string(LOCKSIM_SOURCE_DIR) + "/docs/trace.md";
  const std::string text = read_file(path);
  ASSERT_FALSE(text.empty()) << path;
  std::vector<std::string> problems;
  EXPECT_EQ(regenerate_marked_regions(text, "trace", trace_schema_table, problems), text)
      << "run: locksim trace-schema --update docs/trace.md";
  EXPECT_TRUE(problems.empty());
  for (const std::string& name : trace_schema_table_names())
    EXPECT_NE(text.find("<!-- trace: " + name + " -->"), std::string::npos) << name << " has no table in trace.md";
}

}  // namespace
}  // namespace locksim
