// The notes under a story's table in `locksim compare`: where a fault the
// story needs fired in too few runs for a service's numbers to mean what the
// table says (sweep/story_gap.h decides, per cell and property). One line per
// fault, naming the services it concerns, lowest share first:
//
//   note: holder-pause fired with an effect in only 62% of zookeeper's runs,
//   80% of chubby's: the runs without it did not test the story, so there a
//   0% (zookeeper P1, chubby P1 P3) may only mean it did not happen and a
//   rate (zookeeper P2) may read low
//
// No line when every cell's numbers stand, however few runs a fault missed.
#pragma once

#include <string>
#include <vector>

#include "sim/sweep/compare.h"

namespace locksim::cli {

// |cells|: one story's cells, one per service, in table order.
std::vector<std::string> fault_notes(const std::vector<sweep::CompareCell>& cells);

}  // namespace locksim::cli
