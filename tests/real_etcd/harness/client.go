// client: one lock client, as an application would write it with etcd's own
// recipe — clientv3/concurrency's Session and Mutex from Debian's etcd
// 3.4.23 source, unmodified — plus records of everything it sees.
//
// The story: connect; wait for the start time; take a lease (the session);
// Lock (no deadline, as Lock(ctx) is usually called); run the steps; Unlock.
//
//	check      non-blocking look at session.Done(): closed means clientv3
//	           gave the lease up (its keepalive deadline passed, or the
//	           server said the lease is gone); the client records the end of
//	           its belief and stops acting
//	read       read the counter at the resource
//	write      write last read + 1 to the resource
//	work DUR   sleep DUR (Go duration, "200ms")
//
// Resource ops carry the client's name, its session (the lease ID in hex)
// and its fencing token (its lock key's create revision).
//
// Keepalive replies, unmodified: clientv3 keeps one keepalive entry per
// lease and fans each reply out to every channel registered for it. This
// client registers its own channel first (cli.KeepAlive on the lease) and
// then opens the session on the same lease (concurrency.WithLease), so the
// session's channel joins that entry: the `keepalive` records are exactly the
// replies the session sees, the first one included. (NewSession with
// WithTTL alone would grant the lease itself, and a reply could arrive
// before a second channel was added.) The lease is granted as NewSession
// grants it: cli.Grant(ctx, ttl).
//
// --pause-after-step N makes the client wait right after step N (N = -1:
// right after the grant) for the driver: it records `pause-point` and reads
// one byte from stdin. The driver, reading that record, freezes the process
// with SIGSTOP, checks that every thread stopped, writes the byte, and sends
// SIGCONT the pause's length later, when the client reads the byte and goes
// on. That is the GC pause of a story that pauses "at c1 read", placed
// exactly between two steps, and a real SIGSTOP: every thread stops,
// keepalives included. (The client does not SIGSTOP itself: a Go process's
// kill(getpid(), SIGSTOP) leaves it running in about a third of the tries
// on this machine — measured, with a C process as the control, which always
// stops; a SIGSTOP from another process always does.)
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"go.etcd.io/etcd/clientv3"
	"go.etcd.io/etcd/clientv3/concurrency"
)

type clientOptions struct {
	name          string
	endpoints     []string
	ttl           int
	prefix        string
	resource      string
	steps         []string
	unlock        bool
	unlockTimeout time.Duration
	startAtNs     int64
	pauseAfterStep int
}

func runClient(args []string) {
	fs := flag.NewFlagSet("client", flag.ExitOnError)
	var o clientOptions
	var endpoints, steps string
	fs.StringVar(&o.name, "name", "", "client name (c1, c2, …)")
	fs.StringVar(&endpoints, "endpoints", "", "comma-separated etcd client URLs (this client's proxy ports)")
	fs.IntVar(&o.ttl, "ttl", 10, "session TTL in seconds")
	fs.StringVar(&o.prefix, "prefix", "/locksim/lock", "the Mutex's key prefix")
	fs.StringVar(&o.resource, "resource", "", "host:port of the resource (empty: no resource)")
	fs.StringVar(&steps, "steps", "[]", `JSON array of steps: "check", "read", "write", "work 200ms"`)
	fs.BoolVar(&o.unlock, "unlock", true, "Unlock after the steps")
	fs.DurationVar(&o.unlockTimeout, "unlock-timeout", time.Second, "deadline of the Unlock request")
	fs.Int64Var(&o.startAtNs, "start-at-ns", 0, "begin (take the lease) at this CLOCK_MONOTONIC instant")
	fs.IntVar(&o.pauseAfterStep, "pause-after-step", -2, "wait for the driver after this step (0-based; -1: right after the grant; -2: never)")
	fs.Parse(args)
	rec := newRecorder(o.name)
	if o.name == "" || endpoints == "" {
		fail(rec, "client flags", errors.New("--name and --endpoints are required"))
	}
	o.endpoints = strings.Split(endpoints, ",")
	if err := json.Unmarshal([]byte(steps), &o.steps); err != nil {
		fail(rec, "client --steps", err)
	}
	for _, s := range o.steps {
		if _, err := parseStep(s); err != nil {
			fail(rec, "client --steps", err)
		}
	}
	os.Exit(clientMain(rec, o))
}

