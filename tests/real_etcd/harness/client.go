// client: one lock client, as an application would write it with etcd's own
// recipe — clientv3/concurrency's Session and Mutex from Debian's etcd
// 3.4.23 source, unmodified — plus records of everything it sees.
//
// The story: connect; wait for the start time; then --iterations cycles of
// Lock (no deadline, as Lock(ctx) is usually called), the steps, Unlock, and
// --think between cycles. One Session for all cycles, and one Mutex locked
// again each cycle, as an application that keeps its session writes it and
// as locksim's etcd client does (sim/lock/store_lock_acquire.cc: a new
// session only when there is none or its Done() closed). Each grant is a
// session of its own in the records (`session`: the lease ID in hex for the
// lease's first grant, LEASE.N for its N-th), which the resource's ops carry.
//
//	check      non-blocking look at session.Done(): closed means clientv3
//	           gave the lease up (its keepalive deadline passed, or the
//	           server said the lease is gone); the client records the end of
//	           its belief and stops the cycle
//	read       read the resource (the counter, or the stock)
//	write      write last read + 1 to the resource
//	decrement  stock: if the last read saw stock > 0, sell one (client_steps.go)
//	call NAME  call the service NAME and wait for its answer, however long
//	work DUR   sleep DUR (Go duration, "200ms")
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
// right after the grant) of its first cycle for the driver: it records
// `pause-point` and reads one byte from stdin. The driver, reading that
// record, freezes the process with SIGSTOP, checks that every thread
// stopped, writes the byte, and sends SIGCONT the pause's length later, when
// the client reads the byte and goes on. That is the GC pause of a story
// that pauses "at c1 read", placed exactly between two steps, and a real
// SIGSTOP: every thread stops, keepalives included. (The client does not
// SIGSTOP itself: a Go process's kill(getpid(), SIGSTOP) leaves it running
// in about a third of the tries on this machine — measured, with a C process
// as the control, which always stops; a SIGSTOP from another process always
// does.)
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"go.etcd.io/etcd/clientv3"
	"go.etcd.io/etcd/clientv3/concurrency"
)

type clientOptions struct {
	name           string
	endpoints      []string
	ttl            int
	prefix         string
	resource       string
	services       map[string]string
	stockKey       string
	steps          []string
	unlock         bool
	unlockTimeout  time.Duration
	startAtNs      int64
	pauseAfterStep int
	iterations     int
	think          time.Duration
}

