#include "sim/check/client_outcomes.h"

#include <map>
#include <optional>
#include <set>

namespace locksim {

std::vector<ClientOutcome> client_outcomes(const History& h) {
  std::vector<ClientOutcome> out;
  std::map<ProcessId, std::size_t> index;  // client -> position in out
  for (ProcessId p = 0; p < h.processes.size(); ++p) {
    if (h.processes[p].kind != ProcessKind::client) continue;
    index[p] = out.size();
    out.push_back(ClientOutcome{p});
  }
  std::map<ProcessId, TrueTime> wanted_since;                   // a wait in progress
  std::set<std::pair<ProcessId, std::uint64_t>> open_releases;  // invoked, not yet completed
  TrueTime run_end = kTrueStart;
  const auto end_wait = [&](ProcessId client, TrueTime at) {
    const auto it = wanted_since.find(client);
    if (it == wanted_since.end()) return;
    ClientOutcome& c = out[index.at(client)];
    if (at - it->second >= c.longest_wait) c.longest_wait = at - it->second, c.waiting_at_end = false;
    wanted_since.erase(it);
  };
  for (const Fact& f : h.facts) {
    run_end = f.at;
    if (const auto* want = std::get_if<LockWanted>(&f.body)) {
      wanted_since[want->client] = f.at;
    } else if (const auto* gave_up = std::get_if<LockGaveUp>(&f.body)) {
      end_wait(gave_up->client, f.at);
    } else if (const auto* fault = std::get_if<FaultApplied>(&f.body)) {
      if (fault->kind == FaultKind::crash && index.count(fault->target) != 0) end_wait(fault->target, f.at);  // a crashed client stays down
    } else if (const auto* g = std::get_if<LockGranted>(&f.body)) {
      if (index.count(g->client) == 0) continue;
      ++out[index.at(g->client)].sessions;
      end_wait(g->client, f.at);
    } else if (const auto* op = std::get_if<ResourceOp>(&f.body)) {
      if (index.count(op->client) == 0) continue;
      ClientOutcome& c = out[index.at(op->client)];
      if (op->accepted) {
        ++c.ops_accepted;
      } else {
        ++c.ops_rejected;
        ++c.rejected_by[static_cast<std::size_t>(op->reject)];
      }
    } else if (const auto* inv = std::get_if<RequestInvoked>(&f.body)) {
      if (inv->kind == RequestKind::release) open_releases.insert({inv->client, inv->op});
    } else if (const auto* done = std::get_if<RequestCompleted>(&f.body)) {
      if (done->kind != RequestKind::release || open_releases.erase({done->client, done->op}) == 0) continue;
      ClientOutcome& c = out[index.at(done->client)];
      if (done->outcome == Outcome::ok) ++c.releases_ok;
      if (done->outcome == Outcome::fail) ++c.releases_failed;
      if (done->outcome == Outcome::info) ++c.releases_unknown;
    }
  }
  for (const auto& [client, op] : open_releases) ++out[index.at(client)].releases_unknown;
  // Waits still open when the run ended count up to its end.
  for (const auto& [client, since] : wanted_since) {
    ClientOutcome& c = out[index.at(client)];
    if (run_end - since >= c.longest_wait) c.longest_wait = run_end - since, c.waiting_at_end = true;
  }
  return out;
}

}  // namespace locksim
