#include "sim/recorded/key_changes.h"

namespace locksim {

std::optional<ChangeProblem> KeyChangeOrder::add(std::uint64_t id, std::int64_t t, std::int64_t t_latest,
                                                 std::size_t line) {
  const auto named = [](const Seen& s) {
    return "change " + std::to_string(s.id) + " (line " + std::to_string(s.line) + ")";
  };
  if (!last_ || last_->id < id) {
    // A new change. Its t cannot be before the last one's: the file is in
    // the order of t. Its latest instant must not be either, or the lower
    // number could not have happened first in every order the ranges allow.
    if (last_ && t_latest < last_->t_latest)
      return ChangeProblem{"t_latest", "change " + std::to_string(id) + " may end before " + named(*last_) +
                                           " may: a lower number happened first, so its range ends no later"};
    last_ = Seen{id, t, t_latest, line};
    return std::nullopt;
  }
  if (last_->id != id)
    return ChangeProblem{"change", std::to_string(id) + " comes after " + named(*last_) +
                                       ": changes come in the order of their numbers"};
  if (last_->t != t || last_->t_latest != t_latest)
    return ChangeProblem{"change", named(*last_) + " was within [" + std::to_string(last_->t) + ", " +
                                       std::to_string(last_->t_latest) +
                                       "]: the events of one change happened at one instant, so they give one range"};
  return std::nullopt;
}

}  // namespace locksim
