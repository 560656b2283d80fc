// The records every harness process writes: one JSON object per line on
// stdout, each stamped with t_ns, and the clock that stamps them.
//
// t_ns is CLOCK_MONOTONIC in nanoseconds, read by a raw clock_gettime
// syscall. Not time.Now(): the Go runtime reads time through the vDSO, and
// the referee patches the vDSO of the etcd members it steps
// (vdso_clock_shim.c); a raw syscall goes to the kernel whatever a process
// has preloaded, so every record of every process (and the Python driver's
// time.clock_gettime_ns(CLOCK_MONOTONIC)) is on one timeline. CLOCK_MONOTONIC
// is the same clock for all processes of one machine and keeps running
// while a process is stopped, which is what the judge needs.
package main

import (
	"encoding/json"
	"os"
	"sync"
	"syscall"
	"unsafe"
)

// monotonicNs reads CLOCK_MONOTONIC by a raw syscall.
func monotonicNs() int64 {
	var ts syscall.Timespec
	const clockMonotonic = 1
	_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockMonotonic, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		panic("clock_gettime(CLOCK_MONOTONIC): " + errno.Error())
	}
	return ts.Nano()
}

// Fields are an event's own fields; t_ns, proc and event are added.
type Fields map[string]interface{}

// Recorder writes one process's records; safe for concurrent use. Each record
// is one write(2) of one line, so a reader sees whole lines as they happen.
type Recorder struct {
	mu   sync.Mutex
	proc string
}

func newRecorder(proc string) *Recorder { return &Recorder{proc: proc} }

// At records an event that happened at tNs (taken when it happened, which
// may be before the record is written).
func (r *Recorder) At(tNs int64, event string, fields Fields) {
	rec := make(map[string]interface{}, len(fields)+3)
	for k, v := range fields {
		rec[k] = v
	}
	rec["t_ns"] = tNs
	rec["proc"] = r.proc
	rec["event"] = event
	line, err := json.Marshal(rec)
	if err != nil {
		panic("record " + event + ": " + err.Error())
	}
	line = append(line, '\n')
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := os.Stdout.Write(line); err != nil {
		// The driver is gone: nobody will read another record.
		os.Exit(3)
	}
}

// Now records an event that happens now.
func (r *Recorder) Now(event string, fields Fields) { r.At(monotonicNs(), event, fields) }
