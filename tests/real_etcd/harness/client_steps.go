// The client's steps: the resource's ops, a called service, and the stock
// kept in etcd (--stock-key).
//
// A stock in etcd (the story's store.stock = true) is read with a Get and
// sold with etcd's IsOwner idiom: one Txn that compares the lock key's
// create revision with the client's token (clientv3.Compare(
// clientv3.CreateRevision(mutex.Key()), "=", token)) and only then puts
// the stock it read less one, reading the stock back in the same Txn. etcd
// has no decrement: the put writes read − 1, which is what a DECR makes
// whenever the compare holds, since only a client whose key is still there
// passes it and the Mutex's queue lets one such client act at a time. A
// refused Txn is a rejected op (`stale-token`). The decision is the
// leader's, at the Txn's revision; the client knows its instant only as
// [invoke_ns, t_ns], and records both with the revision.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"go.etcd.io/etcd/clientv3"
)

type step struct {
	kind    string // check | read | write | decrement | call | work
	work    time.Duration
	service string
}

func parseStep(s string) (step, error) {
	f := strings.Fields(s)
	switch {
	case len(f) == 1 && (f[0] == "check" || f[0] == "read" || f[0] == "write" || f[0] == "decrement"):
		return step{kind: f[0]}, nil
	case len(f) == 2 && f[0] == "call":
		return step{kind: "call", service: f[1]}, nil
	case len(f) == 2 && f[0] == "work":
		d, err := time.ParseDuration(f[1])
		if err != nil || d < 0 {
			return step{}, fmt.Errorf("step %q: bad duration", s)
		}
		return step{kind: "work", work: d}, nil
	}
	return step{}, fmt.Errorf("unknown step %q (check, read, write, decrement, call NAME, work DUR)", s)
}

// lineConn is a connection that carries one JSON object per line each way.
type lineConn struct {
	conn net.Conn
	in   *bufio.Scanner
}

func dialLine(addr string) (*lineConn, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	return &lineConn{conn: conn, in: bufio.NewScanner(conn)}, nil
}

// roundTrip sends q and reads one reply into r.
func (c *lineConn) roundTrip(q, r interface{}) error {
	line, _ := json.Marshal(q)
	if _, err := c.conn.Write(append(line, '\n')); err != nil {
		return err
	}
	if !c.in.Scan() {
		if c.in.Err() != nil {
			return c.in.Err()
		}
		return errors.New("the other side closed the connection")
	}
	return json.Unmarshal(c.in.Bytes(), r)
}

// resourceConn is the client's connection to the resource.
type resourceConn struct{ *lineConn }

func (c *resourceConn) do(q resourceRequest) (resourceReply, error) {
	var r resourceReply
	err := c.roundTrip(q, &r)
	return r, err
}

// runSteps runs the cycle's steps; a failed check ends it. A rejected op does
// not: the client goes on as it always has here (locksim's workload ends the
// session at a rejection instead — a gap docs/real-etcd.md states; changing
// it would change the revision-fenced runs already measured).
func (c *lockClient) runSteps() {
	c.lastRead = 0
	for i, s := range c.o.steps {
		st, _ := parseStep(s)
		if !c.runStep(i, st) {
			return
		}
		if i == c.o.pauseAfterStep && c.iteration == 0 {
			pausePoint(c.rec, i)
		}
	}
}

