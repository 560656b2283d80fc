// Process names: clients, redis nodes, replicas, sentinels, services and the
// resource share one namespace, and any of them may be a clock, a link end, a
// fault target or a partition member. Sections register their names as they
// are read (redis nodes, replicas, sentinels, services, the resource, then
// clients: the order messages list them in) and look names up here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/scenario/reader.h"

namespace locksim::scenario {

// What a name stands for, as the sections register it.
enum class NameKind : std::uint8_t { redis_node, replica, sentinel, service, resource, client, store_member };
// In messages: "redis node", "store member", ...
const char* name_kind_word(NameKind k);

class ProcessNames {
 public:
  struct Entry {
    std::string name;
    NameKind kind;
    SourcePos pos;  // where the name was written
    std::string kind_word() const { return name_kind_word(kind); }
  };

  // Registers |name|; a name already taken fails through |r|, saying by what.
  void add(Reader& r, const std::string& name, NameKind kind, const SourcePos& pos, const std::string& key);
  const Entry* find(std::string_view name) const;
  // Every name in registration order.
  std::vector<std::string> names() const;
  // Those of one |kind|, in registration order.
  std::vector<std::string> names(NameKind kind) const;
  std::size_t size() const { return entries_.size(); }

  // True when |name| is known; fails with the names there are otherwise.
  bool known(Reader& r, const std::string& name, const SourcePos& pos, const std::string& key) const;
  // The string-valued |key| of |table| naming a known process, into |out|.
  bool read(Reader& r, const DocNode& table, std::string_view key, std::string& out) const;

 private:
  std::vector<Entry> entries_;
  std::map<std::string, std::size_t, std::less<>> index_;  // name -> index in entries_
};

// An array of process names (redis.nodes, redis.replicas, sentinel.names):
// each a valid name, none listed twice. |what| names one entry ("node").
// False when the key is absent or not an array of strings.
bool read_name_list(Reader& r, const DocNode& table, std::string_view key, std::string_view what,
                    std::vector<std::pair<std::string, SourcePos>>& out);

}  // namespace locksim::scenario
