// [search] and [search.KIND]: the fault space `locksim search` draws from
// (search_spec.h). Read after the clients and faults, because it names
// clients, phases and every other process, and its window defaults to
// run_for.
#include <algorithm>
#include <climits>

#include "sim/core/limits.h"
#include "sim/scenario/faults/fault_kinds.h"
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

constexpr std::string_view kTargetsDoc =
    "the processes it may hit (a partition: the processes it splits into two groups)";

// The [search.KIND] key that bounds |v|: none for a split (it cuts the targets).
bool has_key(const SearchedValue& v) { return v.type != Searched::split; }
// ... which a space must write: a choice defaults to its key's default.
bool required_key(const SearchedValue& v) { return has_key(v) && !v.optional && v.type != Searched::choice; }

// What a [search.KIND] key bounding |v| takes, for the reference.
std::string range_type(const SearchableKind& kind, const SearchedValue& v) {
  switch (v.type) {
    case Searched::duration: return v.sign == Sign::any ? "signed duration range" : "duration range";
    case Searched::rate: return "rate range";
    case Searched::split: return "";
    case Searched::choice: {
      const ChoiceRule& rule = std::get<ChoiceRule>(kind.key(v.key).rule);
      std::string out;
      for (std::size_t i = 0; i < rule.options.size() && i < rule.listed; ++i)
        out += "`\"" + std::string(rule.options[i].second) + "\"` \\| ";
      return out + "`\"either\"`";
    }
  }
  return "";
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

std::optional<SearchRange<std::int64_t>> read_rate_range(Reader& r, const DocNode& table, std::string_view key) {
  const DocNode* node = table.find(key);
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

// A choice value's options as written: one of its key's names, or "either" of them.
std::optional<std::vector<std::int64_t>> read_options(Reader& r, const DocNode& t, const SearchableKind& kind,
                                                      const SearchedValue& v) {
  const ChoiceRule& rule = std::get<ChoiceRule>(kind.key(v.key).rule);
  std::vector<std::int64_t> all;
  for (std::size_t i = 0; i < rule.options.size() && i < rule.listed; ++i) all.push_back(rule.options[i].first);
  if (t.find(v.key) == nullptr) return std::vector<std::int64_t>{rule.fallback.value_or(all.front())};
  std::vector<std::string> names;
  for (std::size_t i = 0; i < all.size(); ++i) names.emplace_back(rule.options[i].second);
  names.emplace_back("either");
  std::size_t which = 0;
  if (!r.one_of(t, v.key, names, which)) return std::nullopt;
  if (which == all.size()) return all;
  return std::vector<std::int64_t>{all[which]};
}

std::optional<SearchedRange> read_value(Reader& r, const DocNode& t, const SearchableKind& kind,
                                        const SearchedValue& v) {
  SearchedRange out;
  out.present = true;
  switch (v.type) {
    case Searched::duration:
      if (t.find(v.key) == nullptr) return v.optional ? std::optional<SearchedRange>(SearchedRange{}) : std::nullopt;
      if (auto range = read_duration_range(r, t, v.key, v.sign))
        out.range = {range->low.count(), range->high.count()};
      else
        return std::nullopt;
      break;
    case Searched::rate:
      if (auto range = read_rate_range(r, t, v.key))
        out.range = *range;
      else
        return std::nullopt;
      break;
    case Searched::split: break;
    case Searched::choice:
      if (auto options = read_options(r, t, kind, v))
        out.options = std::move(*options);
      else
        return std::nullopt;
      break;
  }
  return out;
}

void read_kind(ReadContext& c, const DocNode& t, const SearchableKind& kind, SearchSpec& out) {
  SearchKindSpec spec;
  spec.kind = &kind;
  spec.pos = t.pos;
  std::vector<std::string> takes{"targets"};
  for (const SearchedValue& v : *kind.values)
    if (has_key(v)) takes.emplace_back(v.key);
  for (const DocNode& m : t.members)
    if (std::find(takes.begin(), takes.end(), m.key) == takes.end())
      c.r.fail(m, in_quotes(m.key) + " does not apply to [search." + std::string(kind.name) + "] (it takes: " +
                      join_list(takes) + ")");
  c.r.require(t, "targets");
  for (const SearchedValue& v : *kind.values)
    if (required_key(v)) c.r.require(t, v.key);
  std::vector<std::pair<std::string, SourcePos>> targets;
  if (c.r.strings(t, "targets", targets)) {
    for (const auto& [name, pos] : targets) {
      if (!c.processes.known(c.r, name, pos, t.path + ".targets")) continue;
      if (std::find(spec.targets.begin(), spec.targets.end(), name) != spec.targets.end()) {
        c.r.fail(pos, t.path + ".targets", in_quotes(name) + " is listed twice");
        continue;
      }
      for (const SearchedValue& v : *kind.values)
        if (!v.not_for_clients.empty() && t.find(v.key) != nullptr &&
            c.processes.find(name)->kind == NameKind::client)
          c.r.fail(pos, t.path + ".targets",
                   std::string(v.not_for_clients) + ": list clients in a [search." + std::string(kind.name) +
                       "] space without " + std::string(v.key) + ", or drop " + in_quotes(name));
      spec.targets.push_back(name);
    }
    if (targets.empty()) c.r.fail(*t.find("targets"), "lists no process");
    if (!kind.one_target && targets.size() == 1)
      c.r.fail(*t.find("targets"), "a " + std::string(kind.name) + " splits at least two processes");
    // A split is a bit per target (faults/search_side.h).
    if (!kind.one_target && targets.size() > kMostSplitTargets)
      c.r.fail(*t.find("targets"), "a searched " + std::string(kind.name) + " splits at most " +
                                       std::to_string(kMostSplitTargets) + " processes, got " +
                                       std::to_string(targets.size()));
  }
  for (const SearchedValue& v : *kind.values)
    spec.values.push_back(read_value(c.r, t, kind, v).value_or(SearchedRange{}));
  out.kinds.push_back(std::move(spec));
}

std::vector<Phase> default_phases() {
  return {Phase::acquire_sent, Phase::acquired, Phase::checked, Phase::read,
          Phase::worked,       Phase::called,   Phase::wrote};
}

}  // namespace

SectionDecl search_section() {
  std::vector<KeyDecl> decls = declarations(search_keys());
  for (const SearchableKind& kind : searchable_kinds())
    decls.push_back({.name = kind.name, .rule = CustomRule{"table"}, .doc = kKindKeyDoc, .default_note = "not searched"});
  return {.name = "search", .keys = std::move(decls)};
}

std::vector<std::string> search_kind_keys() {
  std::vector<std::string> keys{"targets"};
  for (const SearchableKind& kind : searchable_kinds())
    for (const SearchedValue& v : *kind.values)
      if (has_key(v) && std::find(keys.begin(), keys.end(), v.key) == keys.end()) keys.emplace_back(v.key);
  return keys;
}

std::string search_kinds_markdown() {
  // One row per key, naming every kind that takes it; its type and meaning
  // from the first kind that declares it.
  struct Row {
    std::string key, type, kinds, doc;
  };
  std::vector<Row> rows{{"targets", "array of process names", "", std::string(kTargetsDoc) + " (required)"}};
  for (const SearchableKind& kind : searchable_kinds()) {
    rows.front().kinds += (rows.front().kinds.empty() ? "" : ", ") + std::string(kind.name);
    for (const SearchedValue& v : *kind.values) {
      if (!has_key(v)) continue;
      auto row = std::find_if(rows.begin(), rows.end(), [&](const Row& r) { return r.key == v.key; });
      if (row == rows.end()) {
        rows.push_back(
            {std::string(v.key), range_type(kind, v), "", std::string(v.doc) + (required_key(v) ? " (required)" : "")});
        row = rows.end() - 1;
      }
      row->kinds += (row->kinds.empty() ? "" : ", ") + std::string(kind.name);
    }
  }
  std::string out = markdown_row({"key", "type", "kinds", "meaning"}) + "|---|---|---|---|\n";
  for (const Row& r : rows) out += markdown_row({"`" + r.key + "`", r.type, r.kinds, r.doc});
  return out;
}

namespace {

// search.phase_clients: clients only, every client when left out.
void read_phase_clients(ReadContext& c, const DocNode& t, SearchSpec& s) {
  std::vector<std::pair<std::string, SourcePos>> items;
  const std::vector<std::string> clients = c.processes.names(NameKind::client);
  if (!c.r.strings(t, "phase_clients", items)) {
    if (t.find("phase_clients") == nullptr) s.phase_clients = clients;
    return;
  }
  for (const auto& [name, pos] : items) {
    const ProcessNames::Entry* e = c.processes.find(name);
    if (e == nullptr || e->kind != NameKind::client)
      c.r.fail(pos, t.path + ".phase_clients",
               in_quotes(name) + " is not a client (clients: " + join_list(clients) + ")");
    else
      s.phase_clients.push_back(name);
  }
}

}  // namespace

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
  read_phase_clients(c, *t, s);
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
  std::vector<std::string> kind_names;
  for (const SearchableKind& kind : searchable_kinds()) kind_names.emplace_back(kind.name);
  for (const DocNode& m : t->members) {
    const SearchableKind* kind = searchable_kind(m.key);
    if (kind == nullptr) continue;
    if (!m.table)
      c.r.fail(m, "expected a table such as [search." + m.key + "], got " + describe_value(*m.value));
    else
      read_kind(c, m, *kind, s);
  }
  if (s.kinds.empty() && s.story_faults == StoryFaults::remove && s.latencies.empty())
    c.r.fail(*t, "searches nothing: add a [search.KIND] table (" + join_list(kind_names) +
                     "), latencies, or story_faults = \"search\"");
}

}  // namespace locksim::scenario
