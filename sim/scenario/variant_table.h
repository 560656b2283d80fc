// A [variant.NAME] table: where it starts, what it drops, what it says.
//
// A variant starts from the base, or with `extends = "other"` from another
// variant as that one resolves (which may extend a third: chains are fine,
// cycles are not). It may then drop keys or whole tables it inherited with
// `unset = ["redlock", "lock.preset", "fault.gc"]` — so "our Redlock setup"
// written once in the base can become an etcd variant without copying the
// Redlock settings into every other variant — and then its own keys merge
// in by the usual rule (doc.h). In order: inherited → unset → own keys; the
// `--set` overrides come after all of them (file.h).
//
// An unset entry that names nothing the variant inherits is an error, not a
// no-op: a misspelt entry would otherwise leave the table it meant to drop
// in place, silently.
#pragma once

#include <string>
#include <vector>

#include "sim/scenario/doc.h"
#include "sim/scenario/reader.h"

namespace locksim::scenario {

struct VariantTable {
  struct Removal {
    std::vector<std::string> parts;  // "fault.gc" -> {"fault", "gc"}
    std::string text;                // as written
    SourcePos pos;
  };
  std::string name;
  std::string description;
  std::string extends;  // the variant it starts from; "" for the base
  SourcePos extends_pos;
  std::string extends_key;  // "variant.NAME.extends"
  std::vector<Removal> unset;
  std::string unset_key;  // "variant.NAME.unset"
  DocNode doc;            // every other key, paths as written ("variant.fenced.lock.fencing")
};

// Reads one [variant.NAME] table: description, extends and unset by their
// rules (a string, a string, an array of dotted keys), the rest into doc.
VariantTable read_variant_table(Reader& r, const DocNode& table);

// Reports each extends that names no variant or the variant itself, and
// each cycle of extends once (at its first member in file order, naming the
// chain: "a -> b -> a").
void check_extends(Reader& r, const std::vector<VariantTable>& variants);

// The tables variant |name| is built from, the one nearest the base first
// and |name| last; empty when |name| is unknown or its extends chain is
// broken (check_extends says why).
std::vector<const VariantTable*> lineage(const std::vector<VariantTable>& variants, const std::string& name);

// Removes |v|'s unset entries from |inherited|, the document |v| starts from.
// An entry that names nothing in it is an error in |errors| (each reported).
void apply_unset(const VariantTable& v, DocNode& inherited, ScenarioErrors& errors);

}  // namespace locksim::scenario
