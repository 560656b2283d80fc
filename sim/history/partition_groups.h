// A partition's groups: who is cut off from whom, as process ids, one list
// per side. Made once and never changed afterwards, so every copy shares
// the one list: a sweep plans the same partition for every seed, and each
// run applies it and records it in its history, without copying the groups
// (each copy cost an allocation a group, four times a partition a run).
#pragma once

#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

#include "sim/core/ids.h"

namespace locksim {

class PartitionGroups {
 public:
  using Groups = std::vector<std::vector<ProcessId>>;

  PartitionGroups() = default;
  // Implicit: a partition is written as its groups ({{a}, {b}}).
  PartitionGroups(Groups groups) : groups_(std::make_shared<const Groups>(std::move(groups))) {}
  PartitionGroups(std::initializer_list<std::vector<ProcessId>> groups) : PartitionGroups(Groups(groups)) {}

  const Groups& get() const { return groups_ ? *groups_ : kNone; }

 private:
  static inline const Groups kNone{};
  std::shared_ptr<const Groups> groups_;
};

}  // namespace locksim
