// The real-ZooKeeper referee's observer (docs/real-zookeeper.md, "The observer"): what the
// ensemble did to the lock, on the referee's clock. The lock clients know when they were
// granted and when they released, not when the leader committed a node's creation or its
// deletion (a release, or a session's expiry, which no client asks for). This process asks
// the ensemble itself, over its own connections straight to the servers (no link proxy:
// no fault of a story touches it), and prints JSON lines on stdout, `t` on System.nanoTime()
// (CLOCK_MONOTONIC on Linux, the clients' and the driver's clock):
//
//  - `children`: the lock path's children after each change (getChildren with a watch,
//    re-armed at every notification), with the parent's Stat — its pzxid is the zxid of
//    the last child change and its cversion counts child changes, so two listings bound
//    every change between them by zxid — and each child's czxid and ephemeralOwner
//    (an exists() just after; null when the child was gone by then).
//  - `ladder`: every --tick a setData on a znode of its own outside the lock path, with the
//    instants the request left and the reply came back and the mzxid it got. Writes commit
//    in zxid order, so a lock change with zxid Z committed after the `sent` of every ladder
//    write below Z and before the `t` (reply) of every ladder write above Z.
//  - `session`: every connection state the handle goes through. A disconnection can lose a
//    watch notification's timing and an expiry loses the watch: the history then says the
//    keys are not recorded, rather than guessing.
//
// Usage: java locksim.ZkObserver connect=HOST:PORT,... path=/locksim/lock ladder=/locksim-ladder
//        tick_ms=50 session_ms=20000     (stops at SIGTERM)
package locksim;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.*;
import java.util.concurrent.Semaphore;
import org.apache.zookeeper.*;
import org.apache.zookeeper.data.Stat;

