// The five checkers. Each is one pass (or two) over the facts; the precise
// rules are those of docs/properties.md (and its "What the verdicts are
// measured against"):
//  P1 grant-exclusive    Y's grant at tY is a violation when another session X
//                        has tX <= tY < X's promised end at tY and no
//                        LockReleased at or before tY. X's promised end at tY
//                        is that of its latest LockExtended recorded at or
//                        before tY, else its grant's (sessions.h). Equal
//                        instants: a grant exactly at X's promised end, or at
//                        X's release, is fine; an extension recorded at tY
//                        counts.
//  P2 belief-exclusive   beliefs [grant, end) of two sessions overlap for a
//                        positive length; one violation per pair.
//  P3 resource-exclusive in the sequence of accepted ops, a session resumes
//                        after another session's op (X, Y, X); Y then a stale
//                        X is P4's business, not P3's.
//  P4 resource-current   an accepted op whose session's value is not the
//                        service holder (holder.h) at that instant.
//  P5 invariant          from AppState facts, per application kind.
#include "sim/check/checkers.h"

#include <algorithm>
#include <vector>

#include <boost/container/flat_map.hpp>
#include <boost/container/small_vector.hpp>

#include "sim/check/fact_pass.h"
#include "sim/check/holder.h"
#include "sim/check/invariant_breaker.h"
#include "sim/check/sessions.h"
#include "sim/core/check.h"

namespace locksim {

namespace {

Verdict verdict_for(Property p) {
  Verdict v;
  v.property = p;
  return v;
}

// Only the first violation's witness is kept, so only it is written: the
// text costs more than the check, and a sweep runs millions of checks (and
// asks for the instant alone, WitnessDetail::time_only).
template <class MakeWitness>
void record(Verdict& v, WitnessDetail detail, TrueTime at, MakeWitness make_witness) {
  ++v.count;
  if (v.violated) return;
  v.violated = true;
  if (detail == WitnessDetail::time_only) {
    v.witness = Witness{at, {}, {}};
    return;
  }
  v.witness = make_witness();
  LOCKSIM_CHECK(v.witness->at == at, "a witness's text and its instant name the same moment");
}

// Witness text shows times rounded to what a reader needs; the JSON keeps
// the exact instant (Witness::at).
std::string when(TrueTime t) { return format_time_rounded(t); }

std::string belief_end_text(const History& h, const SessionInfo& s) {
  const std::string when = format_time_rounded(s.belief_end);
  switch (s.belief_stop) {
    case BeliefStop::released: return "until it released at " + when;
    case BeliefStop::validity_check: return "until a validity check ended it at " + when;
    case BeliefStop::session_lost: return "until a check found its session lost at " + when;
    case BeliefStop::abandoned: return "until it moved on to its next cycle without releasing at " + when;
    case BeliefStop::crashed:
    case BeliefStop::client_crash: return "until " + h.name_of(s.client) + " crashed at " + when;
    case BeliefStop::run_end: return "until the run ended at " + when;
  }
  return "until " + when;
}

std::string plural(std::int64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 || n == -1 ? one : many);
}

}  // namespace

Verdict check_grant_exclusive(const History& h) { return check_grant_exclusive(h, SessionTable(h)); }

