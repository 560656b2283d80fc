#include "sim/search/forked_batches.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "sim/search/byte_codec.h"

namespace locksim::search {

namespace {

bool write_all(int fd, const std::string& bytes) {
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

bool read_all(int fd, char* into, std::size_t size) {
  for (std::size_t done = 0; done < size;) {
    const ssize_t n = ::read(fd, into + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// One batch on the pipe: its length, then its summaries.
bool send_frame(int fd, const std::vector<RunSummary>& summaries) {
  std::string body;
  for (const RunSummary& s : summaries) encode(s, body);
  const std::uint64_t size = body.size();
  return write_all(fd, std::string(reinterpret_cast<const char*>(&size), sizeof size) + body);
}

bool receive_frame(int fd, std::size_t n, std::vector<RunSummary>& out) {
  std::uint64_t size = 0;
  if (!read_all(fd, reinterpret_cast<char*>(&size), sizeof size)) return false;
  std::string body(size, '\0');
  if (!read_all(fd, body.data(), body.size())) return false;
  out.assign(n, RunSummary{});
  std::size_t at = 0;
  for (RunSummary& s : out)
    if (!decode(body, at, s)) return false;
  return at == body.size();
}

// A child that must not run the parent's exit handlers or flush its buffers.
[[noreturn]] void leave(int code) { ::_exit(code); }

// Forks; in the child runs |body| with the pipe's write end and leaves.
// Returns the child's pid and sets |read_end|; -1 when fork fails.
template <typename Body>
pid_t spawn(int& read_end, const Body& body) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  int fds[2];
  if (::pipe(fds) != 0) return -1;
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return -1;
  }
  if (pid == 0) {
    ::close(fds[0]);
    try {
      body(fds[1]);
    } catch (...) {
      leave(70);
    }
    leave(0);
  }
  ::close(fds[1]);
  read_end = fds[0];
  return pid;
}

int reap(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

}  // namespace

std::string describe_exit(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = ::strsignal(sig);
    return "killed by signal " + std::to_string(sig) + (name != nullptr ? " (" + std::string(name) + ")" : "");
  }
  if (WIFEXITED(status))
    return "exited with status " + std::to_string(WEXITSTATUS(status)) +
           " before it finished (a sanitizer's report or the model's message is on standard error)";
  return "stopped for an unknown reason";
}

ForkedBatches::~ForkedBatches() { stop(); }

void ForkedBatches::start(std::uint64_t first) {
  worker_ = spawn(from_worker_, [&](int to_parent) {
    loop_(first, [&](const std::vector<RunSummary>& summaries) {
      if (!send_frame(to_parent, summaries)) leave(0);  // the parent has stopped listening
    });
  });
  if (worker_ < 0) throw std::runtime_error(std::string("cannot start a search worker: ") + std::strerror(errno));
  next_ = first;
}

void ForkedBatches::stop() {
  if (worker_ < 0) return;
  ::kill(worker_, SIGKILL);
  ::close(from_worker_);
  reap(worker_);
  worker_ = -1;
  from_worker_ = -1;
}

bool run_in_child(const std::function<std::string()>& body, std::string& output, std::string& failure) {
  int read_end = -1;
  const pid_t pid = spawn(read_end, [&](int to_parent) {
    std::string framed;
    bytes::put(framed, body());
    if (!write_all(to_parent, framed)) leave(0);
  });
  if (pid < 0) throw std::runtime_error(std::string("cannot start a process: ") + std::strerror(errno));
  std::uint64_t size = 0;
  bool ok = read_all(read_end, reinterpret_cast<char*>(&size), sizeof size);
  if (ok) {
    output.assign(size, '\0');
    ok = read_all(read_end, output.data(), output.size());
  }
  ::close(read_end);
  const int status = reap(pid);
  if (!ok) failure = describe_exit(status);
  return ok;
}

std::vector<RunSummary> ForkedBatches::batch(std::uint64_t first, std::size_t n,
                                             const std::function<RunSummary(std::size_t slot)>& run_alone) {
  if (worker_ >= 0 && next_ != first) stop();
  if (worker_ < 0) start(first);
  std::vector<RunSummary> out;
  if (receive_frame(from_worker_, n, out)) {
    next_ = first + n;
    return out;
  }
  // The worker died in this batch: find which runs kill a process.
  ::close(from_worker_);
  reap(worker_);
  worker_ = -1;
  from_worker_ = -1;
  out.assign(n, RunSummary{});
  for (std::size_t slot = 0; slot < n; ++slot) {
    int read_end = -1;
    const pid_t pid = spawn(read_end, [&](int to_parent) {
      if (!send_frame(to_parent, {run_alone(slot)})) leave(0);
    });
    if (pid < 0) throw std::runtime_error(std::string("cannot start a search worker: ") + std::strerror(errno));
    std::vector<RunSummary> one;
    const bool ok = receive_frame(read_end, 1, one);
    ::close(read_end);
    const int status = reap(pid);
    if (ok) {
      out[slot] = std::move(one.front());
    } else {
      out[slot].failure = describe_exit(status);
    }
  }
  return out;
}

}  // namespace locksim::search
