#include "sim/recorded/recorded_judge.h"

#include <algorithm>
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

// The history once more, with each event at |scale| * reading - its
// recorder's offset (local clocks), and each promise of unknown end ending
// at its grant (|short_promises|) or never.
History retimed(const RecordedHistory& r, const std::vector<std::int64_t>* offsets, std::int64_t scale,
                bool short_promises) {
  History h = r.history;
  const auto at = [&](ProcessId recorder, LocalTime reading) {
    return TrueTime{Duration{scale * reading.time_since_epoch().count() - (*offsets)[recorder]}};
  };
  if (offsets != nullptr)
    for (std::size_t i = 0; i < h.facts.size(); ++i) h.facts[i].at = at(r.recorder[i], r.local[i]);
  // Before any sort: the promises name their facts by index.
  for (const RecordedPromise& p : r.promises) {
    if (p.promised_end_unknown) set_promised_end(h.facts[p.fact], short_promises ? h.facts[p.fact].at : kTrueNever);
    else if (offsets != nullptr) set_promised_end(h.facts[p.fact], at(r.recorder[p.fact], p.lease_end_local));
  }
  if (offsets != nullptr) {
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

std::string duration_words(Duration d) { return format_duration_rounded(d); }

bool any_op_accepted(const History& h) {
  return std::any_of(h.facts.begin(), h.facts.end(), [](const Fact& f) {
    const auto* op = std::get_if<ResourceOp>(&f.body);
    return op != nullptr && op->accepted;
  });
}

}  // namespace

const char* recorded_status_name(RecordedStatus s) {
  switch (s) {
    case RecordedStatus::holds: return "holds";
    case RecordedStatus::violated: return "violated";
    case RecordedStatus::unknown: return "unknown";
  }
  return "?";
}

RecordedJudgement judge_recorded(const RecordedHistory& r, std::optional<Duration> uncertainty) {
  RecordedJudgement out;
  const bool unknown_promises = r.any_promise_unknown();
  // The worlds the history allows: per order of events, the promises of
  // unknown end as long (never ending) and as short (over at their grant)
  // as they could be. Only P1 reads promises, and more window never means
  // fewer P1 violations: so P1 is violated when the short worlds all
  // violate it, holds when the long worlds all do.
  std::vector<Flags> long_worlds{violated_in(retimed(r, nullptr, 1, false), &out.shown)};
  std::vector<Flags> short_worlds;
  if (unknown_promises) short_worlds.push_back(violated_in(retimed(r, nullptr, 1, true)));
  bool too_many = false;
  if (!r.common_time) {
    std::vector<std::vector<std::int64_t>> readings(r.history.processes.size() + 1);
    for (std::size_t i = 0; i < r.history.facts.size(); ++i)
      readings[r.recorder[i]].push_back(r.local[i].time_since_epoch().count());
    for (const RecordedPromise& p : r.promises)
      if (!p.promised_end_unknown) readings[r.recorder[p.fact]].push_back(p.lease_end_local.time_since_epoch().count());
    const std::optional<Orderings> orders = orderings_within(readings, uncertainty.value_or(Duration{0}), kMaxOrderings);
    if (!orders) {
      too_many = true;
      out.orderings = 0;
    } else {
      for (const auto& offsets : orders->offsets) {
        long_worlds.push_back(violated_in(retimed(r, &offsets, orders->scale, false)));
        if (unknown_promises) short_worlds.push_back(violated_in(retimed(r, &offsets, orders->scale, true)));
      }
      out.orderings = orders->offsets.size() + 1;
    }
  }
  const std::string bound = uncertainty ? duration_words(*uncertainty) : "";
  for (std::size_t p = 0; p < kPropertyCount; ++p) {
    RecordedVerdict& v = out.verdicts[p];
    const auto count = [&](const std::vector<Flags>& worlds) {
      return static_cast<std::size_t>(std::count_if(worlds.begin(), worlds.end(), [&](const Flags& f) { return f[p]; }));
    };
    const std::size_t long_violated = count(long_worlds);
    const bool p1 = static_cast<Property>(p) == Property::grant_exclusive;
    const bool all_violated = p1 && unknown_promises ? count(short_worlds) == short_worlds.size()
                                                     : long_violated == long_worlds.size();
    const bool none_violated = long_violated == 0;
    if (too_many) {
      v = {RecordedStatus::unknown, "more than " + std::to_string(kMaxOrderings) +
                                        " orders of events fit within the clocks' uncertainty (" + bound +
                                        "): too many to judge; a smaller --clock-uncertainty, or a history on a "
                                        "common clock, can decide it"};
    } else if (all_violated) {
      v = {RecordedStatus::violated, ""};
    } else if (none_violated) {
      v = {RecordedStatus::holds, ""};
    } else if (p1 && unknown_promises && long_violated == long_worlds.size()) {
      v = {RecordedStatus::unknown, "a promise's true end is unknown: the property is violated if its window is as "
                                    "long as it could be, not if it is as short"};
    } else {
      v = {RecordedStatus::unknown, "the clocks' uncertainty (" + bound +
                                        ") allows orders of events where it holds and where it is violated: violated "
                                        "in " + std::to_string(long_violated) + " of " +
                                        std::to_string(long_worlds.size()) + " orders judged"};
    }
  }
  // What the history does not record, no order decides.
  auto& p4 = out.verdicts[static_cast<std::size_t>(Property::resource_current)];
  if (!r.service_recorded && any_op_accepted(r.history))
    p4 = {RecordedStatus::unknown, "the history does not record the lock service's keys (service.recorded is false): "
                                   "who held the lock when an op was accepted is not known"};
  auto& p5 = out.verdicts[static_cast<std::size_t>(Property::invariant)];
  if (!r.app_known)
    p5 = {RecordedStatus::unknown, "the history does not record the application's state (app is unknown)"};
  return out;
}

}  // namespace locksim
