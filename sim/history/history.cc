#include "sim/history/history.h"

#include <array>
#include <utility>

namespace locksim {

namespace {

constexpr std::array<std::pair<Phase, const char*>, 20> kPhaseNames{{
    {Phase::started, "started"},
    {Phase::acquire_sent, "acquire-sent"},
    {Phase::setnx_ok, "setnx-ok"},
    {Phase::acquired, "acquired"},
    {Phase::acquire_failed, "acquire-failed"},
    {Phase::read, "read"},
    {Phase::wrote, "wrote"},
    {Phase::marked, "marked"},
    {Phase::added, "added"},
    {Phase::incremented_size, "incremented-size"},
    {Phase::decremented, "decremented"},
    {Phase::committed, "committed"},
    {Phase::worked, "worked"},
    {Phase::called, "called"},
    {Phase::checked, "checked"},
    {Phase::lost_lock, "lost-lock"},
    {Phase::released, "released"},
    {Phase::extended, "extended"},
    {Phase::session_lost, "session-lost"},
    {Phase::done, "done"},
}};

}  // namespace

const char* phase_name(Phase p) {
  for (const auto& [phase, name] : kPhaseNames)
    if (phase == p) return name;
  return "?";
}

bool parse_phase(const std::string& text, Phase& out) {
  for (const auto& [phase, name] : kPhaseNames) {
    if (text == name) {
      out = phase;
      return true;
    }
  }
  return false;
}

std::vector<std::string> phase_names() {
  std::vector<std::string> names;
  for (const auto& entry : kPhaseNames) names.emplace_back(entry.second);
  return names;
}


const char* request_kind_name(RequestKind k) {
  switch (k) {
    case RequestKind::acquire: return "acquire";
    case RequestKind::release: return "release";
    case RequestKind::extend: return "extend";
    case RequestKind::fencing_token: return "fencing-token";
  }
  return "?";
}

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::ok: return "ok";
    case Outcome::fail: return "fail";
    case Outcome::info: return "info";
  }
  return "?";
}

const char* belief_end_name(BeliefEnd b) {
  switch (b) {
    case BeliefEnd::released: return "released";
    case BeliefEnd::validity_check: return "validity-check";
    case BeliefEnd::crashed: return "crashed";
    case BeliefEnd::abandoned: return "abandoned";
    case BeliefEnd::session_lost: return "session-lost";
  }
  return "?";
}

const char* key_gone_name(KeyGone k) {
  switch (k) {
    case KeyGone::deleted: return "deleted";
    case KeyGone::expired: return "expired";
    case KeyGone::overwritten: return "overwritten";
    case KeyGone::lost_in_crash: return "lost-in-crash";
    case KeyGone::demoted: return "demoted";
  }
  return "?";
}

const char* store_session_event_name(StoreSessionEvent e) {
  switch (e) {
    case StoreSessionEvent::opened: return "opened";
    case StoreSessionEvent::expired: return "expired";
    case StoreSessionEvent::closed: return "closed";
  }
  return "?";
}

const char* app_kind_name(AppKind k) {
  switch (k) {
    case AppKind::none: return "none";
    case AppKind::counter: return "counter";
    case AppKind::register_value: return "register";
    case AppKind::collection: return "collection";
    case AppKind::stock: return "stock";
  }
  return "?";
}

const char* fault_kind_name(FaultKind k) {
  switch (k) {
    case FaultKind::pause: return "pause";
    case FaultKind::resume: return "resume";
    case FaultKind::crash: return "crash";
    case FaultKind::restart: return "restart";
    case FaultKind::clock_jump: return "clock-jump";
    case FaultKind::clock_drift: return "clock-drift";
    case FaultKind::partition: return "partition";
    case FaultKind::heal: return "heal";
    case FaultKind::clock_slew: return "clock-slew";
  }
  return "?";
}

const char* span_kind_name(SpanKind k) {
  switch (k) {
    case SpanKind::paused: return "paused";
    case SpanKind::down: return "down";
    case SpanKind::partitioned: return "partitioned";
    case SpanKind::slewed: return "slewed";
  }
  return "?";
}

const char* span_end_name(SpanEnd e) {
  switch (e) {
    case SpanEnd::resumed: return "resumed";
    case SpanEnd::crashed: return "crashed";
    case SpanEnd::restarted: return "restarted";
    case SpanEnd::healed: return "healed";
    case SpanEnd::rate_changed: return "rate-changed";
    case SpanEnd::run_ended: return "run-ended";
  }
  return "?";
}

const std::string& History::name_of(ProcessId p) const {
  static const std::string kUnknown = "?";
  return p < processes.size() ? processes[p].name : kUnknown;
}

}  // namespace locksim
