#include "sim/scenario/faults/partition.h"

#include <toml++/toml.h>

#include "sim/history/history.h"
#include "sim/scenario/faults/kind.h"
#include "sim/scenario/read/context.h"

namespace locksim {

using namespace scenario;

namespace {

constexpr std::pair<PartitionMode, std::string_view> kModes[] = {{PartitionMode::drop, "drop"},
                                                                 {PartitionMode::hold, "hold"}};

// groups = [["c1", "r1"], ["c2", "r2"]]
void read_groups(ReadContext& c, const DocNode& table, PartitionFault& out) {
  const DocNode* node = c.r.require(table, "groups");
  if (node == nullptr) return;
  const char* const kExample = "an array of groups such as [[\"c1\", \"r1\"], [\"c2\"]]";
  const toml::array* groups = node->table ? nullptr : node->value->as_array();
  if (groups == nullptr) {
    c.r.fail(*node, std::string("expected ") + kExample + ", got " +
                        (node->table ? std::string("a table") : describe_value(*node->value)));
    return;
  }
  std::vector<std::vector<std::string>> result;
  std::vector<std::string> seen;
  for (const toml::node& g : *groups) {
    const toml::array* members = g.as_array();
    if (members == nullptr) {
      c.r.fail(node->pos_of(g), node->path,
               std::string("expected ") + kExample + ", but one group is " + describe_value(g));
      return;
    }
    if (members->empty()) {
      c.r.fail(node->pos_of(g), node->path, "a group must name at least one process");
      return;
    }
    std::vector<std::string> group;
    for (const toml::node& m : *members) {
      if (!m.is_string()) {
        c.r.fail(node->pos_of(m), node->path, "expected a process name, got " + describe_value(m));
        return;
      }
      const std::string name = *m.value<std::string>();
      if (!c.processes.known(c.r, name, node->pos_of(m), node->path)) return;
      if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
        c.r.fail(node->pos_of(m), node->path, in_quotes(name) + " is in more than one group");
        return;
      }
      seen.push_back(name);
      group.push_back(name);
    }
    result.push_back(std::move(group));
  }
  if (result.size() < 2) {
    c.r.fail(*node, "a partition needs at least two groups, got " + std::to_string(result.size()));
    return;
  }
  out.groups = std::move(result);
}

void write_groups(const PartitionFault& f, toml::table& out) {
  toml::array groups;
  for (const auto& group : f.groups) {
    toml::array members;
    for (const std::string& name : group) members.push_back(name);
    groups.push_back(std::move(members));
  }
  out.insert_or_assign("groups", std::move(groups));
}

}  // namespace

const FaultKindDecl<PartitionFault>& kind_decl(std::type_identity<PartitionFault>) {
  static const FaultKindDecl<PartitionFault> kind{
      .name = fault_kind_name(FaultKind::partition),
      .doc = "at least two non-empty groups; a process in at most one group. Messages between groups are cut; "
             "processes in no group are not affected",
      .keys = {{{.name = "groups",
                 .rule = CustomRule{"array of arrays of process names"},
                 .doc = "",
                 .required = true},
                {}},
               {{.name = "mode",
                 .rule = choice_of(kModes, PartitionMode::drop),
                 .doc = "`hold` delivers the cut messages when the partition heals (the late packet)"},
                into(&PartitionFault::mode)},
               {{.name = "heal_after",
                 .rule = DurationRule{.sign = Sign::non_negative},
                 .doc = "heal this long after it starts",
                 .default_note = "never"},
                into(&PartitionFault::heal_after)}},
      .read_custom = read_groups,
      .write_custom = write_groups,
      .resolve = [](const PartitionFault& f, const FaultResolver& run) -> FaultAction {
        // Resolved once for a sweep (it draws nothing from the seed), and
        // shared by every seed's copy: PartitionGroups.
        PartitionGroups::Groups groups;
        groups.reserve(f.groups.size());
        for (const auto& group : f.groups) {
          std::vector<ProcessId> ids;
          ids.reserve(group.size());
          for (const auto& name : group) ids.push_back(run.id(name));
          groups.push_back(std::move(ids));
        }
        fault::Partition p;
        p.groups = std::move(groups);
        p.mode = f.mode;
        p.heal_after = f.heal_after.value_or(Duration{-1});
        return p;
      },
      .describe = [](const PartitionFault& f) {
        std::string groups;
        for (const auto& group : f.groups) {
          std::string names;
          for (const std::string& n : group) names += (names.empty() ? "" : " ") + n;
          groups += (groups.empty() ? "" : " | ") + names;
        }
        return "[" + groups + "]" + (f.heal_after ? " healing after " + format_duration(*f.heal_after) : "");
      },
      // The heal delay is drawn first, then the split, then the mode.
      .search = SearchSide<PartitionFault>{
          .one_target = false,
          .values = {{.key = "heal_after",
                      .sign = Sign::non_negative,
                      .optional = true,
                      .zero_is_at_once = true,
                      .doc = "`\"1s..20s\"`: heal this long after it starts; absent = never"},
                     {.key = "groups", .type = Searched::split},
                     {.key = "mode", .type = Searched::choice, .doc = "what the partition does to cut messages"}},
          .make = [](const SearchedFault& f) {
            PartitionFault p;
            p.groups = split_groups(*f.targets, static_cast<std::uint64_t>(*f.values[1]));
            p.mode = static_cast<PartitionMode>(*f.values[2]);
            if (f.values[0]) p.heal_after = Duration{*f.values[0]};
            return p;
          },
      },
  };
  return kind;
}

}  // namespace locksim
