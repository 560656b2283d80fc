// One lock client of the real-Redis referee (docs/real-redis.md): takes the
// lock with a real library, unmodified — node-redlock 4.2.0, node-redlock
// 5.0.0-beta.2, or a plain SET NX PX client for the single-node stories that
// are not about node-redlock — does the story's steps against the resource,
// and releases. It prints its history events (docs/history.md) as JSON lines
// on stdout: `t` is CLOCK_MONOTONIC (process.hrtime.bigint(), the driver's
// time.monotonic_ns()), `local` is its own wall clock, Date.now(), the clock
// node-redlock times its leases by (moved by clock_shim.js when preloaded).
//
// Usage: node client.js CONFIG_JSON   (the driver writes the config; see
// tests/real_redis/referee/clients.py for its fields)
'use strict';
const crypto = require('crypto');
const net = require('net');
const readline = require('readline');
const Redis = require('ioredis');
const modes = require('./modes');   // acquire/release styles, stop points inside a request
const steps = require('./resource_steps');   // the session's steps against the resource
const { acquireNone } = require('./no_lock');   // lock.protocol none
const { followedMaster } = require('./sentinel_follow');   // a master behind Sentinel

const config = JSON.parse(process.argv[2]);
const MS = 1000000n;

function emit(type, fields) {
  const t = process.hrtime.bigint();
  const local = BigInt(Date.now()) * MS;
  const record = Object.assign({ t: Number(t), p: config.name, local: Number(local), type }, fields || {});
  process.stdout.write(JSON.stringify(record) + '\n');
}

