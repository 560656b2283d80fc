#include "sim/lock/master_follower.h"

namespace locksim {

void MasterFollower::on_notice(const Payload& payload) {
  if (const auto* s = std::get_if<redis::SwitchMaster>(&payload)) {
    if (s->epoch <= epoch_ || s->new_master == kNoProcess) return;
    epoch_ = s->epoch;
    announced_ = s->new_master;
    self_.set_timer(follow_delay_, tag_);
    return;
  }
  if (const auto* m = std::get_if<redis::MasterIs>(&payload)) {
    // An answer we asked for: act on it at once, if it is news.
    if (m->epoch <= epoch_ || m->master == kNoProcess) return;
    epoch_ = m->epoch;
    inner_->retarget(m->master);
    return;
  }
  inner_->on_notice(payload);
}

void MasterFollower::on_timer(std::uint64_t tag) {
  if (tag != tag_) return inner_->on_timer(tag);
  if (announced_ != kNoProcess) inner_->retarget(announced_);
}

void MasterFollower::on_acquire_failed() {
  // The master may be gone: ask the next sentinel where it is now.
  if (!sentinels_.empty()) {
    self_.send(sentinels_[next_sentinel_], redis::GetMaster{next_query_++});
    next_sentinel_ = (next_sentinel_ + 1) % sentinels_.size();
  }
  listener_.on_acquire_failed();
}

void MasterFollower::on_crash() {
  announced_ = kNoProcess;
  inner_->on_crash();
}

}  // namespace locksim
