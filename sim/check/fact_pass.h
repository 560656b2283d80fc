// One pass over a history's facts for several consumers at once.
//
// Each fact's body is dispatched once, by a jump on its alternative, and
// every consumer's handler runs for it, in the order the consumers are
// given. A consumer is a class with
//   template <class Body> void on(const Fact& f, const Body& body);
// that picks the kinds of fact it reads with `if constexpr`, so a kind it
// does not read costs it nothing.
//
// Why: a sweep judges every run, and a pass per checker asked each fact
// "which kind are you?" again in every pass, through a chain of tests the
// branch predictor mostly got wrong. Judging was about a fifth of a
// clock-jump sweep's time.
#pragma once

#include <variant>

#include "sim/history/history.h"

namespace locksim {

template <class... Consumers>
void for_each_fact(const History& h, Consumers&... consumers) {
  for (const Fact& f : h.facts) std::visit([&](const auto& body) { (consumers.on(f, body), ...); }, f.body);
}

}  // namespace locksim
