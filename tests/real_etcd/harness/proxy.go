// proxy: the network between the lock clients and the etcd members, made of
// userspace TCP proxies, so that one client can be cut off for real.
//
// One listening port per (client, member) pair: each client's endpoints are
// its own ports, so every byte a client exchanges with the cluster passes
// here and can be told apart from every other client's. The members talk to
// each other directly; the resource and the observer are not proxied.
//
// Faults, per client, on a control port (one command per line, answered
// "ok" or "error …"):
//
//	blackhole CLIENT   stop forwarding the client's bytes, both ways, on every
//	                   connection it has, and accept-but-stall the ones it
//	                   opens: nothing is read from either side any more, so
//	                   what was sent waits in socket buffers and the senders'
//	                   windows fill — packets dropped by a partition, as TCP
//	                   sees it, not a connection reset (no RST, no FIN)
//	heal CLIENT        forward again; held bytes are delivered (TCP's
//	                   retransmission after a partition heals)
//	delay CLIENT UP DOWN   add a fixed delay (Go durations) to every chunk
//	                   client→member (UP) and member→client (DOWN)
//
// A member that is gone (killed) refuses the proxy's connection; the proxy
// then closes the client's side, as the kernel would answer a SYN with RST.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"
)

// link is one client's state: blackholed or not, and its added delays.
type link struct {
	mu         sync.Mutex
	cond       *sync.Cond
	blackholed bool
	up, down   time.Duration
}

func newLink() *link {
	l := &link{}
	l.cond = sync.NewCond(&l.mu)
	return l
}

// waitOpen blocks while the link is blackholed.
func (l *link) waitOpen() {
	l.mu.Lock()
	for l.blackholed {
		l.cond.Wait()
	}
	l.mu.Unlock()
}

func (l *link) delay(upward bool) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if upward {
		return l.up
	}
	return l.down
}

type proxy struct {
	rec   *Recorder
	links map[string]*link // by client
	mu    sync.Mutex
	conns int64
}

type chunk struct {
	data []byte
	due  time.Time
}

// pump copies src to dst through the link: a reader that stamps each chunk
// with its due time and a writer that waits for that time and for the link
// to be open. While blackholed the writer holds its chunk and the reader
// stops reading once the queue is full, so the sender's socket fills.
func (p *proxy) pump(l *link, upward bool, src, dst net.Conn, done func()) {
	queue := make(chan chunk, 64)
	go func() {
		defer close(queue)
		for {
			buf := make([]byte, 32*1024)
			n, err := src.Read(buf)
			if n > 0 {
				l.waitOpen()
				queue <- chunk{data: buf[:n], due: time.Now().Add(l.delay(upward))}
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range queue {
		if wait := time.Until(c.due); wait > 0 {
			time.Sleep(wait)
		}
		l.waitOpen()
		if _, err := dst.Write(c.data); err != nil {
			break
		}
	}
	done()
}

func (p *proxy) serve(client, member, upstream string, l *link, conn net.Conn) {
	p.mu.Lock()
	p.conns++
	id := p.conns
	p.mu.Unlock()
	p.rec.Now("conn-open", Fields{"client": client, "member": member, "conn": id})
	// Accept-but-stall: a blackholed client's new connection goes nowhere.
	l.waitOpen()
	up, err := net.Dial("tcp", upstream)
	if err != nil {
		p.rec.Now("conn-refused", Fields{"client": client, "member": member, "conn": id, "error": err.Error()})
		conn.Close()
		return
	}
	var once sync.Once
	closeBoth := func() {
		once.Do(func() {
			conn.Close()
			up.Close()
			p.rec.Now("conn-close", Fields{"client": client, "member": member, "conn": id})
		})
	}
	go p.pump(l, true, conn, up, closeBoth)
	go p.pump(l, false, up, conn, closeBoth)
}

func (p *proxy) control(conn net.Conn) {
	defer conn.Close()
	in := bufio.NewScanner(conn)
	for in.Scan() {
		f := strings.Fields(in.Text())
		reply := "ok"
		switch {
		case len(f) == 2 && (f[0] == "blackhole" || f[0] == "heal") && p.links[f[1]] != nil:
			l := p.links[f[1]]
			l.mu.Lock()
			l.blackholed = f[0] == "blackhole"
			l.cond.Broadcast()
			l.mu.Unlock()
			p.rec.Now(f[0], Fields{"client": f[1]})
		case len(f) == 4 && f[0] == "delay" && p.links[f[1]] != nil:
			up, err1 := time.ParseDuration(f[2])
			down, err2 := time.ParseDuration(f[3])
			if err1 != nil || err2 != nil || up < 0 || down < 0 {
				reply = "error: bad durations"
				break
			}
			l := p.links[f[1]]
			l.mu.Lock()
			l.up, l.down = up, down
			l.mu.Unlock()
			p.rec.Now("delay", Fields{"client": f[1], "up_ns": int64(up), "down_ns": int64(down)})
		default:
			reply = "error: expected blackhole|heal CLIENT or delay CLIENT UP DOWN with a known client"
		}
		if _, err := io.WriteString(conn, reply+"\n"); err != nil {
			return
		}
	}
}

func runProxy(args []string) {
	fs := flag.NewFlagSet("proxy", flag.ExitOnError)
	clients := fs.String("clients", "", "comma-separated client names")
	members := fs.String("members", "", "comma-separated NAME=HOST:PORT of the members' client ports")
	fs.Parse(args)
	rec := newRecorder("proxy")
	if *clients == "" || *members == "" {
		fail(rec, "proxy flags", errString("--clients and --members are required"))
	}
	p := &proxy{rec: rec, links: map[string]*link{}}
	ports := map[string]map[string]string{}
	for _, client := range strings.Split(*clients, ",") {
		l := newLink()
		p.links[client] = l
		ports[client] = map[string]string{}
		for _, m := range strings.Split(*members, ",") {
			kv := strings.SplitN(m, "=", 2)
			if len(kv) != 2 {
				fail(rec, "proxy --members", fmt.Errorf("%q is not NAME=HOST:PORT", m))
			}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				fail(rec, "proxy listen", err)
			}
			ports[client][kv[0]] = ln.Addr().String()
			go func(client, member, upstream string, l *link, ln net.Listener) {
				for {
					conn, err := ln.Accept()
					if err != nil {
						fail(rec, "proxy accept", err)
					}
					go p.serve(client, member, upstream, l, conn)
				}
			}(client, kv[0], kv[1], l, ln)
		}
	}
	ctl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fail(rec, "proxy control listen", err)
	}
	rec.Now("ready", Fields{"ports": ports, "control": ctl.Addr().String()})
	for {
		conn, err := ctl.Accept()
		if err != nil {
			fail(rec, "proxy control accept", err)
		}
		go p.control(conn)
	}
}
