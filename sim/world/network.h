// The network between processes.
//
// Each directed link (from, to) has a latency distribution and a loss rate.
// Links are FIFO, as a TCP connection is: a message never overtakes an earlier
// one on the same link, so its delivery time is max(now + latency, last
// delivery on that link). Partitions cut every pair of processes that sit in
// different groups of the partition (processes in no group are not affected);
// a partition either drops what crosses it or *holds* it until it heals — the
// late packet of Kleppmann's second example. A partition is judged when a
// message arrives, so one that starts while a message is in flight catches it.
//
// Every link draws from its own streams (latency, loss), derived from the run
// seed and the link's endpoint names.
//
// A link exists from its first use (or from set_link): a scenario with ten
// thousand clients talks over a few ten thousand pairs, not a hundred million.
// Small worlds find a link through a flat n x n table of indices (one load
// per message, the common case); large ones through a hash map of the pairs.
// The smallest (up to 32 processes, every story in the catalogue) also keep
// a lane per pair: a fixed link's latency and last delivery, read at once.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/core/ids.h"
#include "sim/core/limits.h"
#include "sim/core/rng.h"
#include "sim/world/latency.h"

namespace locksim {

struct LinkSpec {
  Latency latency = Latency::constant(std::chrono::milliseconds(1));
  std::int64_t loss_ppm = 0;
};

enum class PartitionMode : std::uint8_t { drop, hold };

class Network {
 public:
  enum class Verdict : std::uint8_t { deliver, drop, hold };

  Network(std::vector<std::string> process_names, LinkSpec default_link, std::uint64_t run_seed);

  void set_link(ProcessId from, ProcessId to, const LinkSpec& spec);
  const LinkSpec& link(ProcessId from, ProcessId to) const;

  // When a message sent now arrives, or kLost when the link loses it (no
  // optional: this is on every message's path). kLost is before every
  // instant of a run, so no arrival, saturated or not, is mistaken for it.
  static constexpr TrueTime kLost{Duration{std::numeric_limits<std::int64_t>::min()}};
  TrueTime schedule(ProcessId from, ProcessId to, TrueTime true_now) {
    LinkState& l = state(from, to);
    if (!fixed(l.spec)) return schedule_drawn(l, from, to, true_now);
    // Nothing to draw: the common link.
    return arrive(last_delivery(l, from, to), saturating_add(true_now, l.spec.latency.a));
  }

  // schedule() for the common link, without a call: true with |arrival| set
  // when from -> to was used before and has a fixed latency and no loss;
  // false, and nothing changed, otherwise.
  bool fixed_arrival(ProcessId from, ProcessId to, TrueTime true_now, TrueTime& arrival) {
    if (!lanes_.empty()) {
      Lane& lane = lanes_[pair(from, to)];
      if (lane.fixed_latency == kDraws) return false;
      arrival = arrive(lane.last_delivery, saturating_add(true_now, lane.fixed_latency));
      return true;
    }
    const std::uint32_t index = dense_.empty() ? kNoLink : dense_[pair(from, to)];
    if (index == kNoLink) return false;
    LinkState& l = links_[index];
    if (!fixed(l.spec)) return false;
    arrival = arrive(l.last_delivery, saturating_add(true_now, l.spec.latency.a));
    return true;
  }

  // Every link draws from streams of |run_seed| from now on.
  void reseed(std::uint64_t run_seed);
  // The network as constructed, for another run with |run_seed|: every link
  // back to the default spec with nothing delivered and nothing drawn, no
  // partitions. Keeps its links and tables: what a reset world saves.
  void reset(std::uint64_t run_seed);

  // Returns the partition's id (also its index; ids are never reused).
  std::uint32_t partition(const std::vector<std::vector<ProcessId>>& groups, PartitionMode mode);
  void heal(std::uint32_t id);
  bool partitioned() const { return active_partitions_ != 0; }
  bool active(std::uint32_t id) const { return id < partitions_.size() && partitions_[id].active; }
  // What happens to a message arriving now on from -> to, and, for hold, which
  // partition holds it.
  Verdict judge(ProcessId from, ProcessId to, std::uint32_t* holding_partition = nullptr) const {
    if (active_partitions_ == 0) return Verdict::deliver;  // most runs never partition: no loop per message
    if (cuts_.empty()) return judge_partitions(from, to, holding_partition);
    Cut& cut = cuts_[pair(from, to)];
    if (cut.epoch != epoch_) {  // first message on this pair since the partitions changed
      cut.verdict = judge_partitions(from, to, &cut.holding_partition);
      cut.epoch = epoch_;
    }
    if (cut.verdict == Verdict::hold && holding_partition) *holding_partition = cut.holding_partition;
    return cut.verdict;
  }

