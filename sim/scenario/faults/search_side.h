// What `locksim search` may vary of a fault kind: its declaration's search
// side (kind.h). A [search.KIND] table bounds each searched value; a search
// draws, mutates, enumerates, covers and shrinks them knowing only what is
// declared here, so a kind with a search side is searchable everywhere.
//
// Each searched value is one of the kind's own keys: the value a search
// picks is written into a finding under that key and read back by the
// kind's reader, like any hand-written fault.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/scenario/reader.h"

namespace locksim::scenario {

enum class Searched : std::uint8_t {
  duration,  // "100ms..30s" in [search.KIND]; |sign| says what a range may hold
  rate,      // "-1%..+1%", in ppm
  split,     // the space's targets cut into two non-empty groups, a bit per target
  choice,    // one option of the key's ChoiceRule, or "either" of them
};

// Whether a [search.KIND] range bounds a value of this type (a split and a
// choice are sets, not ranges).
inline bool has_range(Searched type) { return type == Searched::duration || type == Searched::rate; }

struct SearchedValue {
  std::string_view key;  // the fault's key it sets; for all but a split, the [search.KIND] key that bounds it
  Searched type = Searched::duration;
  Sign sign = Sign::positive;  // a duration's range may hold these values
  // The [search.KIND] key may be left out, and then the fault's key is never
  // set (a crash that stays down, a partition that never heals).
  bool optional = false;
  // Zero means something of its own ("restart at once"): shrinking tries it
  // first instead of bisecting down to one nanosecond.
  bool zero_is_at_once = false;
  // How long the fault lasts: a fault stacked on this one starts that long after it.
  bool span = false;
  // Clients cannot take the value (they have no state to restart with):
  // a space that sets it refuses them, saying this.
  std::string_view not_for_clients = {};
  std::string_view doc;  // the [search.KIND] key's meaning, with an example range
};

// The most values one kind searches: a Gene holds them in place.
inline constexpr std::size_t kMostSearchedValues = 3;
// The most processes one split cuts: a bit per target in a 64-bit word.
inline constexpr std::size_t kMostSplitTargets = 62;

// One searched fault's values, in the order its kind declares them: a
// duration in nanoseconds, a rate in ppm, a split's bits, a choice's value;
// nullopt for an optional value the space leaves out.
using SearchedValues = std::array<std::optional<std::int64_t>, kMostSearchedValues>;

// What a search decided for one fault, for the kind to build it from.
struct SearchedFault {
  const std::string* target = nullptr;               // the process it hits (kinds with one target)
  const std::vector<std::string>* targets = nullptr;  // the space's targets (what a split cuts)
  SearchedValues values;
};

template <typename Kind>
struct SearchSide {
  bool one_target = true;  // each fault hits one target; false: a split value cuts them all
  std::vector<SearchedValue> values;  // in the order a search draws them
  Kind (*make)(const SearchedFault& fault) = nullptr;
};

// The two groups a split's bits cut |targets| into: bit i set puts target i
// in the second.
std::vector<std::vector<std::string>> split_groups(const std::vector<std::string>& targets, std::uint64_t bits);

}  // namespace locksim::scenario
