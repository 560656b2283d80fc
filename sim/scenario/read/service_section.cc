// [service.NAME]: downstream services a critical section calls.
#include "sim/scenario/read/sections.h"

namespace locksim::scenario {

namespace {

using namespace std::chrono_literals;

const KeyTable<ServiceSpec> kServiceKeys{
    {{.name = "latency",
      .rule = LatencyRule{.fallback = Latency::constant(1ms)},
      .doc = "how long the service takes to answer each call: `\"200ms\"`, `\"lognormal(80ms, 0.4)\"`"},
     into(&ServiceSpec::latency)},};

}  // namespace

SectionDecl service_section() { return {.name = "service", .named = true, .keys = declarations(kServiceKeys)}; }

// In file order; each is a process.
void read_service_sections(ReadContext& c) {
  for (const DocNode& s : c.section("service").members) {
    if (!s.table) continue;  // reported by the schema pass
    ServiceSpec service;
    service.name = s.key;
    service.pos = s.pos;
    if (!valid_process_name(s.key)) c.r.fail(s, bad_name_message(s.key));
    read_keys(c.r, s, kServiceKeys, service);
    c.processes.add(c.r, s.key, NameKind::service, s.pos, join_key("service", s.key));
    c.spec.services.push_back(std::move(service));
  }
}

}  // namespace locksim::scenario
