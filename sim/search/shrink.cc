#include "sim/search/shrink.h"

#include <cmath>
#include <functional>
#include <map>

#include "sim/scenario/faults/fault_kinds.h"
#include "sim/scenario/reader.h"
#include "sim/search/finding_file.h"
#include "sim/world/latency.h"

namespace locksim::search {

namespace {

using namespace std::chrono_literals;

// Phases a fault time is tried against, latest first.
constexpr std::size_t kPhaseCandidates = 3;

class Shrinker {
 public:
  Shrinker(toml::table doc, Property property, std::uint64_t max_runs)
      : doc_(std::move(doc)), property_(property), max_runs_(max_runs) {}

  ShrinkResult run() {
    // When the faults are what breaks the property, they must stay what
    // breaks it: an edit that makes the story break with no fault at all
    // (drop c1's read and its write is a blind overwrite) has not shrunk the
    // counterexample, it has changed the subject.
    faults_needed_ = doc_.contains("fault") && !trial(without_faults(doc_));
    for (int round = 0; round < 4; ++round) {
      const std::size_t kept = steps_.size();
      drop_tables("fault");
      drop_tables("client");
      drop_tables("link");
      drop_tables("clock");
      cut_iterations();
      drop_steps();
      constant_distributions();
      place_fault_times();
      bisect_magnitudes();
      if (steps_.size() == kept || runs_ >= max_runs_) break;
    }
    return {std::move(doc_), runs_, std::move(steps_)};
  }

 private:
  bool trial(const toml::table& candidate) {
    if (runs_ >= max_runs_) return false;
    ++runs_;
    if (!breaks(candidate, property_)) return false;
    if (!faults_needed_) return true;
    ++runs_;
    return !breaks(without_faults(candidate), property_);
  }
  static toml::table without_faults(toml::table doc) {
    doc.erase("fault");
    if (toml::table* expect = doc["expect"].as_table()) expect->erase("fired");
    return doc;
  }
  // Keeps |candidate| when it still breaks the property.
  bool attempt(toml::table candidate, const std::string& what) {
    if (!trial(candidate)) return false;
    doc_ = std::move(candidate);
    steps_.push_back(what);
    return true;
  }

  static std::vector<std::string> keys_of(const toml::table* t) {
    std::vector<std::string> out;
    if (t != nullptr)
      for (const auto& [key, value] : *t) out.emplace_back(key.str());
    return out;
  }

  void drop_tables(const char* section) {
    for (const std::string& key : keys_of(doc_[section].as_table())) {
      toml::table candidate = doc_;
      candidate[section].as_table()->erase(key);
      if (candidate[section].as_table()->empty()) candidate.erase(section);
      attempt(std::move(candidate), "removed " + std::string(section) + "." + key);
    }
  }

  void cut_iterations() {
    for (const std::string& client : keys_of(doc_["client"].as_table())) {
      while (true) {
        const std::int64_t n = doc_["client"][client]["iterations"].value_or<std::int64_t>(1);
        if (n <= 1) break;
        toml::table one = doc_;
        (*one["client"][client].as_table()).insert_or_assign("iterations", 1);
        if (attempt(std::move(one), "client." + client + ".iterations = 1")) break;
        toml::table half = doc_;
        (*half["client"][client].as_table()).insert_or_assign("iterations", n / 2);
        if (!attempt(std::move(half), "client." + client + ".iterations = " + std::to_string(n / 2))) break;
      }
    }
  }

  void drop_steps() {
    for (const std::string& client : keys_of(doc_["client"].as_table())) {
      const toml::array* steps = doc_["client"][client]["steps"].as_array();
      for (std::size_t i = steps != nullptr ? steps->size() : 0; i-- > 0;) {
        toml::table candidate = doc_;
        toml::array* s = candidate["client"][client]["steps"].as_array();
        if (s == nullptr || i >= s->size()) continue;
        const std::string text = s->get(i)->value_or<std::string>("");
        s->erase(s->begin() + static_cast<std::ptrdiff_t>(i));
        attempt(std::move(candidate), "removed step \"" + text + "\" of client." + client);
        steps = doc_["client"][client]["steps"].as_array();
      }
    }
  }

  static Duration median(const Latency& l) {
    switch (l.kind) {
      case Latency::Kind::constant: return l.a;
      case Latency::Kind::uniform: return l.a + (l.b - l.a) / 2;
      case Latency::Kind::exponential: return Duration{std::llround(static_cast<double>(l.a.count()) * std::log(2.0))};
      case Latency::Kind::lognormal: return l.a;
      case Latency::Kind::pareto:
        return Duration{std::llround(static_cast<double>(l.a.count()) * std::pow(2.0, 1.0 / l.shape))};
    }
    return l.a;
  }

  // Every string leaf written as a distribution, as (section path, key).
  void collect_distributions(const toml::table& t, std::vector<std::string>& path,
                             std::vector<std::pair<std::vector<std::string>, std::string>>& out) {
    for (const auto& [key, value] : t) {
      if (const toml::table* inner = value.as_table()) {
        path.emplace_back(key.str());
        collect_distributions(*inner, path, out);
        path.pop_back();
      } else if (const auto* s = value.as_string(); s != nullptr && s->get().find('(') != std::string::npos) {
        out.emplace_back(path, std::string(key.str()));
      }
    }
  }

