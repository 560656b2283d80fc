// Judges a recorded history: the five properties as holds, violated or
// unknown — never a guess. Unknown when the history does not record what a
// property needs (the lock service's keys for P4, the application's state
// for P5), or when what it does record allows both answers: a promise whose
// true end the recorder did not know (P1 is judged with the shortest and the
// longest window it could be), or, on local clocks, orders of events the
// clocks' uncertainty cannot tell apart (orderings.h).
#pragma once

#include <array>
#include <optional>
#include <string>

#include "sim/check/judge.h"
#include "sim/recorded/recorded_history.h"

namespace locksim {

enum class RecordedStatus { holds, violated, unknown };
const char* recorded_status_name(RecordedStatus s);

struct RecordedVerdict {
  RecordedStatus status = RecordedStatus::holds;
  std::string unknown_because;  // when unknown, in words
};

struct RecordedJudgement {
  // The history as read: its own readings (local clocks: offsets of zero),
  // a promise of unknown end taken as never ending. Its witnesses and
  // figures are what is shown; |verdicts| say what can be concluded.
  Judgement shown;
  std::array<RecordedVerdict, kPropertyCount> verdicts;
  std::size_t orderings = 1;  // the orders of events judged (local clocks); 0: too many to judge
};

// More orders than this and every property some could change is unknown.
inline constexpr std::size_t kMaxOrderings = 4096;

// REQUIRES: |uncertainty| when !h.common_time.
RecordedJudgement judge_recorded(const RecordedHistory& h, std::optional<Duration> uncertainty);

}  // namespace locksim
