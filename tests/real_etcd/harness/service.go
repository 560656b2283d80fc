// service: a downstream service a critical section calls (`[service.NAME]`,
// a step `call NAME`) — in the oversell incident, the identity service that
// stalls. A TCP server that answers each call line with the same line
// --latency after it read it, one timer per call (sim/workload/service.cc
// sets one timer per call: calls are answered concurrently, not in turn).
//
// Its own process, so that the story's stall is made for real: the driver
// stops its process group (SIGSTOP) and continues it (SIGCONT). While it is
// stopped the clients' calls wait in the kernel's socket buffers; continued,
// it reads them and answers each --latency later — everyone at once, as the
// story says. (A timer already due when it stopped fires on SIGCONT.) The
// real-Redis referee's service (tests/real_redis/realredis/service_process.py)
// is the same server in Python. It records only `ready`: locksim's service
// writes nothing to a history either.
package main

import (
	"bufio"
	"flag"
	"net"
	"sync"
	"time"
)

func runService(args []string) {
	fs := flag.NewFlagSet("service", flag.ExitOnError)
	name := fs.String("name", "service", "the service's name (its records' proc)")
	latency := fs.Duration("latency", time.Millisecond, "how long after reading a call it answers")
	fs.Parse(args)
	rec := newRecorder(*name)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fail(rec, "service listen", err)
	}
	rec.Now("ready", Fields{"address": ln.Addr().String(), "latency_ns": int64(*latency)})
	for {
		conn, err := ln.Accept()
		if err != nil {
			fail(rec, "service accept", err)
		}
		go serveCalls(conn, *latency)
	}
}

func serveCalls(conn net.Conn, latency time.Duration) {
	defer conn.Close()
	var mu sync.Mutex // one answer written at a time
	in := bufio.NewScanner(conn)
	for in.Scan() {
		line := append([]byte(nil), in.Bytes()...)
		time.AfterFunc(latency, func() {
			mu.Lock()
			defer mu.Unlock()
			conn.Write(append(line, '\n'))
		})
	}
}