Verdict check_grant_exclusive(const History& h, const SessionTable& table, WitnessDetail detail) {
  Verdict v = verdict_for(Property::grant_exclusive);
  const auto& s = table.sessions();
  // |open|: sessions granted at or before the current grant whose window may
  // be open now or later. Grant times only grow, so a session leaves for good
  // once released, or once its window has ended with no extension still to
  // come (a later extension can reopen a lapsed window: an auto-extension
  // that re-takes the lock after it ran out).
  boost::container::small_vector<std::size_t, 8> open;  // a sweep judges every run: no allocation for a few
  std::size_t next = 0;
  for (std::size_t y = 0; y < s.size(); ++y) {
    const TrueTime t_y = s[y].granted;
    while (next < s.size() && s[next].granted <= t_y) open.push_back(next++);
    open.erase(std::remove_if(open.begin(), open.end(),
                              [&](std::size_t x) {
                                if (s[x].released <= t_y) return true;
                                const bool more_extensions =
                                    !s[x].extensions.empty() && s[x].extensions.back().at > t_y;
                                return !more_extensions && SessionTable::promise_at(s[x], t_y).end <= t_y;
                              }),
               open.end());
    for (std::size_t x : open) {
      if (x == y) continue;
      const PromisedEnd promise = SessionTable::promise_at(s[x], t_y);
      if (promise.end <= t_y) continue;  // lapsed for now; a later extension may reopen it
      record(v, detail, t_y, [&] {
        std::string promised = promise.extended_at ? "extended at " + when(*promise.extended_at) + ", " : "";
        promised += promise.end == kTrueNever ? "was promised beyond the end of the run"
                                              : "was promised until " + when(promise.end);
        return Witness{t_y,
                       session_label(h, s[y].client, s[y].session) + " granted at " + when(t_y) + " while " +
                           session_possessive(h, s[x].client, s[x].session) + ", granted at " + when(s[x].granted) +
                           ", " + promised + " and not released",
                       "second-grant", s[y].client, s[y].session, s[x].client, s[x].session};
      });
      break;  // one violation per grant
    }
  }
  return v;
}

Verdict check_belief_exclusive(const History& h) { return check_belief_exclusive(h, SessionTable(h)); }

Verdict check_belief_exclusive(const History& h, const SessionTable& table, WitnessDetail detail) {
  Verdict v = verdict_for(Property::belief_exclusive);
  const auto& s = table.sessions();
  // |active|: earlier beliefs still running at the current start.
  boost::container::small_vector<std::size_t, 8> active;
  for (std::size_t y = 0; y < s.size(); ++y) {
    const TrueTime start = s[y].granted;
    if (s[y].belief_end <= start) continue;  // never believed for a positive time
    active.erase(std::remove_if(active.begin(), active.end(), [&](std::size_t x) { return s[x].belief_end <= start; }),
                 active.end());
    for (std::size_t x : active) {
      record(v, detail, start, [&] { return Witness{start,
                 session_label(h, s[y].client, s[y].session) + " began believing it held the lock at " + when(start) +
                     " while " + session_label(h, s[x].client, s[x].session) + " had believed so since " +
                     when(s[x].granted) + " and went on " + belief_end_text(h, s[x]),
                 "overlapping-belief", s[y].client, s[y].session, s[x].client, s[x].session}; });
    }
    active.push_back(y);
  }
  return v;
}

ResourceExclusiveCheck::ResourceExclusiveCheck(const History& h, WitnessDetail detail, Verdict& out)
    : AcceptedOpCheck(Property::resource_exclusive, out), h_(h), detail_(detail) {}

void ResourceExclusiveCheck::accepted(const Fact& f, const ResourceOp& op) {
  const Accepted now{op.session, op.client, op.op, f.at};
  auto own = last_of_.find(op.session);
  // The previous accepted op is another session's, and this session had an
  // op accepted before that: X, Y, X.
  if (last_ && last_->session != op.session && own != last_of_.end()) {
    const History& h = h_;
    record(v_, detail_, f.at, [&] { return Witness{f.at,
               session_label(h, op.client, op.session) + " " + resource::op_name(op.op) + " accepted at " +
                   when(f.at) + " resumed session " + std::to_string(op.session) + " (its " +
                   resource::op_name(own->second.op) + " was accepted at " + when(own->second.at) + ") after " +
                   session_possessive(h, last_->client, last_->session) + " " + resource::op_name(last_->op) +
                   " was accepted at " + when(last_->at),
               "interleaved-op", op.client, op.session, last_->client, last_->session}; });
  }
  last_of_.insert_or_assign(op.session, now);
  last_ = now;
}

