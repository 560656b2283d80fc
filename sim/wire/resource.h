// The resource's wire: the operations a client performs on the protected
// resource, and the resource's answer. A request carries the session's fencing
// token (for the fencing policy) and its lock value (for unique-token CAS);
// the resource decides by its write policy alone.
#pragma once

#include <cstdint>

namespace locksim::resource {

enum class Op : std::uint8_t {
  read,                 // read the application value (counter, stock)
  write,                // counter: write read+1; register: overwrite
  mark,                 // unique-token CAS: mark the resource with the session's value
  add,                  // collection: add an element
  increment_size,       // collection: size += 1 (the second half of an add)
  decrement,            // stock: write (value read) - 1 — the client compared before
  check_and_decrement,  // stock: atomically decrement only if stock > 0
  increment,            // counter: an atomic read-modify-write (no value read by the client)
  add_and_increment,    // collection: add an element and bump the size in one op
  commit,               // transactional: apply the session's staged ops, or roll them back
};
const char* op_name(Op op);

enum class Reject : std::uint8_t {
  none,
  stale_token,     // fencing: token below the highest seen
  mark_mismatch,   // unique-token CAS: the resource is marked by another session
  out_of_stock,    // check-and-decrement found stock <= 0
  missing_token,   // fencing: the request carried no token at all
  rolled_back,     // transactional: another session committed since this one began; nothing applied
};
const char* reject_name(Reject r);

inline constexpr std::int64_t kNoToken = -1;

struct Request {
  std::uint64_t request_id = 0;
  std::uint32_t session = 0;
  Op op = Op::read;
  std::int64_t fencing_token = kNoToken;
  std::uint64_t lock_value = 0;
  std::int64_t argument = 0;  // write/decrement: the value the client read
};

struct Reply {
  std::uint64_t request_id = 0;
  bool accepted = false;
  Reject reject = Reject::none;
  std::int64_t value = 0;  // read: the current value
};

}  // namespace locksim::resource
