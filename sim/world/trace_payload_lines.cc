// The payload kinds of a trace's message lines, declared once: per kind its
// doc and, per field, its schema entry beside the code that writes its value
// (trace_fields.h). The schema (trace_schema.h) takes its payload table from
// here and payload_fields() writes a payload by walking its declaration, so
// the two cannot part. A field that applies to some payloads of a kind only
// (a SET's NX, an EVAL's script) writes nothing for the others; the order of
// the fields is the order of every line's.
#include "sim/world/trace_payload_lines.h"

#include "sim/world/trace_fields.h"

namespace locksim {

namespace {

using namespace trace_fields;
using redis::Command;
using redis::ExpireUnit;
using redis::Script;

const char* command_name(Command c) {
  switch (c) {
    case Command::set: return "SET";
    case Command::setnx: return "SETNX";
    case Command::get: return "GET";
    case Command::del: return "DEL";
    case Command::pexpire: return "PEXPIRE";
    case Command::expire: return "EXPIRE";
    case Command::pttl: return "PTTL";
    case Command::ttl: return "TTL";
    case Command::persist: return "PERSIST";
    case Command::incr: return "INCR";
    case Command::eval: return "EVAL";
    case Command::wait: return "WAIT";
  }
  return "?";
}

const char* condition_name(redis::ExpireCondition c) {
  switch (c) {
    case redis::ExpireCondition::none: return "";
    case redis::ExpireCondition::nx: return "nx";
    case redis::ExpireCondition::xx: return "xx";
    case redis::ExpireCondition::gt: return "gt";
    case redis::ExpireCondition::lt: return "lt";
    case redis::ExpireCondition::xx_lt: return "xx-lt";
  }
  return "?";
}

const char* script_name(Script s) {
  switch (s) {
    case Script::none: return "";
    case Script::compare_and_delete: return "compare-and-delete";
    case Script::compare_and_pexpire: return "compare-and-pexpire";
    case Script::lock_and_incr: return "lock-and-incr";
  }
  return "?";
}

const char* reply_kind_name(redis::Reply::Kind k) {
  switch (k) {
    case redis::Reply::Kind::ok: return "ok";
    case redis::Reply::Kind::nil: return "nil";
    case redis::Reply::Kind::integer: return "integer";
    case redis::Reply::Kind::bulk: return "bulk";
    case redis::Reply::Kind::error: return "error";
  }
  return "?";
}

const char* entry_op_name(redis::ReplicationEntry::Op op) {
  switch (op) {
    case redis::ReplicationEntry::Op::set: return "set";
    case redis::ReplicationEntry::Op::del: return "del";
    case redis::ReplicationEntry::Op::flush: return "flush";
  }
  return "?";
}

std::string key_text(redis::KeyId k, const History& h) {
  return k < h.key_names.size() ? h.key_names[k] : std::to_string(k);
}

// A store key as prefix/suffix.
std::string store_key_text(consensus::Key k, const History& h) {
  return key_text(k.prefix, h) + "/" + std::to_string(k.suffix);
}

const TraceField kRequestId = {"request_id", "i", "pairs a reply with its request"};

// What a Redis request's fields apply to.
bool is(const redis::Request& r, Command c) { return r.command == c; }
bool is_set(const redis::Request& r) { return is(r, Command::set); }
bool is_eval(const redis::Request& r) { return is(r, Command::eval); }
bool with_value(const redis::Request& r) { return is_set(r) || is(r, Command::setnx) || is_eval(r); }
bool sets_expiry_ms(const redis::Request& r) {
  return (is_set(r) && r.expire_unit == ExpireUnit::ms) || is(r, Command::pexpire) ||
         (is_eval(r) && (r.script == Script::compare_and_pexpire || r.script == Script::lock_and_incr));
}

using Request = redis::Request;

const LineDecl<redis::Request> kRedisRequest{
    "redis-request", "a command to a Redis node",
    {{kRequestId, integer<&Request::request_id>},
     {{"cmd", "s", "SET SETNX GET DEL PEXPIRE EXPIRE PTTL TTL PERSIST INCR EVAL WAIT"},
      word<&Request::command, command_name>},
     {{"key", "s?", "the key (not WAIT)"},
      [](TraceLine& l, const char* n, const Request& r, const History& h) {
        if (!is(r, Command::wait)) l.str(n, key_text(r.key, h));
      }},
     {{"value", "s?", "SET, SETNX; EVAL: ARGV[1]"},
      [](TraceLine& l, const char* n, const Request& r, const History&) {
        if (with_value(r)) l.str(n, r.value.to_string());
      }},
     {{"nx", "b?", "SET NX"},
      [](TraceLine& l, const char* n, const Request& r, const History&) {
        if (is_set(r)) l.boolean(n, r.nx);
      }},
     {{"xx", "b?", "SET XX"},
      [](TraceLine& l, const char* n, const Request& r, const History&) {
        if (is_set(r)) l.boolean(n, r.xx);
      }},
     {{"by_sha", "b?", "EVAL sent as EVALSHA"},
      [](TraceLine& l, const char* n, const Request& r, const History&) {
        if (is_eval(r) && r.by_sha) l.boolean(n, true);
      }},
     {{"script", "s?", "EVAL: compare-and-delete | compare-and-pexpire | lock-and-incr"},
      [](TraceLine& l, const char* n, const Request& r, const History&) {
        if (is_eval(r) && r.script != Script::none) l.str(n, script_name(r.script));
      }},
     {{"px_ms", "i?", "SET PX, PEXPIRE, and the scripts that set an expiry"},
      [](TraceLine& l, const char* n, const Request& r, const History&) {
        if (sets_expiry_ms(r)) l.num(n, r.expire_amount);
      }},
     {{"ex_s", "i?", "SET EX, EXPIRE"},
      [](TraceLine& l, const char* n, const Request& r, const History&) {
        if ((is_set(r) && r.expire_unit == ExpireUnit::s) || is(r, Command::expire)) l.num(n, r.expire_amount);
      }},
     // Options no simulated client sends: written only when present, so a
     // trace without them reads as before.
     {{"pxat_ms", "i?", "SET PXAT (no simulated client sends it)"},
      [](TraceLine& l, const char* n, const Request& r, const History&) {
        if (is_set(r) && r.expire_unit == ExpireUnit::ms_at) l.num(n, r.expire_amount);
      }},
     {{"exat_s", "i?", "SET EXAT (no simulated client sends it)"},
      [](TraceLine& l, const char* n, const Request& r, const History&) {
        if (is_set(r) && r.expire_unit == ExpireUnit::s_at) l.num(n, r.expire_amount);
      }},
     {{"get", "b?", "SET GET (no simulated client sends it)"},
      [](TraceLine& l, const char* n, const Request& r, const History&) {
        if (is_set(r) && r.get) l.boolean(n, true);
      }},
     {{"keepttl", "b?", "SET KEEPTTL (no simulated client sends it)"},
      [](TraceLine& l, const char* n, const Request& r, const History&) {
        if (is_set(r) && r.keepttl) l.boolean(n, true);
      }},
     {{"condition", "s?", "PEXPIRE, EXPIRE with an option: nx | xx | gt | lt | xx-lt"},
      [](TraceLine& l, const char* n, const Request& r, const History&) {
        if ((is(r, Command::pexpire) || is(r, Command::expire)) && r.condition != redis::ExpireCondition::none)
          l.str(n, condition_name(r.condition));
      }},
     {{"counter_key", "s?", "EVAL lock-and-incr: the token counter's key"},
      [](TraceLine& l, const char* n, const Request& r, const History& h) {
        if (is_eval(r) && r.script == Script::lock_and_incr) l.str(n, key_text(r.counter_key, h));
      }},
     {{"numreplicas", "i?", "WAIT"},
      [](TraceLine& l, const char* n, const Request& r, const History&) {
        if (is(r, Command::wait)) l.num(n, r.numreplicas);
      }},
     {{"timeout_ms", "i?", "WAIT"},
      [](TraceLine& l, const char* n, const Request& r, const History&) {
        if (is(r, Command::wait)) l.num(n, r.expire_amount);
      }}},
    [](const Request& r, const History& h) {
      return redis::describe(r, key_text(r.key, h), key_text(r.counter_key, h));
    }};

using Reply = redis::Reply;

const LineDecl<Reply> kRedisReply{
    "redis-reply", "a Redis node's reply",
    {{kRequestId, integer<&Reply::request_id>},
     {{"reply", "s", "ok | nil | integer | bulk | error"}, word<&Reply::kind, reply_kind_name>},
     {{"integer", "i?", "integer"},
      [](TraceLine& l, const char* n, const Reply& r, const History&) {
        if (r.kind == Reply::Kind::integer) l.num(n, r.integer);
      }},
     {{"value", "s?", "bulk"},
      [](TraceLine& l, const char* n, const Reply& r, const History&) {
        if (r.kind == Reply::Kind::bulk) l.str(n, r.bulk.to_string());
      }},
     {{"error", "s?", "error: Redis's text"},
      [](TraceLine& l, const char* n, const Reply& r, const History&) {
        if (r.kind == Reply::Kind::error) l.str(n, r.error_message());
      }}},
    [](const Reply& r, const History&) { return r.to_string(); }};

const LineDecl<resource::Request> kResourceRequest{
    "resource-request", "a client's operation on the protected resource",
    {{kRequestId, integer<&resource::Request::request_id>},
     {{"op", "s", "the operation"}, word<&resource::Request::op, resource::op_name>},
     {{"session", "i", "the session the client believes it holds"}, integer<&resource::Request::session>},
     {{"token", "i", "the fencing token it carries; -1 when none"}, integer<&resource::Request::fencing_token>},
     {{"value", "s", "the lock value"}, lock_value<&resource::Request::lock_value>},
     {{"argument", "i", "write, decrement: what was read"}, integer<&resource::Request::argument>}},
    [](const resource::Request& r, const History&) {
      std::string s = std::string(resource::op_name(r.op)) + " session " + std::to_string(r.session);
      if (r.fencing_token != resource::kNoToken) s += " token " + std::to_string(r.fencing_token);
      return s;
    }};

const LineDecl<resource::Reply> kResourceReply{
    "resource-reply", "the resource's answer",
    {{kRequestId, integer<&resource::Reply::request_id>},
     {{"accepted", "b", "whether it applied the operation"}, boolean<&resource::Reply::accepted>},
     {{"reject", "s", "none | stale-token | mark-mismatch | out-of-stock | missing-token"},
      word<&resource::Reply::reject, resource::reject_name>},
     {{"value", "i", "read: the current value"}, integer<&resource::Reply::value>}},
    [](const resource::Reply& r, const History&) {
      if (r.accepted) return "accepted value " + std::to_string(r.value);
      return std::string("rejected ") + resource::reject_name(r.reject);
    }};

using Entry = redis::ReplicationEntry;

const LineDecl<Entry> kReplicationEntry{
    "replication-entry", "a master's replication stream",
    {{{"offset", "i", "the offset after it"}, integer<&Entry::offset>},
     {{"op", "s", "set | del | flush (a full resync's start)"}, word<&Entry::op, entry_op_name>},
     {{"key", "s?", "set, del"},
      [](TraceLine& l, const char* n, const Entry& e, const History& h) {
        if (e.op != Entry::Op::flush) l.str(n, key_text(e.key, h));
      }},
     {{"value", "s?", "set"},
      [](TraceLine& l, const char* n, const Entry& e, const History&) {
        if (e.op == Entry::Op::set) l.str(n, e.value.to_string());
      }},
     {{"expire_at_ms", "i?", "set with an expiry, on the master's expiry clock"},
      [](TraceLine& l, const char* n, const Entry& e, const History&) {
        if (e.op == Entry::Op::set && e.expire_at_ms >= 0) l.num(n, e.expire_at_ms);
      }}},
    [](const Entry& e, const History& h) -> std::string {
      const std::string at = " @" + std::to_string(e.offset);
      switch (e.op) {
        case Entry::Op::set: return "repl SET " + key_text(e.key, h) + " " + e.value.to_string() + at;
        case Entry::Op::del: return "repl DEL " + key_text(e.key, h) + at;
        case Entry::Op::flush: return "repl FLUSHALL (full resync)" + at;
      }
      return "repl ?";
    }};

const LineDecl<redis::ReplicationAck> kReplicationAck{
    "replication-ack", "a replica's acknowledgement",
    {{{"offset", "i", "how far it applied"}, integer<&redis::ReplicationAck::offset>},
     {{"attach", "b", "true: PSYNC, asks for a full resync"}, boolean<&redis::ReplicationAck::attach>}},
    [](const redis::ReplicationAck& a, const History&) {
      return std::string(a.attach ? "PSYNC (attach) " : "REPLCONF ACK ") + std::to_string(a.offset);
    }};

const LineDecl<redis::GetAck> kGetAck{
    "replication-getack", "REPLCONF GETACK: a master asks its replicas to acknowledge", {},
    [](const redis::GetAck&, const History&) { return std::string("REPLCONF GETACK"); }};

const LineDecl<redis::ReplicaOf> kReplicaOf{
    "replicaof", "a sentinel reconfigures a node",
    {{{"master", "s~", "the new master (null: REPLICAOF NO ONE)"}, process_or_null<&redis::ReplicaOf::master>},
     {{"epoch", "i", "the configuration epoch"}, integer<&redis::ReplicaOf::epoch>}},
    [](const redis::ReplicaOf& r, const History& h) {
      return r.master == kNoProcess ? std::string("REPLICAOF NO ONE") : "REPLICAOF " + h.name_of(r.master);
    }};

const LineDecl<redis::Ping> kPing{
    "ping", "a sentinel's ping", {{kRequestId, integer<&redis::Ping::id>}},
    [](const redis::Ping&, const History&) { return std::string("PING"); }};

const LineDecl<redis::Pong> kPong{
    "pong", "a node's answer to a ping: alive", {{kRequestId, integer<&redis::Pong::id>}},
    [](const redis::Pong&, const History&) { return std::string("PONG"); }};

const LineDecl<redis::Info> kInfo{
    "info", "a sentinel asks a node its role (INFO)", {{kRequestId, integer<&redis::Info::id>}},
    [](const redis::Info&, const History&) { return std::string("INFO"); }};

const LineDecl<redis::InfoReply> kInfoReply{
    "info-reply", "a node's INFO: its role, its master and its offset",
    {{kRequestId, integer<&redis::InfoReply::id>},
     {{"role", "s", "master | replica"},
      [](TraceLine& l, const char* n, const redis::InfoReply& p, const History&) {
        l.str(n, p.is_master ? "master" : "replica");
      }},
     {{"master", "s?~", "replica: its master"},
      [](TraceLine& l, const char* n, const redis::InfoReply& p, const History& h) {
        if (!p.is_master) l.process(n, p.master, h);
      }},
     {{"offset", "i", "its replication offset"}, integer<&redis::InfoReply::offset>}},
    [](const redis::InfoReply& p, const History& h) {
      return p.is_master ? std::string("INFO (master)") : "INFO (replica of " + h.name_of(p.master) + ")";
    }};

const LineDecl<redis::IsMasterDown> kIsMasterDown{
    "is-master-down", "a sentinel asks another whether the master is down (and for its vote)",
    {{kRequestId, integer<&redis::IsMasterDown::id>},
     {{"master", "s~", "the master"}, process_or_null<&redis::IsMasterDown::master>},
     {{"epoch", "i", "the asker's epoch"}, integer<&redis::IsMasterDown::epoch>},
     {{"wants_vote", "b", "whether it asks for a vote"}, boolean<&redis::IsMasterDown::wants_vote>}},
    [](const redis::IsMasterDown& m, const History& h) {
      return "is-master-down-by-addr " + h.name_of(m.master) + " epoch " + std::to_string(m.epoch) +
             (m.wants_vote ? " (vote?)" : "");
    }};

const LineDecl<redis::MasterDownReply> kMasterDownReply{
    "master-down-reply", "the answer",
    {{kRequestId, integer<&redis::MasterDownReply::id>},
     {{"down", "b", "whether it sees the master down"}, boolean<&redis::MasterDownReply::down>},
     {{"leader", "s~", "the sentinel it votes for (null: none)"}, process_or_null<&redis::MasterDownReply::leader>},
     {{"epoch", "i", "the vote's epoch"}, integer<&redis::MasterDownReply::epoch>}},
    [](const redis::MasterDownReply& r, const History& h) {
      return std::string(r.down ? "down" : "up") + ", vote " + h.name_of(r.leader);
    }};

const LineDecl<redis::SwitchMaster> kSwitchMaster{
    "switch-master", "+switch-master, to peers and clients",
    {{{"old_master", "s~", "the old master"}, process_or_null<&redis::SwitchMaster::old_master>},
     {{"new_master", "s~", "the new one"}, process_or_null<&redis::SwitchMaster::new_master>},
     {{"epoch", "i", "the epoch"}, integer<&redis::SwitchMaster::epoch>}},
    [](const redis::SwitchMaster& s, const History& h) {
      return "+switch-master " + h.name_of(s.old_master) + " -> " + h.name_of(s.new_master);
    }};

const LineDecl<redis::GetMaster> kGetMaster{
    "get-master", "a client asks a sentinel for the master",
    {{kRequestId, integer<&redis::GetMaster::id>}},
    [](const redis::GetMaster&, const History&) { return std::string("get-master-addr-by-name"); }};

const LineDecl<redis::MasterIs> kMasterIs{
    "master-is", "the sentinel's answer",
    {{kRequestId, integer<&redis::MasterIs::id>},
     {{"master", "s~", "the master (null: none known)"}, process_or_null<&redis::MasterIs::master>},
     {{"epoch", "i", "the epoch"}, integer<&redis::MasterIs::epoch>}},
    [](const redis::MasterIs& m, const History& h) { return "master is " + h.name_of(m.master); }};

const LineDecl<service::Call> kServiceCall{
    "service-call", "a call to another service (the story's slow dependency)",
    {{kRequestId, integer<&service::Call::request_id>}},
    [](const service::Call&, const History&) { return std::string("call"); }};

const LineDecl<service::Answer> kServiceAnswer{
    "service-answer", "its answer", {{kRequestId, integer<&service::Answer::request_id>}},
    [](const service::Answer&, const History&) { return std::string("answer"); }};

// A store key's two halves.
template <typename T>
void key_prefix(TraceLine& l, const char* n, const T& x, const History& h) {
  l.str(n, key_text(x.key.prefix, h));
}
template <typename T>
void key_suffix(TraceLine& l, const char* n, const T& x, const History&) {
  l.num(n, x.key.suffix);
}

using StoreRequest = consensus::Request;
using StoreReply = consensus::Reply;

const LineDecl<StoreRequest> kStoreRequest{
    "store-request", "a client's request to a consensus store",
    {{kRequestId, integer<&StoreRequest::request_id>},
     {{"op", "s", "the store operation (grant a session, keep it alive, put if absent, ...)"},
      word<&StoreRequest::op, consensus::op_name>},
     {{"key", "s", "the key's prefix"}, key_prefix<StoreRequest>},
     {{"suffix", "i", "the key's suffix (a lock waiter's sequence)"}, key_suffix<StoreRequest>},
     {{"session", "i", "the store session it acts for"}, integer<&StoreRequest::session>},
     {{"revision", "i", "the revision it names (a watch, a compare)"}, integer<&StoreRequest::revision>},
     {{"number", "i", "the operation's number argument (a TTL in ms, a count)"}, integer<&StoreRequest::number>}},
    [](const StoreRequest& r, const History& h) {
      return std::string(consensus::op_name(r.op)) + " " + store_key_text(r.key, h);
    }};

const LineDecl<StoreReply> kStoreReply{
    "store-reply", "the store's answer",
    {{kRequestId, integer<&StoreReply::request_id>},
     {{"status", "s", "ok, or why not (not the leader, no such session, ...)"},
      word<&StoreReply::status, consensus::status_name>},
     {{"leader", "s~", "the leader, when the member knows it (null: unknown)"}, process_or_null<&StoreReply::leader>},
     {{"key", "s", "the key's prefix"}, key_prefix<StoreReply>},
     {{"suffix", "i", "the key's suffix"}, key_suffix<StoreReply>},
     {{"session", "i", "the session"}, integer<&StoreReply::session>},
     {{"create_revision", "i", "the key's create revision"}, integer<&StoreReply::create_revision>},
     {{"mod_revision", "i", "the key's last revision"}, integer<&StoreReply::mod_revision>},
     {{"number", "i", "the answer's number (a TTL granted, a count)"}, integer<&StoreReply::number>}},
    [](const StoreReply& r, const History&) {
      return std::string(consensus::status_name(r.status)) + " rev " + std::to_string(r.create_revision);
    }};

const LineDecl<consensus::Event> kStoreEvent{
    "store-event", "a watch fired: a key changed",
    {{{"key", "s", "the key's prefix"}, key_prefix<consensus::Event>},
     {{"suffix", "i", "its suffix"}, key_suffix<consensus::Event>},
     {{"revision", "i", "the change's revision"}, integer<&consensus::Event::revision>}},
    [](const consensus::Event& e, const History& h) {
      return "deleted " + store_key_text(e.key, h) + " @" + std::to_string(e.revision);
    }};

const LineDecl<consensus::RequestVote> kRequestVote{
    "request-vote", "a candidate asks for a vote (Raft)",
    {{{"term", "i", "its term"}, integer<&consensus::RequestVote::term>},
     {{"last_log_index", "i", "its log's last index"}, integer<&consensus::RequestVote::last_log_index>},
     {{"last_log_term", "i", "its log's last term"}, integer<&consensus::RequestVote::last_log_term>}},
    [](const consensus::RequestVote& v, const History&) { return "RequestVote term " + std::to_string(v.term); }};

const LineDecl<consensus::Vote> kVote{
    "vote", "the answer",
    {{{"term", "i", "the voter's term"}, integer<&consensus::Vote::term>},
     {{"granted", "b", "whether it voted"}, boolean<&consensus::Vote::granted>}},
    [](const consensus::Vote& v, const History&) {
      return std::string(v.granted ? "vote yes" : "vote no") + " term " + std::to_string(v.term);
    }};

using Append = consensus::Append;

const LineDecl<Append> kAppend{
    "append", "a leader's append (a heartbeat when it carries no entry)",
    {{{"term", "i", "the leader's term"}, integer<&Append::term>},
     {{"prev_index", "i", "the entry before"}, integer<&Append::prev_index>},
     {{"prev_term", "i", "its term"}, integer<&Append::prev_term>},
     {{"commit", "i", "the leader's commit index"}, integer<&Append::commit>},
     {{"entry_term", "i", "the entry's term (0: no entry)"}, integer<&Append::entry_term>},
     {{"entry", "s?", "the entry's command, when there is one"},
      [](TraceLine& l, const char* n, const Append& a, const History&) {
        if (a.entry_term) l.str(n, consensus::command_kind_name(a.entry.kind));
      }}},
    [](const Append& a, const History&) {
      return std::string(a.entry_term ? "AppendEntries " : "heartbeat ") + "term " + std::to_string(a.term) +
             " commit " + std::to_string(a.commit);
    }};

const LineDecl<consensus::AppendReply> kAppendReply{
    "append-reply", "the follower's answer",
    {{{"term", "i", "its term"}, integer<&consensus::AppendReply::term>},
     {{"success", "b", "whether it appended"}, boolean<&consensus::AppendReply::success>},
     {{"match_index", "i", "how far it matches"}, integer<&consensus::AppendReply::match_index>}},
    [](const consensus::AppendReply& r, const History&) {
      return std::string(r.success ? "append ok " : "append refused ") + std::to_string(r.match_index);
    }};

// Each payload's declaration, by its type.
const LineDecl<redis::Request>& decl_of(const redis::Request*) { return kRedisRequest; }
const LineDecl<redis::Reply>& decl_of(const redis::Reply*) { return kRedisReply; }
const LineDecl<resource::Request>& decl_of(const resource::Request*) { return kResourceRequest; }
const LineDecl<resource::Reply>& decl_of(const resource::Reply*) { return kResourceReply; }
const LineDecl<Entry>& decl_of(const Entry*) { return kReplicationEntry; }
const LineDecl<redis::ReplicationAck>& decl_of(const redis::ReplicationAck*) { return kReplicationAck; }
const LineDecl<redis::GetAck>& decl_of(const redis::GetAck*) { return kGetAck; }
const LineDecl<redis::ReplicaOf>& decl_of(const redis::ReplicaOf*) { return kReplicaOf; }
const LineDecl<redis::Ping>& decl_of(const redis::Ping*) { return kPing; }
const LineDecl<redis::Pong>& decl_of(const redis::Pong*) { return kPong; }
const LineDecl<redis::Info>& decl_of(const redis::Info*) { return kInfo; }
const LineDecl<redis::InfoReply>& decl_of(const redis::InfoReply*) { return kInfoReply; }
const LineDecl<redis::IsMasterDown>& decl_of(const redis::IsMasterDown*) { return kIsMasterDown; }
const LineDecl<redis::MasterDownReply>& decl_of(const redis::MasterDownReply*) { return kMasterDownReply; }
const LineDecl<redis::SwitchMaster>& decl_of(const redis::SwitchMaster*) { return kSwitchMaster; }
const LineDecl<redis::GetMaster>& decl_of(const redis::GetMaster*) { return kGetMaster; }
const LineDecl<redis::MasterIs>& decl_of(const redis::MasterIs*) { return kMasterIs; }
const LineDecl<service::Call>& decl_of(const service::Call*) { return kServiceCall; }
const LineDecl<service::Answer>& decl_of(const service::Answer*) { return kServiceAnswer; }
const LineDecl<StoreRequest>& decl_of(const StoreRequest*) { return kStoreRequest; }
const LineDecl<StoreReply>& decl_of(const StoreReply*) { return kStoreReply; }
const LineDecl<consensus::Event>& decl_of(const consensus::Event*) { return kStoreEvent; }
const LineDecl<consensus::RequestVote>& decl_of(const consensus::RequestVote*) { return kRequestVote; }
const LineDecl<consensus::Vote>& decl_of(const consensus::Vote*) { return kVote; }
const LineDecl<Append>& decl_of(const Append*) { return kAppend; }
const LineDecl<consensus::AppendReply>& decl_of(const consensus::AppendReply*) { return kAppendReply; }

}  // namespace

std::vector<TraceLineDecl> payload_line_decls() {
  return declarations_of<Payload>(TraceSection::message, [](const auto* p) -> const auto& { return decl_of(p); });
}

std::string describe_payload(const Payload& payload, const History& h) {
  return std::visit([&](const auto& p) { return decl_of(&p).words(p, h); }, payload);
}

void payload_fields(TraceLine& line, const Payload& payload, const History& h) {
  std::visit(
      [&](const auto& p) {
        const auto& decl = decl_of(&p);
        line.str("kind", std::string(decl.name));
        decl.write(line, p, h);
      },
      payload);
}

}  // namespace locksim
