// One reader per section of a scenario file. Each declares its keys once
// (keys.h) and reads them from that declaration; what a rule cannot say —
// names that must exist, steps, triggers, counts bounded by other sections —
// it checks by hand. read_spec() (spec_reader.h) calls them in an order that
// lets each find what it refers to: processes are registered by the sections
// that create them, before the sections that name them.
#pragma once

#include <span>
#include <string_view>

#include "sim/scenario/keys.h"
#include "sim/scenario/read/context.h"

namespace locksim::scenario {

void read_scenario_section(ReadContext& c);  // [scenario]
void read_lock_section(ReadContext& c);      // [lock], with its preset's checks
void read_redis_section(ReadContext& c);     // [redis], [redis.initial]
void read_sentinel_section(ReadContext& c);  // [sentinel]
void read_service_sections(ReadContext& c);  // [service.NAME]
void read_resource_section(ReadContext& c);  // [resource]
void read_client_sections(ReadContext& c);   // [client.NAME]
void check_deployment(ReadContext& c);       // replicas, sentinels and the protocol's node count, together
void read_redlock_section(ReadContext& c);   // [redlock]
void read_store_sections(ReadContext& c);    // [store], [store_lock]: after the lock, before the names are used
void resolve_store_defaults(ReadContext& c);  // a store protocol's preset and release, for what the file leaves out
void check_store_phases(ReadContext& c);      // after resolve_defaults: each loop's phase below its period
void read_clock_sections(ReadContext& c);    // [clock.NAME]
void read_network_section(ReadContext& c);   // [network]
void read_link_sections(ReadContext& c);     // [link.NAME]
void read_fault_sections(ReadContext& c);    // [fault.NAME]
void read_expect_section(ReadContext& c);    // [expect]
void read_search_section(ReadContext& c);    // [search], [search.KIND]: after the clients and faults

// Each section's declarations, in the order FORMAT.md documents them.
SectionDecl scenario_section();
SectionDecl lock_section();
SectionDecl redlock_section();
SectionDecl store_section();
SectionDecl store_lock_section();
SectionDecl redis_section();
SectionDecl sentinel_section();
SectionDecl resource_section();
SectionDecl service_section();
SectionDecl client_section();
SectionDecl clock_section();
SectionDecl network_section();
SectionDecl link_section();
SectionDecl fault_section();
SectionDecl expect_section();
SectionDecl search_section();
// The keys of [search.KIND] tables, by kind, for FORMAT.md.
std::string search_kinds_markdown();
// Every key a [search.KIND] table may hold, "targets" first.
std::vector<std::string> search_kind_keys();

std::span<const SectionDecl> sections();
// The section called |name|, or null.
const SectionDecl* find_section(std::string_view name);

// "single-node", "etcd", ...: the protocol as scenario files write it.

// The range of a count of replicas (min_replicas_to_write, wait_replicas).
std::string replica_count_rule(std::int64_t replicas);

// The schema pass: every key of the document is one its section declares.
void check_schema(Reader& r, const DocNode& root);

}  // namespace locksim::scenario
