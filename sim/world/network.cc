#include "sim/world/network.h"

#include <algorithm>

#include "sim/core/check.h"
#include "sim/core/limits.h"

namespace locksim {

Network::Network(std::vector<std::string> process_names, LinkSpec default_link, std::uint64_t run_seed)
    : names_(std::move(process_names)), process_count_(names_.size()), run_seed_(run_seed), default_link_(default_link) {
  if (names_.size() <= kDenseProcesses) dense_.assign(names_.size() * names_.size(), kNoLink);
  if (names_.size() <= kLaneProcesses) lanes_.assign(names_.size() * names_.size(), Lane{});
}

std::uint32_t Network::find_sparse(ProcessId from, ProcessId to) const {
  const auto it = sparse_.find(static_cast<std::uint64_t>(from) << 32 | to);
  return it == sparse_.end() ? kNoLink : it->second;
}

Network::LinkState& Network::add_link(ProcessId from, ProcessId to) {
  const auto index = static_cast<std::uint32_t>(links_.size());
  // Made in place: a LinkState built aside and copied in right away is a
  // load the store buffer cannot forward.
  links_.emplace_back(default_link_);
  if (!dense_.empty())
    dense_[pair(from, to)] = index;
  else
    sparse_.emplace(static_cast<std::uint64_t>(from) << 32 | to, index);
  update_lane(links_[index], from, to);
  return links_[index];
}

void Network::set_link(ProcessId from, ProcessId to, const LinkSpec& spec) {
  LinkState& l = state(from, to);
  l.spec = spec;
  update_lane(l, from, to);
}

const LinkSpec& Network::link(ProcessId from, ProcessId to) const {
  const std::uint32_t index = find(from, to);
  return index == kNoLink ? default_link_ : links_[index].spec;
}

TrueTime Network::schedule_drawn(LinkState& l, ProcessId from, ProcessId to, TrueTime true_now) {
  // Streams are derived on a link's first use only: no string work per message.
  auto component = [&] { return names_[from] + "->" + names_[to]; };
  if (l.spec.loss_ppm > 0) {
    if (!l.loss_rng) l.loss_rng = Rng::derive(run_seed_, component(), "loss");
    if (l.loss_rng->chance_ppm(l.spec.loss_ppm)) return kLost;
  }
  Duration latency = l.spec.latency.a;
  if (l.spec.latency.kind != Latency::Kind::constant) {
    if (!l.latency_rng) l.latency_rng = Rng::derive(run_seed_, component(), "latency");
    latency = l.spec.latency.sample(*l.latency_rng);
  }
  return arrive(last_delivery(l, from, to), saturating_add(true_now, latency));
}

void Network::reseed(std::uint64_t run_seed) {
  run_seed_ = run_seed;
  for (LinkState& l : links_) {
    l.latency_rng.reset();
    l.loss_rng.reset();
  }
}

void Network::reset(std::uint64_t run_seed) {
  run_seed_ = run_seed;
  // The links stay, each as add_link makes it: a sweep's runs use the same
  // pairs seed after seed, and making each again on its first message (the
  // link, its index, its lane, and the message's slower path there) cost a
  // clock-jump run about 2 % of its instructions. A kept link with the
  // default spec answers as a missing one: schedule() and link() read the
  // same spec, and its streams are derived again on first use.
  for (LinkState& l : links_) {
    l.spec = default_link_;
    l.last_delivery = TrueTime{};
    l.latency_rng.reset();
    l.loss_rng.reset();
  }
  const Duration fixed_latency = fixed(default_link_) ? default_link_.latency.a : kDraws;
  for (std::size_t pair = 0; pair < lanes_.size(); ++pair)
    lanes_[pair] = Lane{TrueTime{}, dense_[pair] == kNoLink ? kDraws : fixed_latency};
  // Their tables are kept for the next run's partitions: a sweep's every run
  // would otherwise allocate them again.
  for (Partition& p : partitions_) spare_group_of_.push_back(std::move(p.group_of));
  partitions_.clear();
  active_partitions_ = 0;
  // Remembered verdicts carry the epoch they were worked out in: with the
  // epoch back at 0 they must go too, or a stale one could pass for fresh.
  epoch_ = 0;
  cuts_.clear();
}

std::uint32_t Network::partition(const std::vector<std::vector<ProcessId>>& groups, PartitionMode mode) {
  Partition p{{}, mode, true};
  if (!spare_group_of_.empty()) {
    p.group_of = std::move(spare_group_of_.back());
    spare_group_of_.pop_back();
  }
  p.group_of.assign(names_.size(), -1);
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (ProcessId pid : groups[g]) {
      LOCKSIM_CHECK(pid < names_.size(), "partition names an unknown process");
      p.group_of[pid] = static_cast<std::int32_t>(g);
    }
  partitions_.push_back(std::move(p));
  ++active_partitions_;
  partitions_changed();
  return static_cast<std::uint32_t>(partitions_.size() - 1);
}

void Network::heal(std::uint32_t id) {
  if (id >= partitions_.size() || !partitions_[id].active) return;
  partitions_[id].active = false;
  --active_partitions_;
  partitions_changed();
}

void Network::partitions_changed() {
  // Every remembered verdict is now stale: a new epoch, and each pair works
  // its verdict out again, with the loop, on its next message.
  ++epoch_;
  if (cuts_.empty() && process_count_ <= kCutTableProcesses) cuts_.resize(process_count_ * process_count_);
}

Network::Verdict Network::judge_partitions(ProcessId from, ProcessId to, std::uint32_t* holding_partition) const {
  // Drop wins over hold when two partitions cut the same pair: the message is
  // gone either way, and holding it would resurrect it at the other's heal.
  Verdict verdict = Verdict::deliver;
  for (std::uint32_t id = 0; id < partitions_.size(); ++id) {
    const Partition& p = partitions_[id];
    if (!p.active) continue;
    const std::int32_t a = p.group_of[from];
    const std::int32_t b = p.group_of[to];
    if (a < 0 || b < 0 || a == b) continue;
    if (p.mode == PartitionMode::drop) return Verdict::drop;
    if (verdict == Verdict::deliver) {
      verdict = Verdict::hold;
      if (holding_partition) *holding_partition = id;
    }
  }
  return verdict;
}

}  // namespace locksim
