/* A per-process wall-clock step for Go programs (etcd), preloaded.

   Why not libfaketime, nor tests/redis_diff/wall_clock_shim.c: both replace
   the C library's clock_gettime(), and a Go program never calls it. The Go
   runtime reads time itself: at start it finds the kernel's vDSO through the
   auxiliary vector (AT_SYSINFO_EHDR), looks up __vdso_clock_gettime in the
   vDSO's own symbol table and from then on calls that address directly for
   every time.Now() (runtime·walltime, runtime·nanotime1). An LD_PRELOAD
   symbol is never consulted.

   What this shim does instead: its constructor runs before the program's
   entry point (the dynamic loader runs the initialisers of preloaded objects
   first; Debian's etcd is dynamically linked, so it has a loader and the Go
   runtime has not started). It parses the vDSO's dynamic symbol table, makes
   the vDSO's text writable with mprotect (the kernel maps it VM_MAYWRITE so
   that debuggers can set breakpoints; the write makes a private copy of the
   page for this process only), and overwrites the first 12 bytes of
   __vdso_clock_gettime, __vdso_gettimeofday and __vdso_time with
   `movabs rax, <shim function>; jmp rax`. Every caller — the Go runtime and
   the C library alike, whichever symbol name they looked up (clock_gettime is
   an alias at the same address) — lands in the shim's functions. These ask
   the kernel by a raw syscall (no vDSO, no libc, no errno, no TLS: they run
   on whatever stack the Go runtime calls the vDSO with) and, for
   CLOCK_REALTIME and CLOCK_REALTIME_COARSE only, add an offset.

   The offset: a signed 64-bit count of nanoseconds, native byte order, in an
   8-byte file named by LOCKSIM_WALL_OFFSET_FILE, mapped MAP_SHARED read-only
   and read with one atomic load per call, so a test steps the clock of a
   running process by storing a new value into the file's mapping. The
   monotonic clocks (and CLOCK_BOOTTIME, CLOCK_TAI, the CPU-time clocks) are
   the kernel's, untouched: a step moves wall time only, as an NTP step or an
   operator's `date -s` does.

   Limits: x86-64 Linux only. Every clock read costs a real syscall (about a
   microsecond instead of tens of nanoseconds). Without the environment
   variable, or when the file cannot be mapped, the vDSO is left as it is. If
   the vDSO cannot be patched (no vDSO, a symbol too short to hold the jump,
   mprotect refused — a kernel that seals system mappings), the shim writes
   one line to stderr and exits the process with status 97 rather than let a
   test believe it stepped a clock it did not. */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#if !defined(__x86_64__) || !defined(__linux__)
#error "vdso_clock_shim.c patches x86-64 code in the Linux vDSO"
#endif

/* The mapped offset file; null when there is none (then nothing is patched). */
static const int64_t* g_offset_ns;

/* --- raw syscalls: no vDSO, no errno, no thread-local storage --- */

static long raw_syscall2(long number, long a, long b) {
  long ret;
  __asm__ volatile("syscall" : "=a"(ret) : "a"(number), "D"(a), "S"(b) : "rcx", "r11", "memory");
  return ret;
}

static int64_t offset_ns(void) { return g_offset_ns ? __atomic_load_n(g_offset_ns, __ATOMIC_RELAXED) : 0; }

static int is_wall_clock(long clock) { return clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE; }

/* ts + offset, normalised so that 0 <= tv_nsec < 1e9 for either sign of the offset. */
static void add_offset(struct timespec* ts, int64_t offset) {
  int64_t sec = (int64_t)ts->tv_sec + offset / 1000000000;
  int64_t nsec = (int64_t)ts->tv_nsec + offset % 1000000000;
  if (nsec >= 1000000000) {
    nsec -= 1000000000;
    sec += 1;
  } else if (nsec < 0) {
    nsec += 1000000000;
    sec -= 1;
  }
  ts->tv_sec = (time_t)sec;
  ts->tv_nsec = (long)nsec;
}

