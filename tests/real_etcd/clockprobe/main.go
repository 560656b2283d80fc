// clockprobe: the shim test's subject, a Go program that reads time the way
// etcd does (time.Now(), through the runtime's own vDSO call).
//
// Each line on stdin asks for one reading; it answers with one JSON line: the
// wall clock (time.Now().UnixNano()), the Go monotonic reading (time.Since of
// a time.Now() taken at start, which Go measures on CLOCK_MONOTONIC), and
// CLOCK_MONOTONIC read by a raw syscall, which no shim can move. The cgo
// import links it dynamically, like Debian's etcd, so that LD_PRELOAD applies.
package main

// #include <time.h>
// static long long libc_realtime_ns(void) {
//   struct timespec ts;
//   clock_gettime(CLOCK_REALTIME, &ts);
//   return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
// }
import "C"

import (
	"bufio"
	"encoding/json"
	"os"
	"syscall"
	"time"
	"unsafe"
)

func rawMonotonicNs() int64 {
	var ts syscall.Timespec
	const clockMonotonic = 1
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockMonotonic, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}

func main() {
	start := time.Now()
	in := bufio.NewScanner(os.Stdin)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		now := time.Now()
		out.Encode(map[string]int64{
			"wall_ns":      now.UnixNano(),
			"go_mono_ns":   int64(now.Sub(start)),
			"raw_mono_ns":  rawMonotonicNs(),
			"libc_wall_ns": int64(C.libc_realtime_ns()),
		})
	}
}
