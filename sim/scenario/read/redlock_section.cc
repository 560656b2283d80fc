// [redlock]: Redlock's own knobs (the distlock page and the reference client
// redlock-rb). Read once the lock, the nodes and every process are known.
#include <algorithm>

#include "sim/scenario/protocols.h"
#include "sim/scenario/read/sections.h"

namespace locksim::scenario {

namespace {

using namespace std::chrono_literals;

constexpr std::pair<bool, std::string_view> kRequestModes[] = {{false, "sequential"}, {true, "parallel"}};
constexpr std::pair<FailedAttemptCleanup, std::string_view> kCleanups[] = {
    {FailedAttemptCleanup::send, "send"},
    {FailedAttemptCleanup::await, "await"},
    {FailedAttemptCleanup::at_give_up, "at-give-up"}};

const KeyTable<RedlockSpec> kRedlockKeys{
    {{.name = "requests",
      .rule = choice_of(kRequestModes, RedlockKnobs{}.parallel),
      .doc = "`SET NX PX` to one node after another, as the page describes, or to all at once, as most clients do",
      .default_note = "`\"sequential\"` (or the preset's)"},
     into_nested<RedlockSpec>([](RedlockSpec& s) -> auto& { return s.knobs.parallel; })},
    {{.name = "node_timeout",
      .rule = DurationRule{.sign = Sign::positive, .fallback = RedlockKnobs{}.node_timeout},
      .doc = "per-node request timeout; the client moves on when a node fails or is slow (the page: 5–50 ms for a "
             "10 s TTL)",
      .default_note = "`\"50ms\"` (or the preset's)"},
     into_nested<RedlockSpec>([](RedlockSpec& s) -> auto& { return s.knobs.node_timeout; })},
    {{.name = "check_validity",
      .rule = BoolRule{.fallback = RedlockKnobs{}.check_validity},
      .doc = "`false`: Kleppmann's naive client, which skips the `ttl − elapsed − drift > 0` check and trusts the "
             "quorum alone"},
     into_nested<RedlockSpec>([](RedlockSpec& s) -> auto& { return s.knobs.check_validity; })},
    {{.name = "quorum",
      .rule = IntegerRule{.min = INT64_MIN, .max = INT64_MAX},
      .doc = "how many nodes must say OK, N = the number of `redis.nodes`. `0` or left out resolves to the majority "
             "N/2 + 1 (3 of 5). A quorum below the majority is allowed — it lets two clients hold the lock at once "
             "— and one above N is an error",
      .default_note = "`0` = N/2 + 1",
      .type_note = "integer, 1..N, or 0"},
     {}},
    {{.name = "fencing_node",
      .rule = CustomRule{"a name from `redis.nodes`"},
      .doc = "the node that `INCR`s fencing tokens (`fencing = \"incr\"`). Any other name is an error",
      .default_note = "the first node"},
     {}},
    {{.name = "first_attempt_expiry",
      .rule = BoolRule{.fallback = RedlockKnobs{}.first_attempt_expiry},
      .doc = "node-redlock's bug (issues #169, #296): with retries, the lease end counts from the *first* attempt's "
             "start, so `acquire` can return a lock that has already expired",
      .default_note = "`false` (or the preset's)"},
     into_nested<RedlockSpec>([](RedlockSpec& s) -> auto& { return s.knobs.first_attempt_expiry; })},
    {{.name = "return_early",
      .rule = BoolRule{.fallback = RedlockKnobs{}.return_early},
      .doc = "with `requests = \"parallel\"`: the attempt ends as soon as a quorum has said OK or can no longer "
             "(node-redlock v5), not when every node has answered or timed out (v4, redlock-rb, redlock-py)",
      .default_note = "`false` (or the preset's)"},
     into_nested<RedlockSpec>([](RedlockSpec& s) -> auto& { return s.knobs.return_early; })},
    {{.name = "failed_attempt_cleanup",
      .rule = choice_of(kCleanups, RedlockKnobs{}.cleanup),
      .doc = "what a failed attempt does with keys it may have taken: `\"send\"` the release to every node and start "
             "the retry delay at once; `\"await\"` every node's answer to the release (or its `node_timeout`; one "
             "node after another with sequential requests) before the retry delay starts, as node-redlock v4, "
             "redlock-rb, redlock-py and go-redsync do; `\"at-give-up\"` keep them, as node-redlock v5 does, and "
             "release once when `acquire` gives up (its attempts then share one value)",
      .default_note = "`\"send\"` (or the preset's)"},
     into_nested<RedlockSpec>([](RedlockSpec& s) -> auto& { return s.knobs.cleanup; })},};

// quorum = 0..N: 0 (or left out) is the majority, resolved later.
void read_quorum(ReadContext& c, const DocNode& rl) {
  const std::optional<KeyValue> written = read_key(c.r, rl, declared(kRedlockKeys, "quorum"));
  if (!written) return;
  const std::int64_t quorum = std::get<std::int64_t>(*written);
  const auto n = static_cast<std::int64_t>(c.spec.redis.nodes.size());
  if (quorum < 0 || quorum > n)
    c.r.fail(*rl.find("quorum"), "must be between 1 and " + std::to_string(n) +
                                     " (the number of redis nodes), or 0 for a majority (" + std::to_string(n / 2 + 1) +
                                     "); got " + std::to_string(quorum));
  else
    c.spec.lock.redlock.quorum = static_cast<std::uint32_t>(quorum);
}

void read_fencing_node(ReadContext& c, const DocNode& rl) {
  const DocNode* f = rl.find("fencing_node");
  std::string name;
  if (f == nullptr || !c.r.string_value(*f, "a redis node name such as \"r1\"", name)) return;
  const std::vector<std::string>& nodes = c.spec.redis.nodes;
  if (std::find(nodes.begin(), nodes.end(), name) != nodes.end()) {
    c.spec.lock.redlock.fencing_node = name;
    return;
  }
  std::string what = "unknown redis node " + in_quotes(name) + did_you_mean(name, nodes);
  if (const ProcessNames::Entry* p = c.processes.find(name))
    what = in_quotes(name) + " is the " + p->kind_word() + ", not a redis node";
  c.r.fail(*f, what + "; redis nodes: " + join_list(nodes));
}

}  // namespace

SectionDecl redlock_section() { return {.name = "redlock", .keys = declarations(kRedlockKeys)}; }

void read_redlock_section(ReadContext& c) {
  const DocNode& rl = c.section("redlock");
  if (!protocol_decl(c.spec.lock.protocol).quorum_of_masters && c.root.find("redlock") != nullptr) {
    c.r.fail(rl.members.empty() ? rl : rl.members.front(),
             "[redlock] applies only with protocol = \"redlock\" in [lock], and the protocol is \"" +
                 std::string(lock_protocol_name(c.spec.lock.protocol)) + "\"" +
                 std::string(c.written("lock", "protocol") ? "" : " (the default)"));
  }
  read_keys(c.r, rl, kRedlockKeys, c.spec.lock.redlock);
  read_quorum(c, rl);
  read_fencing_node(c, rl);
}

}  // namespace locksim::scenario
