// A session's steps against the protected resource (docs/real-redis.md),
// required by client.js: the ops of locksim's workload (sim/workload/
// workload.cc) — read, write, mark, add, increment-size, add-and-increment,
// commit — and its work and check steps, each request carrying the session,
// its fencing token and its random lock value (the mark of unique-token-cas).
//
// A pause fault names a phase (`c1 added`), not a step: the phase a step
// reaches once its reply is in (sim/workload/step.cc), so the map below is
// locksim's. `acquired` is reached right after the grant, before any step
// (pauseAtGrant).
'use strict';

const PHASE_OF_STEP = {
  read: 'read', write: 'wrote', increment: 'wrote', mark: 'marked', add: 'added',
  'add-and-increment': 'added', commit: 'committed', 'increment-size': 'incremented-size',
  work: 'worked', check: 'checked',
};
const RESOURCE_OPS = new Set(['read', 'write', 'mark', 'add', 'increment-size', 'add-and-increment', 'commit']);

// The point is said once per run, as a locksim phase fault fires at its
// first occurrence: a client that does its update again after a rollback
// passes `added` a second time without stopping.
function pauseOnce(config, pausePoint) {
  let done = false;
  return async (phase, step) => {
    if (done || config.pause_after !== phase) return;
    done = true;
    await pausePoint(step);
  };
}

function parseDurationMs(text) {
  const m = /^([0-9.]+)(ms|s)$/.exec(text || '');
  if (!m) throw new Error(`not a duration: ${text}`);
  return Number(m[1]) * (m[2] === 's' ? 1000 : 1);
}

// Runs the session's steps. Returns how it ended: `believing` (no check
// found the lease over) and `rolledBack` (a transactional commit was rolled
// back: the client gives the lock back and does the cycle again, as
// locksim's client retries a transaction).
async function runSteps(s) {
  const { config, resource, lock, session, token, emit, sleep, pause } = s;
  let readValue = null;
  for (const step of config.steps) {
    const [name, arg] = step.split(/\s+/);
    let reply = null;
    if (RESOURCE_OPS.has(name)) {
      const request = { op: name, client: config.name, session, token, lock_value: lock.value };
      // A write sets the value the client computed from its read (1 with no read: a register).
      if (name === 'write') request.value = (readValue || 0) + 1;
      reply = await resource.request(request);
      if (name === 'read') readValue = reply.value;
    } else if (name === 'work') {
      await sleep(parseDurationMs(arg));
    } else if (name === 'check') {
      if (Date.now() >= lock.expiration) {
        emit('belief-end', { session, reason: 'validity-check' });
        return { believing: false, rolledBack: false };
      }
    } else {
      throw new Error(`step ${name}: not a step of the real client`);
    }
    // The old spelling, a step's own name, still names its point (`c1 read`).
    await pause(PHASE_OF_STEP[name], name);
    await pause(name, name);
    if (reply && !reply.accepted) return { believing: true, rolledBack: reply.reject === 'rolled-back' };
  }
  return { believing: true, rolledBack: false };
}

module.exports = { runSteps, pauseOnce };
