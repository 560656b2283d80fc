// [sentinel]: Redis Sentinel, which fails the master over to a replica. The
// checks that need the replicas, and the quorum's default, are in
// check_deployment() and resolve_defaults().
#include "sim/scenario/read/sections.h"

namespace locksim::scenario {

namespace {

using namespace std::chrono_literals;

const KeyTable<SentinelSpec> kSentinelKeys{
    {{.name = "names",
      .rule = CustomRule{"array of process names"},
      .doc = "the sentinels; `[]` = no sentinels (then nobody fails the master over). Sentinels need at least one "
             "entry in [`redis.replicas`](#replication) to promote: without one they are an error. A `[sentinel]` "
             "table with other keys but no `names` is an error too (write `names = []` to run without sentinels, "
             "for example in a variant)",
      .default_note = "`[]`"},
     {}},
    {{.name = "quorum",
      .rule = IntegerRule{.min = INT64_MIN, .max = INT64_MAX},
      .doc = "how many sentinels must agree that the master is down (ODOWN) before a failover starts. The failover "
             "itself also needs a leader elected by a majority of *all* sentinels, as in Redis. A written value "
             "above the number of sentinels is an error; left out, the default 2 drops to the number of sentinels "
             "when there are fewer. Without sentinels it is not checked (a variant may set `names = []` and "
             "inherit the base's quorum)",
      .default_note = "`2`, or `1` with a single sentinel",
      .type_note = "integer, 1..the number of `names`"},
     {}},
    {{.name = "down_after",
      .rule = DurationRule{.sign = Sign::positive, .fallback = 30s},
      .doc = "`down-after-milliseconds`: a sentinel holds an instance down (SDOWN) when a ping has gone unanswered "
             "this long"},
     into(&SentinelSpec::down_after)},
    {{.name = "ping_every",
      .rule = DurationRule{.sign = Sign::positive, .fallback = 1s},
      .doc = "how often a sentinel pings each instance (Redis: once a second)"},
     into(&SentinelSpec::ping_every)},
    {{.name = "failover_timeout",
      .rule = DurationRule{.sign = Sign::positive, .fallback = 180s},
      .doc = "`failover-timeout`: a failover that has not completed by then is aborted, and no new one starts for "
             "twice this long"},
     into(&SentinelSpec::failover_timeout)},
    {{.name = "client_follow_delay",
      .rule = DurationRule{.sign = Sign::non_negative, .fallback = 0s},
      .doc = "how long after a `+switch-master` announcement a client moves to the new master (connection pools "
             "reconnect lazily); until then it keeps sending to the old one"},
     into(&SentinelSpec::client_follow_delay)},};

}  // namespace

SectionDecl sentinel_section() { return {.name = "sentinel", .keys = declarations(kSentinelKeys)}; }

void read_sentinel_section(ReadContext& c) {
  const DocNode& s = c.section("sentinel");
  read_keys(c.r, s, kSentinelKeys, c.spec.sentinel);
  // The quorum's range depends on the names and on the replicas:
  // check_deployment() reads it.
  read_processes(c, s, "names", "sentinel", NameKind::sentinel, c.spec.sentinel.names);
}

}  // namespace locksim::scenario
