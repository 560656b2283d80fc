// [search] and [search.KIND]: the fault space `locksim search` draws from
// (search_spec.h). Read after the clients and faults, because it names
// clients, phases and every other process, and its window defaults to
// run_for.
#include <algorithm>
#include <climits>

#include "sim/core/limits.h"
#include "sim/scenario/read/clock_rate.h"
#include "sim/scenario/read/sections.h"

namespace locksim::scenario {

namespace {

using namespace std::chrono_literals;

constexpr std::pair<StoryFaults, std::string_view> kStoryFaults[] = {
    {StoryFaults::remove, "remove"}, {StoryFaults::keep, "keep"}, {StoryFaults::search, "search"}};
constexpr int kMaxSearchFaults = 16;

const KeyTable<SearchSpec>& search_keys() {
  static const KeyTable<SearchSpec> table{
      {{.name = "hunt",
        .rule = CustomRule{"array of property names"},
        .doc = "the properties a finding must break (`\"grant-exclusive\"`, ... as in [expect])",
        .default_note = "all five"},
       {}},
      {{.name = "story_faults",
        .rule = choice_of(kStoryFaults, StoryFaults::remove),
        .doc = "the story's own [fault.NAME] tables: `remove` them, `keep` them in every run, or `search` them "
               "(each run keeps each with probability ½ at a time drawn from the window)"},
       into(&SearchSpec::story_faults)},
      {{.name = "max_faults",
        .rule = IntegerRule{.min = 1, .max = kMaxSearchFaults, .fallback = 2},
        .doc = "the most faults the search places in one run"},
       into(&SearchSpec::max_faults)},
      {{.name = "from",
        .rule = DurationRule{.sign = Sign::non_negative, .fallback = 0s},
        .doc = "the window fault times are drawn from starts here"},
       into(&SearchSpec::from)},
      {{.name = "until",
        .rule = DurationRule{.sign = Sign::positive},
        .doc = "... and ends here (at most `run_for`)",
        .default_note = "`run_for`"},
       into(&SearchSpec::until)},
      {{.name = "phase_clients",
        .rule = CustomRule{"array of client names"},
        .doc = "the clients whose phases may trigger a fault",
        .default_note = "every client"},
       {}},
      {{.name = "phases",
        .rule = CustomRule{"array of phases"},
        .doc = "the phases that may trigger a fault, where a client reaches them",
        .default_note = "`acquire-sent`, `acquired`, `checked`, `read`, `worked`, `called`, `wrote`"},
       {}},
      {{.name = "latencies",
        .rule = CustomRule{"array of latencies"},
        .doc = "each run's [network] latency is drawn from these (`[\"1ms\", \"lognormal(2ms, 0.5)\"]`)",
        .default_note = "as written"},
       {}},
  };
  return table;
}

constexpr std::string_view kKindKeyDoc = "a table: the fault kind may be injected, within the ranges it gives (below)";

// The keys of [search.KIND], by kind; "targets" is every kind's.
struct KindKey {
  std::string_view name;
  std::string_view type;
  std::string_view doc;
  std::vector<SearchKind> kinds;
  bool required = false;
};

const std::vector<KindKey>& kind_keys() {
  static const std::vector<KindKey> table{
      {"targets", "array of process names", "the processes it may hit (a partition: the processes it splits into two groups)",
       {SearchKind::pause, SearchKind::crash, SearchKind::clock_jump, SearchKind::clock_drift, SearchKind::clock_slew,
        SearchKind::partition},
       true},
      {"length", "duration range", "`\"100ms..30s\"`: how long a pause or a slew lasts",
       {SearchKind::pause, SearchKind::clock_slew}, true},
      {"by", "signed duration range", "`\"-20s..+20s\"`: how far the wall clock steps", {SearchKind::clock_jump}, true},
      {"drift", "rate range", "`\"-1%..+1%\"`: the clock's new rate", {SearchKind::clock_drift, SearchKind::clock_slew},
       true},
      {"restart_after", "duration range", "`\"0s..10s\"`: restart this long after the crash; absent = stays down",
       {SearchKind::crash}},
      {"heal_after", "duration range", "`\"1s..20s\"`: heal this long after it starts; absent = never",
       {SearchKind::partition}},
      {"mode", "`\"drop\"` \\| `\"hold\"` \\| `\"either\"`", "what the partition does to cut messages",
       {SearchKind::partition}},
  };
  return table;
}

bool kind_takes(const KindKey& key, SearchKind kind) {
  return std::find(key.kinds.begin(), key.kinds.end(), kind) != key.kinds.end();
}

// "LOW..HIGH" split in two; false when there is no "..".
bool split_range(const std::string& text, std::string& low, std::string& high) {
  const std::size_t dots = text.find("..");
  if (dots == std::string::npos) return false;
  low = trim(text.substr(0, dots));
  high = trim(text.substr(dots + 2));
  return !low.empty() && !high.empty();
}

std::optional<SearchRange<Duration>> read_duration_range(Reader& r, const DocNode& table, std::string_view key,
                                                         Sign sign) {
  const DocNode* node = table.find(key);
  std::string text;
  if (node == nullptr || !r.string_value(*node, "a range such as \"100ms..30s\"", text)) return std::nullopt;
  std::string low_text, high_text;
  SearchRange<Duration> range;
  if (!split_range(text, low_text, high_text)) {
    r.fail(*node, "expected a range LOW..HIGH such as \"100ms..30s\", got " + in_quotes(text));
    return std::nullopt;
  }
  // "+20s" is a signed duration; read_duration_text takes the sign as written.
  const auto read_end = [&](const std::string& end, Duration& out) {
    const std::string unsigned_text = !end.empty() && end.front() == '+' ? end.substr(1) : end;
    if (read_duration_text(unsigned_text, out) != DurationText::ok) {
      r.fail(*node, in_quotes(end) + " in " + in_quotes(text) + " is not a duration such as \"250ms\"");
      return false;
    }
    if (std::chrono::abs(out) > kMaxDuration) {
      r.fail(*node, in_quotes(end) + " is beyond the longest duration, 100 years");
      return false;
    }
    return true;
  };
  if (!read_end(low_text, range.low) || !read_end(high_text, range.high)) return std::nullopt;
  if (range.low > range.high) {
    r.fail(*node, "the range " + in_quotes(text) + " ends before it starts");
    return std::nullopt;
  }
  if (sign == Sign::non_negative && range.low < 0s) {
    r.fail(*node, "must not be negative, got " + in_quotes(text));
    return std::nullopt;
  }
  if (sign == Sign::positive && range.low <= 0s) {
    r.fail(*node, "must be above zero, got " + in_quotes(text));
    return std::nullopt;
  }
  return range;
}

std::optional<SearchRange<std::int64_t>> read_drift_range(Reader& r, const DocNode& table) {
  const DocNode* node = table.find("drift");
  std::string text;
  if (node == nullptr || !r.string_value(*node, "a range such as \"-1%..+1%\"", text)) return std::nullopt;
  std::string low_text, high_text;
  if (!split_range(text, low_text, high_text)) {
    r.fail(*node, "expected a range LOW..HIGH such as \"-1%..+1%\", got " + in_quotes(text));
    return std::nullopt;
  }
  const RateRule rule = drift_rule();
  SearchRange<std::int64_t> range;
  for (auto [end, out] : {std::pair{&low_text, &range.low}, std::pair{&high_text, &range.high}}) {
    std::string error;
    const std::string unsigned_text = end->front() == '+' ? end->substr(1) : *end;
    const std::optional<std::int64_t> ppm = ppm_from_text(unsigned_text, error);
    if (!ppm) {
      r.fail(*node, error);
      return std::nullopt;
    }
    if (*ppm < rule.min_ppm || *ppm > rule.max_ppm) {
      r.fail(*node, std::string(rule.range_rule) + ", got " + in_quotes(*end));
      return std::nullopt;
    }
    *out = *ppm;
  }
  if (range.low > range.high) {
    r.fail(*node, "the range " + in_quotes(text) + " ends before it starts");
    return std::nullopt;
  }
  return range;
}

void read_kind(ReadContext& c, const DocNode& t, SearchKind kind, SearchSpec& out) {
  SearchKindSpec spec;
  spec.kind = kind;
  spec.pos = t.pos;
  std::vector<std::string> takes;
  for (const KindKey& k : kind_keys())
    if (kind_takes(k, kind)) takes.emplace_back(k.name);
  for (const DocNode& m : t.members)
    if (std::find(takes.begin(), takes.end(), m.key) == takes.end())
      c.r.fail(m, in_quotes(m.key) + " does not apply to [search." + search_kind_name(kind) + "] (it takes: " +
                      join_list(takes) + ")");
  for (const KindKey& k : kind_keys())
    if (k.required && kind_takes(k, kind)) c.r.require(t, k.name);
  std::vector<std::pair<std::string, SourcePos>> targets;
  if (c.r.strings(t, "targets", targets)) {
    for (const auto& [name, pos] : targets) {
      if (!c.processes.known(c.r, name, pos, t.path + ".targets")) continue;
      if (std::find(spec.targets.begin(), spec.targets.end(), name) != spec.targets.end()) {
        c.r.fail(pos, t.path + ".targets", in_quotes(name) + " is listed twice");
        continue;
      }
      // A restart brings back a server's state from its persistence; a
      // client that crashed has no story to come back to.
      if (kind == SearchKind::crash && t.find("restart_after") != nullptr &&
          c.processes.find(name)->kind == std::string_view("client"))
        c.r.fail(pos, t.path + ".targets",
                 "a client cannot restart: list clients in a crash space without restart_after, or drop " +
                     in_quotes(name));
      spec.targets.push_back(name);
    }
    if (targets.empty()) c.r.fail(*t.find("targets"), "lists no process");
    if (kind == SearchKind::partition && targets.size() == 1)
      c.r.fail(*t.find("targets"), "a partition splits at least two processes");
    // A split is a bit per target (search/candidate.h).
    if (kind == SearchKind::partition && targets.size() > kMostPartitionTargets)
      c.r.fail(*t.find("targets"), "a searched partition splits at most " + std::to_string(kMostPartitionTargets) +
                                       " processes, got " + std::to_string(targets.size()));
  }
  switch (kind) {
    case SearchKind::pause:
    case SearchKind::clock_slew:
      if (auto r = read_duration_range(c.r, t, "length", Sign::positive)) spec.length = *r;
      break;
    case SearchKind::clock_jump:
      if (auto r = read_duration_range(c.r, t, "by", Sign::any)) spec.length = *r;
      break;
    default: break;
  }
  if (kind == SearchKind::clock_drift || kind == SearchKind::clock_slew)
    if (auto r = read_drift_range(c.r, t)) spec.drift_ppm = *r;
  if (t.find("restart_after") != nullptr) spec.restart_after = read_duration_range(c.r, t, "restart_after", Sign::non_negative);
  if (t.find("heal_after") != nullptr) spec.heal_after = read_duration_range(c.r, t, "heal_after", Sign::non_negative);
  if (kind == SearchKind::partition) {
    spec.modes = {PartitionMode::drop};
    if (const DocNode* mode = t.find("mode")) {
      std::size_t which = 0;
      if (c.r.one_of(t, "mode", {"drop", "hold", "either"}, which)) {
        if (which == 1) spec.modes = {PartitionMode::hold};
        if (which == 2) spec.modes = {PartitionMode::drop, PartitionMode::hold};
      }
      (void)mode;
    }
  }
  out.kinds.push_back(std::move(spec));
}

std::vector<Phase> default_phases() {
  return {Phase::acquire_sent, Phase::acquired, Phase::checked, Phase::read,
          Phase::worked,       Phase::called,   Phase::wrote};
}

}  // namespace

SectionDecl search_section() {
  std::vector<KeyDecl> decls = declarations(search_keys());
  for (std::size_t k = 0; k < kSearchKindCount; ++k)
    decls.push_back({.name = search_kind_name(static_cast<SearchKind>(k)),
                     .rule = CustomRule{"table"},
                     .doc = kKindKeyDoc,
                     .default_note = "not searched"});
  return {.name = "search", .keys = std::move(decls)};
}

std::string search_kinds_markdown() {
  std::string out = markdown_row({"key", "type", "kinds", "meaning"}) + "|---|---|---|---|\n";
  for (const KindKey& k : kind_keys()) {
    std::string kinds;
    for (SearchKind kind : k.kinds) kinds += (kinds.empty() ? "" : ", ") + std::string(search_kind_name(kind));
    out += markdown_row({"`" + std::string(k.name) + "`", std::string(k.type), kinds,
                         std::string(k.doc) + (k.required ? " (required)" : "")});
  }
  return out;
}

void read_search_section(ReadContext& c) {
  const DocNode* t = c.root.find("search");
  if (t == nullptr || !t->table) return;
  SearchSpec& s = c.spec.search;
  s.present = true;
  s.pos = t->pos;
  read_keys(c.r, *t, search_keys(), s);
  if (!c.written("search", "until")) s.until = c.spec.run_for;
  if (const DocNode* until = t->find("until"); until != nullptr && s.until > c.spec.run_for)
    c.r.fail(*until, "the window ends after the run (run_for = " + format_duration(c.spec.run_for) + ")");
  if (const DocNode* from = t->find("from"); from != nullptr && s.from >= s.until)
    c.r.fail(*from, "the window starts at or after its end (" + format_duration(s.until) + ")");

  std::vector<std::pair<std::string, SourcePos>> items;
  if (c.r.strings(*t, "hunt", items)) {
    for (const auto& [name, pos] : items) {
      Property p{};
      if (!parse_property(name, p)) {
        std::vector<std::string> names;
        for (Property q : kAllProperties) names.emplace_back(property_name(q));
        c.r.fail(pos, t->path + ".hunt", "unknown property " + in_quotes(name) + did_you_mean(name, names));
      } else if (std::find(s.hunt.begin(), s.hunt.end(), p) == s.hunt.end()) {
        s.hunt.push_back(p);
      }
    }
    if (items.empty()) c.r.fail(*t->find("hunt"), "hunts nothing: name at least one property");
  } else if (t->find("hunt") == nullptr) {
    s.hunt.assign(kAllProperties.begin(), kAllProperties.end());
  }
  items.clear();
  if (c.r.strings(*t, "phase_clients", items)) {
    for (const auto& [name, pos] : items) {
      const ProcessNames::Entry* e = c.processes.find(name);
      if (e == nullptr || e->kind != std::string_view("client"))
        c.r.fail(pos, t->path + ".phase_clients",
                 in_quotes(name) + " is not a client (clients: " + join_list(c.processes.names("client")) + ")");
      else
        s.phase_clients.push_back(name);
    }
  } else if (t->find("phase_clients") == nullptr) {
    s.phase_clients = c.processes.names("client");
  }
  items.clear();
  if (c.r.strings(*t, "phases", items)) {
    for (const auto& [name, pos] : items) {
      Phase p{};
      if (!parse_phase(name, p))
        c.r.fail(pos, t->path + ".phases",
                 "unknown phase " + in_quotes(name) + did_you_mean(name, phase_names()) + "; phases: " +
                     join_list(phase_names()));
      else
        s.phases.push_back(p);
    }
  } else if (t->find("phases") == nullptr) {
    s.phases = default_phases();
  }
  items.clear();
  if (c.r.strings(*t, "latencies", items)) {
    for (const auto& [text, pos] : items) {
      std::string error;
      if (std::optional<Latency> l = parse_latency(text, error))
        s.latencies.push_back(*l);
      else
        c.r.fail(pos, t->path + ".latencies", error);
    }
  }
  for (const DocNode& m : t->members) {
    for (std::size_t k = 0; k < kSearchKindCount; ++k) {
      if (m.key != search_kind_name(static_cast<SearchKind>(k))) continue;
      if (!m.table)
        c.r.fail(m, "expected a table such as [search." + m.key + "], got " + describe_value(*m.value));
      else
        read_kind(c, m, static_cast<SearchKind>(k), s);
    }
  }
  if (s.kinds.empty() && s.story_faults == StoryFaults::remove && s.latencies.empty())
    c.r.fail(*t, "searches nothing: add a [search.KIND] table (pause, crash, clock-jump, clock-drift, clock-slew, "
                 "partition), latencies, or story_faults = \"search\"");
}

}  // namespace locksim::scenario

namespace locksim {

const char* search_kind_name(SearchKind k) {
  switch (k) {
    case SearchKind::pause: return "pause";
    case SearchKind::crash: return "crash";
    case SearchKind::clock_jump: return "clock-jump";
    case SearchKind::clock_drift: return "clock-drift";
    case SearchKind::clock_slew: return "clock-slew";
    case SearchKind::partition: return "partition";
  }
  return "?";
}

}  // namespace locksim