Verdict check_resource_exclusive(const History& h, WitnessDetail detail) {
  Verdict v;
  ResourceExclusiveCheck check(h, detail, v);
  for_each_fact(h, check);
  return v;
}

Verdict check_resource_current(const History& h) { return check_resource_current(h, SessionTable(h)); }

ResourceCurrentCheck::ResourceCurrentCheck(const History& h, const SessionTable& table, HolderTrack& track,
                                           WitnessDetail detail, Verdict& out)
    : AcceptedOpCheck(Property::resource_current, out), h_(h), table_(table), track_(track), detail_(detail) {}

void ResourceCurrentCheck::accepted(const Fact& f, const ResourceOp& op) {
  const SessionInfo* own = table_.find(op.session);
  const std::optional<std::uint64_t>& holder = track_.current();
  if (own != nullptr && holder && *holder == own->value) return;
  const History& h = h_;
  const SessionTable& table = table_;
  record(v_, detail_, f.at, [&] {
    std::string text = session_label(h, op.client, op.session) + " " + resource::op_name(op.op) +
                       " accepted at " + when(f.at);
    if (own == nullptr) text += " (a session never granted)";
    Witness w{f.at, "", "op-not-from-holder", op.client, op.session};
    if (!holder) {
      // Say why: the values on the nodes against the quorum, or how the key left.
      const auto owner = [&](std::uint64_t value) {
        const SessionInfo* s = table.owner_of(value, f.at);
        return s == nullptr ? std::string() : session_possessive(h, s->client, s->session);
      };
      text += " while no one held the lock: " + track_.service().why_no_holder(h, owner);
    } else if (const SessionInfo* s = table.owner_of(*holder, f.at)) {
      text += " while the service holder was " + session_possessive(h, s->client, s->session);
      w.other_client = s->client;
      w.other_session = s->session;
    } else {
      text += " while the service holder was value " + value_hex(*holder) + ", granted to no session";
    }
    w.text = std::move(text);
    return w;
  });
}

Verdict check_resource_current(const History& h, const SessionTable& table, WitnessDetail detail) {
  HolderTrack track(h.service);
  Verdict v;
  ResourceCurrentCheck check(h, table, track, detail, v);
  for_each_fact(h, check, track);
  return v;
}

namespace {

// "c1 (session 1) write accepted at 15.005s lost 1 update: the counter is 1
// after 2 accepted increments when checked at 40s".
Witness counter_witness(const History& h, const InvariantBreaker& breaker, const AppState& app, TrueTime checked) {
  const TrueTime at = breaker.breaker() ? breaker.breaker()->at : checked;
  const std::int64_t lost = app.increments - app.counter;
  const std::int64_t own = breaker.lost_by_breaker();
  std::string text = breaker.described(h, checked) +
                     (own >= 0 ? " lost " + plural(own, "update", "updates")
                               : " counted " + plural(-own, "increment", "increments") + " too many") +
                     ": the counter is " + std::to_string(app.counter) + " after " +
                     plural(app.increments, "accepted increment", "accepted increments") + " when checked at " +
                     when(checked);
  if (lost != own)
    text += lost > 0 ? " (" + plural(lost, "update", "updates") + " lost in all)"
                     : " (" + plural(-lost, "increment", "increments") + " too many in all)";
  return breaker.named(Witness{at, text, lost > 0 ? "lost-update" : "extra-increment"});
}

Witness collection_witness(const History& h, const InvariantBreaker& breaker, const AppState& app, TrueTime checked) {
  const TrueTime at = breaker.breaker() ? breaker.breaker()->at : checked;
  return breaker.named(Witness{at,
                               breaker.described(h, checked) + " left the size behind: the collection's size is " +
                                   std::to_string(app.size) + " but it holds " +
                                   plural(app.elements, "element", "elements") + " when checked at " + when(checked),
                               "size-mismatch"});
}

}  // namespace

