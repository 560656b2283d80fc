// [scenario]: the story's name and how long and how far a run may go.
#include "sim/core/limits.h"
#include "sim/scenario/read/sections.h"

namespace locksim::scenario {

namespace {

using namespace std::chrono_literals;

const KeyTable<ScenarioSpec> kScenarioKeys{
    {{.name = "name",
      .rule = StringRule{.non_empty = true},
      .doc = "the scenario's id, used in tables, CSV rows and file names; not empty",
      .required = true},
     into(&ScenarioSpec::name)},
    {{.name = "title", .rule = StringRule{.fallback = ""}, .doc = "one line for reports"},
     into(&ScenarioSpec::title)},
    {{.name = "story",
      .rule = StringRule{.fallback = ""},
      .doc = "what happens, in prose (a multi-line `\"\"\"` string)"},
     into(&ScenarioSpec::story)},
    {{.name = "run_for",
      .rule = DurationRule{.sign = Sign::positive, .fallback = 60s},
      .doc = "true time the run lasts",
      .type_note = "duration > 0, at most 100 years"},
     into(&ScenarioSpec::run_for)},
    {{.name = "seed",
      .rule = IntegerRule{.min = 0, .max = INT64_MAX, .fallback = 1},
      .doc = "run seed; one scenario + one seed = one trace"},
     into(&ScenarioSpec::seed)},
    // Budgets: a run that needs more stops with an error rather than
    // running for ever (a retry loop with no delay) or exhausting memory.
    {{.name = "max_events",
      .rule = IntegerRule{.min = 1,
                          .max = static_cast<std::int64_t>(kMaxEventBudget),
                          .fallback = static_cast<std::int64_t>(kDefaultMaxEvents)},
      .doc = "the run's event budget: more is an error (see [limits](#limits))"},
     into(&ScenarioSpec::max_events)},
    {{.name = "max_facts",
      .rule = IntegerRule{.min = 1,
                          .max = static_cast<std::int64_t>(kMaxFactBudget),
                          .fallback = static_cast<std::int64_t>(kDefaultMaxFacts)},
      .doc = "the run's history budget: more recorded facts is an error"},
     into(&ScenarioSpec::max_facts)},};

}  // namespace

SectionDecl scenario_section() { return {.name = "scenario", .keys = declarations(kScenarioKeys)}; }

void read_scenario_section(ReadContext& c) { read_keys(c.r, c.section("scenario"), kScenarioKeys, c.spec); }

}  // namespace locksim::scenario
