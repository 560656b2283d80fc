/* A wall clock the differential test sets, for a redis-server it did not build.

   Preloaded into redis-server (LD_PRELOAD), it answers gettimeofday(), time()
   and clock_gettime() for the realtime clocks with the nanoseconds stored in
   an 8-byte file (LOCKSIM_WALL_CLOCK_FILE), which the test rewrites between
   commands; every other clock is the kernel's. libfaketime would be the
   library for this, but it cannot start inside Debian's redis-server: Redis is
   linked with jemalloc, whose initialisation calls clock_gettime() before
   libfaketime can initialise itself ("Unexpected recursive calls to
   clock_gettime() without proper initialization", libfaketime issues #130 and
   #327; the server never starts). This shim allocates nothing and resolves no
   symbol: it reads the file through a shared mapping and asks the kernel
   directly for everything else. Written in C so that its definitions match
   the C library's declarations exactly. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* The mapped file once mapped; null before (and if it cannot be). */
static const int64_t* g_wall_ns;
static int g_state; /* 0: not tried, 1: mapping, 2: done */

static const int64_t* wall_ns(void) {
  if (__atomic_load_n(&g_state, __ATOMIC_ACQUIRE) == 2) return g_wall_ns;
  int expected = 0;
  if (!__atomic_compare_exchange_n(&g_state, &expected, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return 0; /* another thread is mapping it: the kernel's clock for this one call */
  const char* path = getenv("LOCKSIM_WALL_CLOCK_FILE");
  const int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
  if (fd >= 0) {
    void* p = mmap(0, sizeof(int64_t), PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (p != MAP_FAILED) g_wall_ns = (const int64_t*)p;
  }
  __atomic_store_n(&g_state, 2, __ATOMIC_RELEASE);
  return g_wall_ns;
}

int clock_gettime(clockid_t clock, struct timespec* ts) {
  if (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE) {
    const int64_t* ns = wall_ns();
    if (ns) {
      const int64_t now = __atomic_load_n(ns, __ATOMIC_ACQUIRE);
      ts->tv_sec = (time_t)(now / 1000000000);
      ts->tv_nsec = (long)(now % 1000000000);
      return 0;
    }
  }
  return (int)syscall(SYS_clock_gettime, clock, ts);
}

int gettimeofday(struct timeval* restrict tv, void* restrict tz) {
  (void)tz;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  if (tv) {
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = (suseconds_t)(ts.tv_nsec / 1000);
  }
  return 0;
}

time_t time(time_t* out) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  if (out) *out = ts.tv_sec;
  return ts.tv_sec;
}