/* --- the replacements, with the vDSO functions' contracts (a negative errno on failure) --- */

static int shim_clock_gettime(clockid_t clock, struct timespec* ts) {
  const long ret = raw_syscall2(SYS_clock_gettime, (long)clock, (long)ts);
  if (ret == 0 && is_wall_clock(clock)) add_offset(ts, offset_ns());
  return (int)ret;
}

static int shim_gettimeofday(struct timeval* tv, struct timezone* tz) {
  if (tz) {
    const long ret = raw_syscall2(SYS_gettimeofday, 0, (long)tz);
    if (ret != 0) return (int)ret;
  }
  if (tv) {
    struct timespec ts;
    const long ret = raw_syscall2(SYS_clock_gettime, CLOCK_REALTIME, (long)&ts);
    if (ret != 0) return (int)ret;
    add_offset(&ts, offset_ns());
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = (suseconds_t)(ts.tv_nsec / 1000);
  }
  return 0;
}

static time_t shim_time(time_t* out) {
  struct timespec ts;
  raw_syscall2(SYS_clock_gettime, CLOCK_REALTIME, (long)&ts);
  add_offset(&ts, offset_ns());
  if (out) *out = ts.tv_sec;
  return ts.tv_sec;
}

/* --- finding and patching the vDSO --- */

static void die(const char* why) {
  static const char prefix[] = "vdso_clock_shim: ";
  (void)!write(2, prefix, sizeof prefix - 1);
  (void)!write(2, why, strlen(why));
  (void)!write(2, "\n", 1);
  _exit(97);
}

/* A function symbol of the vDSO: its address in this process and its size. */
struct vdso_symbol {
  unsigned char* address;
  uint64_t size;
};

/* Looks |name| up in the vDSO's dynamic symbol table (DT_SYMTAB, DT_STRTAB, and
   DT_HASH for the number of symbols, as the kernel's own parse_vdso.c does). */
static int find_vdso_symbol(uintptr_t base, const char* name, struct vdso_symbol* out) {
  const Elf64_Ehdr* ehdr = (const Elf64_Ehdr*)base;
  if (memcmp(ehdr->e_ident, ELFMAG, SELFMAG) != 0 || ehdr->e_ident[EI_CLASS] != ELFCLASS64) return 0;
  const Elf64_Phdr* phdr = (const Elf64_Phdr*)(base + ehdr->e_phoff);
  uintptr_t load_bias = 0;
  const Elf64_Dyn* dyn = 0;
  int have_load = 0;
  for (int i = 0; i < ehdr->e_phnum; ++i) {
    if (phdr[i].p_type == PT_LOAD && !have_load) {
      load_bias = base + phdr[i].p_offset - phdr[i].p_vaddr;
      have_load = 1;
    } else if (phdr[i].p_type == PT_DYNAMIC) {
      dyn = (const Elf64_Dyn*)(base + phdr[i].p_offset);
    }
  }
  if (!have_load || !dyn) return 0;
  const Elf64_Sym* symtab = 0;
  const char* strtab = 0;
  const Elf64_Word* hash = 0;
  for (; dyn->d_tag != DT_NULL; ++dyn) {
    if (dyn->d_tag == DT_SYMTAB) symtab = (const Elf64_Sym*)(load_bias + dyn->d_un.d_ptr);
    if (dyn->d_tag == DT_STRTAB) strtab = (const char*)(load_bias + dyn->d_un.d_ptr);
    if (dyn->d_tag == DT_HASH) hash = (const Elf64_Word*)(load_bias + dyn->d_un.d_ptr);
  }
  if (!symtab || !strtab || !hash) return 0;
  const Elf64_Word symbol_count = hash[1]; /* nchain */
  for (Elf64_Word i = 0; i < symbol_count; ++i) {
    const Elf64_Sym* sym = &symtab[i];
    if (ELF64_ST_TYPE(sym->st_info) != STT_FUNC || sym->st_shndx == SHN_UNDEF) continue;
    if (strcmp(strtab + sym->st_name, name) != 0) continue;
    out->address = (unsigned char*)(load_bias + sym->st_value);
    out->size = sym->st_size;
    return 1;
  }
  return 0;
}

