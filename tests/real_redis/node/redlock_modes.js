// Redlock at the `acquire-sent` point (redlock-delayed-replies): the client's
// SETs are on the wire to every node and it is stopped before it reads any
// reply, so the replies wait in its socket buffers (Kleppmann's example).
//
// node-redlock 4.2.0, unmodified: its try sends EVALSHA of its lock script to
// every node in one synchronous loop (redlock.js _lock: servers.forEach), and
// ioredis writes each to its socket at once when connected. The point is
// after the last of them is handed over — from inside the library's loop,
// blocking synchronously (sync_point.js), so no reply is read. Its scripts are
// loaded on every node before t0 (SCRIPT LOAD: a warm server): on a fresh one
// the first EVALSHA fails NOSCRIPT and the SET would only go out with the
// EVAL sent from that reply's callback, a second round trip the story does
// not have.
//
// The hand-written client stands for Kleppmann's naive one (locksim's
// redlock.check_validity = false): SET NX PX on every node at once, granted on
// a majority of OKs with no elapsed-time check; the lease is start + TTL -
// drift as node-redlock computes it; a failed try releases on every node and
// awaits the replies (as node-redlock 4.2.0) before the retry delay.
'use strict';
const crypto = require('crypto');
const { pointOnce } = require('./sync_point');

// The distlock page's release: delete the key only if it still holds our value.
const COMPARE_AND_DELETE = 'if redis.call("get", KEYS[1]) == ARGV[1] then '
  + 'return redis.call("del", KEYS[1]) else return 0 end';

async function watchNodeRedlock(clients, config) {
  const Redlock = require('redlock4');
  const scripts = new Redlock(clients).scripts;
  for (const client of clients) {
    for (const script of Object.values(scripts)) await client.script('load', script.value);
  }
  const point = pointOnce(config);
  let handed = 0;
  for (const client of clients) {
    const original = client.evalsha.bind(client);
    client.evalsha = function (...args) {
      // evalsha(HASH, [NUMKEYS, ...KEYS, ...ARGV], callback): the lock script
      // has two ARGV (value, ttl), the unlock script one.
      const flat = args.flat().filter((a) => typeof a !== 'function');
      const argv = flat.length - 2 - Number(flat[1]);
      const result = original(...args);
      if (argv === 2 && ++handed === clients.length) point('acquire-sent');
      return result;
    };
  }
}

async function releaseEverywhere(clients, config, value) {
  const replies = await Promise.all(clients.map((c) => c.eval(COMPARE_AND_DELETE, 1, config.key, value)
    .then((r) => Number(r) >= 1, () => false)));
  return replies.filter(Boolean).length >= Math.floor(clients.length / 2) + 1;
}

async function acquireNaive(clients, config, ctx) {
  const { runOver } = require('./modes');
  const point = pointOnce(config);
  const quorum = Math.floor(clients.length / 2) + 1;
  let attempts = 0;
  for (;;) {
    attempts++;
    const value = crypto.randomBytes(16).toString('hex');
    const op = ctx.nextOp();
    ctx.emit('invoke', { op, kind: 'acquire' });
    const start = Date.now();
    const sets = clients.map((c) => c.set(config.key, value, 'PX', config.ttl_ms, 'NX')
      .then((r) => r === 'OK', () => false));
    point('acquire-sent');
    const votes = (await Promise.all(sets)).filter(Boolean).length;
    if (votes >= quorum) {
      ctx.emit('complete', { op, kind: 'acquire', outcome: 'ok' });
      const drift = Math.round(config.drift_factor * config.ttl_ms) + 2;
      return { value, expiration: start + config.ttl_ms - drift,
        release: () => releaseEverywhere(clients, config, value) };
    }
    await releaseEverywhere(clients, config, value);
    ctx.emit('complete', { op, kind: 'acquire', outcome: 'fail' });
    if (config.retry_count >= 0 && attempts > config.retry_count) return null;
    if (runOver(config, config.retry_delay_ms)) return ctx.endOfRun();
    await ctx.sleep(config.retry_delay_ms);
  }
}

module.exports = { watchNodeRedlock, acquireNaive, COMPARE_AND_DELETE };
