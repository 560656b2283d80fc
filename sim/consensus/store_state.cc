#include "sim/consensus/store_state.h"

namespace locksim::consensus {

namespace {

bool session_live(const std::map<StoreSessionId, SessionRecord>& sessions, StoreSessionId id) {
  return sessions.find(id) != sessions.end();
}

Applied reply_of(Key key, const KeyRecord& r) {
  Applied out;
  out.key = key;
  out.create_revision = r.create_revision;
  out.mod_revision = r.mod_revision;
  out.value = r.value;
  out.session = r.session;
  return out;
}

}  // namespace

const KeyRecord* StoreState::find(Key key) const {
  const auto it = keys_.find(key);
  return it == keys_.end() ? nullptr : &it->second;
}

std::optional<std::pair<Key, KeyRecord>> StoreState::first_created(KeyId prefix) const {
  std::optional<std::pair<Key, KeyRecord>> best;
  for (auto it = keys_.lower_bound(Key{prefix, 0}); it != keys_.end() && it->first.prefix == prefix; ++it)
    if (!best || it->second.create_revision < best->second.create_revision) best = *it;
  return best;
}

std::optional<std::pair<Key, KeyRecord>> StoreState::last_created_below(KeyId prefix, std::int64_t revision) const {
  std::optional<std::pair<Key, KeyRecord>> best;
  for (auto it = keys_.lower_bound(Key{prefix, 0}); it != keys_.end() && it->first.prefix == prefix; ++it)
    if (it->second.create_revision < revision && (!best || it->second.create_revision > best->second.create_revision))
      best = *it;
  return best;
}

void StoreState::erase(std::map<Key, KeyRecord, KeyOrder>::iterator it, Applied& out) {
  out.deleted.push_back({it->first, it->second});
  keys_.erase(it);
}

Applied StoreState::create(const Command& c, Key key) {
  ++revision_;
  KeyRecord r;
  r.create_revision = r.mod_revision = revision_;
  r.value = lock_value(key, revision_);
  r.session = c.session;
  if (c.kind == Command::Kind::acquire) r.lock_delay_ms = static_cast<std::int64_t>(c.arg);
  keys_[key] = r;
  return reply_of(key, r);
}

// A session's end deletes every key it holds at one revision, as etcd's lease
// revoke and ZooKeeper's session close do.
Applied StoreState::end_session(const Command& c, KeyGone gone) {
  Applied out;
  out.session = c.session;
  out.gone = gone;
  if (!session_live(sessions_, c.session)) {
    out.status = Status::session_gone;
    return out;
  }
  for (auto it = keys_.begin(); it != keys_.end();) {
    auto next = std::next(it);
    if (it->second.session == c.session) erase(it, out);
    it = next;
  }
  if (!out.deleted.empty()) ++revision_;
  sessions_.erase(c.session);
  return out;
}

Applied StoreState::apply(const Command& c) {
  switch (c.kind) {
    case Command::Kind::noop:
    case Command::Kind::read: return {};
    case Command::Kind::open_session: {
      Applied out;
      out.session = ++last_session_;
      out.number = static_cast<std::int64_t>(c.arg);
      sessions_[out.session] = SessionRecord{c.client, out.number};
      return out;
    }
    case Command::Kind::checkpoint:
      if (auto it = sessions_.find(c.session); it != sessions_.end())
        it->second.remaining_ttl_ms = static_cast<std::int64_t>(c.arg);
      return {};
    case Command::Kind::close_session: return end_session(c, KeyGone::deleted);
    case Command::Kind::expire_session: return end_session(c, KeyGone::expired);
    case Command::Kind::create_if_absent: {
      if (!session_live(sessions_, c.session)) return Applied{.status = Status::session_gone};
      // etcd's Mutex reads the owner in the same transaction ("to complete
      // the uncontended path with only one RPC"): |number| is the create
      // revision of the prefix's first key, after the put.
      const KeyRecord* r = find(c.key);
      Applied out = r != nullptr ? reply_of(c.key, *r) : create(c, c.key);
      out.number = first_created(c.key.prefix)->second.create_revision;
      return out;
    }
    case Command::Kind::create_sequential: {
      if (!session_live(sessions_, c.session)) return Applied{.status = Status::session_gone};
      return create(c, Key{c.key.prefix, ++sequence_[c.key.prefix]});
    }
    case Command::Kind::acquire: {
      if (!session_live(sessions_, c.session)) return Applied{.status = Status::session_gone};
      if (const KeyRecord* r = find(c.key)) {
        Applied out = reply_of(c.key, *r);
        out.status = r->session == c.session ? Status::ok : Status::held;
        return out;
      }
      return create(c, c.key);
    }
    case Command::Kind::del: {
      // A delete that names a session deletes only that session's key
      // (Chubby's and Consul's release): a late release never frees another
      // holder's lock.
      Applied out;
      out.key = c.key;
      if (auto it = keys_.find(c.key);
          it != keys_.end() && (c.session == kNoStoreSession || it->second.session == c.session)) {
        erase(it, out);
        ++revision_;
      }
      return out;
    }
    case Command::Kind::guarded_decrement: {
      const KeyRecord* r = find(c.key);
      Applied out;
      if (r == nullptr || r->create_revision != c.revision) {
        out.status = Status::failed;
      } else {
        ++revision_;
        stock_ -= static_cast<std::int64_t>(c.arg);
        ++sales_;
        out.stock_changed = true;
      }
      out.number = stock_;
      return out;
    }
    case Command::Kind::cas_put: {
      auto it = keys_.find(c.key);
      const bool absent = it == keys_.end();
      if (absent ? c.revision != 0 : it->second.mod_revision != c.revision) {
        Applied out = absent ? Applied{} : reply_of(c.key, it->second);
        out.status = Status::failed;
        return out;
      }
      ++revision_;
      if (absent) {
        it = keys_.emplace(c.key, KeyRecord{}).first;
        it->second.create_revision = revision_;
      }
      it->second.mod_revision = revision_;
      it->second.value = c.arg;
      return reply_of(c.key, it->second);
    }
  }
  return {};
}

}  // namespace locksim::consensus