  static toml::table* table_at(toml::table& doc, const std::vector<std::string>& path) {
    toml::table* t = &doc;
    for (const std::string& p : path) {
      t = (*t)[p].as_table();
      if (t == nullptr) return nullptr;
    }
    return t;
  }

  static std::string dotted(const std::vector<std::string>& path, const std::string& key) {
    std::string out;
    for (const std::string& p : path) out += p + ".";
    return out + key;
  }

  void constant_distributions() {
    std::vector<std::string> path;
    std::vector<std::pair<std::vector<std::string>, std::string>> found;
    collect_distributions(doc_, path, found);
    for (const auto& [where, key] : found) {
      toml::table candidate = doc_;
      toml::table* t = table_at(candidate, where);
      if (t == nullptr) continue;
      std::string text = (*t)[key].value_or<std::string>("");
      std::string sign;
      if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
        sign = text.substr(0, 1);
        text = text.substr(1);
      }
      std::string error;
      const std::optional<Latency> l = parse_latency(text, error);
      if (!l) continue;
      const std::string constant = sign + format_duration(median(*l));
      t->insert_or_assign(key, constant);
      attempt(std::move(candidate), dotted(where, key) + " = \"" + constant + "\" (was \"" + sign + text + "\")");
    }
  }

  // Round numbers near |d|, roundest first: whole seconds, then 100 ms, ...
  static std::vector<Duration> round_numbers(Duration d) {
    std::vector<Duration> out;
    for (Duration unit : {1000ms, 100ms, 10ms, 1ms}) {
      const Duration down = d / unit * unit;
      for (Duration r : {down, down + unit})
        if (r != d && r >= Duration{0} && std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
    }
    return out;
  }

  void place_fault_times() {
    for (const std::string& name : keys_of(doc_["fault"].as_table())) {
      const std::optional<Duration> at = parse_duration(doc_["fault"][name]["at"].value_or<std::string>(""));
      if (!at) continue;  // already a phase, or drawn
      if (!onto_phase(name)) onto_round_time(name, *at);
    }
  }

  bool onto_phase(const std::string& name) {
    std::string error;
    const std::optional<RunResult> r = run_document(doc_, error);
    if (!r) return false;
    const History& h = r->history;
    std::optional<TrueTime> fired;
    for (const Fact& f : h.facts)
      if (const auto* ff = std::get_if<FaultFired>(&f.body); ff != nullptr && h.fault_names[ff->fault] == name) {
        fired = f.at;
        break;
      }
    if (!fired) return false;
    // The phases reached up to the firing, latest first, each with its occurrence.
    std::vector<std::tuple<ProcessId, Phase, TrueTime, int>> phases;
    std::map<std::pair<ProcessId, Phase>, int> seen;
    for (const Fact& f : h.facts) {
      if (f.at > *fired) break;
      if (const auto* p = std::get_if<PhaseReached>(&f.body))
        phases.emplace_back(p->process, p->phase, f.at, ++seen[{p->process, p->phase}]);
    }
    std::size_t tried = 0;
    for (auto it = phases.rbegin(); it != phases.rend() && tried < kPhaseCandidates; ++it) {
      const auto& [process, phase, when, occurrence] = *it;
      if (phase == Phase::started || phase == Phase::done) continue;
      ++tried;
      const Duration exact = *fired - when;
      for (Duration after : {Duration{exact / 1ms * 1ms}, exact}) {
        toml::table candidate = doc_;
        toml::table& f = *candidate["fault"][name].as_table();
        const std::string trigger = h.name_of(process) + " " + phase_name(phase);
        f.insert_or_assign("at", trigger);
        f.erase("after");
        f.erase("occurrence");
        if (after > Duration{0}) f.insert_or_assign("after", format_duration(after));
        if (occurrence > 1) f.insert_or_assign("occurrence", occurrence);
        if (attempt(std::move(candidate), "fault." + name + " at \"" + trigger + "\"" +
                                              (after > Duration{0} ? " after " + format_duration(after) : "")))
          return true;
      }
    }
    return false;
  }

  void onto_round_time(const std::string& name, Duration at) {
    for (Duration r : round_numbers(at)) {
      toml::table candidate = doc_;
      candidate["fault"][name].as_table()->insert_or_assign("at", format_duration(r));
      if (attempt(std::move(candidate), "fault." + name + ".at = \"" + format_duration(r) + "\"")) return;
    }
  }

  // |v| rounded up to |digits| significant digits.
  static std::int64_t round_up(std::int64_t v, int digits) {
    std::int64_t limit = 1;
    for (int i = 0; i < digits; ++i) limit *= 10;
    std::int64_t unit = 1;
    while (v / unit >= limit) unit *= 10;
    return (v + unit - 1) / unit * unit;
  }

  // The smallest magnitude in (0, |value|] for which |set| still breaks the
  // property, assuming more is never safer; |value| itself breaks. Where
  // zero means something (fire at once, restart at once) it is tried first:
  // a bisection would otherwise stop at one nanosecond.
  void bisect(const std::string& what, std::int64_t value, const std::function<toml::table(std::int64_t)>& set,
              const std::function<std::string(std::int64_t)>& show, bool zero_allowed = false) {
    if (value <= 0) return;
    if (zero_allowed && trial(set(0))) {
      doc_ = set(0);
      steps_.push_back(what + " = " + show(0) + " (was " + show(value) + ")");
      return;
    }
    std::int64_t good = value;
    std::int64_t bad = 0;
    const std::int64_t resolution = std::max<std::int64_t>(1, value / 256);
    while (good - bad > resolution && runs_ < max_runs_) {
      const std::int64_t mid = bad + (good - bad) / 2;
      if (trial(set(mid)))
        good = mid;
      else
        bad = mid;
    }
    // A round number between the bisected value and the start: two
    // significant digits, else three. One that is the start itself means
    // the start was already as good as it gets (a later round does not
    // creep from 11s to 10.02s).
    for (int digits = 2; digits <= 3; ++digits) {
      const std::int64_t rounded = round_up(good, digits);
      if (rounded > value) continue;
      if (rounded == value) return;
      if (trial(set(rounded))) {
        good = rounded;
        break;
      }
    }
    if (good == value) return;
    doc_ = set(good);
    steps_.push_back(what + " = " + show(good) + " (was " + show(value) + ")");
  }

  // Each fault's magnitudes its kind declares searchable (a pause's length,
  // a crash's restart delay, a drift), then its trigger's delay.
  void bisect_magnitudes() {
    for (const std::string& name : keys_of(doc_["fault"].as_table())) {
      const scenario::SearchableKind* kind =
          scenario::searchable_kind(doc_["fault"][name]["kind"].value_or<std::string>(""));
      if (kind != nullptr)
        for (const scenario::SearchedValue& v : *kind->values) {
          if (v.type == scenario::Searched::duration) bisect_duration(name, v.key, v.sign == scenario::Sign::any, v.zero_is_at_once);
          if (v.type == scenario::Searched::rate) bisect_rate(name, v.key);
        }
      bisect_duration(name, "after", false, true);
    }
  }

  // |signed_text|: the value is written with its sign ("+2s", "-2s").
  void bisect_duration(const std::string& name, std::string_view key, bool signed_text, bool zero_allowed) {
    std::string text = doc_["fault"][name][key].value_or<std::string>("");
    if (text.empty()) return;
    const bool negative = text.front() == '-';
    if (text.front() == '+' || text.front() == '-') text = text.substr(1);
    const std::optional<Duration> d = parse_duration(text);
    if (!d) return;  // drawn, or not a duration
    const std::string sign = signed_text ? (negative ? "-" : "+") : "";
    const auto show = [sign](std::int64_t ns) { return "\"" + sign + format_duration(Duration{ns}) + "\""; };
    const auto set = [&, name, key, sign](std::int64_t ns) {
      toml::table candidate = doc_;
      toml::table& fault = *candidate["fault"][name].as_table();
      if (ns == 0 && key == "after")
        fault.erase("after");  // at the trigger itself
      else
        fault.insert_or_assign(key, sign + format_duration(Duration{ns}));
      return candidate;
    };
    bisect("fault." + name + "." + std::string(key), d->count(), set, show, zero_allowed);
  }

  void bisect_rate(const std::string& name, std::string_view key) {
    const std::string text = doc_["fault"][name][key].value_or<std::string>("");
    std::string error;
    const std::optional<std::int64_t> ppm = text.empty() ? std::nullopt : scenario::ppm_from_text(text, error);
    if (!ppm) return;
    const std::int64_t sign = *ppm < 0 ? -1 : 1;
    const auto show = [sign](std::int64_t v) { return "\"" + std::to_string(sign * v) + "ppm\""; };
    const auto set = [&, name, key, sign](std::int64_t v) {
      toml::table candidate = doc_;
      candidate["fault"][name].as_table()->insert_or_assign(key, std::to_string(sign * v) + "ppm");
      return candidate;
    };
    bisect("fault." + name + "." + std::string(key), sign * *ppm, set, show);
  }

  toml::table doc_;
  Property property_;
  std::uint64_t max_runs_;
  std::uint64_t runs_ = 0;
  bool faults_needed_ = false;
  std::vector<std::string> steps_;
};

}  // namespace

bool breaks(const toml::table& doc, Property property) {
  std::string error;
  const std::optional<RunResult> r = run_document(doc, error);
  return r && r->verdicts[static_cast<std::size_t>(property)].violated;
}

ShrinkResult shrink(toml::table doc, Property property, std::uint64_t max_runs) {
  if (!breaks(doc, property)) return {std::move(doc), 1, {}};
  return Shrinker(std::move(doc), property, max_runs).run();
}

}  // namespace locksim::search
