// The lock clients of the rows whose story is about how the lock is taken or
// given back (docs/real-redis.md), required by client.js when the driver's
// config says `modes`:
//
// - the plain single-node client with the scenario's acquire, release and
//   fencing styles (sim/lock/single_node_lock.cc, sim/lock/styles.h):
//   `set-nx-px` (SET NX PX, one command) or `setnx-then-expire` (SETNX, then
//   EXPIRE in seconds as a second command); release `compare-and-delete` (the
//   distlock page's script) or `del` (a plain DEL of whoever's key is there);
//   fencing `incr-in-script` (SET NX PX and INCR in one Lua script; `incr`, a
//   second round trip after the grant, stays client.js's);
// - the points inside a request where the driver stops or kills the client
//   (sync_point.js): `acquire-sent` and `setnx-ok`, as locksim's phases;
// - node-redlock 4.2.0 with its `acquire-sent` point, and a hand-written
//   Redlock client without the validity check (redlock_modes.js).
//
// A client that never gets the lock stops trying at the end of the run, as
// locksim's do (the run ends; the client neither gives up nor is granted).
'use strict';
const crypto = require('crypto');
const { pointOnce } = require('./sync_point');
const redlockModes = require('./redlock_modes');

const { COMPARE_AND_DELETE } = redlockModes;

// The token is the INCR's result, taken only if the SET took the lock.
const LOCK_AND_INCR = 'if redis.call("set", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then '
  + 'return redis.call("incr", KEYS[2]) else return 0 end';

async function prepare(config, clients) {
  if (config.lib === 'redlock4' && config.sync_point) await redlockModes.watchNodeRedlock(clients, config);
}

// Whether this module takes the lock (else client.js's own path does).
const takesLock = (config) => config.lib === 'plain' || config.lib === 'naive-redlock';

function acquire(config, clients, ctx) {
  if (config.lib === 'naive-redlock') return redlockModes.acquireNaive(clients, config, ctx);
  return acquirePlain(clients[0], config, ctx);
}

// Stops before a retry that would start after the run's end.
function runOver(config, delayMs) {
  return process.hrtime.bigint() + BigInt(delayMs) * 1000000n >= BigInt(config.run_until_ns);
}

async function acquirePlain(redis, config, ctx) {
  const point = pointOnce(config);
  const value = crypto.randomBytes(10).toString('hex');
  let attempts = 0;
  for (;;) {
    attempts++;
    const op = ctx.nextOp();
    // The lease is timed from just before the request, on the wall clock.
    const startMs = Date.now();
    ctx.emit('invoke', { op, kind: 'acquire' });
    let result;
    try {
      result = await tryOnce(redis, config, value, point);
    } catch (e) {
      result = { outcome: 'info' };    // no reply: the command may have run
    }
    ctx.emit('complete', { op, kind: 'acquire', outcome: result.outcome });
    // Behind Sentinel: where is the master now? (sentinel_follow.js; not awaited, as locksim's client asks)
    if (result.outcome !== 'ok' && redis.lockAttemptFailed) redis.lockAttemptFailed();
    if (result.outcome === 'ok') {
      return { value, expiration: startMs + config.ttl_ms, token: result.token,
        release: () => releasePlain(redis, config, value) };
    }
    if (config.retry_count >= 0 && attempts > config.retry_count) return null;
    if (runOver(config, config.retry_delay_ms)) return ctx.endOfRun();
    await ctx.sleep(config.retry_delay_ms);
  }
}

// One try. ioredis writes a command to the socket synchronously when the
// connection is up, so the point after the call is after the request left.
async function tryOnce(redis, config, value, point) {
  if (config.acquire_style === 'setnx-then-expire') {
    const setnx = redis.setnx(config.key, value);
    point('acquire-sent');
    if (Number(await setnx) !== 1) return { outcome: 'fail' };
    // The window of the mistake: the key exists with no TTL.
    point('setnx-ok');
    const expire = redis.expire(config.key, Math.floor(config.ttl_ms / 1000));
    return { outcome: Number(await expire) === 1 ? 'ok' : 'fail' };
  }
  if (config.fencing_style === 'incr-in-script') {
    const script = redis.eval(LOCK_AND_INCR, 2, config.key, config.fence_key, value, config.ttl_ms);
    point('acquire-sent');
    const token = Number(await script);
    return token >= 1 ? { outcome: 'ok', token } : { outcome: 'fail' };
  }
  const set = redis.set(config.key, value, 'PX', config.ttl_ms, 'NX');
  point('acquire-sent');
  return { outcome: (await set) === 'OK' ? 'ok' : 'fail' };
}

async function releasePlain(redis, config, value) {
  try {
    const deleted = config.release_style === 'del' ? await redis.del(config.key)
      : await redis.eval(COMPARE_AND_DELETE, 1, config.key, value);
    return Number(deleted) >= 1;
  } catch (e) {
    return false;
  }
}

module.exports = { prepare, takesLock, acquire, runOver };
