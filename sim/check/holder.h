// The service holder: which lock value the lock service as a whole holds at a
// true instant (docs/properties.md, "Holds"): the value that at least
// ServiceLayout.quorum of ServiceLayout.nodes hold for ServiceLayout.lock_key
// — one node for a single Redis, a majority for Redlock.
//
// "Held" means a KeyHeld fact with no later KeyDropped of the same value on
// that node. Each node decides expiry by its own clock and records the drop
// when its clock says so; that is how a clock jump on one Redlock node
// takes the holder away while the client still believes.
//
// A consensus store (ServiceLayout.replicated_state) is one logical node: its
// members record the committed state's owner as they lead, so any member's
// fact updates that one state.
//
// Fed facts in history order, this answers "who holds now". Keys other than
// the lock key and nodes outside the layout are ignored.
#pragma once

#include <cstdint>
#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "sim/history/history.h"
#include "sim/core/time.h"

namespace locksim {

class ServiceHolder {
 public:
  explicit ServiceHolder(const ServiceLayout& layout);

  // Applies one fact; returns true when it touched the lock key on a service
  // node (the holder may have changed).
  bool apply(const Fact& f);
  // What apply does with a fact that is neither KeyHeld nor KeyDropped: it
  // only counts (the count orders writes, for holder()).
  void skip() { ++seq_; }
  // The value held on a quorum of the nodes, if any. Should two values both
  // reach the quorum (only possible with quorum <= half the nodes, e.g. a
  // split-brain master and replica with quorum 1), the one written most
  // recently wins.
  std::optional<std::uint64_t> holder() const;

  // Why there is no holder, for a witness: which values are on how many
  // nodes against the quorum, or how the key left the node(s). |owner|
  // names the session a value belongs to ("c1's session 1"), or "" for none.
  template <typename Owner>
  std::string why_no_holder(const History& h, Owner owner) const;
  std::uint32_t quorum() const { return quorum_; }

 private:
  struct NodeState {
    ProcessId node = kNoProcess;
    std::optional<std::uint64_t> value;
    std::uint64_t written_seq = 0;  // when |value| was set, in applied facts
    // How the last value left this node, and when.
    std::optional<KeyGone> last_gone;
    TrueTime last_gone_at{};
  };
  NodeState* state_of(ProcessId node);
  static const char* gone_words(KeyGone k) {
    switch (k) {
      case KeyGone::deleted: return "was deleted";
      case KeyGone::expired: return "expired";
      case KeyGone::overwritten: return "was overwritten";
      case KeyGone::lost_in_crash: return "was lost in a crash";
      case KeyGone::demoted: return "was dropped when the node was demoted";
    }
    return "was gone";
  }

  redis::KeyId key_;
  std::uint32_t quorum_;
  // Inside the holder for up to five nodes (Redlock's usual count): a sweep
  // judges every run.
  boost::container::small_vector<NodeState, 5> nodes_;
  boost::container::small_vector<ProcessId, 5> members_;  // replicated_state: the members, all speaking for nodes_[0]
  std::uint64_t seq_ = 0;
};

// The service holder along one pass over the facts (fact_pass.h), shared by
// the consumers that ask it: a consumer reads current() as of the facts
// before the one in hand, so the track goes after them in the pass. The
// holder is worked out again only after the lock key changed on a node.
class HolderTrack {
 public:
  explicit HolderTrack(const ServiceLayout& layout) : service_(layout) {}
  template <class Body>
  void on(const Fact& f, const Body&) {
    if constexpr (std::is_same_v<Body, KeyHeld> || std::is_same_v<Body, KeyDropped>) {
      if (service_.apply(f)) stale_ = true;
    } else {
      service_.skip();
    }
  }
  const std::optional<std::uint64_t>& current() {
    if (stale_) {
      holder_ = service_.holder();
      stale_ = false;
    }
    return holder_;
  }
  const ServiceHolder& service() const { return service_; }

 private:
  ServiceHolder service_;
  std::optional<std::uint64_t> holder_;
  bool stale_ = false;
};

template <typename Owner>
std::string ServiceHolder::why_no_holder(const History& h, Owner owner) const {
  // Distinct values in node order, with the nodes that hold each.
  std::vector<std::pair<std::uint64_t, std::vector<ProcessId>>> values;
  for (const NodeState& s : nodes_) {
    if (!s.value) continue;
    auto it = std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == *s.value; });
    if (it == values.end()) values.push_back({*s.value, {s.node}});
    else it->second.push_back(s.node);
  }
  if (values.empty()) {
    if (nodes_.empty()) return "there is no lock service (protocol = \"none\")";
    if (!members_.empty()) {
      const NodeState& s = nodes_.front();
      if (!s.last_gone) return "the store never held the lock";
      return "the lock's key in the store " + std::string(gone_words(*s.last_gone)) + " at " +
             format_time_rounded(s.last_gone_at);
    }
    if (nodes_.size() == 1) {
      const NodeState& s = nodes_.front();
      if (!s.last_gone) return "the lock's key was never on " + h.name_of(s.node);
      return "the lock's key on " + h.name_of(s.node) + " " + gone_words(*s.last_gone) + " at " +
             format_time_rounded(s.last_gone_at);
    }
    return "the lock's key was on none of the " + std::to_string(nodes_.size()) + " nodes";
  }
  std::string text;
  for (const auto& [value, nodes] : values) {
    std::string who = owner(value);
    if (who.empty()) who = "value " + redis::Value::token(value).to_string();
    std::string names;
    for (ProcessId n : nodes) names += (names.empty() ? "" : ", ") + h.name_of(n);
    text += (text.empty() ? "" : "; ") + who + " on " + std::to_string(nodes.size()) + " of " +
            std::to_string(nodes_.size()) + " nodes (" + names + ")";
  }
  return text + ", quorum " + std::to_string(quorum_);
}

}  // namespace locksim