 private:
  struct LinkState {
    // Made in place from its spec (add_link): value-initialising it first
    // zero-filled all of it, the random streams' unused state included.
    explicit LinkState(const LinkSpec& s) : spec(s) {}
    LinkSpec spec;
    TrueTime last_delivery{};  // unused while lanes_ keeps it
    std::optional<Rng> latency_rng;
    std::optional<Rng> loss_rng;
  };
  struct Partition {
    std::vector<std::int32_t> group_of;  // per process; -1 = not in the partition
    PartitionMode mode;
    bool active;
  };
  // Worlds up to this many processes index their links densely.
  static constexpr std::size_t kDenseProcesses = 256;
  // Worlds up to this many processes remember each pair's verdict while a
  // partition is active: worked out by the loop for the pair's first message
  // after a partition starts or heals (a few times a run), then one load for
  // every later one. Larger worlds loop every time, keeping no n x n table.
  static constexpr std::size_t kCutTableProcesses = 64;
  // Worlds up to this many processes keep, per pair, what a message on a
  // link with nothing to draw needs, side by side in a Lane read straight
  // from the pair: through the link table, fixed_arrival waited on five
  // dependent loads (world, network, index, table, link) on every message,
  // and two fifths of transmit's samples in ping-pong sat on the last two.
  static constexpr std::size_t kLaneProcesses = 32;
  static constexpr Duration kDraws = Duration::min();  // no link yet, or one that draws
  struct Lane {
    TrueTime last_delivery{};  // the link's, for every message when lanes_ is kept
    Duration fixed_latency = kDraws;
  };
  // Keeps |l|'s lane in step with its spec (a link made or set).
  void update_lane(const LinkState& l, ProcessId from, ProcessId to) {
    if (!lanes_.empty()) lanes_[pair(from, to)].fixed_latency = fixed(l.spec) ? l.spec.latency.a : kDraws;
  }
  TrueTime& last_delivery(LinkState& l, ProcessId from, ProcessId to) {
    return lanes_.empty() ? l.last_delivery : lanes_[pair(from, to)].last_delivery;
  }
  struct Cut {
    std::uint32_t epoch = 0;  // the partitions' epoch_ this verdict was worked out in
    Verdict verdict = Verdict::deliver;
    std::uint32_t holding_partition = 0;  // when verdict is hold
  };
  void partitions_changed();
  // A link with nothing to draw: a constant latency and no loss.
  static bool fixed(const LinkSpec& spec) { return spec.loss_ppm <= 0 && spec.latency.kind == Latency::Kind::constant; }
  static constexpr std::uint32_t kNoLink = UINT32_MAX;
  // The pair's place in every n x n table (dense_, lanes_, cuts_).
  std::size_t pair(ProcessId from, ProcessId to) const { return from * process_count_ + to; }

  std::uint32_t find(ProcessId from, ProcessId to) const {
    if (!dense_.empty()) return dense_[pair(from, to)];
    return find_sparse(from, to);
  }
  std::uint32_t find_sparse(ProcessId from, ProcessId to) const;
  LinkState& state(ProcessId from, ProcessId to) {  // created on first use
    const std::uint32_t index = find(from, to);
    return index == kNoLink ? add_link(from, to) : links_[index];
  }
  LinkState& add_link(ProcessId from, ProcessId to);
  Verdict judge_partitions(ProcessId from, ProcessId to, std::uint32_t* holding_partition) const;
  TrueTime schedule_drawn(LinkState& l, ProcessId from, ProcessId to, TrueTime true_now);
  // FIFO: no message overtakes an earlier one on its link.
  static TrueTime arrive(TrueTime& last_delivery, TrueTime earliest) {
    const TrueTime arrival = std::max(earliest, last_delivery);
    last_delivery = arrival;
    return arrival;
  }

  std::vector<std::string> names_;
  std::size_t process_count_;  // names_.size(), kept for the dense index
  std::uint64_t run_seed_;
  LinkSpec default_link_;
  std::vector<LinkState> links_;                                 // in order of first use
  std::vector<std::uint32_t> dense_;                             // n x n indices into links_, small worlds
  std::vector<Lane> lanes_;                                      // n x n, the smallest worlds (kLaneProcesses)
  std::unordered_map<std::uint64_t, std::uint32_t> sparse_;      // (from << 32 | to) -> index; tidy: unordered ok
  std::vector<Partition> partitions_;
  std::vector<std::vector<std::int32_t>> spare_group_of_;  // the last run's partitions' tables (reset)
  std::size_t active_partitions_ = 0;
  std::uint32_t epoch_ = 0;       // counts partition starts and heals
  mutable std::vector<Cut> cuts_;  // n x n in a small world once it has partitioned, else empty
};

}  // namespace locksim
