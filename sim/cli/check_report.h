// How `locksim check` shows a recorded history's judgement: the verdict
// table `run` prints, with unknown as a third verdict and its reason, and
// the same figures; or one JSON object in the results vocabulary
// (docs/results.md).
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "sim/recorded/recorded_history.h"
#include "sim/recorded/recorded_judge.h"

namespace locksim::cli {

void print_check_table(std::ostream& out, const std::string& file, const RecordedHistory& h, const RecordedJudgement& j,
                       std::optional<Duration> uncertainty);
void print_check_json(std::ostream& out, const std::string& file, const RecordedHistory& h, const RecordedJudgement& j,
                      std::optional<Duration> uncertainty);

}  // namespace locksim::cli
