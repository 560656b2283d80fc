// observer: what the store did to the lock, on the referee's timeline.
//
// 1. A watch on the lock prefix from revision 1 (so nothing before it
//    started is missed) records every PUT and DELETE with its revision, the
//    key's create revision and lease, and when the event reached the
//    observer. A DELETE's arrival is "when the lock key was deleted (by an
//    Unlock or a lease revocation) as a client watching it learns it"; the
//    commit happened no later.
//
// 2. A revision ladder: a put to a key outside the prefix every --tick,
//    each recorded with the instants its request left and its reply came
//    back. The put's revision was committed between the two. Because
//    revisions are committed in order, a lock event at revision R committed
//    after every ladder put below R was sent and before any ladder put above
//    R replied: that bounds the commit instant of every lock event (a lease
//    revocation included, which no client asks for) to about one tick, and
//    lets the judge say who held the lock at the instant the resource
//    accepted an op (P4) instead of guessing.
//
// 3. After each DELETE of a key that had a lease, the lease's TimeToLive: a
//    revocation removes the lease with its keys, so a lease still alive
//    after its key's deletion says the key was deleted by a client (the
//    owner's Unlock), which bounds the deletion's commit from below by the
//    Unlock call; a lease gone says nothing (it may have been revoked since).
//
// 4. With --stock-key (a story whose stock lives in etcd): the stock is put
//    at --initial-stock before `ready`, and read once more at SIGTERM
//    (`stock-final`), the application's state at rest.
//
// The observer talks to the members directly, not through the proxies.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"go.etcd.io/etcd/clientv3"
)

func runObserver(args []string) {
	fs := flag.NewFlagSet("observer", flag.ExitOnError)
	endpoints := fs.String("endpoints", "", "comma-separated etcd client URLs (the members themselves)")
	prefix := fs.String("prefix", "/locksim/lock", "the lock prefix to watch")
	ladderKey := fs.String("ladder-key", "/locksim/ladder", "the key the revision ladder writes")
	tick := fs.Duration("tick", 10*time.Millisecond, "revision ladder period (0: no ladder)")
	stockKey := fs.String("stock-key", "", "the stock kept in etcd: put at --initial-stock first, read at the end")
	initialStock := fs.Int64("initial-stock", 1, "the stock at start (--stock-key)")
	fs.Parse(args)
	rec := newRecorder("observer")
	if *endpoints == "" {
		fail(rec, "observer flags", errString("--endpoints is required"))
	}
	cli, err := clientv3.New(clientv3.Config{Endpoints: strings.Split(*endpoints, ","), DialTimeout: 5 * time.Second})
	if err != nil {
		fail(rec, "clientv3.New", err)
	}
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM, syscall.SIGINT)
	if *stockKey != "" {
		putStock(rec, cli, *stockKey, *initialStock)
	}

	// No WithRequireLeader: through an election the watch waits and resumes
	// from its last revision instead of being cancelled.
	watch := cli.Watch(context.Background(), *prefix+"/", clientv3.WithPrefix(),
		clientv3.WithRev(1), clientv3.WithPrevKV(), clientv3.WithCreatedNotify())
	created := <-watch
	if err := created.Err(); err != nil {
		fail(rec, "watch", err)
	}
	rec.Now("ready", Fields{"prefix": *prefix + "/", "revision": created.Header.Revision})
	go func() {
		for resp := range watch {
			t := monotonicNs()
			if err := resp.Err(); err != nil {
				rec.At(t, "watch-error", Fields{"error": err.Error()})
				continue
			}
			for _, ev := range resp.Events {
				f := Fields{"key": string(ev.Kv.Key), "revision": ev.Kv.ModRevision}
				if ev.Type == clientv3.EventTypePut {
					f["create_revision"] = ev.Kv.CreateRevision
					f["lease"] = fmt.Sprintf("%x", ev.Kv.Lease)
					rec.At(t, "put", f)
				} else {
					if ev.PrevKv != nil {
						f["create_revision"] = ev.PrevKv.CreateRevision
						f["lease"] = fmt.Sprintf("%x", ev.PrevKv.Lease)
					}
					rec.At(t, "delete", f)
					if ev.PrevKv != nil && ev.PrevKv.Lease != 0 {
						go leaseStatus(rec, cli, clientv3.LeaseID(ev.PrevKv.Lease), ev.Kv.ModRevision)
					}
				}
			}
		}
		rec.Now("watch-closed", nil)
	}()

	if *tick > 0 {
		go func() {
			for n := int64(1); ; n++ {
				sent := monotonicNs()
				ctx, cancel := context.WithTimeout(context.Background(), time.Second)
				resp, err := cli.Put(ctx, *ladderKey, fmt.Sprint(n))
				cancel()
				replied := monotonicNs()
				if err != nil {
					rec.At(replied, "ladder-error", Fields{"sent_ns": sent, "error": err.Error()})
				} else {
					rec.At(replied, "ladder", Fields{"sent_ns": sent, "revision": resp.Header.Revision})
				}
				time.Sleep(*tick)
			}
		}()
	}
	<-term
	if *stockKey != "" {
		finalStock(rec, cli, *stockKey)
	}
	rec.Now("exit", nil)
	os.Exit(0)
}

// leaseStatus records whether a lease outlived the deletion of its key.
func leaseStatus(rec *Recorder, cli *clientv3.Client, lease clientv3.LeaseID, deleteRevision int64) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	resp, err := cli.TimeToLive(ctx, lease)
	cancel()
	f := Fields{"lease": fmt.Sprintf("%x", int64(lease)), "delete_revision": deleteRevision}
	if err != nil {
		f["error"] = err.Error()
	} else {
		f["ttl_s"] = resp.TTL
		f["alive"] = resp.TTL >= 0
	}
	rec.Now("lease-status", f)
}

func putStock(rec *Recorder, cli *clientv3.Client, key string, stock int64) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	resp, err := cli.Put(ctx, key, fmt.Sprint(stock))
	cancel()
	if err != nil {
		fail(rec, "observer: put the initial stock", err)
	}
	rec.Now("stock-initial", Fields{"key": key, "stock": stock, "revision": resp.Header.Revision})
}

func finalStock(rec *Recorder, cli *clientv3.Client, key string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	resp, err := cli.Get(ctx, key)
	cancel()
	if err != nil || len(resp.Kvs) == 0 {
		rec.Now("stock-final", Fields{"key": key, "error": fmt.Sprint("not read: ", err)})
		return
	}
	var stock int64
	fmt.Sscan(string(resp.Kvs[0].Value), &stock)
	rec.Now("stock-final", Fields{"key": key, "stock": stock, "revision": resp.Header.Revision})
}
