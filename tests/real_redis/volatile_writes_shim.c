/* What a machine crash does to a file, for one process: writes not yet
   fsynced are lost. Preloaded into redis-server (LD_PRELOAD).

   Why: a process killed on a machine that stays up leaves everything it
   write()s in the page cache, and the next process reads it back. That is
   `what = "process"` in a scenario. A power loss or a kernel panic
   (`what = "machine"`, the default) loses the page cache: only what was
   fsynced survives. The real-Redis referee cannot cut the power of the
   machine it runs on, so this shim keeps the page cache's role for the
   files it is told to: their write()s stay in this process's memory and are
   reported written; an fsync() or fdatasync() of the fd writes them for real
   and then syncs. A SIGKILL of the process then loses exactly what was not
   fsynced, as a power loss loses it.

   Which calls (Redis 7.0.15, src/aof.c and src/bio.c): the INCR AOF is
   opened with open(path, O_WRONLY|O_APPEND|O_CREAT) (open64 in the binary's
   imports); aofWrite() appends the AOF buffer with write() in beforeSleep,
   before the replies are sent; with `appendfsync everysec` the bio thread
   calls redis_fsync(fd), which is fdatasync() on Linux, and `always` calls it
   on the main thread; a replaced AOF fd is fsynced and closed by the bio
   thread (bioCreateCloseJob with need_fsync). The base file and the
   manifest are written and fsynced whole (rewriteAppendOnlyFile,
   persistAofManifest) and are not the pattern's business.

   Which files: those whose path, as given to open(), matches the fnmatch(3)
   pattern in LOCKSIM_VOLATILE_WRITES_PATTERN (no FNM_PATHNAME: `*.incr.aof`
   matches `appendonlydir/appendonly.aof.1.incr.aof`), opened with O_APPEND:
   the held bytes are written later at the file's end, which is where an
   O_APPEND write would have put them. A matching file opened without
   O_APPEND is left alone (its offsets would be wrong). Without the variable
   the shim does nothing. LOCKSIM_VOLATILE_WRITES_LOG=FILE appends one line
   per held write and per sync (`held|synced FD BYTES WALL_NS`, CLOCK_REALTIME)
   so that a test can tell when the bytes became durable.

   Thread-safe: one mutex guards the held bytes; the bio thread's fdatasync
   takes the bytes held so far and writes them under the mutex, so a main
   thread write() that comes meanwhile is held for the next sync, in order.

   Not modelled:
   - The kernel's own writeback: dirty pages reach the disk within
     vm.dirty_expire_centisecs (30 s by default) even without an fsync. The
     stories that use the shim crash within a second of the write; a longer
     one would lose here what a real machine might have kept.
   - Sizes: fstat()/stat() and lseek() see the file without the held bytes.
     Redis 7.0 counts its AOF size itself (aof_last_incr_size, from write()'s
     return) and stats the file only when it opens it at start or rewrites it.
   - close() without an fsync: the held bytes are written then, to the page
     cache, where a real crash would still lose them; this shim cannot lose
     them any more. Redis closes the INCR AOF only through the bio thread's
     fsync-and-close, or at exit after its own flush.
   - write() only: pwrite(), writev() and mmap'd writes of a matching fd go
     to the file at once (Redis's AOF path uses none of them).
   - ftruncate() of a matching fd (Redis's recovery from a short write)
     truncates the file, not the held bytes. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

enum { kMaxFds = 4096 };

/* Held bytes of one tracked fd. Invariants (under g_mu): tracked[fd] is set
   iff fd was opened by a matching path with O_APPEND and is not yet closed;
   len <= cap; data is null iff cap is 0. */
struct held {
  int tracked;
  char* data;
  size_t len, cap;
};

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static struct held g_held[kMaxFds];
static int g_log_fd = -1;

static int (*real_open)(const char*, int, ...);
static int (*real_open64)(const char*, int, ...);
static ssize_t (*real_write)(int, const void*, size_t);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static int (*real_close)(int);

/* Resolves the C library's functions; run as a constructor, and again by any wrapper
   called before it (another library's constructor may open or write first). */
__attribute__((constructor)) static void init(void) {
  if (real_close) return;
  real_open = (int (*)(const char*, int, ...))dlsym(RTLD_NEXT, "open");
  real_open64 = (int (*)(const char*, int, ...))dlsym(RTLD_NEXT, "open64");
  real_write = (ssize_t(*)(int, const void*, size_t))dlsym(RTLD_NEXT, "write");
  real_fsync = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
  real_fdatasync = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
  const char* log = getenv("LOCKSIM_VOLATILE_WRITES_LOG");
  if (log && *log) g_log_fd = real_open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");   // last: set means every pointer is
}