// A grant's promised end on the common clock: the monotonic instant at which
// this process's Date.now() reads the lease end. Read together now; valid as
// long as the clock is not stepped before then, which the driver knows and
// corrects (it rewrites promised_end when it steps this client's clock).
// Date.now() truncates to the millisecond: the true wall reading is in
// [wallMs, wallMs + 1 ms), so the end lies within the last millisecond
// before t + (lease end - wallMs): both ends are written, never a guess
// between them (docs/history.md, promised_end_latest).
function promisedEnd(leaseEndMs) {
  const t = process.hrtime.bigint();
  const wallMs = BigInt(Date.now());
  const latest = t + (BigInt(leaseEndMs) - wallMs) * MS;
  return { promised_end: Number(latest - MS), promised_end_latest: Number(latest) };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// The plain client's retry delay: drawn from [delay - jitter, delay + jitter]
// as node-redlock draws its own (the scenario's uniform(a, b)).
const retryDelayMs = () => config.retry_delay_ms + (config.retry_jitter_ms || 0) * (2 * Math.random() - 1);

// --- the resource: one JSON line per request, one per reply ---
function resourceConnection(port) {
  const socket = net.connect(port, '127.0.0.1');
  const lines = readline.createInterface({ input: socket });
  const waiting = [];
  lines.on('line', (line) => waiting.shift()(JSON.parse(line)));
  return {
    request(body) {
      return new Promise((resolve) => {
        waiting.push(resolve);
        socket.write(JSON.stringify(body) + '\n');
      });
    },
    close() { socket.end(); },
  };
}

// --- waiting for the driver at a pause point ---
const stdinLines = readline.createInterface({ input: process.stdin });
const stdinWaiters = [];
stdinLines.on('line', () => { const w = stdinWaiters.shift(); if (w) w(); });
function pausePoint(step) {
  // The driver stops this process (SIGSTOP), sees it stopped in /proc, then
  // writes the line this waits for: it can only be read once continued, so
  // the pause lands exactly between two steps.
  return new Promise((resolve) => {
    stdinWaiters.push(resolve);
    process.stdout.write(JSON.stringify({ control: 'pause-point', after: step }) + '\n');
  });
}

function makeRedis(port) {
  if ((config.cut_ports || []).includes(port)) {
    // A node this client is partitioned from: nothing listens on the port. No
    // reconnecting and no offline queue, so every request to it fails at once,
    // as a lost request fails once the node timeout runs out — rather than after
    // a reconnect delay that would shift the whole story.
    return new Redis({ host: '127.0.0.1', port, lazyConnect: false, enableOfflineQueue: false,
      retryStrategy: () => null, enableReadyCheck: false });
  }
  return new Redis({ host: '127.0.0.1', port, lazyConnect: false, enableOfflineQueue: true,
    maxRetriesPerRequest: 1, retryStrategy: () => 100, enableReadyCheck: false });
}

// --- the three ways to take the lock ---
let opCounter = 0;
const nextOp = () => ++opCounter;

// Notes each script reply of node-redlock's tries, so that a story can pause
// the client right after a failed try ("c2 acquire-failed"), as locksim's
// phase fires: once the try is over. A try has failed once more nodes refused
// than a quorum can spare; 5.0.0-beta.2 returns from the try then and starts
// its retry timer, 4.2.0 first releases on every node and awaits every reply
// (its cleanup), so for it the try is over with the last cleanup reply.
function watchTries(clients, lib, onTryFailedNow) {
  // Said from setImmediate: after this turn's I/O callbacks and promise
  // continuations, in which the library decides the try failed and sets
  // its retry timer — so the pause comes after that timer is set, as the
  // phase does in locksim, and the timer runs down during the pause.
  const onTryFailed = () => setImmediate(onTryFailedNow);
  const n = clients.length;
  const spare = n - (Math.floor(n / 2) + 1);
  let replies = 0;
  let refusals = 0;
  let cleanupReplies = -1;     // -1: no failed try awaiting its cleanup
  const tryFailed = () => { if (lib === 'redlock5') onTryFailed(); else cleanupReplies = 0; };
  for (const client of clients) {
    for (const method of ['eval', 'evalsha']) {
      const original = client[method].bind(client);
      client[method] = function (...args) {
        // evalsha/eval(SCRIPT, NUMKEYS, ...KEYS, ...ARGV[, callback]), flattened:
        // the acquire script has two ARGV (value, duration), release one.
        const flat = args.flat().filter((a) => typeof a !== 'function');
        const argv = flat.length - 2 - Number(flat[1]);
        const result = original(...args);
        if (!granted && result && result.then) {
          result.then((reply) => {
            if (argv === 2) {
              replies++;
              if (Number(reply) === 0 || reply === null) refusals++;
              if (refusals === spare + 1) tryFailed();
              if (replies === n) { replies = 0; refusals = 0; }
            } else if (argv === 1 && cleanupReplies >= 0 && ++cleanupReplies === n) {
              cleanupReplies = -1;
              onTryFailed();
            }
          }, () => {});
        }
        return result;
      };
    }
  }
}
let granted = false;

async function acquirePlain(redis) {
  // SET key value NX PX ttl every retry_delay until it answers OK (the
  // scenario's single-node protocol); the lease is timed from just before
  // the request, on the wall clock, with no drift allowance.
  const value = crypto.randomBytes(10).toString('hex');
  let attempts = 0;
  for (;;) {
    attempts++;
    const op = nextOp();
    const startMs = Date.now();
    emit('invoke', { op, kind: 'acquire' });
    let reply;
    try {
      reply = await redis.set(config.key, value, 'PX', config.ttl_ms, 'NX');
    } catch (e) {
      emit('complete', { op, kind: 'acquire', outcome: 'info' });
      reply = undefined;
    }
    if (reply === 'OK') {
      emit('complete', { op, kind: 'acquire', outcome: 'ok' });
      return { value, expiration: startMs + config.ttl_ms, release: () => releasePlain(redis, value) };
    }
    if (reply === null) emit('complete', { op, kind: 'acquire', outcome: 'fail' });
    if (config.retry_count >= 0 && attempts > config.retry_count) return null;
    await sleep(retryDelayMs());
  }
}

const COMPARE_AND_DELETE = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';
async function releasePlain(redis, value) {
  return Number(await redis.eval(COMPARE_AND_DELETE, 1, config.key, value)) === 1;
}

async function acquireRedlock(clients) {
  const op = nextOp();
  emit('invoke', { op, kind: 'acquire' });
  const settings = { driftFactor: config.drift_factor, retryCount: config.retry_count,
    retryDelay: config.retry_delay_ms, retryJitter: config.retry_jitter_ms };
  try {
    if (config.lib === 'redlock4') {
      const Redlock = require('redlock4');
      const redlock = new Redlock(clients, settings);
      redlock.on('clientError', () => {});
      const lock = await redlock.lock(config.key, config.ttl_ms);
      emit('complete', { op, kind: 'acquire', outcome: 'ok' });
      return { value: lock.value, expiration: lock.expiration, release: () => lock.unlock().then(() => true, () => false) };
    }
    const Redlock = require('redlock5').default;
    const redlock = new Redlock(clients, settings);
    redlock.on('error', () => {});
    const lock = await redlock.acquire([config.key], config.ttl_ms);
    emit('complete', { op, kind: 'acquire', outcome: 'ok' });
    return { value: lock.value, expiration: lock.expiration, release: () => lock.release().then(() => true, () => false) };
  } catch (e) {
    // A LockError/ExecutionError: the tries ran out (every try was answered).
    emit('complete', { op, kind: 'acquire', outcome: 'fail' });
    return null;
  }
}

async function main() {
  const clients = config.follow ? [followedMaster(config)] : config.nodes.map(makeRedis);
  const resource = resourceConnection(config.resource_port);
  steps.connectServices(config);     // the story's called services (service_calls.js), before t0
  let pauseRequested = false;
  if (config.pause_after === 'acquire-failed') {
    watchTries(clients, config.lib, () => {
      if (pauseRequested) return;
      pauseRequested = true;
      process.stdout.write(JSON.stringify({ control: 'try-failed' }) + '\n');
    });
  }
  if (config.modes) await modes.prepare(config, clients);
  // Begin on the common clock at the story's start time.
  // A timer may fire up to a millisecond early on the monotonic clock
  // (libuv keeps time in milliseconds): finish the wait turn by turn, so
  // that nothing is recorded before t0 + start.
  const startAt = BigInt(config.start_at_ns);
  const waitMs = Number(startAt - process.hrtime.bigint()) / 1e6;
  if (waitMs > 1) await sleep(waitMs - 1);
  while (process.hrtime.bigint() < startAt) await new Promise((resolve) => setImmediate(resolve));

  const pause = steps.pauseOnce(config, pausePoint);
  // A rolled-back transaction: the lock given back, the whole cycle again
  // after the retry delay, in a new session (locksim's retry_cycle). A
  // client with `iterations` does its cycle that many times, `think` apart.
  let cycle = 0;
  for (let iteration = 1; iteration <= (config.iterations || 1); iteration++) {
    if (iteration > 1) await sleep(config.think_ms || 0);
    for (;;) {
      cycle++;
      const again = await runCycle(clients, resource, `${config.name}-${cycle}`, pause);
      if (again === null) return finish(clients, resource);
      if (!again) break;
      await sleep(retryDelayMs());   // drawn as each try's is: locksim samples retry_delay per cycle
    }
  }
  return finish(clients, resource);
}

// One cycle: want, take the lock, the steps, the release. True: do it again
// (rolled back); false: this cycle is done; null: gave up, the client is done.
async function runCycle(clients, resource, session, pause) {
  emit('want');
  const ctx = { emit, nextOp, sleep, endOfRun: () => finish(clients, resource) };
  const lock = config.lib === 'none' ? acquireNone(ctx)
    : config.modes && modes.takesLock(config) ? await modes.acquire(config, clients, ctx)
      : config.lib === 'plain' ? await acquirePlain(clients[0]) : await acquireRedlock(clients);
  if (!lock) {
    emit('give-up');
    return null;       // the client is done: no more cycles
  }
  granted = true;
  let token = lock.token === undefined ? -1 : lock.token;   // a token taken with the lock (modes.js)
  if (config.fencing) {
    // The fencing token: INCR on the first node, right after the grant.
    const op = nextOp();
    emit('invoke', { op, kind: 'fencing-token' });
    token = Number(await clients[0].incr(config.fence_key));
    emit('complete', { op, kind: 'fencing-token', outcome: 'ok' });
  }
  const validityMs = lock.expiration - Date.now();
  emit('grant', { session, value: lock.value, token, validity_ns: validityMs * 1e6, clock: 'wall',
    lease_end_local: lock.expiration * 1e6, ...promisedEnd(lock.expiration) });
  await pause('acquired', 'acquired');

  const { believing, rolledBack } = await steps.runSteps(
    { config, resource, lock, session, token, emit, sleep, pause });
  if (believing && config.release) {
    // The belief ends as the release is sent, as locksim's client's does: from
    // then on the client acts as holder no more. Ended at the reply instead, it
    // would overlap the next holder's grant by the reply's round trip.
    emit('release', { session });
    emit('belief-end', { session, reason: 'released' });
    const op = nextOp();
    emit('invoke', { op, kind: 'release' });
    const ok = await lock.release();
    emit('complete', { op, kind: 'release', outcome: ok ? 'ok' : 'fail' });
  } else if (believing) {
    emit('belief-end', { session, reason: 'abandoned' });
  }
  return rolledBack;
}

function finish(clients, resource) {
  for (const c of clients) c.disconnect();
  resource.close();
  stdinLines.close();
  process.stdout.write(JSON.stringify({ control: 'done' }) + '\n');
  // Pipes are written synchronously on Linux: nothing is lost by leaving now
  // rather than when every handle has wound down.
  process.exit(0);
}

main().catch((e) => {
  process.stderr.write(`client ${config.name}: ${e.stack || e}\n`);
  process.exit(3);
});
