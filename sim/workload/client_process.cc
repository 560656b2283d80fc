#include "sim/workload/client_process.h"

namespace locksim {

ClientProcess::ClientProcess(std::string name, WorkloadConfig workload, const LockFactory& make_lock,
                             RedisLibraryConfig library)
    : Process(std::move(name)), library_(*this, library), workload_(*this, std::move(workload), kWorkloadTags) {
  lock_ = make_lock(*this, workload_, kLockTags);
  workload_.attach(*lock_);
}

void ClientProcess::on_message(const Message& message) {
  if (library_.took(message)) return;
  if (const auto* r = std::get_if<redis::Reply>(&message.payload)) return lock_->on_reply(*r);
  if (const auto* r = std::get_if<resource::Reply>(&message.payload)) return workload_.on_reply(*r);
  if (const auto* a = std::get_if<service::Answer>(&message.payload)) return workload_.on_answer(*a);
  lock_->on_notice(message.payload);  // sentinel announcements and answers
}

void ClientProcess::on_timer(std::uint64_t tag) {
  if (tag >= kWorkloadTags) return workload_.on_timer(tag);
  lock_->on_timer(tag);
}

void ClientProcess::on_crash() {
  lock_->on_crash();
  workload_.on_crash();
}

}  // namespace locksim
