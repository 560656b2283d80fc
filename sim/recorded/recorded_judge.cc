#include "sim/recorded/recorded_judge.h"

#include <algorithm>
#include <limits>
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

// One order of events on local clocks: each recorder's offset (orderings.h)
// and the scale, and the span of the events' readings a lease end is held
// to — an end further out than any offset can reach falls after (or
// before) every event either way, so clamping it changes no order and
// keeps the scaled arithmetic far from overflowing.
struct Timing {
  const std::vector<std::int64_t>* offsets = nullptr;  // nullptr: the history's own readings
  std::int64_t scale = 1;
  std::int64_t lowest = 0;   // the earliest a lease end is taken to be
  std::int64_t highest = 0;  // the latest
};

// The history once more, with each event at scale * reading - its
// recorder's offset (local clocks), and each promise of unknown end ending
// at its grant (|short_promises|) or never.
History retimed(const RecordedHistory& r, const Timing& timing, bool short_promises) {
  History h = r.history;
  const bool retime = timing.offsets != nullptr;
  const auto at = [&](ProcessId recorder, std::int64_t reading) {
    return TrueTime{Duration{timing.scale * reading - (*timing.offsets)[recorder]}};
  };
  if (retime)
    for (std::size_t i = 0; i < h.facts.size(); ++i)
      h.facts[i].at = at(r.recorder[i], r.local[i].time_since_epoch().count());
  // Before any sort: the promises name their facts by index.
  for (const RecordedPromise& p : r.promises) {
    if (p.promised_end_unknown) {
      set_promised_end(h.facts[p.fact], short_promises ? h.facts[p.fact].at : kTrueNever);
    } else if (retime) {
      const std::int64_t end = std::clamp(p.lease_end_local.time_since_epoch().count(), timing.lowest, timing.highest);
      set_promised_end(h.facts[p.fact], at(r.recorder[p.fact], end));
    }
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

// Where lease ends are held to: the events' readings (counted from 0 by the
// reader) widened by twice the uncertainty and a nanosecond, past which no
// offset can move an end across an event.
Timing span_of(const RecordedHistory& r, Duration uncertainty) {
  std::int64_t latest = 0;
  for (const LocalTime reading : r.local) latest = std::max(latest, reading.time_since_epoch().count());
  const std::int64_t margin = 2 * uncertainty.count() + 1;
  return Timing{nullptr, 1, -margin, latest + margin};
}

// Each recorder's readings that an order can turn on: those of the facts
// the checkers read, and the lease ends it promised.
std::vector<std::vector<std::int64_t>> readings_of(const RecordedHistory& r, const Timing& timing) {
  std::vector<std::vector<std::int64_t>> readings(r.history.processes.size() + 1);
  for (std::size_t i = 0; i < r.history.facts.size(); ++i)
    if (read_by_the_checkers(r.history.facts[i].body))
      readings[r.recorder[i]].push_back(r.local[i].time_since_epoch().count());
  for (const RecordedPromise& p : r.promises)
    if (!p.promised_end_unknown)
      readings[r.recorder[p.fact]].push_back(
          std::clamp(p.lease_end_local.time_since_epoch().count(), timing.lowest, timing.highest));
  return readings;
}

Worlds worlds_of(const RecordedHistory& r, std::optional<Duration> uncertainty, RecordedJudgement& out) {
  const bool unknown_promises = r.any_promise_unknown();
  Worlds w;
  w.long_worlds.push_back(violated_in(retimed(r, Timing{}, false), &out.shown));
  if (unknown_promises) w.short_worlds.push_back(violated_in(retimed(r, Timing{}, true)));
  if (r.common_time) return w;
  Timing timing = span_of(r, uncertainty.value_or(Duration{0}));
  // Scaled by the recorders plus one (orderings.h), the latest reading must
  // stay far from overflowing: readings that span decades are not judged.
  const auto recorders = static_cast<std::int64_t>(r.history.processes.size()) + 1;
  if (timing.highest > std::numeric_limits<std::int64_t>::max() / 4 / (recorders + 1)) {
    w.too_long = true;
    out.orderings = 0;
    return w;
  }
  const auto orders = orderings_within(readings_of(r, timing), uncertainty.value_or(Duration{0}), kMaxOrderings);
  if (!orders) {
    w.too_many = true;
    out.orderings = 0;
    return w;
  }
  timing.scale = orders->scale;
  for (const auto& offsets : orders->offsets) {
    timing.offsets = &offsets;
    w.long_worlds.push_back(violated_in(retimed(r, timing, false)));
    if (unknown_promises) w.short_worlds.push_back(violated_in(retimed(r, timing, true)));
  }
  out.orderings = orders->offsets.size() + 1;
  return w;
}

RecordedVerdict decide(Property property, const Worlds& w, const std::string& bound) {
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
    return {RecordedStatus::unknown, "more than " + std::to_string(kMaxOrderings) +
                                         " orders of events fit within the clocks' uncertainty (" + bound +
                                         "): too many to judge; a smaller --clock-uncertainty, or a history on a "
                                         "common clock, can decide it"};
  if (all_violated) return {RecordedStatus::violated, ""};
  if (long_violated == 0) return {RecordedStatus::holds, ""};
  if (by_promises && long_violated == w.long_worlds.size())
    return {RecordedStatus::unknown,
            "a promise's true end is unknown: the property is violated if its window is "
            "as long as it could be, not if it is as short"};
  return {RecordedStatus::unknown, "the clocks' uncertainty (" + bound +
                                       ") allows orders of events where it holds and where it is violated: "
                                       "violated in " +
                                       std::to_string(long_violated) + " of " + std::to_string(w.long_worlds.size()) +
                                       " orders judged"};
}

}  // namespace

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

RecordedJudgement judge_recorded(const RecordedHistory& r, std::optional<Duration> uncertainty) {
  RecordedJudgement out;
  const Worlds worlds = worlds_of(r, uncertainty, out);
  const std::string bound = uncertainty ? format_duration_rounded(*uncertainty) : "";
  for (std::size_t p = 0; p < kPropertyCount; ++p) out.verdicts[p] = decide(static_cast<Property>(p), worlds, bound);
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
