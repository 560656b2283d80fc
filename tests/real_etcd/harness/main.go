// locksim-etcd-harness: the real-etcd referee's processes, one binary.
//
//	client    one lock client: clientv3/concurrency Session + Mutex, unmodified
//	resource  the protected resource: a counter behind a small TCP server
//	proxy     per-(client, member) TCP proxies that can blackhole a client
//	service   a called service that answers each call after a latency
//	observer  a watch on the lock prefix, plus a revision ladder (see observer.go)
//
// Each writes JSON lines on stdout (record.go); docs/real-etcd.md documents
// every event. Built in GOPATH mode against Debian's etcd 3.4.23 source
// (golang-etcd-server-dev), by tests/CMakeLists.txt.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	args := os.Args[2:]
	switch os.Args[1] {
	case "client":
		runClient(args)
	case "resource":
		runResource(args)
	case "proxy":
		runProxy(args)
	case "observer":
		runObserver(args)
	case "service":
		runService(args)
	default:
		usage()
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: locksim-etcd-harness client|resource|proxy|observer|service [flags] (-h for each)")
	os.Exit(2)
}

// fail reports a setup error (bad flags, a server that cannot be reached) and exits.
func fail(rec *Recorder, what string, err error) {
	if rec != nil {
		rec.Now("error", Fields{"what": what, "error": err.Error()})
	}
	fmt.Fprintf(os.Stderr, "%s: %v\n", what, err)
	os.Exit(1)
}
