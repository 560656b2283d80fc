#include "sim/resource/resource.h"

#include <algorithm>

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
    case WritePolicy::transactional: return resource::Reject::none;
    case WritePolicy::fencing:
    case WritePolicy::transactional_fenced:
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
    case resource::Op::increment:  // the read-modify-write done by the resource: nothing to lose
      ++counter_;
      ++increments_;
      break;
    case resource::Op::add_and_increment:
      ++elements_;
      ++size_;
      break;
    case resource::Op::commit: break;  // only a transactional policy stages anything to commit
  }
  if (r.op != resource::Op::read && r.op != resource::Op::mark) reply.value = config_.app == AppKind::stock ? stock_ : counter_;
  return reply;
}

resource::Reply Resource::apply(const resource::Request& r, ProcessId from) {
  const resource::Reject reject = admit(r);
  resource::Reply reply{r.request_id, false, reject, 0};
  if (reject == resource::Reject::none && is_transactional(config_.policy)) return transact(r, from);
  if (reject == resource::Reject::none) reply = perform(r);
  if (reply.accepted && config_.policy == WritePolicy::fencing) highest_token_ = r.fencing_token;
  record(ResourceOp{r.session, from, r.op, reply.accepted, reply.reject, r.fencing_token});
  if (reply.accepted) record_state(false);
  return reply;
}

// A transactional policy's path for an admitted op: reads at once, other ops
// staged, the commit applies them all or rolls them all back.
resource::Reply Resource::transact(const resource::Request& r, ProcessId from) {
  if (config_.policy == WritePolicy::transactional_fenced) highest_token_ = std::max(highest_token_, r.fencing_token);
  // A session's first op fixes what "since it began" means for its commit.
  Staged& staged = staged_.try_emplace(r.session, Staged{commits_, {}}).first->second;
  if (r.op == resource::Op::read) {
    const resource::Reply reply = perform(r);
    record(ResourceOp{r.session, from, r.op, true, resource::Reject::none, r.fencing_token});
    return reply;
  }
  if (r.op != resource::Op::commit) {
    staged.ops.push_back(r);
    return resource::Reply{r.request_id, true, resource::Reject::none, 0};
  }
  const Staged done = staged;
  staged_.erase(r.session);
  if (done.began_at_commit != commits_) {
    // Another session committed in between: nothing of this one happened.
    record(ResourceOp{r.session, from, r.op, false, resource::Reject::rolled_back, r.fencing_token});
    return resource::Reply{r.request_id, false, resource::Reject::rolled_back, 0};
  }
  for (const resource::Request& op : done.ops) {
    const resource::Reply applied = perform(op);
    record(ResourceOp{op.session, from, op.op, applied.accepted, applied.reject, op.fencing_token});
  }
  ++commits_;
  record(ResourceOp{r.session, from, r.op, true, resource::Reject::none, r.fencing_token});
  record_state(false);
  return resource::Reply{r.request_id, true, resource::Reject::none, config_.app == AppKind::stock ? stock_ : counter_};
}

void Resource::record_state(bool quiescent) {
  record(AppState{config_.app, counter_, increments_, elements_, size_, stock_, quiescent});
}

void Resource::on_run_end() { record_state(true); }

}  // namespace locksim
