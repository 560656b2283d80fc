// Safety margins: for each property, how close a run came to breaking it, as
// a signed duration of true time. Negative means the property broke (by that
// much); positive means it held with that much to spare; nullopt means the
// run never came near the situation the property is about (one session
// only, no resource ops).
//
// A verdict says only "held" or "broke"; a search that is told only that has
// nothing to climb. A margin gives it a slope: a pause that ended 300 ms
// before the lease ran out is closer to a counterexample than one that ended
// 9 s before. The margins are guidance, not verdicts: the checkers
// (checkers.h) decide, and have the last word on the sign — a broken
// property's margin is at most −1 ns, a held one's at least 0.
//
//  P1 grant-exclusive   min over grants Y after another session X of
//                       Y's grant − X's promised end at that instant (or X's
//                       release, when X released first).
//  P2 belief-exclusive  min over session pairs of the later grant − the
//                       earlier session's belief end.
//  P3 resource-exclusive  min over session pairs of the first accepted op of
//                       the later session − the last accepted op of the
//                       earlier one (negative: they interleave).
//  P4 resource-current  min over accepted ops of the op's session's promised
//                       end (or release) − the op's instant: how long before
//                       its promise ran out the op landed.
//  P5 invariant         no time scale of its own: the lesser of P3's and
//                       P4's margins (an invariant breaks when ops race or
//                       come from a session whose lock is gone).
#pragma once

#include <array>
#include <optional>

#include "sim/check/checkers.h"
#include "sim/core/time.h"
#include "sim/history/history.h"

namespace locksim {

using Margins = std::array<std::optional<Duration>, kPropertyCount>;

// REQUIRES: |verdicts| are check_all(h). With |lease_left|, also sets it to
// the least lease left at an accepted op: min over accepted ops of the op's
// session's promised end − the op's instant, its release ignored (nullopt:
// no accepted op of a session with a promised end). Not a property's margin
// — P4's counts the release — but the one a holder's pauses, steps and
// delays all use up, so a search can add faults up on it (search/strategy.h,
// Closeness).
Margins safety_margins(const History& h, const Verdicts& verdicts, std::optional<Duration>* lease_left = nullptr);

// A second guide for quorum services (Redlock), where the time margins are
// flat: the second client is refused until the first releases, so every run
// that fails to break P1 looks the same to them. Over the instants when some
// session's promise was open, the quorum minus the most nodes that held one
// other value at once: how many more nodes the closest would-be second
// holder lacked (0: it had a quorum). nullopt for a service whose holder is
// one node or one replicated state, or when no other value was ever held
// inside a promise.
std::optional<int> quorum_shortfall(const History& h);

}  // namespace locksim
