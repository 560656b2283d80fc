#include "sim/run/client_bounds_check.h"

#include <algorithm>
#include <string>

#include "sim/core/time.h"
#include "sim/wire/resource.h"

namespace locksim {

namespace {

bool holds(ClientBound::Op op, __int128 actual, __int128 bound) {
  switch (op) {
    case ClientBound::Op::eq: return actual == bound;
    case ClientBound::Op::lt: return actual < bound;
    case ClientBound::Op::le: return actual <= bound;
    case ClientBound::Op::gt: return actual > bound;
    case ClientBound::Op::ge: return actual >= bound;
  }
  return false;
}

std::int64_t count_of(const ClientOutcome& c, const std::string& what) {
  if (what == "sessions") return c.sessions;
  if (what == "accepted") return c.ops_accepted;
  if (what == "rejected") return c.ops_rejected;
  if (what == "releases-ok") return c.releases_ok;
  if (what == "releases-failed") return c.releases_failed;
  if (what == "releases-unknown") return c.releases_unknown;
  for (std::size_t i = 1; i < kRejectCount; ++i)
    if (what == std::string("rejected-") + resource::reject_name(static_cast<resource::Reject>(i)))
      return c.rejected_by[i];
  return 0;
}

}  // namespace

void check_client_bounds(const std::vector<ClientBound>& bounds, const std::vector<ClientOutcome>& outcomes,
                         const History& h, std::vector<Mismatch>& out) {
  for (const ClientBound& b : bounds) {
    const auto c = std::find_if(outcomes.begin(), outcomes.end(),
                                [&](const ClientOutcome& o) { return h.name_of(o.client) == b.client; });
    if (c == outcomes.end()) continue;
    const std::string what = b.client + "." + b.what;
    if (b.unit == ClientBound::Unit::duration) {
      if (!holds(b.op, c->longest_wait.count(), b.value))
        out.push_back({what, b.text,
                       format_duration_rounded(c->longest_wait) + (c->waiting_at_end ? " (still waiting)" : "")});
      continue;
    }
    const std::int64_t n = count_of(*c, b.what);
    if (b.unit == ClientBound::Unit::count) {
      if (!holds(b.op, n, b.value)) out.push_back({what, b.text, std::to_string(n)});
      continue;
    }
    // A share of the client's ops, compared exactly: n / ops against ppm / 1e6.
    const std::int64_t ops = c->ops_accepted + c->ops_rejected;
    const __int128 actual = static_cast<__int128>(n) * 1'000'000;
    const __int128 bound = static_cast<__int128>(b.value) * ops;
    if (ops == 0 || !holds(b.op, actual, bound)) {
      const std::int64_t percent = ops == 0 ? 0 : n * 100 / ops;
      out.push_back({what, b.text,
                     ops == 0 ? "no ops" : std::to_string(percent) + "% (" + std::to_string(n) + " of " +
                                               std::to_string(ops) + " ops)"});
    }
  }
}

}  // namespace locksim