type step struct {
	kind string // check | read | write | work
	work time.Duration
}

func parseStep(s string) (step, error) {
	f := strings.Fields(s)
	switch {
	case len(f) == 1 && (f[0] == "check" || f[0] == "read" || f[0] == "write"):
		return step{kind: f[0]}, nil
	case len(f) == 2 && f[0] == "work":
		d, err := time.ParseDuration(f[1])
		if err != nil || d < 0 {
			return step{}, fmt.Errorf("step %q: bad duration", s)
		}
		return step{kind: "work", work: d}, nil
	}
	return step{}, fmt.Errorf("unknown step %q (check, read, write, work DUR)", s)
}

// resourceConn is the client's connection to the resource.
type resourceConn struct {
	conn net.Conn
	in   *bufio.Scanner
}

func (c *resourceConn) do(q resourceRequest) (resourceReply, error) {
	line, _ := json.Marshal(q)
	if _, err := c.conn.Write(append(line, '\n')); err != nil {
		return resourceReply{}, err
	}
	if !c.in.Scan() {
		if c.in.Err() != nil {
			return resourceReply{}, c.in.Err()
		}
		return resourceReply{}, errors.New("resource closed the connection")
	}
	var r resourceReply
	err := json.Unmarshal(c.in.Bytes(), &r)
	return r, err
}

