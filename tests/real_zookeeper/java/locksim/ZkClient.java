// One lock client of the real-ZooKeeper referee (docs/real-zookeeper.md): takes
// the lock with Curator's InterProcessMutex, unmodified (a subclass only reads
// its protected lock path, for the czxid), does the story's steps against the
// resource and releases. It prints its history events (docs/history.md) as
// JSON lines on stdout, as tests/real_redis/node/client.js does: `t` is
// System.nanoTime() — CLOCK_MONOTONIC on Linux, the driver's clock — and
// `local` is the same clock (this client times nothing by the wall clock).
//
// Usage: java locksim.ZkClient KEY=VALUE...   (tests/real_zookeeper/realzk/clients.py
// writes them: name, connect, ttl_ms, resource_port, start_at_ns, steps
// (joined by '|'), pause_after, policy, iterations, think_ms)
package locksim;

import java.io.*;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.*;
import java.util.regex.*;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryForever;

public final class ZkClient {
    static final Map<String, String> cfg = new HashMap<>();
    static final PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true,
            StandardCharsets.UTF_8);
    static final BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    // Set by the connection-state listener when the story's policy says the
    // belief ends (SUSPENDED or LOST); read by `check` steps and before release.
    static volatile String stopState = null;
    static int opCounter = 0;
    // The session whose promise the watcher extends (null: no belief), and its validity.
    static volatile String believingSession = null;
    static long validityNs = 0;
    static boolean pauseDone = false;

    /** The protected lock path of Curator's mutex, read only: its node's czxid is the fencing token. */
    static final class Mutex extends InterProcessMutex {
        Mutex(CuratorFramework client, String path) { super(client, path); }
        String nodePath() { return getLockPath(); }
    }

    static String q(String s) { return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\""; }

    static synchronized void emit(String type, String fields) {
        long t = System.nanoTime();
        out.println("{\"t\":" + t + ",\"p\":" + q(cfg.get("name")) + ",\"local\":" + t + ",\"type\":" + q(type)
                + (fields.isEmpty() ? "" : "," + fields) + "}");
    }

    static void control(String fields) {
        synchronized (ZkClient.class) { out.println("{" + fields + "}"); }
    }

    /** The driver stops this process at a pause point and writes a line once it is continued. */
    static void pausePoint(String phase, String step) throws IOException {
        if (pauseDone || !phase.equals(cfg.getOrDefault("pause_after", ""))) return;
        pauseDone = true;
        control("\"control\":\"pause-point\",\"after\":" + q(step));
        stdin.readLine();
    }

    static final Map<String, String> PHASE = Map.of("read", "read", "write", "wrote", "work", "worked",
            "check", "checked");

    public static void main(String[] args) throws Exception {
        for (String a : args) { int i = a.indexOf('='); cfg.put(a.substring(0, i), a.substring(i + 1)); }
        int ttlMs = Integer.parseInt(cfg.get("ttl_ms"));
        String policy = cfg.get("policy");
        CuratorFramework zk = CuratorFrameworkFactory.builder().connectString(cfg.get("connect"))
                .sessionTimeoutMs(ttlMs).connectionTimeoutMs(ttlMs).retryPolicy(new RetryForever(100)).build();
        zk.getConnectionStateListenable().addListener((c, state) -> {
            emit("store-state", "\"state\":" + q(state.name()));   // dropped from the history: the log's
            boolean suspended = state == ConnectionState.SUSPENDED || state == ConnectionState.LOST;
            if (("obey-suspended".equals(policy) && suspended)
                    || ("obey-lost".equals(policy) && state == ConnectionState.LOST)) {
                if (stopState == null) stopState = state.name();
            }
        });
        zk.start();
        zk.blockUntilConnected();
        watchLastHeard(zk);
        Socket sock = new Socket("127.0.0.1", Integer.parseInt(cfg.get("resource_port")));
        sock.setTcpNoDelay(true);
        BufferedReader rin = new BufferedReader(new InputStreamReader(sock.getInputStream(), StandardCharsets.UTF_8));
        Writer rout = new OutputStreamWriter(sock.getOutputStream(), StandardCharsets.UTF_8);
        control("\"control\":\"ready\"");
        long startAt = Long.parseLong(cfg.get("start_at_ns"));
        while (System.nanoTime() < startAt) {
            long left = startAt - System.nanoTime();
            if (left > 2_000_000) Thread.sleep((left - 1_000_000) / 1_000_000);
        }
        int iterations = Integer.parseInt(cfg.getOrDefault("iterations", "1"));
        long thinkMs = Long.parseLong(cfg.getOrDefault("think_ms", "0"));
        for (int i = 1; i <= iterations; i++) {
            if (i > 1) Thread.sleep(thinkMs);
            cycle(zk, cfg.get("name") + "-" + i, rin, rout, ttlMs);
        }
        control("\"control\":\"done\"");
        sock.close();
        System.exit(0);   // Curator's threads would keep the JVM up
    }

    static void cycle(CuratorFramework zk, String session, BufferedReader rin, Writer rout, int ttlMs)
            throws Exception {
        emit("want", "");
        Mutex mutex = new Mutex(zk, "/locksim/lock");
        stopState = null;
        int op = ++opCounter;
        emit("invoke", "\"op\":" + op + ",\"kind\":\"acquire\"");
        mutex.acquire();
        emit("complete", "\"op\":" + op + ",\"kind\":\"acquire\",\"outcome\":\"ok\"");
        String path = mutex.nodePath();
        long token = zk.checkExists().forPath(path).getCzxid();
        // The application's promise is its policy's (locksim's, scenarios/FORMAT.md): it acts
        // until SUSPENDED (2T/3 of silence), until LOST (one T later), or for ever (ignore:
        // locksim's 100 years); renewed by every reply the ZooKeeper client hears (extend).
        validityNs = "obey-suspended".equals(cfg.get("policy")) ? ttlMs * 2_000_000L / 3
                : "obey-lost".equals(cfg.get("policy")) ? ttlMs * 2_000_000L / 3 + ttlMs * 1_000_000L
                : 3_155_760_000_000_000_000L;
        long heard = lastHeardNs(zk);
        if (heard == 0) heard = System.nanoTime();   // disconnected already: the promise counts from now
        emit("grant", "\"session\":" + q(session) + ",\"value\":" + q(path) + ",\"token\":" + token
                + ",\"validity_ns\":" + validityNs + ",\"clock\":\"monotonic\"," + promise(heard));
        believingSession = session;
        pausePoint("acquired", "acquired");
        boolean believing = steps(session, token, path, rin, rout);
        endPromise();
        if (believing && stopState != null) {
            emit("belief-end", "\"session\":" + q(session) + ",\"reason\":\"validity-check\"");
            believing = false;
        }
        if (believing) {
            emit("release", "\"session\":" + q(session));
            emit("belief-end", "\"session\":" + q(session) + ",\"reason\":\"released\"");
            op = ++opCounter;
            emit("invoke", "\"op\":" + op + ",\"kind\":\"release\"");
            String outcome = "ok";
            try { mutex.release(); } catch (Exception e) { outcome = "fail"; }
            emit("complete", "\"op\":" + op + ",\"kind\":\"release\",\"outcome\":" + q(outcome));
            // The session the release returned on (dropped from the history, read by keys.py): the
            // lock node's own session means the release deleted it, not the session's expiry.
            emit("zk-session", "\"after\":\"release\",\"id\":"
                    + q(Long.toHexString(zk.getZookeeperClient().getZooKeeper().getSessionId())));
        }
    }

    static final Pattern VALUE = Pattern.compile("\"value\":\\s*(-?\\d+)");
    static final Pattern ACCEPTED = Pattern.compile("\"accepted\":\\s*(true|false)");

    /** The story's steps; false once a check found the policy's state (the belief ended there). */
    static boolean steps(String session, long token, String path, BufferedReader rin, Writer rout) throws Exception {
        long readValue = 0;
        for (String step : cfg.get("steps").split("\\|")) {
            String[] parts = step.trim().split("\\s+");
            String name = parts[0];
            String reply = null;
            if (name.equals("read") || name.equals("write")) {
                String req = "{\"op\":" + q(name) + ",\"client\":" + q(cfg.get("name")) + ",\"session\":" + q(session)
                        + ",\"token\":" + token + ",\"lock_value\":" + q(path)
                        + (name.equals("write") ? ",\"value\":" + (readValue + 1) : "") + "}\n";
                rout.write(req);
                rout.flush();
                reply = rin.readLine();
                Matcher m = VALUE.matcher(reply);
                if (name.equals("read") && m.find()) readValue = Long.parseLong(m.group(1));
            } else if (name.equals("work")) {
                Thread.sleep(durationMs(parts[1]));
            } else if (name.equals("check")) {
                if (stopState != null) {
                    endPromise();
                    emit("belief-end", "\"session\":" + q(session) + ",\"reason\":\"validity-check\"");
                    return false;
                }
            } else {
                throw new IllegalArgumentException("step " + name + ": not a step of the ZooKeeper client");
            }
            pausePoint(PHASE.get(name), name);
            pausePoint(name, name);
            if (reply != null) {
                Matcher a = ACCEPTED.matcher(reply);
                if (a.find() && a.group(1).equals("false")) return true;
            }
        }
        return true;
    }

    static synchronized void endPromise() { believingSession = null; }

    static String promise(long heardNs) {
        // lastHeard is in whole milliseconds of the same clock: the reply came within
        // [heard, heard + 1 ms), so both ends are written (docs/history.md).
        return "\"lease_end_local\":" + (heardNs + validityNs) + ",\"promised_end\":" + (heardNs + validityNs)
                + ",\"promised_end_latest\":" + (heardNs + 1_000_000 + validityNs);
    }

    /** When the ZooKeeper client last heard from the ensemble (ClientCnxnSocket.lastHeard, read by
     *  reflection, never written): the instant its read timeout, hence SUSPENDED, counts from. 0 unless
     *  the session's socket is up, before and after the read: on a read timeout the client closes the
     *  socket and then resets lastHeard, and again at its next TCP connect (to a cut link's silent
     *  proxy too), while its state still says CONNECTED — neither is hearing from the ensemble. */
    static long lastHeardNs(CuratorFramework zk) throws Exception {
        org.apache.zookeeper.ZooKeeper zoo = zk.getZookeeperClient().getZooKeeper();
        Object cnxn = field(org.apache.zookeeper.ZooKeeper.class, "cnxn").get(zoo);
        Object send = field(cnxn.getClass(), "sendThread").get(cnxn);
        Object sock = field(send.getClass(), "clientCnxnSocket").get(send);
        Class<?> socketClass = Class.forName("org.apache.zookeeper.ClientCnxnSocket");
        java.lang.reflect.Method up = socketClass.getDeclaredMethod("isConnected");
        up.setAccessible(true);
        if (!connected(zoo, up, sock)) return 0;
        long heard = field(socketClass, "lastHeard").getLong(sock);
        return connected(zoo, up, sock) ? heard * 1_000_000L : 0;
    }

    static boolean connected(org.apache.zookeeper.ZooKeeper zoo, java.lang.reflect.Method up, Object sock)
            throws Exception {
        return zoo.getState() == org.apache.zookeeper.ZooKeeper.States.CONNECTED && (Boolean) up.invoke(sock);
    }

    static java.lang.reflect.Field field(Class<?> c, String name) throws Exception {
        java.lang.reflect.Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }

    /** Emits an `extend` each time the client hears from the ensemble while a belief lasts. */
    static void watchLastHeard(CuratorFramework zk) {
        Thread t = new Thread(() -> {
            long seen = 0;
            for (;;) {
                try {
                    Thread.sleep(10);
                    long heard = lastHeardNs(zk);
                    // Under the lock that ends a belief: no extend after its belief-end.
                    synchronized (ZkClient.class) {
                        String session = believingSession;
                        if (session != null && heard > seen && seen != 0) {
                            emit("extend", "\"session\":" + q(session) + ",\"clock\":\"monotonic\"," + promise(heard));
                        }
                        seen = session == null ? 0 : Math.max(seen, heard);
                    }
                } catch (Exception e) {
                    // the connection is being replaced: read it again next time
                }
            }
        }, "last-heard");
        t.setDaemon(true);
        t.start();
    }

    static long durationMs(String text) {
        if (text.endsWith("ms")) return (long) Double.parseDouble(text.substring(0, text.length() - 2));
        if (text.endsWith("s")) return (long) (Double.parseDouble(text.substring(0, text.length() - 1)) * 1000);
        throw new IllegalArgumentException("not a duration: " + text);
    }
}
