#include "sim/check/client_outcomes.h"

#include <algorithm>
#include <optional>

#include <boost/container/flat_set.hpp>

namespace locksim {

std::vector<ClientOutcome> client_outcomes(const History& h) {
  // Per process: its position in |out| (clients only) and the wait in progress.
  constexpr std::size_t kNotClient = SIZE_MAX;
  std::vector<ClientOutcome> out;
  std::vector<std::size_t> index(h.processes.size(), kNotClient);
  out.reserve(static_cast<std::size_t>(std::count_if(h.processes.begin(), h.processes.end(),
                                                     [](const ProcessInfo& p) { return p.kind == ProcessKind::client; })));
  for (ProcessId p = 0; p < h.processes.size(); ++p) {
    if (h.processes[p].kind != ProcessKind::client) continue;
    index[p] = out.size();
    out.push_back(ClientOutcome{p});
  }
  const auto client = [&](ProcessId p) -> ClientOutcome* {
    return p < index.size() && index[p] != kNotClient ? &out[index[p]] : nullptr;
  };
  std::vector<std::optional<TrueTime>> wanted_since(out.size());
  // Invoked, not yet completed: a few at a time, so flat (one of these per run of a sweep).
  boost::container::flat_set<std::pair<ProcessId, std::uint64_t>> open_releases;
  TrueTime run_end = kTrueStart;
  const auto end_wait = [&](ProcessId p, TrueTime at) {
    ClientOutcome* c = client(p);
    if (c == nullptr) return;
    std::optional<TrueTime>& since = wanted_since[index[p]];
    if (!since) return;
    if (at - *since >= c->longest_wait) c->longest_wait = at - *since, c->waiting_at_end = false;
    since.reset();
  };
  for (const Fact& f : h.facts) {
    run_end = f.at;
    if (const auto* want = std::get_if<LockWanted>(&f.body)) {
      if (client(want->client) != nullptr) wanted_since[index[want->client]] = f.at;
    } else if (const auto* gave_up = std::get_if<LockGaveUp>(&f.body)) {
      end_wait(gave_up->client, f.at);
    } else if (const auto* fault = std::get_if<FaultApplied>(&f.body)) {
      if (fault->kind == FaultKind::crash) end_wait(fault->target, f.at);  // a crashed client stays down
    } else if (const auto* g = std::get_if<LockGranted>(&f.body)) {
      if (ClientOutcome* c = client(g->client)) ++c->sessions;
      end_wait(g->client, f.at);
    } else if (const auto* op = std::get_if<ResourceOp>(&f.body)) {
      ClientOutcome* c = client(op->client);
      if (c == nullptr) continue;
      if (op->accepted) {
        ++c->ops_accepted;
      } else {
        ++c->ops_rejected;
        ++c->rejected_by[static_cast<std::size_t>(op->reject)];
      }
    } else if (const auto* inv = std::get_if<RequestInvoked>(&f.body)) {
      if (inv->kind == RequestKind::release) open_releases.insert({inv->client, inv->op});
    } else if (const auto* done = std::get_if<RequestCompleted>(&f.body)) {
      if (done->kind != RequestKind::release || open_releases.erase({done->client, done->op}) == 0) continue;
      ClientOutcome* c = client(done->client);
      if (c == nullptr) continue;
      if (done->outcome == Outcome::ok) ++c->releases_ok;
      if (done->outcome == Outcome::fail) ++c->releases_failed;
      if (done->outcome == Outcome::info) ++c->releases_unknown;
    }
  }
  for (const auto& [p, op] : open_releases)
    if (ClientOutcome* c = client(p)) ++c->releases_unknown;
  // Waits still open when the run ended count up to its end.
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (!wanted_since[i]) continue;
    ClientOutcome& c = out[i];
    if (run_end - *wanted_since[i] >= c.longest_wait) c.longest_wait = run_end - *wanted_since[i], c.waiting_at_end = true;
  }
  return out;
}

}  // namespace locksim
