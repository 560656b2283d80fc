#include "sim/wire/consensus.h"

namespace locksim::consensus {

const char* op_name(Op op) {
  switch (op) {
    case Op::open_session: return "open-session";
    case Op::keep_alive: return "keep-alive";
    case Op::close_session: return "close-session";
    case Op::create_if_absent: return "create-if-absent";
    case Op::create_sequential: return "create-sequential";
    case Op::acquire: return "acquire";
    case Op::first_created: return "first-created";
    case Op::last_created_below: return "last-created-below";
    case Op::get: return "get";
    case Op::watch_delete: return "watch-delete";
    case Op::del: return "delete";
    case Op::guarded_decrement: return "guarded-decrement";
    case Op::read_stock: return "read-stock";
    case Op::cas_put: return "cas-put";
  }
  return "?";
}

const char* status_name(Status status) {
  switch (status) {
    case Status::ok: return "ok";
    case Status::not_found: return "not-found";
    case Status::failed: return "failed";
    case Status::held: return "held";
    case Status::delayed: return "delayed";
    case Status::session_gone: return "session-gone";
    case Status::not_leader: return "not-leader";
    case Status::refused: return "refused";
  }
  return "?";
}

const char* command_kind_name(Command::Kind kind) {
  switch (kind) {
    case Command::Kind::noop: return "noop";
    case Command::Kind::open_session: return "open-session";
    case Command::Kind::close_session: return "close-session";
    case Command::Kind::expire_session: return "expire-session";
    case Command::Kind::checkpoint: return "checkpoint";
    case Command::Kind::create_if_absent: return "create-if-absent";
    case Command::Kind::create_sequential: return "create-sequential";
    case Command::Kind::acquire: return "acquire";
    case Command::Kind::del: return "delete";
    case Command::Kind::guarded_decrement: return "guarded-decrement";
    case Command::Kind::cas_put: return "cas-put";
    case Command::Kind::read: return "read";
  }
  return "?";
}

}  // namespace locksim::consensus
