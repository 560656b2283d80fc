// Numbered key changes in a history (docs/history.md, "Key events known only
// within a range"): the key events of one change number happened at one
// instant somewhere in their common range, and a lower number happened
// before a higher one, as a store's revisions commit in order. The reader
// holds the file to the rules that make that true of the events as read:
// one range per change, changes in the order of their numbers, and no
// change whose range ends before the previous one's does.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace locksim {

// What is wrong with one line's change, and which of its fields says so.
struct ChangeProblem {
  const char* field;
  std::string text;
};

class KeyChangeOrder {
 public:
  // One key event of change |id| within [t, t_latest], read on |line|.
  std::optional<ChangeProblem> add(std::uint64_t id, std::int64_t t, std::int64_t t_latest, std::size_t line);

 private:
  struct Seen {
    std::uint64_t id = 0;
    std::int64_t t = 0;
    std::int64_t t_latest = 0;
    std::size_t line = 0;
  };
  std::optional<Seen> last_;
};

}  // namespace locksim
