// The messages in flight or waiting, each in a slot of one growing array that
// an event names by index, and the free slots to reuse: no allocation per
// message once a run has reached its most messages at once.
//
// The free list has room for every slot from the start (a slot is free at
// most once), so giving a slot back never allocates: it is on every
// message's path, and a call to grow there would make the compiler save
// registers on every message (see World's hot path).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/check.h"
#include "sim/wire/message.h"

namespace locksim {

class MessageSlab {
 public:
  // A free slot, its old content left as it was. Taking one may grow the
  // slab: a reference to a message is not kept across it.
  std::uint32_t take() {
    if (free_count_ == 0) [[unlikely]]
      return grow();
    return free_[--free_count_];
  }
  bool has_free() const { return free_count_ != 0; }
  void release(std::uint32_t slot) {
    LOCKSIM_CHECK(free_count_ < free_.size(), "no more message slots given back than there are");
    free_[free_count_++] = slot;
  }
  Message& operator[](std::uint32_t slot) { return messages_[slot]; }
  const Message& operator[](std::uint32_t slot) const { return messages_[slot]; }
  // No message, memory kept: what a reset world starts from.
  void clear() {
    messages_.clear();
    free_.clear();
    free_count_ = 0;
  }

 private:
  [[gnu::noinline]] std::uint32_t grow() {
    messages_.emplace_back();
    free_.push_back(0);  // room for the new slot once it is given back
    return static_cast<std::uint32_t>(messages_.size() - 1);
  }
  std::vector<Message> messages_;
  std::vector<std::uint32_t> free_;  // the first free_count_ are the free slots
  std::uint32_t free_count_ = 0;
};

}  // namespace locksim
