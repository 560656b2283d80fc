#include "sim/lock/lease_belief.h"

#include "sim/core/check.h"

namespace locksim {

const Lease& LeaseBelief::grant(std::uint64_t value, std::int64_t fencing_token, ClockKind clock,
                                LocalTime end_local, Duration validity) {
  LOCKSIM_CHECK(!held(), "grant while a lease is held");
  stage_ = Stage::believing;
  lease_ = Lease{self_.new_session_id(), value, fencing_token, clock, end_local};
  self_.record(LockGranted{lease_.session, self_.id(), value, fencing_token, validity, clock, end_local});
  return lease_;
}

void LeaseBelief::extend(LocalTime end_local) {
  LOCKSIM_CHECK(held(), "extend without a lease");
  lease_.end_local = end_local;
  self_.record(LockExtended{lease_.session, self_.id(), lease_.clock, lease_.end_local});
}

void LeaseBelief::release() {
  LOCKSIM_CHECK(held(), "release without a lease");
  self_.record(LockReleased{lease_.session, self_.id()});
  end_belief(BeliefEnd::released);
  stage_ = Stage::none;
}

void LeaseBelief::lose(BeliefEnd reason) {
  LOCKSIM_CHECK(held(), "lose without a lease");
  end_belief(reason);
}

void LeaseBelief::abandon() {
  LOCKSIM_CHECK(held(), "abandon without a lease");
  end_belief(BeliefEnd::abandoned);
  stage_ = Stage::none;
}

void LeaseBelief::end_belief(BeliefEnd reason) {
  if (stage_ != Stage::believing) return;
  stage_ = Stage::lost;
  self_.record(BeliefEnded{lease_.session, self_.id(), reason});
}

}  // namespace locksim
