// The worker threads of a search, kept for its whole length.
//
// A search runs in batches of 32 (search.h), each of them a few hundred
// microseconds of work for the cheapest stories: starting and joining threads
// for every batch would cost as much as the runs. The pool starts its
// workers once; run() hands them a batch and returns when every slot is done.
// Each slot is one call of the job with its own index, so a job that writes
// only its own slot needs no lock, and the result cannot depend on which
// thread ran which slot. The job also learns which thread runs it (0 = the
// caller), for state a thread keeps between slots — a reused world.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace locksim::search {

class BatchPool {
 public:
  // |threads| in all: the caller of run() is one of them.
  explicit BatchPool(unsigned threads);
  ~BatchPool();
  BatchPool(const BatchPool&) = delete;
  BatchPool& operator=(const BatchPool&) = delete;

  // Calls job(i, thread) for every i in [0, n), spread over the threads.
  void run(std::size_t n, const std::function<void(std::size_t slot, unsigned thread)>& job);
  unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }

 private:
  void work(unsigned thread);
  void take_slots(unsigned thread);

  std::mutex mutex_;
  std::condition_variable start_;
  std::condition_variable finished_;
  std::vector<std::thread> workers_;
  const std::function<void(std::size_t, unsigned)>* job_ = nullptr;
  std::size_t slots_ = 0;
  std::atomic<std::size_t> next_{0};
  std::size_t busy_ = 0;          // workers not yet done with the current batch
  std::uint64_t generation_ = 0;  // one per batch: how a worker tells a new batch from the last
  bool stopping_ = false;
};

}  // namespace locksim::search