/* The extent of the mapping that holds |address| ([vdso]), from /proc/self/maps.
   mprotect must cover all of it: the kernel refuses to split a special mapping
   such as the vDSO (EINVAL for a part of it). */
static int mapping_of(uintptr_t address, uintptr_t* start, uintptr_t* end) {
  const int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  /* Only the first field of each line matters ("lo-hi"); the rest of a line,
     however long its path, is skipped byte by byte. */
  char field[64];
  size_t used = 0;
  int skipping = 0, found = 0;
  char chunk[512];
  ssize_t n;
  while (!found && (n = read(fd, chunk, sizeof chunk)) > 0) {
    for (ssize_t i = 0; i < n && !found; ++i) {
      const char c = chunk[i];
      if (c == '\n') {
        skipping = 0;
        used = 0;
        continue;
      }
      if (skipping) continue;
      if (c == ' ' || used == sizeof field - 1) {
        field[used] = 0;
        skipping = 1;
        char* rest;
        const uintptr_t lo = (uintptr_t)strtoull(field, &rest, 16);
        const uintptr_t hi = (*rest == '-') ? (uintptr_t)strtoull(rest + 1, 0, 16) : 0;
        if (lo <= address && address < hi) {
          *start = lo;
          *end = hi;
          found = 1;
        }
        continue;
      }
      field[used++] = c;
    }
  }
  close(fd);
  return found;
}

/* movabs rax, imm64; jmp rax — 12 bytes; rax is a scratch register in the SysV ABI. */
enum { kJumpBytes = 12 };

static void patch_jump(uintptr_t vdso_base, const struct vdso_symbol* sym, const void* target) {
  if (sym->size < kJumpBytes) die("a vDSO function is too short to hold a jump");
  uintptr_t start, end;
  if (!mapping_of(vdso_base, &start, &end)) die("the vDSO is not in /proc/self/maps");
  if ((uintptr_t)sym->address + kJumpBytes > end) die("a vDSO function runs past the vDSO's mapping");
  if (mprotect((void*)start, end - start, PROT_READ | PROT_WRITE | PROT_EXEC) != 0)
    die("mprotect refused to make the vDSO writable");
  unsigned char code[kJumpBytes] = {0x48, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xE0};
  const uint64_t address = (uint64_t)(uintptr_t)target;
  memcpy(code + 2, &address, sizeof address);
  memcpy(sym->address, code, sizeof code);
  __builtin___clear_cache((char*)sym->address, (char*)sym->address + kJumpBytes);
  if (mprotect((void*)start, end - start, PROT_READ | PROT_EXEC) != 0) die("mprotect could not restore the vDSO");
}

__attribute__((constructor)) static void install(void) {
  const char* path = getenv("LOCKSIM_WALL_OFFSET_FILE");
  if (!path || !*path) return;
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) die("cannot open LOCKSIM_WALL_OFFSET_FILE");
  void* mapped = mmap(0, sizeof(int64_t), PROT_READ, MAP_SHARED, fd, 0);
  close(fd);
  if (mapped == MAP_FAILED) die("cannot map LOCKSIM_WALL_OFFSET_FILE (is it 8 bytes long?)");
  g_offset_ns = (const int64_t*)mapped;

  const uintptr_t base = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
  if (!base) die("no vDSO in the auxiliary vector");
  struct vdso_symbol sym;
  if (!find_vdso_symbol(base, "__vdso_clock_gettime", &sym)) die("no __vdso_clock_gettime in the vDSO");
  patch_jump(base, &sym, (const void*)&shim_clock_gettime);
  /* The other two are optional: Go never calls them; the C library may. */
  if (find_vdso_symbol(base, "__vdso_gettimeofday", &sym)) patch_jump(base, &sym, (const void*)&shim_gettimeofday);
  if (find_vdso_symbol(base, "__vdso_time", &sym)) patch_jump(base, &sym, (const void*)&shim_time);
}
