// resource: the protected resource, a counter behind a TCP server.
//
// Clients read the counter and write back the value they computed from
// their read (read-modify-write, as locksim's counter app does: that is what
// makes a lost update possible). Policy `none` accepts every op; `fenced`
// rejects an op whose token (the lock key's create revision) is lower than
// the highest token of an op it accepted, and an accepted op raises it — the
// same rule as sim/resource/resource.cc's fencing policy.
//
// Wire: one JSON object per line each way on a TCP connection.
//
//	request {"op": "read"|"write", "client": "c1", "session": "694d…", "token": 7, "value": 3}
//	reply   {"accepted": true, "reason": "", "value": 3}
//
// Every op is decided and recorded under one mutex, so the order of the
// `op` records is the order the resource accepted them in, and each t_ns is
// the instant of the decision.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"net"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

type resourceRequest struct {
	Op      string `json:"op"`
	Client  string `json:"client"`
	Session string `json:"session"`
	Token   int64  `json:"token"`
	Value   int64  `json:"value"`
}

type resourceReply struct {
	Accepted bool   `json:"accepted"`
	Reason   string `json:"reason"`
	Value    int64  `json:"value"`
}

type resource struct {
	rec    *Recorder
	fenced bool

	mu         sync.Mutex
	counter    int64 // the application state
	increments int64 // accepted writes: P5 wants counter == increments
	highest    int64 // highest token accepted (fenced policy)
	ops        int64
}

func (r *resource) apply(q resourceRequest) resourceReply {
	r.mu.Lock()
	defer r.mu.Unlock()
	reply := resourceReply{Accepted: true}
	switch {
	case q.Op != "read" && q.Op != "write":
		reply = resourceReply{Accepted: false, Reason: "unknown-op"}
	case r.fenced && q.Token < r.highest:
		reply = resourceReply{Accepted: false, Reason: "stale-token"}
	}
	if reply.Accepted {
		if r.fenced {
			r.highest = q.Token
		}
		if q.Op == "read" {
			reply.Value = r.counter
		} else {
			r.counter = q.Value
			r.increments++
			reply.Value = r.counter
		}
	}
	r.ops++
	r.rec.Now("op", Fields{
		"client": q.Client, "session": q.Session, "token": q.Token, "op": q.Op, "value": q.Value,
		"accepted": reply.Accepted, "reason": reply.Reason, "counter": r.counter, "increments": r.increments,
		"seq": r.ops,
	})
	return reply
}

func (r *resource) serve(conn net.Conn) {
	defer conn.Close()
	in := bufio.NewScanner(conn)
	out := json.NewEncoder(conn)
	for in.Scan() {
		var q resourceRequest
		if err := json.Unmarshal(in.Bytes(), &q); err != nil {
			out.Encode(resourceReply{Accepted: false, Reason: "bad-request"})
			continue
		}
		if err := out.Encode(r.apply(q)); err != nil {
			return
		}
	}
}

func runResource(args []string) {
	fs := flag.NewFlagSet("resource", flag.ExitOnError)
	policy := fs.String("policy", "none", "none | fenced")
	listen := fs.String("listen", "127.0.0.1:0", "address to listen on (port 0: any free port)")
	fs.Parse(args)
	rec := newRecorder("resource")
	if *policy != "none" && *policy != "fenced" {
		fail(rec, "resource --policy", errString("must be none or fenced"))
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fail(rec, "resource listen", err)
	}
	r := &resource{rec: rec, fenced: *policy == "fenced"}
	// SIGTERM: record the final state (P5 reads it), then exit.
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-term
		r.mu.Lock()
		rec.Now("final", Fields{"counter": r.counter, "increments": r.increments, "ops": r.ops})
		os.Exit(0)
	}()
	rec.Now("ready", Fields{"address": ln.Addr().String(), "policy": *policy})
	for {
		conn, err := ln.Accept()
		if err != nil {
			fail(rec, "resource accept", err)
		}
		go r.serve(conn)
	}
}

type errString string

func (e errString) Error() string { return string(e) }
