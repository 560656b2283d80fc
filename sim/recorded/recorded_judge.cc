#include "sim/recorded/recorded_judge.h"

#include <algorithm>
#include <limits>
#include <map>
#include <variant>

#include "sim/check/sessions.h"
#include "sim/recorded/orderings.h"

namespace locksim {

namespace {

using Flags = std::array<bool, kPropertyCount>;

// Sets a grant's or an extension's promised end.
void set_promised_end(Fact& f, TrueTime end) {
  std::visit(
      [&](auto& b) {
        if constexpr (requires { b.promised_end; }) b.promised_end = end;
      },
      f.body);
}

// Where each fact and each known lease end can fall when the history does
// not fix its order: the variable whose offset (orderings.h) moves it, and
// its reading, counted from the history's earliest so that scaling stays far
// from overflowing. On local clocks a variable is a recorder; on a common
// clock it is the clock itself (0) or one event known only within a range.
struct Placement {
  std::vector<std::size_t> fact_variable;
  std::vector<std::int64_t> fact_reading;
  std::vector<std::size_t> end_variable;  // per r.promises
  std::vector<std::int64_t> end_reading;  // clamped to the events' span widened by the bounds
  std::vector<std::int64_t> end_reading_earliest;  // a promise known within a range: its earliest, clamped too
  std::vector<bool> end_never;            // a promise that never ends (common clock: null)
  OffsetBounds bounds{0, 0};
  std::int64_t latest = 0;  // the latest reading, for the overflow check
};

// The history once more: with |offsets|, each fact at scale * reading - its
// variable's offset and each known lease end likewise; and each promise of
// unknown end ending at its grant (|short_promises|) or never.
History retimed(const RecordedHistory& r, const Placement* place, const std::vector<std::int64_t>* offsets,
                std::int64_t scale, bool short_promises) {
  History h = r.history;
  const bool retime = offsets != nullptr;
  const auto at = [&](std::size_t variable, std::int64_t reading) {
    return TrueTime{Duration{scale * reading - (*offsets)[variable]}};
  };
  if (retime)
    for (std::size_t i = 0; i < h.facts.size(); ++i)
      h.facts[i].at = at(place->fact_variable[i], place->fact_reading[i]);
  // Before any sort: the promises name their facts by index.
  for (std::size_t k = 0; k < r.promises.size(); ++k) {
    const RecordedPromise& p = r.promises[k];
    const bool earliest = short_promises && p.earliest_end.has_value();
    if (p.promised_end_unknown)
      set_promised_end(h.facts[p.fact], short_promises ? h.facts[p.fact].at : kTrueNever);
    else if (retime && !place->end_never[k])
      set_promised_end(h.facts[p.fact], at(place->end_variable[k], (earliest ? place->end_reading_earliest
                                                                             : place->end_reading)[k]));
    else if (earliest)
      set_promised_end(h.facts[p.fact], *p.earliest_end);
  }
  if (retime) {
    std::stable_sort(h.facts.begin(), h.facts.end(), [](const Fact& a, const Fact& b) {
      const bool a_end = std::holds_alternative<RunEnded>(a.body);
      const bool b_end = std::holds_alternative<RunEnded>(b.body);
      if (a_end != b_end) return b_end;
      return a.at < b.at;
    });
    if (h.facts.size() > 1) h.facts.back().at = std::max(h.facts.back().at, h.facts[h.facts.size() - 2].at);
  }
  return h;
}

Flags violated_in(const History& h, Judgement* keep = nullptr) {
  const SessionTable table(h);
  const Judgement j = judge(h, table, keep != nullptr ? WitnessDetail::text : WitnessDetail::time_only);
  Flags out{};
  for (std::size_t p = 0; p < kPropertyCount; ++p) out[p] = j.verdicts[p].violated;
  if (keep != nullptr) *keep = j;
  return out;
}

bool any_op_accepted(const History& h) {
  return std::any_of(h.facts.begin(), h.facts.end(), [](const Fact& f) {
    const auto* op = std::get_if<ResourceOp>(&f.body);
    return op != nullptr && op->accepted;
  });
}

// The worlds the history allows, each judged: per order of events, the
// promises of unknown end as long (never ending) and as short (over at
// their grant) as they could be. Only P1 reads promises, and more window
// never means fewer P1 violations: so P1 is violated when the short worlds
// all violate it, and holds when the long worlds all do.
struct Worlds {
  std::vector<Flags> long_worlds;
  std::vector<Flags> short_worlds;  // only when some promise's end is unknown
  bool too_many = false;            // more orders than kMaxOrderings
  bool too_long = false;            // readings that span too long to scale
};

// Whether a verdict can turn on where this fact falls among other
// processes' facts: the facts the checkers read (sessions.h, holder.h, P3's
// to P5's passes over the ops and states). Requests, wants, roles and the
// rest feed only the liveness figures, which are shown as read; leaving
// them out of the orders spares judging orders that differ only in them.
bool read_by_the_checkers(const FactBody& body) {
  if (const auto* fault = std::get_if<FaultApplied>(&body)) return fault->kind == FaultKind::crash;
  return std::holds_alternative<LockGranted>(body) || std::holds_alternative<LockExtended>(body) ||
         std::holds_alternative<BeliefEnded>(body) || std::holds_alternative<LockReleased>(body) ||
         std::holds_alternative<KeyHeld>(body) || std::holds_alternative<KeyDropped>(body) ||
         std::holds_alternative<ResourceOp>(body) || std::holds_alternative<AppState>(body);
}

// A lease end further out than any offset can move it past an event is
// held at the edge of the events' span: it falls after (or before) every
// event either way, and the arithmetic stays bounded.
std::int64_t clamped_end(std::int64_t end, std::int64_t latest, std::int64_t margin) {
  return std::clamp(end, -margin, latest + margin);
}

// On local clocks: each recorder's readings, every pair at most |u| apart;
// a lease end on the client's clock.
Placement local_placement(const RecordedHistory& r, const ClockBounds& clocks) {
  Placement out;
  out.bounds = OffsetBounds(r.history.processes.size() + 1, clocks.all.count());
  for (const ClockBounds::Pair& pair : clocks.pairs) out.bounds.set(pair.a, pair.b, pair.within.count());
  for (std::size_t i = 0; i < r.history.facts.size(); ++i) {
    out.fact_variable.push_back(r.recorder[i]);
    out.fact_reading.push_back(r.local[i].time_since_epoch().count());
    out.latest = std::max(out.latest, out.fact_reading.back());
  }
  const std::int64_t margin = 2 * clocks.widest().count() + 1;
  for (const RecordedPromise& p : r.promises) {
    out.end_variable.push_back(r.recorder[p.fact]);
    out.end_reading.push_back(clamped_end(p.lease_end_local.time_since_epoch().count(), out.latest, margin));
    out.end_reading_earliest.push_back(out.end_reading.back());
    out.end_never.push_back(false);
  }
  return out;
}

// On a common clock with key events known only within a range: the clock
// is variable 0, each such event a variable of its own up to its range
// later than its earliest reading — or its change's (key_changes.h), one
// for all the events of a change, each change no earlier than the one
// numbered before it.
Placement ranged_placement(const RecordedHistory& r) {
  Placement out;
  const std::int64_t base = r.history.facts.empty() ? 0 : r.history.facts.front().at.time_since_epoch().count();
  std::size_t variables = 1;
  std::int64_t widest = 0;
  std::map<std::uint64_t, std::size_t> change_variable;
  for (std::size_t i = 0; i < r.history.facts.size(); ++i) {
    std::size_t variable = 0;
    if (r.range[i] > Duration{0}) {
      // A change's events share one variable; any other ranged event has its own.
      variable = r.change[i] ? change_variable.try_emplace(*r.change[i], variables).first->second : variables;
      if (variable == variables) ++variables;
    }
    out.fact_variable.push_back(variable);
    out.fact_reading.push_back(r.history.facts[i].at.time_since_epoch().count() - base);
    out.latest = std::max(out.latest, out.fact_reading.back() + r.range[i].count());
    widest = std::max(widest, r.range[i].count());
  }
  out.bounds = OffsetBounds(variables, kOffsetUnbounded);
  std::optional<std::size_t> previous_change;  // its first fact
  for (std::size_t i = 0; i < r.history.facts.size(); ++i) {
    if (out.fact_variable[i] != 0) out.bounds.between(0, out.fact_variable[i], -r.range[i].count(), 0);
    if (!r.change[i] || (previous_change && r.change[*previous_change] == r.change[i])) continue;
    // Happened at scale * reading - offset: no earlier than the change before
    // it exactly when its offset exceeds that one's by at most the readings' gap.
    if (previous_change && out.fact_variable[*previous_change] != out.fact_variable[i])
      out.bounds.between(out.fact_variable[*previous_change], out.fact_variable[i], -kOffsetUnbounded,
                         out.fact_reading[i] - out.fact_reading[*previous_change]);
    previous_change = i;
  }
  for (const RecordedPromise& p : r.promises) {
    TrueTime end = kTrueNever;
    std::visit(
        [&](const auto& b) {
          if constexpr (requires { b.promised_end; }) end = b.promised_end;
        },
        r.history.facts[p.fact].body);
    const TrueTime earliest = p.earliest_end.value_or(end);
    out.end_variable.push_back(0);
    out.end_never.push_back(end == kTrueNever);
    out.end_reading.push_back(
        end == kTrueNever ? 0 : clamped_end(end.time_since_epoch().count() - base, out.latest, widest + 1));
    out.end_reading_earliest.push_back(
        end == kTrueNever ? 0 : clamped_end(earliest.time_since_epoch().count() - base, out.latest, widest + 1));
  }
  return out;
}

// Each variable's readings that an order can turn on: those of the facts
// the checkers read, and the lease ends.
std::vector<std::vector<std::int64_t>> readings_of(const RecordedHistory& r, const Placement& place) {
  std::vector<std::vector<std::int64_t>> readings(place.bounds.n);
  for (std::size_t i = 0; i < r.history.facts.size(); ++i)
    if (read_by_the_checkers(r.history.facts[i].body))
      readings[place.fact_variable[i]].push_back(place.fact_reading[i]);
  for (std::size_t k = 0; k < r.promises.size(); ++k)
    if (!r.promises[k].promised_end_unknown && !place.end_never[k]) {
      readings[place.end_variable[k]].push_back(place.end_reading[k]);
      readings[place.end_variable[k]].push_back(place.end_reading_earliest[k]);
    }
  return readings;
}

Worlds worlds_of(const RecordedHistory& r, const std::optional<ClockBounds>& clocks, RecordedJudgement& out) {
  const bool unknown_promises = r.any_promise_uncertain();
  Worlds w;
  w.long_worlds.push_back(violated_in(retimed(r, nullptr, nullptr, 1, false), &out.shown));
  if (unknown_promises) w.short_worlds.push_back(violated_in(retimed(r, nullptr, nullptr, 1, true)));
  if (r.common_time && !r.any_range()) return w;
  const Placement place = r.common_time ? ranged_placement(r) : local_placement(r, clocks.value_or(ClockBounds{}));
  // Scaled by the variables plus one (orderings.h), the latest reading must
  // stay far from overflowing: readings that span decades are not judged.
  const auto variables = static_cast<std::int64_t>(place.bounds.n);
  if (place.latest > std::numeric_limits<std::int64_t>::max() / 8 / (variables + 1)) {
    w.too_long = true;
    out.orderings = 0;
    return w;
  }
  const auto orders = orderings_within(readings_of(r, place), place.bounds, kMaxOrderings);
  if (!orders) {
    w.too_many = true;
    out.orderings = 0;
    return w;
  }
  for (const auto& offsets : orders->offsets) {
    w.long_worlds.push_back(violated_in(retimed(r, &place, &offsets, orders->scale, false)));
    if (unknown_promises) w.short_worlds.push_back(violated_in(retimed(r, &place, &offsets, orders->scale, true)));
  }
  out.orderings = orders->offsets.size() + 1;
  return w;
}

// |slack|: what leaves the order open, in words ("the clocks' uncertainty (10ms)").
RecordedVerdict decide(Property property, const Worlds& w, const std::string& slack) {
  const auto p = static_cast<std::size_t>(property);
  const auto violating = [&](const std::vector<Flags>& worlds) {
    return static_cast<std::size_t>(std::count_if(worlds.begin(), worlds.end(), [&](const Flags& f) { return f[p]; }));
  };
  const std::size_t long_violated = violating(w.long_worlds);
  const bool by_promises = property == Property::grant_exclusive && !w.short_worlds.empty();
  const bool all_violated =
      by_promises ? violating(w.short_worlds) == w.short_worlds.size() : long_violated == w.long_worlds.size();
  if (w.too_long)
    return {RecordedStatus::unknown, "the history's readings span too long (decades) to order on local clocks"};
  if (w.too_many)
    return {RecordedStatus::unknown, "more than " + std::to_string(kMaxOrderings) + " orders of events fit within " +
                                         slack +
                                         ": too many to judge; a smaller --clock-uncertainty, or a history on a "
                                         "common clock, can decide it"};
  if (all_violated) return {RecordedStatus::violated, ""};
  if (long_violated == 0) return {RecordedStatus::holds, ""};
  if (by_promises && long_violated == w.long_worlds.size())
    return {RecordedStatus::unknown,
            "a promise's true end is not known exactly: the property is violated if its window is "
            "as long as it could be, not if it is as short"};
  return {RecordedStatus::unknown, slack +
                                       " allows orders of events where it holds and where it is violated: "
                                       "violated in " +
                                       std::to_string(long_violated) + " of " + std::to_string(w.long_worlds.size()) +
                                       " orders judged"};
}

}  // namespace

Duration ClockBounds::widest() const {
  Duration out = all;
  for (const Pair& p : pairs) out = std::max(out, p.within);
  return out;
}

std::string clock_bounds_words(const RecordedHistory& h, const std::optional<ClockBounds>& clocks) {
  if (!clocks) return "";
  std::string out = format_duration_rounded(clocks->all);
  const auto name = [&](ProcessId p) { return h.recorder_name(p); };
  for (const ClockBounds::Pair& p : clocks->pairs)
    out += "; " + name(p.a) + " and " + name(p.b) + ": " + format_duration_rounded(p.within);
  return out;
}

const char* recorded_status_name(RecordedStatus s) {
  switch (s) {
    case RecordedStatus::holds:
      return "holds";
    case RecordedStatus::violated:
      return "violated";
    case RecordedStatus::unknown:
      return "unknown";
  }
  return "?";
}

RecordedJudgement judge_recorded(const RecordedHistory& r, const std::optional<ClockBounds>& clocks) {
  RecordedJudgement out;
  const Worlds worlds = worlds_of(r, clocks, out);
  const std::string slack = r.common_time ? "the key events' time ranges"
                                          : "the clocks' uncertainty (" + clock_bounds_words(r, clocks) + ")";
  for (std::size_t p = 0; p < kPropertyCount; ++p) out.verdicts[p] = decide(static_cast<Property>(p), worlds, slack);
  // What the history does not record, no order decides.
  auto& p4 = out.verdicts[static_cast<std::size_t>(Property::resource_current)];
  if (!r.service_recorded && any_op_accepted(r.history))
    p4 = {RecordedStatus::unknown,
          "the history does not record the lock service's keys (service.recorded is "
          "false): who held the lock when an op was accepted is not known"};
  auto& p5 = out.verdicts[static_cast<std::size_t>(Property::invariant)];
  if (!r.app_known)
    p5 = {RecordedStatus::unknown, "the history does not record the application's state (app is unknown)"};
  return out;
}

}  // namespace locksim
