#include "sim/check/invariant_breaker.h"

#include <algorithm>

#include "sim/check/sessions.h"

namespace locksim {

void InvariantBreaker::op(TrueTime at, const ResourceOp& op) {
  last_op_ = Op{at, op.client, op.session, op.op};
  if (op.op == resource::Op::add) open_adds_.push_back(*last_op_);
  if (op.op != resource::Op::increment_size) return;
  const auto own = std::find_if(open_adds_.begin(), open_adds_.end(),
                                [&](const Op& add) { return add.client == op.client && add.session == op.session; });
  if (own != open_adds_.end()) open_adds_.erase(own);
}

void InvariantBreaker::state(TrueTime at, const AppState& app) {
  if (app.kind == AppKind::counter && !app.quiescent) {
    const std::int64_t gap = app.increments - app.counter;
    if (gap != gap_ && !breaker_)
      breaker_ = last_op_ ? *last_op_ : Op{at, kNoProcess, 0, resource::Op::write}, lost_by_breaker_ = gap - gap_;
    gap_ = gap;
  }
  if (app.kind != AppKind::collection) return;
  if (!app.quiescent && !last_op_) breaker_ = Op{at, kNoProcess, 0, resource::Op::add};
  if (app.quiescent && !open_adds_.empty()) breaker_ = open_adds_.front();
}

std::string InvariantBreaker::described(const History& h, TrueTime fallback) const {
  if (breaker_ && breaker_->client != kNoProcess)
    return session_label(h, breaker_->client, breaker_->session) + " " + resource::op_name(breaker_->op) +
           " accepted at " + format_time_rounded(breaker_->at);
  return "the op before the state recorded at " + format_time_rounded(breaker_ ? breaker_->at : fallback);
}

Witness InvariantBreaker::named(Witness w) const {
  if (breaker_ && breaker_->client != kNoProcess) w.client = breaker_->client, w.session = breaker_->session;
  return w;
}

}  // namespace locksim
