// A scenario document as a tree that remembers where every key was written.
//
// toml++ gives us values with source positions, but copying a node drops its
// position and its tables iterate alphabetically. Variants and `--set`
// overrides are deep merges of several TOML documents, and an error must still
// name the file, line and key the user wrote. So the parser works on this
// small tree instead: each entry points at the TOML value it came from (the
// documents stay alive for as long as the tree), carries the dotted key as it
// was written ("variant.fenced.lock.ttl") and its position, and keeps table
// members in file order.
//
// Merge rule (the one documented in scenarios/FORMAT.md): tables merge
// recursively; anything else — strings, numbers, arrays — replaces.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/scenario/source.h"

// toml++'s node types, declared rather than included: its header costs about
// 2.5 s of compile time in each of the ~70 files that see a spec but never
// parse TOML. The files that do include <toml++/toml.h>, whose definitions
// must then match these (another major version fails to compile there).
namespace toml {
inline namespace v3 {
class node;
class table;
}  // namespace v3
}  // namespace toml

namespace locksim::scenario {

struct DocNode {
  std::string key;   // the last key segment: "ttl"
  std::string path;  // the dotted key as written: "variant.fenced.lock.ttl"
  SourcePos pos;     // where the key was written; line 0 for --set
  bool table = false;
  const toml::node* value = nullptr;  // leaves: the value (never null)
  std::vector<DocNode> members;       // tables: in file order, then merged-in keys in their order

  const DocNode* find(std::string_view member_key) const;
  DocNode* find(std::string_view member_key);
  // Where an element of this node's array value was written.
  SourcePos pos_of(const toml::node& element) const;
};

// The tree of |table|, whose own key is |key| with dotted path |path| ("" for
// a document root). With |use_lines| false every position is {file, 0}: values
// typed on the command line have no line.
DocNode doc_from_toml(const toml::table& table, const std::string& file, bool use_lines);
DocNode doc_from_value(const toml::node& value, std::string key, std::string path, SourcePos pos, bool use_lines);

// Deep merge: |from|'s members go into |into|; tables merge, the rest replaces.
void merge_into(DocNode& into, const DocNode& from);

// "a.b" with b quoted when it is not a bare TOML key.
std::string join_key(std::string_view parent, std::string_view key);
// "integer 10", "string \"10s\"", "float 0.5", "boolean true", "an array", ...
std::string describe_value(const toml::node& value);
// "text" in double quotes, with " and \\ escaped; past 80 bytes, its first 80
// and its length. (Not std::quoted, which ADL would
// prefer for std::string arguments.)
std::string in_quotes(std::string_view text);
// |text| without the white space around it.
std::string trim(std::string_view text);
// "a, b, c"; a long list shows its first 24 items and the count.
std::string join_list(const std::vector<std::string>& items);
// The candidate closest to |word| by edit distance (with transpositions), if
// that distance is at most 2; ties go to the earlier candidate.
std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& candidates);
// " (did you mean "x"?)" or "".
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace locksim::scenario
