#include "sim/recorded/recorded_history.h"

#include <algorithm>

namespace locksim {

bool RecordedHistory::any_range() const {
  return std::any_of(range.begin(), range.end(), [](Duration d) { return d > Duration{0}; });
}

bool RecordedHistory::any_promise_uncertain() const {
  return std::any_of(promises.begin(), promises.end(),
                     [](const RecordedPromise& p) { return p.promised_end_unknown || p.earliest_end.has_value(); });
}

}  // namespace locksim
