// The columns a sweep adds after the liveness means, so that a row carries
// what a reviewer needs to trust it and to get back to a run:
//
//   <p>.first_seed            per property: the seed of the first replica
//                             (lowest index) that violated it, empty if none —
//                             `locksim run FILE --variant V --set ... --seed S`
//                             replays it (the manifest has FILE, V and --set)
//   fault.<name>.fired        per fault: the share of runs in which it fired
//                             with an effect (a 0 % cell whose faults did not
//                             always fire says little)
//   <client>.sessions.mean, .ops_accepted.mean, .ops_rejected.mean,
//   .releases_failed.mean, .longest_wait_ms.mean, .longest_wait_ms.max
//                             per client: what a story claims about it
//   <key>_s / <key>_ppm       per swept key whose values are durations (in
//                             seconds) or rates (in ppm): a number pandas can
//                             sort, beside the canonical text
//
// The per-run file adds fault.<name> (1 fired with an effect, 0 not),
// <client>.longest_wait_ms and the same numeric key columns.
//
// Which faults and clients there are comes from the sweep's first cell, so
// that every shard writes the same header; a cell that lacks one (a --vary
// that removes a client) leaves its columns empty.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/scenario/spec.h"

namespace locksim::sweep {

enum class ValueUnit : std::uint8_t { none, seconds, ppm };

struct ColumnLayout {
  std::vector<std::string> keys;
  std::vector<ValueUnit> key_units;  // per key: the unit of its numeric column, or none
  std::vector<std::string> faults;
  std::vector<std::string> clients;
};

// The layout for a sweep over |keys| whose first cell has |first_values| and
// resolves to |first_cell|.
ColumnLayout column_layout(const std::vector<std::string>& keys, const std::vector<std::string>& first_values,
                           const ScenarioSpec& first_cell);

// |value| in |unit|: "1.5s" -> "1.5", "250ms" -> "0.25", "2%" -> "20000";
// "" when it is not a duration (a rate) or |unit| is none.
std::string base_unit_value(std::string_view value, ValueUnit unit);

// "lock.ttl_s", "clock.C.drift_ppm"; "" for none.
std::string base_unit_column(const std::string& key, ValueUnit unit);

}  // namespace locksim::sweep
