// The no-lock baseline (lock.protocol "none", sim/lock/no_lock.h): nothing
// to ask, so every acquire is granted at once, with a lease no run outlives,
// and every release succeeds. locksim writes 100 years on its clock that
// starts at 0; this client's clock is the wall clock, whose 100 years past
// 2026 lie beyond the ±2^62 ns a history holds: 50 years here. The story is
// then the resource's alone: with no lock, every client "holds" from its
// start, which is how locksim's history says it (P1-P4 judge a lock).
'use strict';
const crypto = require('crypto');

const LEASE_MS = 1577880000000;     // 50 years of 365.25 days

function acquireNone(ctx) {
  const op = ctx.nextOp();
  ctx.emit('invoke', { op, kind: 'acquire' });
  const expiration = Date.now() + LEASE_MS;
  ctx.emit('complete', { op, kind: 'acquire', outcome: 'ok' });
  return { value: crypto.randomBytes(10).toString('hex'), expiration, release: async () => true };
}

module.exports = { acquireNone };
