#include "tests/redis_diff/real_side.h"

#include <hiredis/hiredis.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <stdexcept>

namespace locksim::redis_diff {

namespace {

std::string render(const redisReply* r) {
  switch (r->type) {
    case REDIS_REPLY_STATUS: return "+" + std::string(r->str, r->len);
    case REDIS_REPLY_ERROR: return "-" + std::string(r->str, r->len);
    case REDIS_REPLY_INTEGER: return ":" + std::to_string(r->integer);
    case REDIS_REPLY_NIL: return "(nil)";
    case REDIS_REPLY_STRING: return "$" + std::string(r->str, r->len);
    case REDIS_REPLY_ARRAY: {
      std::string out = "*[";
      for (std::size_t i = 0; i < r->elements; ++i) out += (i ? ", " : "") + render(r->element[i]);
      return out + "]";
    }
    default: return "?type " + std::to_string(r->type);
  }
}

}  // namespace

RealRedis::RealRedis(int port, std::string clock_file) {
  const int fd = open(clock_file.c_str(), O_RDWR | O_CLOEXEC);
  void* p = fd >= 0 ? mmap(nullptr, sizeof(std::int64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
  if (fd >= 0) close(fd);
  if (p == MAP_FAILED) throw std::runtime_error("cannot map the clock file " + clock_file);
  clock_ns_ = static_cast<std::int64_t*>(p);
  context_ = redisConnect("127.0.0.1", port);
  if (context_ == nullptr || context_->err != 0)
    throw std::runtime_error("cannot connect to redis-server on port " + std::to_string(port) + ": " +
                             (context_ != nullptr ? context_->errstr : "no memory"));
}

RealRedis::~RealRedis() {
  if (context_ != nullptr) redisFree(context_);
  munmap(clock_ns_, sizeof(std::int64_t));
}

void RealRedis::set_clock(std::int64_t unix_ms) {
  // One aligned 8-byte store: the server never sees half a reading.
  __atomic_store_n(clock_ns_, unix_ms * 1'000'000, __ATOMIC_RELEASE);
}

std::string RealRedis::command(const std::vector<std::string>& argv) {
  std::vector<const char*> words;
  std::vector<std::size_t> lengths;
  for (const std::string& w : argv) {
    words.push_back(w.data());
    lengths.push_back(w.size());
  }
  auto* reply = static_cast<redisReply*>(
      redisCommandArgv(context_, static_cast<int>(argv.size()), words.data(), lengths.data()));
  if (reply == nullptr) throw std::runtime_error(std::string("redis-server went away: ") + context_->errstr);
  std::string out = render(reply);
  freeReplyObject(reply);
  return out;
}

}  // namespace locksim::redis_diff
