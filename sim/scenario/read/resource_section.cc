// [resource]: the protected resource and the application state on it.
#include "sim/scenario/read/sections.h"

namespace locksim::scenario {

namespace {

constexpr std::pair<WritePolicy, std::string_view> kWritePolicies[] = {
    {WritePolicy::none, "none"},
    {WritePolicy::fencing, "fencing"},
    {WritePolicy::unique_token_cas, "unique-token-cas"},
    {WritePolicy::transactional, "transactional"},
    {WritePolicy::transactional_fenced, "transactional-fenced"}};
constexpr std::pair<AppKind, std::string_view> kAppKinds[] = {{AppKind::counter, "counter"},
                                                              {AppKind::register_value, "register"},
                                                              {AppKind::collection, "collection"},
                                                              {AppKind::stock, "stock"},
                                                              {AppKind::none, "none"}};

const KeyTable<ResourceSpec> kResourceKeys{
    {{.name = "name", .rule = StringRule{.fallback = "resource", .process_name = true}, .doc = "its process name"},
     into(&ResourceSpec::name)},
    {{.name = "policy",
      .rule = choice_of(kWritePolicies, WritePolicy::none),
      .doc = "`fencing`: reject a token below the highest seen. `unique-token-cas`: a session `mark`s the resource "
             "with its random value and later ops must match the mark (antirez's alternative). `transactional`: a "
             "session's ops are staged and applied at its `commit` step only if no other session committed since "
             "its first op, else the whole session is rolled back (and the client retries the cycle); "
             "`transactional-fenced`: the same, with the fencing check on every op"},
     into(&ResourceSpec::policy)},
    {{.name = "app",
      .rule = choice_of(kAppKinds, AppKind::counter),
      .doc = "the application state, whose invariant P5 checks: counter = increments; collection size = elements; "
             "stock >= 0"},
     into(&ResourceSpec::app)},
    {{.name = "initial_stock",
      .rule = IntegerRule{.min = 0, .max = INT64_MAX, .fallback = 1},
      .doc = "starting stock for `app = \"stock\"`"},
     into(&ResourceSpec::initial_stock)},};

}  // namespace

SectionDecl resource_section() { return {.name = "resource", .keys = declarations(kResourceKeys)}; }

void read_resource_section(ReadContext& c) {
  const DocNode& rs = c.section("resource");
  read_keys(c.r, rs, kResourceKeys, c.spec.resource);
  const DocNode* name = rs.find("name");
  c.processes.add(c.r, c.spec.resource.name, NameKind::resource, name ? name->pos : rs.pos,
                  name ? name->path : "resource.name");
}

}  // namespace locksim::scenario