static void log_line(const char* what, int fd, size_t bytes) {
  if (g_log_fd < 0) return;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  char line[96];
  int n = snprintf(line, sizeof line, "%s %d %zu %lld\n", what, fd, bytes,
                   (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
  if (n > 0) (void)real_write(g_log_fd, line, (size_t)n);
}

static int matches(const char* path, int flags) {
  const char* pattern = getenv("LOCKSIM_VOLATILE_WRITES_PATTERN");
  return pattern && *pattern && path && (flags & O_APPEND) && fnmatch(pattern, path, 0) == 0;
}

static void track(int fd, const char* path, int flags) {
  if (fd < 0 || fd >= kMaxFds || !matches(path, flags)) return;
  pthread_mutex_lock(&g_mu);
  g_held[fd].tracked = 1;
  g_held[fd].len = 0;
  pthread_mutex_unlock(&g_mu);
}

static int open_with(int (*real)(const char*, int, ...), const char* path, int flags, va_list ap) {
  mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
  int fd = real(path, flags, mode);
  track(fd, path, flags);
  return fd;
}

int open(const char* path, int flags, ...) {
  init();
  va_list ap;
  va_start(ap, flags);
  int fd = open_with(real_open, path, flags, ap);
  va_end(ap);
  return fd;
}

int open64(const char* path, int flags, ...) {
  init();
  va_list ap;
  va_start(ap, flags);
  int fd = open_with(real_open64, path, flags, ap);
  va_end(ap);
  return fd;
}

/* Appends to fd's held bytes; -1 with errno ENOMEM if they cannot grow. REQUIRES: g_mu held. */
static ssize_t hold(struct held* h, const void* buf, size_t count) {
  if (h->len + count > h->cap) {
    size_t cap = h->cap ? h->cap : 4096;
    while (cap < h->len + count) cap *= 2;
    char* grown = realloc(h->data, cap);
    if (!grown) {
      errno = ENOMEM;
      return -1;
    }
    h->data = grown;
    h->cap = cap;
  }
  memcpy(h->data + h->len, buf, count);
  h->len += count;
  return (ssize_t)count;
}

ssize_t write(int fd, const void* buf, size_t count) {
  init();
  if (fd < 0 || fd >= kMaxFds) return real_write(fd, buf, count);
  pthread_mutex_lock(&g_mu);
  if (!g_held[fd].tracked) {
    pthread_mutex_unlock(&g_mu);
    return real_write(fd, buf, count);
  }
  ssize_t n = hold(&g_held[fd], buf, count);
  if (n > 0) log_line("held", fd, (size_t)n);
  pthread_mutex_unlock(&g_mu);
  return n;
}

/* Writes fd's held bytes for real (they reach the page cache); 0, or -1 with errno.
   REQUIRES: g_mu held. */
static int write_held(int fd) {
  struct held* h = &g_held[fd];
  size_t done = 0;
  while (done < h->len) {
    ssize_t n = real_write(fd, h->data + done, h->len - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      memmove(h->data, h->data + done, h->len - done);   // keep what was not written, for the next try
      h->len -= done;
      return -1;
    }
    done += (size_t)n;
  }
  h->len = 0;
  return 0;
}

static int sync_with(int (*real_sync)(int), int fd) {
  if (fd >= 0 && fd < kMaxFds) {
    pthread_mutex_lock(&g_mu);
    if (g_held[fd].tracked) {
      size_t bytes = g_held[fd].len;
      int rc = write_held(fd);
      if (rc == 0) log_line("synced", fd, bytes);
      pthread_mutex_unlock(&g_mu);
      if (rc != 0) return rc;
    } else {
      pthread_mutex_unlock(&g_mu);
    }
  }
  return real_sync(fd);
}

int fsync(int fd) {
  init();
  return sync_with(real_fsync, fd);
}

int fdatasync(int fd) {
  init();
  return sync_with(real_fdatasync, fd);
}

int close(int fd) {
  init();
  if (fd >= 0 && fd < kMaxFds) {
    pthread_mutex_lock(&g_mu);
    if (g_held[fd].tracked) {
      (void)write_held(fd);   // to the page cache: see "close() without an fsync" above
      g_held[fd].tracked = 0;
      g_held[fd].len = 0;
    }
    pthread_mutex_unlock(&g_mu);
  }
  return real_close(fd);
}