func runClient(args []string) {
	fs := flag.NewFlagSet("client", flag.ExitOnError)
	var o clientOptions
	var endpoints, steps, services string
	fs.StringVar(&o.name, "name", "", "client name (c1, c2, …)")
	fs.StringVar(&endpoints, "endpoints", "", "comma-separated etcd client URLs (this client's proxy ports)")
	fs.IntVar(&o.ttl, "ttl", 10, "session TTL in seconds")
	fs.StringVar(&o.prefix, "prefix", "/locksim/lock", "the Mutex's key prefix")
	fs.StringVar(&o.resource, "resource", "", "host:port of the resource (empty: no resource)")
	fs.StringVar(&services, "services", "", "comma-separated NAME=HOST:PORT of the services `call NAME` calls")
	fs.StringVar(&o.stockKey, "stock-key", "",
		"the stock lives in etcd under this key: read is a Get, decrement a guarded Txn")
	fs.StringVar(&steps, "steps", "[]",
		`JSON array of steps: "check", "read", "write", "decrement", "call NAME", "work 200ms"`)
	fs.BoolVar(&o.unlock, "unlock", true, "Unlock after the steps")
	fs.DurationVar(&o.unlockTimeout, "unlock-timeout", time.Second, "deadline of the Unlock request")
	fs.Int64Var(&o.startAtNs, "start-at-ns", 0, "begin (take the lease) at this CLOCK_MONOTONIC instant")
	fs.IntVar(&o.pauseAfterStep, "pause-after-step", -2,
		"wait for the driver after this step of the first cycle (0-based; -1: right after the grant; -2: never)")
	fs.IntVar(&o.iterations, "iterations", 1, "Lock–steps–Unlock cycles")
	fs.DurationVar(&o.think, "think", 0, "pause between cycles")
	fs.Parse(args)
	rec := newRecorder(o.name)
	if o.name == "" || endpoints == "" || o.iterations < 1 {
		fail(rec, "client flags", errors.New("--name and --endpoints are required, --iterations >= 1"))
	}
	o.endpoints = strings.Split(endpoints, ",")
	o.services = map[string]string{}
	for _, s := range strings.Split(services, ",") {
		if kv := strings.SplitN(s, "=", 2); len(kv) == 2 {
			o.services[kv[0]] = kv[1]
		}
	}
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

// lockClient is one client's connections and where its cycles are.
type lockClient struct {
	rec      *Recorder
	o        clientOptions
	cli      *clientv3.Client
	res      *resourceConn
	calls    map[string]*lineConn
	session  *concurrency.Session
	mutex    *concurrency.Mutex
	leaseHex string
	grants   map[string]int // grants so far, per lease
	// The cycle's grant.
	iteration int
	sid       string // the history's session: one per grant
	token     int64
	lastRead  int64
	lastMod   int64 // store stock: the mod revision of the last read
}

func clientMain(rec *Recorder, o clientOptions) int {
	rec.Now("start", Fields{"endpoints": o.endpoints, "ttl_s": o.ttl, "steps": o.steps, "unlock": o.unlock,
		"prefix": o.prefix, "start_at_ns": o.startAtNs, "pause_after_step": o.pauseAfterStep, "pid": os.Getpid(),
		"iterations": o.iterations, "think_ns": int64(o.think), "stock_key": o.stockKey})
	c := &lockClient{rec: rec, o: o, grants: map[string]int{}}
	c.dial()
	if wait := o.startAtNs - monotonicNs(); wait > 0 {
		time.Sleep(time.Duration(wait))
	}
	for it := 0; it < o.iterations; it++ {
		if it > 0 && o.think > 0 {
			time.Sleep(o.think)
		}
		c.iteration = it
		if !c.ensureSession() {
			return 1
		}
		if !c.lock() {
			return 0
		}
		c.runSteps()
		if o.unlock {
			c.release()
		}
	}
	// The session is neither closed nor its lease revoked: the process just
	// ends, and the lease runs out on the server (locksim's clients do not
	// revoke either).
	rec.Now("exit", nil)
	return 0
}

// dial connects to the resource, the services and the cluster before the story begins.
func (c *lockClient) dial() {
	if c.o.resource != "" {
		conn, err := dialLine(c.o.resource)
		if err != nil {
			fail(c.rec, "dial resource", err)
		}
		c.res = &resourceConn{conn}
	}
	c.calls = map[string]*lineConn{}
	for name, addr := range c.o.services {
		conn, err := dialLine(addr)
		if err != nil {
			fail(c.rec, "dial service "+name, err)
		}
		c.calls[name] = conn
	}
	cli, err := clientv3.New(clientv3.Config{Endpoints: c.o.endpoints, DialTimeout: dialTimeout})
	if err != nil {
		fail(c.rec, "clientv3.New", err)
	}
	c.cli = cli
	c.rec.Now("connected", nil)
}

const dialTimeout = 5 * time.Second

// ensureSession opens a session when there is none or its Done() closed
// (locksim's etcd client does the same); false on an error.
func (c *lockClient) ensureSession() bool {
	if c.session != nil {
		select {
		case <-c.session.Done():
		default:
			return true
		}
	}
	// The lease, granted as NewSession grants it; our keepalive channel
	// first, then the session on the same lease (see the file comment).
	c.rec.Now("lease-invoke", Fields{"ttl_s": c.o.ttl, "iteration": c.iteration})
	grant, err := c.cli.Grant(c.cli.Ctx(), int64(c.o.ttl))
	if err != nil {
		c.rec.Now("lease-error", Fields{"error": err.Error(), "iteration": c.iteration})
		return false
	}
	leaseHex := fmt.Sprintf("%x", int64(grant.ID))
	c.rec.Now("lease", Fields{"lease": leaseHex, "lease_id": int64(grant.ID), "ttl_s": grant.TTL,
		"revision": grant.ResponseHeader.Revision, "member_id": fmt.Sprintf("%x", grant.ResponseHeader.MemberId)})
	// clientv3 gives a new keepalive entry the deadline now + DialTimeout + 1 s
	// (NewLease: firstKeepAliveTimeout) until its first reply.
	kaStart := monotonicNs()
	kaCh, err := c.cli.KeepAlive(context.Background(), grant.ID)
	if err != nil {
		c.rec.Now("lease-error", Fields{"error": err.Error(), "iteration": c.iteration})
		return false
	}
	c.rec.At(kaStart, "keepalive-start", Fields{"lease": leaseHex, "deadline_ns": kaStart + int64(dialTimeout+time.Second)})
	go c.recordKeepalives(leaseHex, kaCh)
	session, err := concurrency.NewSession(c.cli, concurrency.WithLease(grant.ID), concurrency.WithTTL(c.o.ttl))
	if err != nil {
		c.rec.Now("session-error", Fields{"error": err.Error(), "iteration": c.iteration})
		return false
	}
	go func() {
		<-session.Done()
		c.rec.Now("done", Fields{"lease": leaseHex})
	}()
	c.rec.Now("session", Fields{"lease": leaseHex})
	c.session, c.leaseHex = session, leaseHex
	c.mutex = concurrency.NewMutex(session, c.o.prefix)
	return true
}

func (c *lockClient) recordKeepalives(leaseHex string, kaCh <-chan *clientv3.LeaseKeepAliveResponse) {
	for ka := range kaCh {
		t := monotonicNs()
		c.rec.At(t, "keepalive", Fields{"lease": leaseHex, "ttl_s": ka.TTL, "revision": ka.Revision,
			"raft_term": ka.RaftTerm, "member_id": fmt.Sprintf("%x", ka.MemberId)})
	}
	c.rec.Now("keepalive-closed", Fields{"lease": leaseHex})
}

// lock runs Mutex.Lock and reads the fencing token; false if Lock failed.
func (c *lockClient) lock() bool {
	it := c.iteration
	c.rec.Now("lock-invoke", Fields{"lease": c.leaseHex, "key": fmt.Sprintf("%s/%s", c.o.prefix, c.leaseHex),
		"iteration": it})
	if err := c.mutex.Lock(context.Background()); err != nil {
		c.rec.Now("lock-error", Fields{"lease": c.leaseHex, "error": err.Error(), "iteration": it})
		return false
	}
	grantNs := monotonicNs()
	c.grants[c.leaseHex]++
	c.sid = c.leaseHex
	if n := c.grants[c.leaseHex]; n > 1 {
		c.sid = fmt.Sprintf("%s.%d", c.leaseHex, n)
	}
	c.rec.At(grantNs, "grant", Fields{"lease": c.leaseHex, "key": c.mutex.Key(),
		"header_revision": c.mutex.Header().Revision, "iteration": it, "session": c.sid})
	// The fencing token: the key's create revision (what IsOwner compares).
	c.token = 0
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	got, err := c.cli.Get(ctx, c.mutex.Key())
	cancel()
	base := Fields{"lease": c.leaseHex, "iteration": it, "session": c.sid}
	switch {
	case err != nil:
		c.rec.Now("token", with(base, Fields{"error": err.Error()}))
	case len(got.Kvs) == 0:
		// Lock returned nil, yet the key is gone (a waiter whose lease
		// expired while it waited: etcd 3.4's Mutex does not re-read it).
		c.rec.Now("token", with(base, Fields{"key_present": false, "revision": got.Header.Revision}))
	default:
		c.token = got.Kvs[0].CreateRevision
		c.rec.Now("token", with(base, Fields{"key_present": true, "create_revision": c.token,
			"key_lease": fmt.Sprintf("%x", got.Kvs[0].Lease), "revision": got.Header.Revision}))
	}
	if c.o.pauseAfterStep == -1 && it == 0 {
		pausePoint(c.rec, -1)
	}
	return true
}

func (c *lockClient) release() {
	c.rec.Now("unlock-invoke", Fields{"lease": c.leaseHex, "key": c.mutex.Key(), "iteration": c.iteration,
		"session": c.sid})
	ctx, cancel := context.WithTimeout(context.Background(), c.o.unlockTimeout)
	err := c.mutex.Unlock(ctx)
	cancel()
	f := Fields{"lease": c.leaseHex, "ok": err == nil, "iteration": c.iteration, "session": c.sid}
	if err != nil {
		f["error"] = err.Error()
	}
	c.rec.Now("unlock", f)
}

func with(a, b Fields) Fields {
	out := Fields{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
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
