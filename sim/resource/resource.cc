#include "sim/resource/resource.h"

namespace locksim {

Resource::Resource(std::string name, ResourceConfig config) : Process(std::move(name)), config_(config) {
  stock_ = config_.initial_stock;
}

void Resource::on_start() { record_state(true); }

void Resource::on_message(const Message& message) {
  const auto* request = std::get_if<resource::Request>(&message.payload);
  if (!request) return;
  send(message.from, apply(*request, message.from));
}

resource::Reject Resource::admit(const resource::Request& r) {
  switch (config_.policy) {
    case WritePolicy::none: return resource::Reject::none;
    case WritePolicy::fencing:
      if (r.fencing_token == resource::kNoToken) return resource::Reject::missing_token;
      if (r.fencing_token < highest_token_) return resource::Reject::stale_token;
      return resource::Reject::none;
    case WritePolicy::unique_token_cas:
      if (r.op == resource::Op::mark) return resource::Reject::none;
      if (!marked_ || mark_ != r.lock_value) return resource::Reject::mark_mismatch;
      return resource::Reject::none;
  }
  return resource::Reject::none;
}

resource::Reply Resource::perform(const resource::Request& r) {
  resource::Reply reply{r.request_id, true, resource::Reject::none, 0};
  switch (r.op) {
    case resource::Op::read: reply.value = config_.app == AppKind::stock ? stock_ : counter_; break;
    case resource::Op::write:
      // The client computed the new value from what it read: that is what
      // makes a lost update possible.
      counter_ = r.argument;
      ++increments_;
      break;
    case resource::Op::mark:
      mark_ = r.lock_value;
      marked_ = true;
      break;
    case resource::Op::add: ++elements_; break;
    case resource::Op::increment_size: ++size_; break;
    case resource::Op::decrement: --stock_; break;  // DECR after the client's own compare
    case resource::Op::check_and_decrement:
      if (stock_ <= 0) return resource::Reply{r.request_id, false, resource::Reject::out_of_stock, stock_};
      --stock_;
      break;
  }
  if (r.op != resource::Op::read && r.op != resource::Op::mark) reply.value = config_.app == AppKind::stock ? stock_ : counter_;
  return reply;
}

resource::Reply Resource::apply(const resource::Request& r, ProcessId from) {
  const resource::Reject reject = admit(r);
  resource::Reply reply{r.request_id, false, reject, 0};
  if (reject == resource::Reject::none) reply = perform(r);
  if (reply.accepted && config_.policy == WritePolicy::fencing) highest_token_ = r.fencing_token;
  record(ResourceOp{r.session, from, r.op, reply.accepted, reply.reject, r.fencing_token});
  if (reply.accepted) record_state(false);
  return reply;
}

void Resource::record_state(bool quiescent) {
  record(AppState{config_.app, counter_, increments_, elements_, size_, stock_, quiescent});
}

void Resource::on_run_end() { record_state(true); }

}  // namespace locksim
