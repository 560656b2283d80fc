#include "sim/check/holder.h"

#include <algorithm>

namespace locksim {

ServiceHolder::ServiceHolder(const ServiceLayout& layout)
    : key_(layout.lock_key), quorum_(std::max<std::uint32_t>(layout.quorum, 1)) {
  if (layout.replicated_state) {
    members_.assign(layout.nodes.begin(), layout.nodes.end());
    quorum_ = 1;
    nodes_.push_back(NodeState{kNoProcess, std::nullopt, 0, std::nullopt, TrueTime{}});
    return;
  }
  nodes_.reserve(layout.nodes.size());
  for (ProcessId node : layout.nodes) nodes_.push_back(NodeState{node, std::nullopt, 0, std::nullopt, TrueTime{}});
}

ServiceHolder::NodeState* ServiceHolder::state_of(ProcessId node) {
  if (!members_.empty())
    return std::find(members_.begin(), members_.end(), node) != members_.end() ? &nodes_.front() : nullptr;
  for (NodeState& s : nodes_)
    if (s.node == node) return &s;
  return nullptr;
}

bool ServiceHolder::apply(const Fact& f) {
  ++seq_;
  if (const auto* held = std::get_if<KeyHeld>(&f.body)) {
    if (held->key != key_) return false;
    NodeState* s = state_of(held->node);
    if (s == nullptr) return false;
    s->value = held->value;
    s->written_seq = seq_;
    return true;
  }
  if (const auto* dropped = std::get_if<KeyDropped>(&f.body)) {
    if (dropped->key != key_) return false;
    NodeState* s = state_of(dropped->node);
    if (s == nullptr) return false;
    // An overwrite may be recorded as the new KeyHeld first and the old value's
    // KeyDropped second: only drop what the node still holds.
    if (s->value == dropped->value) {
      s->value.reset();
      s->last_gone = dropped->reason;
      s->last_gone_at = f.at;
    }
    return true;
  }
  return false;
}

std::optional<std::uint64_t> ServiceHolder::holder() const {
  // A majority quorum (a single node, Redlock's N/2 + 1, a store) lets at
  // most one value reach it: the only candidate is the one a majority vote
  // leaves (Boyer and Moore), and counting it settles it. Empty nodes vote
  // too, as "no value", which a majority of them wins.
  if (2 * std::size_t{quorum_} > nodes_.size()) {
    const std::optional<std::uint64_t>* candidate = nullptr;
    std::size_t lead = 0;
    for (const NodeState& s : nodes_) {
      if (lead == 0) {
        candidate = &s.value;
        lead = 1;
      } else if (s.value == *candidate) {
        ++lead;
      } else {
        --lead;
      }
    }
    if (candidate == nullptr || !*candidate) return std::nullopt;
    const auto count =
        std::count_if(nodes_.begin(), nodes_.end(), [&](const NodeState& s) { return s.value == *candidate; });
    return static_cast<std::size_t>(count) >= quorum_ ? *candidate : std::optional<std::uint64_t>{};
  }
  // Otherwise two values may both reach it: each distinct value is counted
  // once, from the first node that holds it.
  std::optional<std::uint64_t> best;
  std::uint64_t best_seq = 0;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const std::optional<std::uint64_t>& value = nodes_[i].value;
    if (!value) continue;
    bool counted = false;
    for (std::size_t j = 0; j < i && !counted; ++j) counted = nodes_[j].value == value;
    if (counted) continue;
    std::uint32_t count = 0;
    std::uint64_t latest = 0;
    for (std::size_t j = i; j < nodes_.size(); ++j) {
      if (nodes_[j].value == value) {
        ++count;
        latest = std::max(latest, nodes_[j].written_seq);
      }
    }
    if (count >= quorum_ && (!best || latest > best_seq)) {
      best = value;
      best_seq = latest;
    }
  }
  return best;
}

}  // namespace locksim
