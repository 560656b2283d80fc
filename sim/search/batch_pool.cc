#include "sim/search/batch_pool.h"

namespace locksim::search {

BatchPool::BatchPool(unsigned threads) {
  for (unsigned t = 1; t < threads; ++t) workers_.emplace_back([this, t] { work(t); });
}

BatchPool::~BatchPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  start_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void BatchPool::take_slots(unsigned thread) {
  for (std::size_t i = next_++; i < slots_; i = next_++) (*job_)(i, thread);
}

void BatchPool::run(std::size_t n, const std::function<void(std::size_t, unsigned)>& job) {
  if (workers_.empty() || n <= 1) {
    for (std::size_t i = 0; i < n; ++i) job(i, 0);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = &job;
    slots_ = n;
    next_ = 0;
    busy_ = workers_.size();
    ++generation_;
  }
  start_.notify_all();
  take_slots(0);
  // Every worker reports back, even one that woke after the slots ran out:
  // none can still be reading this batch's job when the next one is set.
  std::unique_lock<std::mutex> lock(mutex_);
  finished_.wait(lock, [this] { return busy_ == 0; });
  job_ = nullptr;
}

void BatchPool::work(unsigned thread) {
  std::uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      start_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
    }
    take_slots(thread);
    std::lock_guard<std::mutex> lock(mutex_);
    if (--busy_ == 0) finished_.notify_one();
  }
}

}  // namespace locksim::search
