#include "sim/check/margins.h"

#include <algorithm>
#include <map>

#include "sim/check/sessions.h"

namespace locksim {

namespace {

// The end of |s|'s promise as it stood at |t|: its promised end then, or its
// release if that came first. kTrueNever when the protocol promised no end.
TrueTime promise_end_at(const SessionInfo& s, TrueTime t) {
  return std::min(SessionTable::promise_at(s, t).end, s.released);
}

void lower(std::optional<Duration>& margin, Duration candidate) {
  if (!margin || candidate < *margin) margin = candidate;
}

std::optional<Duration> grant_margin(const SessionTable& table) {
  std::optional<Duration> margin;
  const auto& sessions = table.sessions();
  for (std::size_t j = 1; j < sessions.size(); ++j)
    for (std::size_t i = 0; i < j; ++i) {
      const TrueTime end = promise_end_at(sessions[i], sessions[j].granted);
      if (end != kTrueNever) lower(margin, sessions[j].granted - end);
    }
  return margin;
}

std::optional<Duration> belief_margin(const SessionTable& table) {
  std::optional<Duration> margin;
  const auto& sessions = table.sessions();
  // Grant order: the latest belief end among the earlier sessions is the one
  // the next grant comes closest to.
  TrueTime latest_end = kTrueStart;
  for (std::size_t j = 0; j < sessions.size(); ++j) {
    if (j > 0 && latest_end != kTrueNever) lower(margin, sessions[j].granted - latest_end);
    latest_end = std::max(latest_end, sessions[j].belief_end);
  }
  return margin;
}

struct OpSpan {
  TrueTime first;
  TrueTime last;
};

std::optional<Duration> interleave_margin(const History& h) {
  std::map<SessionId, OpSpan> spans;
  std::vector<SessionId> order;  // by first accepted op
  for (const Fact& f : h.facts) {
    const auto* op = std::get_if<ResourceOp>(&f.body);
    if (op == nullptr || !op->accepted) continue;
    auto [it, fresh] = spans.try_emplace(op->session, OpSpan{f.at, f.at});
    if (fresh) order.push_back(op->session);
    it->second.last = f.at;
  }
  std::optional<Duration> margin;
  std::optional<TrueTime> latest_last;
  for (SessionId s : order) {
    const OpSpan& span = spans.at(s);
    if (latest_last) lower(margin, span.first - *latest_last);
    latest_last = latest_last ? std::max(*latest_last, span.last) : span.last;
  }
  return margin;
}

// Over the accepted ops, in one pass: P4's margin (the op's session's
// promise end or release, whichever came first, minus the op) and the lease
// left (the same without the release).
struct OpMargins {
  std::optional<Duration> current;
  std::optional<Duration> lease_left;
};

OpMargins op_margins(const History& h, const SessionTable& table) {
  OpMargins out;
  for (const Fact& f : h.facts) {
    const auto* op = std::get_if<ResourceOp>(&f.body);
    if (op == nullptr || !op->accepted) continue;
    const SessionInfo* s = table.find(op->session);
    if (s == nullptr) continue;
    const TrueTime promised = SessionTable::promise_at(*s, f.at).end;
    if (promised != kTrueNever) lower(out.lease_left, promised - f.at);
    const TrueTime end = std::min(promised, s->released);  // promise_end_at(*s, f.at), its lookup done
    if (end != kTrueNever) lower(out.current, end - f.at);
  }
  return out;
}

// The checker has the last word on the sign: a margin that says "held" for a
// broken property (or the reverse) would send a search the wrong way.
std::optional<Duration> agree(std::optional<Duration> margin, const Verdict& verdict) {
  if (verdict.violated) return std::min(margin.value_or(Duration{-1}), Duration{-1});
  if (margin && *margin < Duration{0}) return Duration{0};
  return margin;
}

}  // namespace

std::optional<int> quorum_shortfall(const History& h) {
  const ServiceLayout& service = h.service;
  if (service.quorum <= 1 || service.replicated_state) return std::nullopt;
  const SessionTable table(h);
  std::map<ProcessId, std::uint64_t> holds;  // node -> the lock key's value there
  std::optional<int> shortfall;
  for (const Fact& f : h.facts) {
    if (const auto* gone = std::get_if<KeyDropped>(&f.body)) {
      if (gone->key == service.lock_key) holds.erase(gone->node);
      continue;
    }
    const auto* held = std::get_if<KeyHeld>(&f.body);
    if (held == nullptr || held->key != service.lock_key) continue;
    holds[held->node] = held->value;
    const auto open_promise = std::any_of(table.sessions().begin(), table.sessions().end(), [&](const SessionInfo& s) {
      return s.value != held->value && s.granted <= f.at && f.at < promise_end_at(s, f.at);
    });
    if (!open_promise) continue;
    const auto nodes = static_cast<int>(std::count_if(
        holds.begin(), holds.end(), [&](const auto& entry) { return entry.second == held->value; }));
    const int lacking = std::max(0, static_cast<int>(service.quorum) - nodes);
    if (!shortfall || lacking < *shortfall) shortfall = lacking;
  }
  return shortfall;
}

Margins safety_margins(const History& h, const Verdicts& verdicts, std::optional<Duration>* lease_left) {
  const SessionTable table(h);
  const OpMargins ops = op_margins(h, table);
  if (lease_left != nullptr) *lease_left = ops.lease_left;
  Margins m;
  const auto at = [](Property p) { return static_cast<std::size_t>(p); };
  m[at(Property::grant_exclusive)] = grant_margin(table);
  m[at(Property::belief_exclusive)] = belief_margin(table);
  m[at(Property::resource_exclusive)] = interleave_margin(h);
  m[at(Property::resource_current)] = ops.current;
  std::optional<Duration> race = m[at(Property::resource_exclusive)];
  if (const auto& current = m[at(Property::resource_current)]) lower(race, *current);
  m[at(Property::invariant)] = race;
  for (Property p : kAllProperties) m[at(p)] = agree(m[at(p)], verdicts[at(p)]);
  return m;
}

}  // namespace locksim