func (c *lockClient) runStep(i int, st step) bool {
	base := Fields{"step": i, "iteration": c.iteration, "session": c.sid}
	switch st.kind {
	case "check":
		select {
		case <-c.session.Done():
			c.rec.Now("check", with(base, Fields{"ok": false}))
			c.rec.Now("belief-end", with(base, Fields{"lease": c.leaseHex, "reason": "done-closed"}))
			return false
		default:
			c.rec.Now("check", with(base, Fields{"ok": true}))
		}
	case "work":
		time.Sleep(st.work)
		c.rec.Now("worked", with(base, Fields{"ns": int64(st.work)}))
	case "call":
		conn := c.calls[st.service]
		if conn == nil {
			fail(c.rec, "step call "+st.service, errors.New("no --services entry for it"))
		}
		invokeNs := monotonicNs()
		var answer map[string]interface{}
		err := conn.roundTrip(map[string]interface{}{"id": i, "client": c.o.name}, &answer)
		f := with(base, Fields{"service": st.service, "invoke_ns": invokeNs})
		if err != nil {
			f["error"] = err.Error()
		}
		c.rec.Now("called", f)
	case "decrement":
		if c.lastRead <= 0 {
			// GET-compare-DECR: the compare is the client's, on what it read.
			c.rec.Now("skip", with(base, Fields{"op": st.kind, "last_read": c.lastRead}))
			return true
		}
		fallthrough
	default:
		if c.o.stockKey != "" {
			return c.storeOp(base, st.kind)
		}
		return c.resourceOp(base, st.kind)
	}
	return true
}

func (c *lockClient) resourceOp(base Fields, kind string) bool {
	if c.res == nil {
		fail(c.rec, "step "+kind, errors.New("no --resource"))
	}
	q := resourceRequest{Op: kind, Client: c.o.name, Session: c.sid, Token: c.token}
	switch kind {
	case "write":
		q.Value = c.lastRead + 1
	case "decrement":
		q.Value = c.lastRead
	}
	invokeNs := monotonicNs()
	r, err := c.res.do(q)
	if err != nil {
		c.rec.Now("op", with(base, Fields{"op": kind, "invoke_ns": invokeNs, "error": err.Error()}))
		return true
	}
	if kind == "read" && r.Accepted {
		c.lastRead = r.Value
	}
	c.rec.Now("op", with(base, Fields{"op": kind, "invoke_ns": invokeNs, "token": c.token,
		"accepted": r.Accepted, "reason": r.Reason, "value": r.Value, "sent_value": q.Value}))
	return true
}

// storeOp reads or sells the stock kept in etcd (see the file comment).
func (c *lockClient) storeOp(base Fields, kind string) bool {
	invokeNs := monotonicNs()
	ctx, cancel := context.WithTimeout(context.Background(), c.o.unlockTimeout)
	defer cancel()
	f := with(base, Fields{"op": kind, "invoke_ns": invokeNs, "token": c.token, "store": true, "client": c.o.name})
	if kind == "read" {
		got, err := c.cli.Get(ctx, c.o.stockKey)
		if err != nil || len(got.Kvs) == 0 {
			c.rec.Now("store-op", with(f, Fields{"error": fmt.Sprint("no stock: ", err)}))
			return true
		}
		c.lastRead, _ = strconv.ParseInt(string(got.Kvs[0].Value), 10, 64)
		c.rec.Now("store-op", with(f, Fields{"accepted": true, "reason": "", "value": c.lastRead,
			"revision": got.Header.Revision}))
		return true
	}
	sold := strconv.FormatInt(c.lastRead-1, 10)
	resp, err := c.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(c.mutex.Key()), "=", c.token)).
		Then(clientv3.OpPut(c.o.stockKey, sold), clientv3.OpGet(c.o.stockKey)).
		Else(clientv3.OpGet(c.o.stockKey)).Commit()
	if err != nil {
		c.rec.Now("store-op", with(f, Fields{"error": err.Error()}))
		return true
	}
	stock := int64(0)
	for _, r := range resp.Responses {
		if g := r.GetResponseRange(); g != nil && len(g.Kvs) > 0 {
			stock, _ = strconv.ParseInt(string(g.Kvs[0].Value), 10, 64)
		}
	}
	reason := ""
	if !resp.Succeeded {
		reason = "stale-token"
	}
	c.rec.Now("store-op", with(f, Fields{"accepted": resp.Succeeded, "reason": reason, "value": stock,
		"revision": resp.Header.Revision}))
	return true
}
