#include "sim/check/client_outcomes.h"

#include <algorithm>

#include "sim/check/fact_pass.h"

namespace locksim {

ClientTally::ClientTally(const History& h, std::vector<ClientOutcome>& out)
    : out_(out), index_(h.processes.size(), kNotClient) {
  out_.clear();
  out_.reserve(static_cast<std::size_t>(std::count_if(
      h.processes.begin(), h.processes.end(), [](const ProcessInfo& p) { return p.kind == ProcessKind::client; })));
  for (ProcessId p = 0; p < h.processes.size(); ++p) {
    if (h.processes[p].kind != ProcessKind::client) continue;
    index_[p] = out_.size();
    out_.push_back(ClientOutcome{p});
  }
  wanted_since_.resize(out_.size());
}

void ClientTally::end_wait(ProcessId p, TrueTime at) {
  ClientOutcome* c = client(p);
  if (c == nullptr) return;
  std::optional<TrueTime>& since = wanted_since_[index_[p]];
  if (!since) return;
  if (at - *since >= c->longest_wait) c->longest_wait = at - *since, c->waiting_at_end = false;
  since.reset();
}

void ClientTally::count(const ResourceOp& op) {
  ClientOutcome* c = client(op.client);
  if (c == nullptr) return;
  if (op.accepted) {
    ++c->ops_accepted;
  } else {
    ++c->ops_rejected;
    ++c->rejected_by[static_cast<std::size_t>(op.reject)];
  }
}

void ClientTally::count(const RequestInvoked& invoked) {
  if (invoked.kind == RequestKind::release) open_releases_.insert({invoked.client, invoked.op});
}

void ClientTally::count(const RequestCompleted& done) {
  if (done.kind != RequestKind::release || open_releases_.erase({done.client, done.op}) == 0) return;
  ClientOutcome* c = client(done.client);
  if (c == nullptr) return;
  if (done.outcome == Outcome::ok) ++c->releases_ok;
  if (done.outcome == Outcome::fail) ++c->releases_failed;
  if (done.outcome == Outcome::info) ++c->releases_unknown;
}

void ClientTally::finish() {
  for (const auto& [p, op] : open_releases_)
    if (ClientOutcome* c = client(p)) ++c->releases_unknown;
  // Waits still open when the run ended count up to its end.
  for (std::size_t i = 0; i < out_.size(); ++i) {
    if (!wanted_since_[i]) continue;
    ClientOutcome& c = out_[i];
    if (run_end_ - *wanted_since_[i] >= c.longest_wait)
      c.longest_wait = run_end_ - *wanted_since_[i], c.waiting_at_end = true;
  }
}

std::vector<ClientOutcome> client_outcomes(const History& h) {
  std::vector<ClientOutcome> out;
  ClientTally tally(h, out);
  for_each_fact(h, tally);
  tally.finish();
  return out;
}

}  // namespace locksim
