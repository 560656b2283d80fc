// [clock.NAME], [network] and [link.NAME]: each process's clock at the
// start, and the links between processes.
#include "sim/scenario/read/clock_rate.h"
#include "sim/scenario/read/sections.h"

namespace locksim::scenario {

namespace {

using namespace std::chrono_literals;

constexpr std::string_view kLossRange = "loss must be between 0% and 100%";

const KeyTable<ClockSpec> kClockKeys{
    {{.name = "offset",
      .rule = DurationRule{.sign = Sign::any, .fallback = 0s},
      .doc = "wall clock minus true time at 0"},
     into(&ClockSpec::offset)},
    {{.name = "drift",
      .rule = drift_rule(0),
      .doc = "how fast the clock runs: `\"200ppm\"` gains 200 µs per second, `\"-50ppm\"` loses 50 µs, `\"2%\"` = "
             "20000 ppm. Must be above −1000000 ppm (the clock would stop) and at most 1000000 ppm (+100 %: twice "
             "true speed)",
      .type_note = kDriftType},
     into(&ClockSpec::drift_ppm)},};

const KeyTable<LinkSpec> kNetworkKeys{
    {{.name = "latency",
      .rule = LatencyRule{.fallback = Latency::constant(1ms)},
      .doc = "one-way delay per message (links are FIFO, like TCP)"},
     into(&LinkSpec::latency)},
    {{.name = "loss",
      .rule = RateRule{.min_ppm = 0, .max_ppm = 1'000'000, .range_rule = kLossRange, .fallback_ppm = 0},
      .doc = "probability a message is lost: `\"0.1%\"`, `\"250ppm\"`",
      .type_note = "rate in [0, 100 %]"},
     into(&LinkSpec::loss_ppm)},};

const KeyTable<LinkOverride> kLinkKeys{
    {{.name = "from",
      .rule = CustomRule{"process name"},
      .doc = "one end (any process: a sentinel, a replica or a service too)",
      .required = true},
     {}},
    {{.name = "to", .rule = CustomRule{"process name"}, .doc = "the other end (a different process)", .required = true},
     {}},
    {{.name = "latency", .rule = LatencyRule{}, .doc = "", .default_note = "`[network].latency`"},
     into_nested<LinkOverride>([](LinkOverride& l) -> auto& { return l.spec.latency; })},
    {{.name = "loss",
      .rule = RateRule{.min_ppm = 0, .max_ppm = 1'000'000, .range_rule = kLossRange},
      .doc = "",
      .default_note = "`[network].loss`"},
     into_nested<LinkOverride>([](LinkOverride& l) -> auto& { return l.spec.loss_ppm; })},
    {{.name = "both_ways", .rule = BoolRule{.fallback = true}, .doc = "also set the link `to → from`"},
     into(&LinkOverride::both_ways)},};

}  // namespace

SectionDecl clock_section() { return {.name = "clock", .named = true, .keys = declarations(kClockKeys)}; }
SectionDecl network_section() { return {.name = "network", .keys = declarations(kNetworkKeys)}; }
SectionDecl link_section() { return {.name = "link", .named = true, .keys = declarations(kLinkKeys)}; }

void read_clock_sections(ReadContext& c) {
  for (const DocNode& t : c.section("clock").members) {
    if (!t.table || !c.processes.known(c.r, t.key, t.pos, t.path)) continue;
    ClockSpec clock;
    read_keys(c.r, t, kClockKeys, clock);
    c.spec.clocks[t.key] = clock;
  }
}

void read_network_section(ReadContext& c) {
  read_keys(c.r, c.section("network"), kNetworkKeys, c.spec.network.default_link);
}

// Keys left out take the [network] value: resolve_defaults() fills them in.
void read_link_sections(ReadContext& c) {
  for (const DocNode& t : c.section("link").members) {
    if (!t.table) continue;
    LinkOverride link;
    link.name = t.key;
    link.pos = t.pos;
    read_keys(c.r, t, kLinkKeys, link);
    if (c.r.require(t, "from")) c.processes.read(c.r, t, "from", link.from);
    if (c.r.require(t, "to")) c.processes.read(c.r, t, "to", link.to);
    if (!link.from.empty() && link.from == link.to)
      c.r.fail(*t.find("to"), "a link joins two different processes; both ends are " + in_quotes(link.to));
    c.spec.network.links.push_back(std::move(link));
  }
}

}  // namespace locksim::scenario
