#include "sim/cli/interrupt_hint.h"

#include <signal.h>
#include <unistd.h>

namespace locksim::cli {

namespace {

// Made before the handler is installed: a handler may only write what
// exists (no allocation, no stdio).
std::string g_message;

void on_interrupt(int sig) {
  // The terminal echoed ^C without a newline: start a line of our own.
  const char newline = '\n';
  [[maybe_unused]] ssize_t n = write(STDERR_FILENO, &newline, 1);
  n = write(STDERR_FILENO, g_message.data(), g_message.size());
  signal(sig, SIG_DFL);
  raise(sig);
}

}  // namespace

void say_on_interrupt(const std::string& message) {
  g_message = message + "\n";
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
}

}  // namespace locksim::cli
