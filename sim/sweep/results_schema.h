// The one vocabulary of locksim's results (docs/results.md): `run --json`,
// the sweep's CSV files, `compare`'s CSV and JSON and `search`'s search.json
// name a property, its verdict over many runs, a first seed and a fault's
// firing the same way, so a reader learns the words once and one reader
// (analysis/results.py) loads them all.
//
//   <p>.violated  runs that violated property <p> (a name: grant-exclusive…)
//   <p>.rate      violated / runs; <p>.ci_low, <p>.ci_high its 95 % Wilson interval
//   <p>.first_seed the seed of the first violating run, to replay it
//   fault.<f>.fired the share of runs in which fault <f> fired with an effect
//
// In JSON the same figures sit under "verdicts": {"<p>": {"id": "P1", ...}}.
// Seeds are strings in JSON (a 64-bit seed does not survive a JavaScript
// number) and text columns in CSV (docs/results.md names the dtype).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sim/check/property.h"

namespace locksim::sweep {

// Bump when a name, a shape or a meaning changes; every JSON output carries
// it as "schema", and the sweep's manifest beside its CSV.
inline constexpr std::string_view kResultsSchema = "locksim-results/2";

// "\"123\"", or null when there is none.
std::string seed_json(std::uint64_t seed);
std::string seed_json(const std::optional<std::uint64_t>& seed);

// {"id":"P2","violated":17,"rate":0.850000,"ci_low":…,"ci_high":…,"first_seed":"…"}
std::string property_over_runs_json(Property p, std::int64_t violated, std::int64_t runs,
                                    const std::optional<std::uint64_t>& first_seed);
// ",<p>.violated,<p>.rate,<p>.ci_low,<p>.ci_high" for every property, in order.
std::string property_over_runs_header();
// ",<p>.first_seed" for every property, in order.
std::string first_seed_header();
// ",fault.<f>.fired" (the name quoted for CSV when it must be).
std::string fault_fired_header(std::string_view fault);

}  // namespace locksim::sweep
