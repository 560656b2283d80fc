// Each fault kind's writer is the inverse of its reader: a [fault.NAME]
// table written from a read fault reads back as the same fault. Findings
// and near misses are written this way, so a writer that drops or bends a
// key would hand the user a reproducer that does not reproduce.
#include <gtest/gtest.h>

#include <toml++/toml.h>

#include <set>
#include <sstream>
#include <string>

#include "sim/scenario/faults/fault_kinds.h"
#include "sim/scenario/file.h"

namespace locksim {
namespace {

constexpr const char* kStory =
    "[scenario]\n"
    "name = \"writer\"\n"
    "run_for = \"60s\"\n"
    "[redis]\n"
    "nodes = [\"r1\"]\n"
    "[client.c1]\n"
    "steps = [\"read\", \"work 1s\", \"write\"]\n"
    "[client.c2]\n"
    "steps = [\"read\", \"work 1s\", \"write\"]\n";

// Every listed kind, each key in more than one form: constants and
// distributions, signs, optional keys present and absent, each choice.
constexpr const char* kFaults = R"toml(
[fault.p1]
kind = "pause"
target = "c1"
at = "1s"
length = "2.5s"
[fault.p2]
kind = "pause"
target = "c2"
at = "1s"
length = "lognormal(2s, 0.5)"
[fault.k1]
kind = "crash"
target = "c1"
at = "1s"
[fault.k2]
kind = "crash"
target = "r1"
at = "1s"
restart_after = "0s"
what = "process"
[fault.r1]
kind = "restart"
target = "r1"
at = "9s"
[fault.j1]
kind = "clock-jump"
target = "c1"
at = "1s"
by = "-2.001s"
[fault.j2]
kind = "clock-jump"
target = "c1"
at = "1s"
by = "+uniform(5s, 20s)"
[fault.j3]
kind = "clock-jump"
target = "c2"
at = "1s"
by = "15s"
[fault.d1]
kind = "clock-drift"
target = "c1"
at = "1s"
drift = "-10000ppm"
[fault.s1]
kind = "clock-slew"
target = "c2"
at = "1s"
drift = "500ppm"
length = "uniform(1s, 2s)"
[fault.n1]
kind = "partition"
at = "1s"
groups = [["c1"], ["c2"]]
[fault.n2]
kind = "partition"
at = "1s"
groups = [["c2"], ["c1"]]
mode = "hold"
heal_after = "1.5s"
)toml";

std::optional<ScenarioSpec> read(const std::string& text) {
  ScenarioErrors errors;
  const std::optional<ScenarioFile> file = ScenarioFile::from_string(text, "writer.toml", errors);
  std::optional<ScenarioSpec> spec;
  if (file) spec = file->resolve("base", {}, errors);
  for (const auto& e : errors) ADD_FAILURE() << e.message;
  return spec;
}

// The [fault.NAME] tables of |spec|, each written by its kind's writer.
toml::table written(const ScenarioSpec& spec) {
  toml::table faults;
  for (const FaultSpec& f : spec.faults) {
    toml::table t;
    t.insert_or_assign("at", format_duration(f.trigger.at_time));
    scenario::write_fault_kind(f.kind, t);
    faults.insert_or_assign(f.name, std::move(t));
  }
  return faults;
}

std::string as_text(const toml::table& faults) {
  std::ostringstream out;
  out << toml::toml_formatter(toml::table{{"fault", faults}}, toml::format_flags::none);
  return out.str();
}

TEST(FaultWriter, ReadsBackAsWritten) {
  const std::optional<ScenarioSpec> first = read(std::string(kStory) + kFaults);
  ASSERT_TRUE(first);
  const toml::table once = written(*first);
  const std::optional<ScenarioSpec> again = read(std::string(kStory) + as_text(once));
  ASSERT_TRUE(again);
  EXPECT_EQ(as_text(written(*again)), as_text(once));
  // Nothing the reader read was lost: each key as written comes back.
  const toml::table original = toml::parse(kFaults);
  for (const auto& [name, table] : *original["fault"].as_table())
    for (const auto& [key, value] : *table.as_table()) {
      if (key.str() == "at") continue;
      const toml::node* back = once[name.str()][key.str()].node();
      ASSERT_NE(back, nullptr) << name.str() << "." << key.str() << " was not written";
      if (value.is_string() && value.value<std::string>()->front() != '+' && key.str() != "by")
        EXPECT_EQ(*back->value<std::string>(), *value.value<std::string>()) << name.str() << "." << key.str();
    }
}

TEST(FaultWriter, CoversEveryKind) {
  std::set<std::string> sampled;
  const toml::table original = toml::parse(kFaults);
  for (const auto& [name, table] : *original["fault"].as_table())
    sampled.insert(*(*table.as_table())["kind"].value<std::string>());
  for (const std::string& kind : scenario::fault_kind_names())
    EXPECT_TRUE(sampled.count(kind)) << "add a " << kind << " fault to kFaults: its writer is untested";
}

// What a search builds from a searched value comes back through the writer
// and reader as the same value, for every searchable kind.
TEST(FaultWriter, SearchedFaultsReadBack) {
  const std::vector<std::string> targets{"r1", "c2"};  // a server first: a crash may restart it
  for (const scenario::SearchableKind& kind : scenario::searchable_kinds()) {
    scenario::SearchedFault f{.target = &targets[0], .targets = &targets, .values = {}};
    for (std::size_t i = 0; i < kind.values->size(); ++i) {
      switch ((*kind.values)[i].type) {
        case scenario::Searched::duration: f.values[i] = -1'234'567'891; break;
        case scenario::Searched::rate: f.values[i] = -250; break;
        case scenario::Searched::split: f.values[i] = 2; break;
        case scenario::Searched::choice:
          f.values[i] = std::get<scenario::ChoiceRule>(kind.key((*kind.values)[i].key).rule).options.back().first;
          break;
      }
      if ((*kind.values)[i].sign != scenario::Sign::any && (*kind.values)[i].type == scenario::Searched::duration)
        f.values[i] = 1'234'567'891;
    }
    toml::table t;
    t.insert_or_assign("at", "1s");
    scenario::write_fault_kind(kind.make(f), t);
    const std::optional<ScenarioSpec> spec = read(std::string(kStory) + as_text(toml::table{{"x", t}}));
    ASSERT_TRUE(spec) << kind.name;
    EXPECT_EQ(as_text(written(*spec)), as_text(toml::table{{"x", t}})) << kind.name;
    EXPECT_EQ(scenario::describe_fault(spec->faults.at(0).kind), scenario::describe_fault(kind.make(f)));
  }
}

}  // namespace
}  // namespace locksim
