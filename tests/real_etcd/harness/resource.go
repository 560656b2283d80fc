// resource: the protected resource, a counter or a stock behind a TCP server.
//
// --app counter: clients read the counter and write back the value they
// computed from their read (read-modify-write, as locksim's counter app does:
// that is what makes a lost update possible). --app stock: read returns the
// stock and `decrement` sells one (DECR; the client compared its read with 0
// first, as sim/resource/resource.cc's stock does), so the stock may go below
// 0 — P5's violation; `increments` counts the sales. Policy `none` accepts every op; `fenced`
// rejects an op whose token (the lock key's create revision) is lower than
// the highest token of an op it accepted, and an accepted op raises it — the
// same rule as sim/resource/resource.cc's fencing policy.
//
// Wire: one JSON object per line each way on a TCP connection.
//
//	request {"op": "read"|"write"|"decrement", "client": "c1", "session": "694d…", "token": 7, "value": 3}
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
	stock  bool // the app: a stock instead of a counter

	mu         sync.Mutex
	counter    int64 // the application state: the counter, or the stock
	increments int64 // accepted writes (sales): P5 wants counter == increments (a stock >= 0)
	highest    int64 // highest token accepted (fenced policy)
	ops        int64
}

func (r *resource) apply(q resourceRequest) resourceReply {
	r.mu.Lock()
	defer r.mu.Unlock()
	reply := resourceReply{Accepted: true}
	switch {
	case q.Op != "read" && q.Op != "write" && q.Op != "decrement",
		q.Op == "write" && r.stock, q.Op == "decrement" && !r.stock:
		reply = resourceReply{Accepted: false, Reason: "unknown-op"}
	case r.fenced && q.Token < r.highest:
		reply = resourceReply{Accepted: false, Reason: "stale-token"}
	}
	if reply.Accepted {
		if r.fenced {
			r.highest = q.Token
		}
		switch q.Op {
		case "read":
			reply.Value = r.counter
		case "write":
			r.counter = q.Value
			r.increments++
			reply.Value = r.counter
		case "decrement":
			r.counter--
			r.increments++
			reply.Value = r.counter
		}
	}
	r.ops++
	r.rec.Now("op", r.state(Fields{
		"client": q.Client, "session": q.Session, "token": q.Token, "op": q.Op, "value": q.Value,
		"accepted": reply.Accepted, "reason": reply.Reason, "seq": r.ops,
	}))
	return reply
}

// state adds the application's state to f: the counter's fields, and the stock's for a stock.
func (r *resource) state(f Fields) Fields {
	f["counter"], f["increments"] = r.counter, r.increments
	if r.stock {
		f["stock"] = r.counter
	}
	return f
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
	app := fs.String("app", "counter", "counter | stock")
	initialStock := fs.Int64("initial-stock", 1, "the stock at start (--app stock)")
	fs.Parse(args)
	rec := newRecorder("resource")
	if *policy != "none" && *policy != "fenced" {
		fail(rec, "resource --policy", errString("must be none or fenced"))
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fail(rec, "resource listen", err)
	}
	if *app != "counter" && *app != "stock" {
		fail(rec, "resource --app", errString("must be counter or stock"))
	}
	r := &resource{rec: rec, fenced: *policy == "fenced", stock: *app == "stock"}
	if r.stock {
		r.counter = *initialStock
	}
	// SIGTERM: record the final state (P5 reads it), then exit.
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-term
		r.mu.Lock()
		rec.Now("final", r.state(Fields{"ops": r.ops}))
		os.Exit(0)
	}()
	rec.Now("ready", r.state(Fields{"address": ln.Addr().String(), "policy": *policy, "app": *app}))
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
