// A session's steps against the protected resource (docs/real-redis.md),
// required by client.js: the ops of locksim's workload (sim/workload/
// workload.cc) — read, write, mark, add, increment-size, add-and-increment,
// decrement, check-and-decrement, commit — and its work, call and check steps, each request carrying the session,
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
  work: 'worked', check: 'checked', call: 'called', decrement: 'decremented', 'check-and-decrement': 'decremented',
};
const RESOURCE_OPS = new Set(['read', 'write', 'mark', 'add', 'increment-size', 'add-and-increment', 'commit',
  'decrement', 'check-and-decrement']);
const serviceCalls = require('./service_calls');
let services = {};     // NAME -> connection, opened by connectServices before t0

// The point is said once per run, as a locksim phase fault fires once: at
// the `occurrence`-th time the client reaches the phase (1 unless the fault
// says; sim/world/trigger.cc counts every reach, a cycle done again after a
// rollback included), and never again after it.
function pauseOnce(config, pausePoint) {
  let done = false;
  let seen = 0;
  return async (phase, step) => {
    if (done || config.pause_after !== phase) return;
    if (++seen < (config.pause_occurrence || 1)) return;
    done = true;
    await pausePoint(step);
  };
}

function connectServices(config) {
  services = serviceCalls.connect(config.services);
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
      // GET-compare-DECR: the compare is the client's, on what it read (which
      // may be stale); with nothing left it sells nothing and goes on, as
      // locksim's client does — no request, no phase reached.
      if (name === 'decrement' && !(readValue > 0)) continue;
      reply = await resource.request(request);
      if (name === 'read') readValue = reply.value;
    } else if (name === 'work') {
      await sleep(parseDurationMs(arg));
    } else if (name === 'call') {
      await serviceCalls.call(services, arg, sleep);
    } else if (name === 'check') {
      if (Date.now() >= lock.expiration) {
        emit('belief-end', { session, reason: 'validity-check' });
        return { believing: false, rolledBack: false };
      }
    } else {
      throw new Error(`step ${name}: not a step of the real client`);
    }
    // The old spelling, a step's own name, still names its point (`c1 read`);
    // once when the two are the same, so that an occurrence counts one reach.
    await pause(PHASE_OF_STEP[name], name);
    if (PHASE_OF_STEP[name] !== name) await pause(name, name);
    if (reply && !reply.accepted) return { believing: true, rolledBack: reply.reject === 'rolled-back' };
  }
  return { believing: true, rolledBack: false };
}

module.exports = { runSteps, pauseOnce, connectServices };
