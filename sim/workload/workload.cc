#include "sim/workload/workload.h"

#include "sim/core/check.h"
#include "sim/core/limits.h"

namespace locksim {

namespace {

enum Tag : std::uint64_t { kBegin = 0, kRetry, kStep, kStepDone, kOpTimeout };

}  // namespace

Workload::Workload(Process& self, WorkloadConfig config, std::uint64_t tag_base)
    : self_(self), config_(std::move(config)), tag_base_(tag_base) {}

void Workload::start() {
  active_ = true;
  self_.reach(Phase::started);
  if (!config_.start_on_trigger) self_.set_timer(config_.start, tag_base_ + kBegin);
}

void Workload::triggered() {
  // The world starts every process before any trigger can come, and drops a
  // trigger for a crashed client; one that crashed and came back stays idle.
  if (!active_ || !config_.start_on_trigger) return;
  begin_cycle();
}

void Workload::begin_cycle() {
  // A session that ended without a release (release = false) is given up
  // now: this client no longer counts on it, though its key lives on.
  if (lock_->held()) lock_->abandon();
  attempt_ = 0;
  self_.record(LockWanted{self_.id()});
  try_acquire();
}

void Workload::try_acquire() {
  ++attempt_;
  lock_->acquire(attempt_ == 1);
}

void Workload::on_acquire_failed() {
  if (!active_) return;
  self_.reach(Phase::acquire_failed);
  if (config_.attempts == 0 || attempt_ < config_.attempts) {
    self_.set_timer(config_.retry_delay.sample(self_.rng()), tag_base_ + kRetry);
    return;
  }
  lock_->give_up();
  self_.record(LockGaveUp{self_.id()});
  end_cycle();
}

void Workload::on_acquired(const Lease& lease) {
  if (!active_) return;
  lease_ = lease;
  step_ = 0;
  self_.reach(Phase::acquired);
  self_.set_timer(Duration{0}, tag_base_ + kStep);
}

void Workload::run_step() {
  if (step_ >= config_.steps.size()) return finish_session();
  const Step& step = config_.steps[step_];
  switch (step.kind) {
    case StepKind::call:
      if (step_ < config_.step_service.size() && config_.step_service[step_] != kNoProcess) {
        awaited_call_ = next_request_id_++;
        self_.send(config_.step_service[step_], service::Call{awaited_call_});
        return;
      }
      [[fallthrough]];
    case StepKind::work: self_.set_timer(step.duration.sample(self_.rng()), tag_base_ + kStepDone); return;
    case StepKind::check:
      if (lock_->lease_valid()) {
        self_.reach(phase_reached(StepKind::check));
        return advance();
      }
      lock_->lose();
      self_.reach(Phase::lost_lock);
      return finish_session();
    case StepKind::read: return send_op(resource::Op::read, 0);
    // Saturating: a stock read at initial_stock = 2^63 - 1 must not wrap.
    case StepKind::write: return send_op(resource::Op::write, saturating_add(last_read_, std::int64_t{1}));
    case StepKind::mark:
      if (config_.send_marks) return send_op(resource::Op::mark, 0);
      self_.reach(phase_reached(StepKind::mark));
      return advance();
    case StepKind::add: return send_op(resource::Op::add, 0);
    case StepKind::increment_size: return send_op(resource::Op::increment_size, 0);
    case StepKind::decrement:
      // GET-compare-DECR: the compare happens here, on a value that may be stale.
      if (last_read_ <= 0) return advance();
      return send_op(resource::Op::decrement, last_read_);
    case StepKind::check_and_decrement: return send_op(resource::Op::check_and_decrement, 0);
    case StepKind::increment: return send_op(resource::Op::increment, 0);
    case StepKind::add_and_increment: return send_op(resource::Op::add_and_increment, 0);
    case StepKind::commit: return send_op(resource::Op::commit, 0);
  }
}

void Workload::send_op(resource::Op op, std::int64_t argument) {
  resource::Request r;
  r.request_id = next_request_id_++;
  r.session = lease_.session;
  r.op = op;
  r.fencing_token = lease_.fencing_token;
  r.lock_value = lease_.value;
  r.argument = argument;
  awaited_op_ = r.request_id;
  awaited_kind_ = op;
  op_timeout_ = self_.set_timer(config_.op_timeout, tag_base_ + kOpTimeout);
  if (lock_->keeps_resource()) return lock_->resource_op(r);
  self_.send(config_.resource, r);
}

void Workload::on_reply(const resource::Reply& reply) {
  if (!active_ || reply.request_id != awaited_op_) return;
  awaited_op_ = 0;
  self_.cancel_timer(op_timeout_);
  if (awaited_kind_ == resource::Op::read) last_read_ = reply.value;
  self_.reach(phase_reached(config_.steps[step_].kind));
  // A rolled-back transaction changed nothing: the client gives the lock
  // back and does the cycle again, as an application retries a transaction.
  if (!reply.accepted && reply.reject == resource::Reject::rolled_back) return retry_cycle();
  if (!reply.accepted) return finish_session();
  advance();
}

void Workload::on_answer(const service::Answer& answer) {
  if (!active_ || answer.request_id != awaited_call_) return;
  awaited_call_ = 0;
  self_.reach(phase_reached(StepKind::call));
  advance();
}

void Workload::advance() {
  ++step_;
  self_.set_timer(Duration{0}, tag_base_ + kStep);
}

void Workload::finish_session() {
  if (config_.release) {
    lock_->release();
    self_.reach(Phase::released);
  }
  end_cycle();
}

void Workload::retry_cycle() {
  if (config_.release) {
    lock_->release();
    self_.reach(Phase::released);
  }
  self_.set_timer(config_.retry_delay.sample(self_.rng()), tag_base_ + kBegin);
}

void Workload::end_cycle() {
  if (++cycle_ < config_.iterations) {
    self_.set_timer(config_.think, tag_base_ + kBegin);
    return;
  }
  active_ = false;
  self_.reach(Phase::done);
}

void Workload::on_timer(std::uint64_t tag) {
  if (!active_) return;
  switch (tag - tag_base_) {
    case kBegin: return begin_cycle();
    case kRetry: return try_acquire();
    case kStep: return run_step();
    case kStepDone: {
      self_.reach(phase_reached(config_.steps[step_].kind));
      return advance();
    }
    case kOpTimeout:
      if (awaited_op_ == 0) return;
      awaited_op_ = 0;
      return finish_session();
    default: LOCKSIM_CHECK(false, "unknown workload timer");
  }
}

void Workload::on_crash() {
  active_ = false;
  awaited_op_ = 0;
  awaited_call_ = 0;
}

}  // namespace locksim
