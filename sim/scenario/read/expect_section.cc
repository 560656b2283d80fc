// [expect]: the verdicts and figures the story promises. Nothing here has a
// default: a key left out is not judged.
#include <algorithm>

#include "sim/scenario/client_bounds.h"
#include "sim/scenario/read/sections.h"

namespace locksim::scenario {

namespace {

constexpr std::pair<bool, std::string_view> kVerdicts[] = {{false, "holds"}, {true, "violated"}};

// What each property promises, for its row in FORMAT.md.
std::string_view property_doc(Property p) {
  switch (p) {
    case Property::grant_exclusive: return "P1: the service never grants inside another grant's promised window";
    case Property::belief_exclusive: return "P2: no two clients believe they hold the lock at once";
    case Property::resource_exclusive: return "P3: no X, Y, X interleaving of accepted ops";
    case Property::resource_current: return "P4: every accepted op comes from the current holder";
    case Property::invariant: return "P5: the application invariant";
  }
  return "";
}

template <typename Field>
BoundKey<Expectation> bound(std::string_view name, Rule rule, std::string_view doc, Field Expectation::*field) {
  return {{.name = name, .rule = std::move(rule), .doc = doc}, into(field)};
}

const KeyTable<Expectation>& expect_keys() {
  static const KeyTable<Expectation> table = [] {
    KeyTable<Expectation> t;
    for (Property p : kAllProperties)
      t.push_back({{.name = property_name(p), .rule = choice_of(kVerdicts), .doc = property_doc(p)},
                   [p](Expectation& e, const KeyValue& v) {
                     assign_key_value(e.violated[static_cast<std::size_t>(p)], v);
                   }});
    const IntegerRule count{.min = 0, .max = INT64_MAX};
    const DurationRule length{.sign = Sign::non_negative};
    t.push_back(bound("longest-stuck-at-least", length,
                      "liveness: the lock was stuck (held by nobody who can use it) at least this long",
                      &Expectation::longest_stuck_at_least));
    t.push_back(bound("longest-stuck-at-most", length, "… at most this long", &Expectation::longest_stuck_at_most));
    t.push_back(bound("sessions-at-least", count, "at least this many successful acquisitions",
                      &Expectation::sessions_at_least));
    t.push_back(bound("sessions-at-most", count, "at most this many", &Expectation::sessions_at_most));
    t.push_back(bound("expired-grants-at-least", count,
                      "at least this many grants were already over when acquire returned: the lease had ended on the "
                      "client's own clock (node-redlock's first-attempt bug)",
                      &Expectation::expired_grants_at_least));
    t.push_back(bound("expired-grants-at-most", count, "… at most this many (not below `expired-grants-at-least`)",
                      &Expectation::expired_grants_at_most));
    t.push_back(bound("commits-at-least", count,
                      "a transactional resource committed at least this many sessions (efficiency: what got done)",
                      &Expectation::commits_at_least));
    t.push_back(bound("commits-at-most", count, "… at most this many", &Expectation::commits_at_most));
    t.push_back(bound("rollbacks-at-least", count,
                      "a transactional resource rolled back at least this many sessions (efficiency: what was "
                      "thrown away)",
                      &Expectation::rollbacks_at_least));
    t.push_back(bound("rollbacks-at-most", count, "… at most this many", &Expectation::rollbacks_at_most));
    t.push_back({{.name = "fired",
                  .rule = CustomRule{"array of fault names"},
                  .doc = "the faults the story depends on: each must **fire, with an effect** (a pause of a crashed "
                         "process, a crash of a crashed one, a restart of a running one fire without effect). A fault "
                         "that did not is a mismatch: `MISMATCH fired: expected c1-gc-pause fires, got c1-gc-pause "
                         "never fired`. Every catalogue story lists its faults here"},
                 {}});
    return t;
  }();
  return table;
}

// expect.fired = ["c1-gc-pause"]: names of [fault.NAME] tables, each once.
void read_fired(ReadContext& c, const DocNode& e, std::vector<std::string>& out) {
  std::vector<std::pair<std::string, SourcePos>> items;
  if (!c.r.strings(e, "fired", items)) return;
  const std::string& key = e.find("fired")->path;
  std::vector<std::string> faults;
  for (const FaultSpec& f : c.spec.faults) faults.push_back(f.name);
  for (const auto& [name, pos] : items) {
    if (std::find(faults.begin(), faults.end(), name) == faults.end()) {
      c.r.fail(pos, key,
               "unknown fault " + in_quotes(name) + did_you_mean(name, faults) +
                   (faults.empty() ? "; the scenario has no faults" : "; faults: " + join_list(faults)));
    } else if (std::find(out.begin(), out.end(), name) != out.end()) {
      c.r.fail(pos, key, "fault " + in_quotes(name) + " is listed twice");
    } else {
      out.push_back(name);
    }
  }
}

// An "at most" below its "at least" can never be met.
template <typename T>
void check_order(ReadContext& c, const DocNode& e, const std::optional<T>& least, const std::optional<T>& most,
                 std::string_view most_key, std::string_view least_key) {
  if (least && most && *most < *least) c.r.fail(*e.find(most_key), "is below " + std::string(least_key));
}

}  // namespace

SectionDecl expect_section() { return {.name = "expect", .keys = declarations(expect_keys()), .has_defaults = false}; }

void read_expect_section(ReadContext& c) {
  const DocNode& e = c.section("expect");
  Expectation& expect = c.spec.expect;
  read_fired(c, e, expect.fired);
  read_client_bounds(c.r, e, c.spec.clients, expect.clients);
  read_keys(c.r, e, expect_keys(), expect);
  check_order(c, e, expect.longest_stuck_at_least, expect.longest_stuck_at_most, "longest-stuck-at-most",
              "longest-stuck-at-least");
  check_order(c, e, expect.sessions_at_least, expect.sessions_at_most, "sessions-at-most", "sessions-at-least");
  check_order(c, e, expect.expired_grants_at_least, expect.expired_grants_at_most, "expired-grants-at-most",
              "expired-grants-at-least");
  check_order(c, e, expect.commits_at_least, expect.commits_at_most, "commits-at-most", "commits-at-least");
  check_order(c, e, expect.rollbacks_at_least, expect.rollbacks_at_most, "rollbacks-at-most", "rollbacks-at-least");
}

}  // namespace locksim::scenario
