#include "sim/check/sessions.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "sim/core/check.h"

namespace locksim {

namespace {

BeliefStop stop_of(BeliefEnd reason) {
  switch (reason) {
    case BeliefEnd::released: return BeliefStop::released;
    case BeliefEnd::validity_check: return BeliefStop::validity_check;
    case BeliefEnd::crashed: return BeliefStop::crashed;
    case BeliefEnd::abandoned: return BeliefStop::abandoned;
    case BeliefEnd::session_lost: return BeliefStop::session_lost;
  }
  return BeliefStop::crashed;
}

}  // namespace

SessionInfo& SessionTable::add_session() {
  if (count_ == sessions_.size()) return sessions_.emplace_back();
  SessionInfo& s = sessions_[count_];
  s.extensions.clear();  // its memory kept for this build's extensions
  std::vector<Extension> extensions = std::move(s.extensions);
  s = SessionInfo{};
  s.extensions = std::move(extensions);
  return s;
}

void SessionTable::build(const History& h) {
  count_ = 0;
  by_session_.clear();
  by_value_.clear();
  believing_.clear();
  run_end_ = kTrueStart;
  bool run_ended = false;
  TrueTime last_at = kTrueStart;
  for (const Fact& f : h.facts) {
    LOCKSIM_CHECK(f.at >= last_at, "history facts are not in true-time order");
    last_at = f.at;
    if (std::holds_alternative<RunEnded>(f.body)) {
      if (!run_ended) run_end_ = f.at;
      run_ended = true;
      continue;
    }
    if (const auto* g = std::get_if<LockGranted>(&f.body)) {
      LOCKSIM_CHECK(!by_session_.contains(g->session), "two LockGranted facts name the same session");
      SessionInfo& s = add_session();
      s.session = g->session;
      s.client = g->client;
      s.value = g->value;
      s.fencing_token = g->fencing_token;
      s.granted = f.at;
      s.promised_end = g->promised_end;
      by_session_.emplace(g->session, count_);
      by_value_.emplace_back(g->value, count_);
      ++count_;
      // A grant recorded after the run ended never believes for a positive time.
      believing_.push_back(!run_ended);
      if (run_ended) {
        s.belief_end = f.at;
        s.belief_stop = BeliefStop::run_end;
      }
      continue;
    }
    if (run_ended) continue;
    if (const auto* e = std::get_if<BeliefEnded>(&f.body)) {
      auto it = by_session_.find(e->session);
      if (it != by_session_.end() && believing_[it->second]) {
        believing_[it->second] = false;
        sessions_[it->second].belief_end = f.at;
        sessions_[it->second].belief_stop = stop_of(e->reason);
      }
    } else if (const auto* x = std::get_if<LockExtended>(&f.body)) {
      // An extension of a session never granted (or granted later) has no
      // window to move.
      auto it = by_session_.find(x->session);
      if (it != by_session_.end()) sessions_[it->second].extensions.push_back(Extension{f.at, x->promised_end});
    } else if (const auto* r = std::get_if<LockReleased>(&f.body)) {
      auto it = by_session_.find(r->session);
      if (it != by_session_.end() && sessions_[it->second].released == kTrueNever) sessions_[it->second].released = f.at;
    } else if (const auto* fault = std::get_if<FaultApplied>(&f.body)) {
      if (fault->kind != FaultKind::crash || fault->target == kNoProcess) continue;
      for (std::size_t i = 0; i < count_; ++i) {
        if (believing_[i] && sessions_[i].client == fault->target) {
          believing_[i] = false;
          sessions_[i].belief_end = f.at;
          sessions_[i].belief_stop = BeliefStop::client_crash;
        }
      }
    }
  }
  if (!run_ended) run_end_ = last_at;
  std::sort(by_value_.begin(), by_value_.end());
  for (std::size_t i = 0; i < count_; ++i) {
    if (believing_[i]) {
      sessions_[i].belief_end = run_end_;
      sessions_[i].belief_stop = BeliefStop::run_end;
    }
  }
}

const SessionInfo* SessionTable::find(SessionId session) const {
  auto it = by_session_.find(session);
  return it == by_session_.end() ? nullptr : &sessions_[it->second];
}

PromisedEnd SessionTable::promise_at(const SessionInfo& s, TrueTime t) {
  PromisedEnd p{s.promised_end, std::nullopt};
  for (const Extension& x : s.extensions) {
    if (x.at > t) break;
    p = PromisedEnd{x.promised_end, x.at};
  }
  return p;
}

std::span<const SessionTable::ByValue> SessionTable::with_value(std::uint64_t value) const {
  const auto first = std::lower_bound(by_value_.begin(), by_value_.end(), ByValue{value, 0});
  auto last = first;
  while (last != by_value_.end() && last->first == value) ++last;
  return {first, last};
}

const SessionInfo* SessionTable::owner_of(std::uint64_t value, TrueTime t) const {
  const auto same = with_value(value);
  if (same.empty()) return nullptr;
  const SessionInfo* best = &sessions_[same.front().second];
  for (const auto& [v, i] : same)
    if (sessions_[i].granted <= t) best = &sessions_[i];
  return best;
}

bool SessionTable::value_live(std::uint64_t value, TrueTime t) const {
  for (const auto& [v, i] : with_value(value))
    if (sessions_[i].granted > t || believes(sessions_[i], t)) return true;
  return false;
}

TrueTime SessionTable::live_until(std::uint64_t value) const {
  TrueTime until = TrueTime::min();
  for (const auto& [v, i] : with_value(value)) until = std::max({until, sessions_[i].granted, sessions_[i].belief_end});
  return until;
}

std::string session_label(const History& h, ProcessId client, SessionId session) {
  return h.name_of(client) + " (session " + std::to_string(session) + ")";
}

std::string session_possessive(const History& h, ProcessId client, SessionId session) {
  return h.name_of(client) + "'s session " + std::to_string(session);
}

std::string value_hex(std::uint64_t value) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, value);
  return buf;
}

}  // namespace locksim
