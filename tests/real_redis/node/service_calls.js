// The step `call NAME` (docs/real-redis.md): a call to the story's service
// NAME (realredis/service_process.py), one JSON line out, the same id back
// once the service has answered. One connection per service, opened when the
// client starts, before t0, so that no connect is part of the story; a call
// made while the service is stopped waits in the kernel until it is
// continued, as the story's stall means.
//
// `call 2s` (a latency, no service) is a wait, as locksim runs a call whose
// NAME is no service (sim/workload/workload.cc).
'use strict';
const net = require('net');
const readline = require('readline');

function connectOne(port) {
  const socket = net.connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  const lines = readline.createInterface({ input: socket });
  const waiting = new Map();
  let nextId = 0;
  lines.on('line', (line) => {
    const { id } = JSON.parse(line);
    const resolve = waiting.get(id);
    waiting.delete(id);
    if (resolve) resolve();
  });
  return {
    call() {
      const id = ++nextId;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        socket.write(JSON.stringify({ id }) + '\n');
      });
    },
  };
}

// ports: { NAME: port } from the driver (realredis/services.py).
function connect(ports) {
  const byName = {};
  for (const [name, port] of Object.entries(ports || {})) byName[name] = connectOne(port);
  return byName;
}

function parseDurationMs(text) {
  const m = /^([0-9.]+)(ms|s)$/.exec(text || '');
  if (!m) throw new Error(`call ${text}: neither a service of the story nor a duration`);
  return Number(m[1]) * (m[2] === 's' ? 1000 : 1);
}

// The step: resolves once the service answered (or the latency passed).
function call(services, name, sleep) {
  if (services[name]) return services[name].call();
  return sleep(parseDurationMs(name));
}

module.exports = { connect, call };