func clientMain(rec *Recorder, o clientOptions) int {
	rec.Now("start", Fields{"endpoints": o.endpoints, "ttl_s": o.ttl, "steps": o.steps, "unlock": o.unlock,
		"prefix": o.prefix, "start_at_ns": o.startAtNs, "pause_after_step": o.pauseAfterStep, "pid": os.Getpid()})

	var res *resourceConn
	if o.resource != "" {
		conn, err := net.Dial("tcp", o.resource)
		if err != nil {
			fail(rec, "dial resource", err)
		}
		res = &resourceConn{conn: conn, in: bufio.NewScanner(conn)}
	}
	const dialTimeout = 5 * time.Second
	cli, err := clientv3.New(clientv3.Config{Endpoints: o.endpoints, DialTimeout: dialTimeout})
	if err != nil {
		fail(rec, "clientv3.New", err)
	}
	rec.Now("connected", nil)

	if wait := o.startAtNs - monotonicNs(); wait > 0 {
		time.Sleep(time.Duration(wait))
	}

	// The lease, granted as NewSession grants it; our keepalive channel
	// first, then the session on the same lease (see the file comment).
	rec.Now("lease-invoke", Fields{"ttl_s": o.ttl})
	grant, err := cli.Grant(cli.Ctx(), int64(o.ttl))
	if err != nil {
		rec.Now("lease-error", Fields{"error": err.Error()})
		return 1
	}
	leaseHex := fmt.Sprintf("%x", int64(grant.ID))
	rec.Now("lease", Fields{"lease": leaseHex, "lease_id": int64(grant.ID), "ttl_s": grant.TTL,
		"revision": grant.ResponseHeader.Revision, "member_id": fmt.Sprintf("%x", grant.ResponseHeader.MemberId)})
	// clientv3 gives a new keepalive entry the deadline now + DialTimeout + 1 s
	// (NewLease: firstKeepAliveTimeout) until its first reply.
	kaStart := monotonicNs()
	kaCh, err := cli.KeepAlive(context.Background(), grant.ID)
	if err != nil {
		rec.Now("lease-error", Fields{"error": err.Error()})
		return 1
	}
	rec.At(kaStart, "keepalive-start", Fields{"lease": leaseHex, "deadline_ns": kaStart + int64(dialTimeout+time.Second)})
	go func() {
		for ka := range kaCh {
			t := monotonicNs()
			rec.At(t, "keepalive", Fields{"lease": leaseHex, "ttl_s": ka.TTL, "revision": ka.Revision,
				"raft_term": ka.RaftTerm, "member_id": fmt.Sprintf("%x", ka.MemberId)})
		}
		rec.Now("keepalive-closed", Fields{"lease": leaseHex})
	}()
	session, err := concurrency.NewSession(cli, concurrency.WithLease(grant.ID), concurrency.WithTTL(o.ttl))
	if err != nil {
		rec.Now("session-error", Fields{"error": err.Error()})
		return 1
	}
	go func() {
		<-session.Done()
		rec.Now("done", Fields{"lease": leaseHex})
	}()
	rec.Now("session", Fields{"lease": leaseHex})

	mutex := concurrency.NewMutex(session, o.prefix)
	rec.Now("lock-invoke", Fields{"lease": leaseHex, "key": fmt.Sprintf("%s/%s", o.prefix, leaseHex)})
	if err := mutex.Lock(context.Background()); err != nil {
		rec.Now("lock-error", Fields{"lease": leaseHex, "error": err.Error()})
		return 0
	}
	grantNs := monotonicNs()
	rec.At(grantNs, "grant", Fields{"lease": leaseHex, "key": mutex.Key(), "header_revision": mutex.Header().Revision})
	// The fencing token: the key's create revision (what IsOwner compares).
	token := int64(0)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	got, err := cli.Get(ctx, mutex.Key())
	cancel()
	switch {
	case err != nil:
		rec.Now("token", Fields{"lease": leaseHex, "error": err.Error()})
	case len(got.Kvs) == 0:
		// Lock returned nil, yet the key is gone (a waiter whose lease
		// expired while it waited: etcd 3.4's Mutex does not re-read it).
		rec.Now("token", Fields{"lease": leaseHex, "key_present": false, "revision": got.Header.Revision})
	default:
		token = got.Kvs[0].CreateRevision
		rec.Now("token", Fields{"lease": leaseHex, "key_present": true, "create_revision": token,
			"key_lease": fmt.Sprintf("%x", got.Kvs[0].Lease), "revision": got.Header.Revision})
	}
	if o.pauseAfterStep == -1 {
		pausePoint(rec, -1)
	}

	lastRead := int64(0)
steps:
	for i, s := range o.steps {
		st, _ := parseStep(s)
		switch st.kind {
		case "check":
			select {
			case <-session.Done():
				rec.Now("check", Fields{"step": i, "ok": false})
				rec.Now("belief-end", Fields{"lease": leaseHex, "reason": "done-closed"})
				break steps
			default:
				rec.Now("check", Fields{"step": i, "ok": true})
			}
		case "read", "write":
			if res == nil {
				fail(rec, "step "+s, errors.New("no --resource"))
			}
			q := resourceRequest{Op: st.kind, Client: o.name, Session: leaseHex, Token: token}
			if st.kind == "write" {
				q.Value = lastRead + 1
			}
			invokeNs := monotonicNs()
			r, err := res.do(q)
			if err != nil {
				rec.Now("op", Fields{"step": i, "op": st.kind, "invoke_ns": invokeNs, "error": err.Error()})
				break
			}
			if st.kind == "read" && r.Accepted {
				lastRead = r.Value
			}
			rec.Now("op", Fields{"step": i, "op": st.kind, "invoke_ns": invokeNs, "token": token,
				"accepted": r.Accepted, "reason": r.Reason, "value": r.Value, "sent_value": q.Value})
		case "work":
			time.Sleep(st.work)
			rec.Now("worked", Fields{"step": i, "ns": int64(st.work)})
		}
		if i == o.pauseAfterStep {
			pausePoint(rec, i)
		}
	}
	if o.unlock {
		rec.Now("unlock-invoke", Fields{"lease": leaseHex, "key": mutex.Key()})
		ctx, cancel := context.WithTimeout(context.Background(), o.unlockTimeout)
		err := mutex.Unlock(ctx)
		cancel()
		if err != nil {
			rec.Now("unlock", Fields{"lease": leaseHex, "ok": false, "error": err.Error()})
		} else {
			rec.Now("unlock", Fields{"lease": leaseHex, "ok": true})
		}
	}
	// The session is neither closed nor its lease revoked: the process just
	// ends, and the lease runs out on the server (locksim's clients do not
	// revoke either).
	rec.Now("exit", nil)
	return 0
}

// pausePoint waits for the driver's byte on stdin; the driver freezes the
// process meanwhile (see the file comment).
func pausePoint(rec *Recorder, step int) {
	rec.Now("pause-point", Fields{"step": step, "pid": os.Getpid()})
	var b [1]byte
	if _, err := os.Stdin.Read(b[:]); err != nil {
		rec.Now("error", Fields{"what": "pause point: reading stdin", "error": err.Error()})
	}
	rec.Now("resumed", nil)
}