public final class ZkObserver {
    static final PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true,
            StandardCharsets.UTF_8);
    static final Map<String, String> cfg = new HashMap<>();
    // Released by the watch (and once at the start): the lister lists again.
    static final Semaphore relist = new Semaphore(0);
    static volatile ZooKeeper zk;

    static String q(String s) { return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\""; }

    static synchronized void emit(long t, String type, String fields) {
        out.println("{\"t\":" + t + ",\"type\":" + q(type) + (fields.isEmpty() ? "" : "," + fields) + "}");
    }

    public static void main(String[] args) throws Exception {
        for (String a : args) { int i = a.indexOf('='); cfg.put(a.substring(0, i), a.substring(i + 1)); }
        String path = cfg.getOrDefault("path", "/locksim/lock");
        String ladder = cfg.getOrDefault("ladder", "/locksim-ladder");
        long tickMs = Long.parseLong(cfg.getOrDefault("tick_ms", "50"));
        int sessionMs = Integer.parseInt(cfg.getOrDefault("session_ms", "20000"));
        Semaphore connected = new Semaphore(0);
        zk = new ZooKeeper(cfg.get("connect"), sessionMs, event -> {
            if (event.getType() == Watcher.Event.EventType.None) {
                emit(System.nanoTime(), "session", "\"state\":" + q(event.getState().name()));
                if (event.getState() == Watcher.Event.KeeperState.SyncConnected) connected.release();
            }
        });
        connected.acquire();
        // The lock path exists before any client takes the lock, so that the first listing
        // (with its watch) precedes every lock node. Curator would make it a container node;
        // a persistent one is the same to the mutex (it only creates parents that are missing)
        // and is never reaped by the server's container manager in the middle of a run.
        ensure("/locksim");
        ensure(path);
        ensure(ladder);
        emit(System.nanoTime(), "ready", "\"path\":" + q(path) + ",\"ladder\":" + q(ladder)
                + ",\"session\":" + q(Long.toHexString(zk.getSessionId())));
        Thread lister = new Thread(() -> listForever(path), "lister");
        lister.setDaemon(true);
        lister.start();
        relist.release();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> finish(path, ladder), "final"));
        ladderForever(ladder, tickMs);
    }

    static void ensure(String p) throws Exception {
        try {
            zk.create(p, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        } catch (KeeperException.NodeExistsException e) {
            // made by another run's leftovers or by the line before: fine either way
        }
    }

    /** Lists the lock path's children each time the watch fires; a failed listing is recorded
     *  (`watch-broken`): from then on the changes are not all seen. */
    static void listForever(String path) {
        Watcher watch = event -> {
            if (event.getType() != Watcher.Event.EventType.None) {
                emit(System.nanoTime(), "notified", "\"event\":" + q(event.getType().name()));
                relist.release();
            }
        };
        for (;;) {
            try {
                relist.acquire();
                relist.drainPermits();   // one listing answers every notification so far
                listOnce(path, watch);
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                emit(System.nanoTime(), "watch-broken", "\"error\":" + q(String.valueOf(e)));
                try { Thread.sleep(100); } catch (InterruptedException x) { return; }
                relist.release();   // try again: a later listing still bounds later changes
            }
        }
    }

    static void listOnce(String path, Watcher watch) throws Exception {
        Stat parent = new Stat();
        long sent = System.nanoTime();
        List<String> names = zk.getChildren(path, watch, parent);
        long replied = System.nanoTime();
        StringBuilder kids = new StringBuilder();
        for (String name : names) {
            Stat s = zk.exists(path + "/" + name, false);
            if (kids.length() > 0) kids.append(',');
            kids.append("{\"name\":").append(q(name)).append(",\"czxid\":")
                .append(s == null ? "null" : Long.toString(s.getCzxid())).append(",\"owner\":")
                .append(s == null ? "null" : q(Long.toHexString(s.getEphemeralOwner()))).append('}');
        }
        emit(replied, "children", "\"sent\":" + sent + ",\"pzxid\":" + parent.getPzxid() + ",\"cversion\":"
                + parent.getCversion() + ",\"children\":[" + kids + "]");
    }

    /** At SIGTERM (the driver stops the observer last): one more listing and one more ladder step,
     *  so that every change before them is seen and bounded, then `final`. Without `final` the
     *  driver cannot tell whether a change late in the run went unseen. */
    static void finish(String path, String ladder) {
        try {
            listOnce(path, event -> { });
            step(ladder, new byte[0], System.nanoTime());
            emit(System.nanoTime(), "final", "");
        } catch (Exception e) {
            emit(System.nanoTime(), "watch-broken", "\"error\":" + q("final listing: " + e));
        }
    }

    /** One ladder step: the write, then a read of the lock path's Stat on the same session. The
     *  server answers a session's requests in order, so the read's state includes the write: its
     *  pzxid P says no child change lies in (P, that state], hence one above P is above the write's
     *  zxid too, and one at or below P had committed before the read's reply (`read`). */
    static void step(String ladder, byte[] data, long sent) throws KeeperException, InterruptedException {
        Stat s = zk.setData(ladder, data, -1);
        long replied = System.nanoTime();
        Stat lock = zk.exists(cfg.getOrDefault("path", "/locksim/lock"), false);
        long read = System.nanoTime();
        emit(replied, "ladder", "\"sent\":" + sent + ",\"zxid\":" + s.getMzxid()
                + (lock == null ? "" : ",\"pzxid\":" + lock.getPzxid() + ",\"read\":" + read));
    }

    /** The zxid ladder: one setData every tick on a znode of the observer's own. */
    static void ladderForever(String ladder, long tickMs) throws InterruptedException {
        byte[] data = new byte[0];
        for (;;) {
            long sent = System.nanoTime();
            try {
                step(ladder, data, sent);
            } catch (KeeperException e) {
                // No reply with a zxid: this step bounds nothing (its write may or may not be in).
                emit(System.nanoTime(), "ladder-error", "\"sent\":" + sent + ",\"error\":" + q(String.valueOf(e)));
            }
            Thread.sleep(tickMs);
        }
    }
}