Verdict check_invariant(const History& h, WitnessDetail detail) {
  Verdict v = verdict_for(Property::invariant);
  std::optional<std::int64_t> initial_stock;  // known when recorded before any op
  bool any_op = false;
  std::int64_t decrements = 0;
  InvariantBreaker breaker;
  // Only the witness's words tell the lowest stock: a sweep, which asks for
  // the instant alone, does not pay the pass that finds it.
  std::int64_t lowest_stock = 0;
  if (detail == WitnessDetail::text)
    for (const Fact& f : h.facts)
      if (const auto* app = std::get_if<AppState>(&f.body); app && app->kind == AppKind::stock)
        lowest_stock = std::min(lowest_stock, app->stock);
  for (const Fact& f : h.facts) {
    if (const auto* op = std::get_if<ResourceOp>(&f.body)) {
      if (!op->accepted) continue;
      any_op = true;
      breaker.op(f.at, *op);
      if (op->op == resource::Op::decrement || op->op == resource::Op::check_and_decrement) ++decrements;
      continue;
    }
    const auto* app = std::get_if<AppState>(&f.body);
    if (app == nullptr) continue;
    breaker.state(f.at, *app);
    const TrueTime broke_at = breaker.breaker() ? breaker.breaker()->at : f.at;
    switch (app->kind) {
      case AppKind::stock: {
        if (!any_op && !initial_stock) initial_stock = app->stock;
        if (app->stock >= 0) break;
        record(v, detail, f.at, [&] {
          std::string context = initial_stock ? "started at " + std::to_string(*initial_stock) + ", " : "";
          context += plural(decrements, "decrement", "decrements") + " accepted";
          // The first negative sample is the witness; the lowest the stock
          // ever reached is the figure a review asks for: how many units were
          // sold that did not exist.
          std::string text = "stock is " + std::to_string(app->stock) + " at " + when(f.at) + " (" + context +
                             "): oversold by " + std::to_string(-app->stock);
          if (lowest_stock < app->stock)
            text += "; it went on down to " + std::to_string(lowest_stock) + ": oversold by " +
                    std::to_string(-lowest_stock) + " in all";
          Witness w{f.at, text, "oversold"};
          if (const auto& last = breaker.last_op()) w.client = last->client, w.session = last->session;
          return w;
        });
        break;
      }
      case AppKind::counter:
        if (app->quiescent && app->counter != app->increments)
          record(v, detail, broke_at, [&] { return counter_witness(h, breaker, *app, f.at); });
        break;
      case AppKind::collection:
        if (app->quiescent && app->size != app->elements)
          record(v, detail, broke_at, [&] { return collection_witness(h, breaker, *app, f.at); });
        break;
      case AppKind::register_value:
      case AppKind::none: break;
    }
  }
  return v;
}

Verdicts check_all(const History& h) { return check_all(h, SessionTable(h)); }

Verdicts check_all(const History& h, const SessionTable& table, WitnessDetail detail) {
  Verdicts out;
  out[static_cast<std::size_t>(Property::resource_exclusive)] = check_resource_exclusive(h, detail);
  out[static_cast<std::size_t>(Property::resource_current)] = check_resource_current(h, table, detail);
  complete_verdicts(h, table, detail, out);
  return out;
}

void complete_verdicts(const History& h, const SessionTable& table, WitnessDetail detail, Verdicts& out) {
  for (std::size_t i = 0; i < kPropertyCount; ++i) {
    switch (kAllProperties[i]) {
      case Property::grant_exclusive: out[i] = check_grant_exclusive(h, table, detail); break;
      case Property::belief_exclusive: out[i] = check_belief_exclusive(h, table, detail); break;
      case Property::resource_exclusive:
      case Property::resource_current: break;  // the caller's
      // Passes of its own: with the witness in words, it needs the lowest stock of the whole run first.
      case Property::invariant: out[i] = check_invariant(h, detail); break;
    }
  }
}

}  // namespace locksim
