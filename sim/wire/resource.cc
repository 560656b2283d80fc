#include "sim/wire/resource.h"

namespace locksim::resource {

const char* op_name(Op op) {
  switch (op) {
    case Op::read: return "read";
    case Op::write: return "write";
    case Op::mark: return "mark";
    case Op::add: return "add";
    case Op::increment_size: return "increment-size";
    case Op::decrement: return "decrement";
    case Op::check_and_decrement: return "check-and-decrement";
    case Op::increment: return "increment";
    case Op::add_and_increment: return "add-and-increment";
    case Op::commit: return "commit";
  }
  return "?";
}

const char* reject_name(Reject r) {
  switch (r) {
    case Reject::none: return "none";
    case Reject::stale_token: return "stale-token";
    case Reject::mark_mismatch: return "mark-mismatch";
    case Reject::out_of_stock: return "out-of-stock";
    case Reject::missing_token: return "missing-token";
    case Reject::rolled_back: return "rolled-back";
  }
  return "?";
}

}  // namespace locksim::resource
