#include "sim/workload/service.h"

namespace locksim {

void Service::on_message(const Message& message) {
  const auto* call = std::get_if<service::Call>(&message.payload);
  if (call == nullptr) return;
  std::uint64_t slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
    pending_[slot] = {message.from, call->request_id};
  } else {
    slot = pending_.size();
    pending_.push_back({message.from, call->request_id});
  }
  set_timer(latency_.sample(rng()), slot);
}

void Service::on_timer(std::uint64_t tag) {
  if (tag >= pending_.size()) return;
  send(pending_[tag].caller, service::Answer{pending_[tag].request_id});
  free_.push_back(tag);
}

}  // namespace locksim
