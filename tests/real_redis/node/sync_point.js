// A point inside a lock request at which the driver stops or kills this
// client (docs/real-redis.md): `acquire-sent` (the request is written to the
// socket, its reply not read), `setnx-ok` (SETNX answered, EXPIRE not sent).
//
// Why synchronous: at such a point the reply may already sit in the socket
// buffer. Waiting for the driver on stdin or a timer would hand control back
// to the event loop, which would read the reply (and the library would act on
// it) before the driver's SIGSTOP lands. So the client says where it is and
// then blocks the whole thread, polling for the driver's go file, without
// returning to the event loop: nothing it has not done yet can happen until
// the driver has stopped it, seen it stopped, written the file and continued
// it (a pause), or killed it (a crash: the file never comes).
'use strict';
const fs = require('fs');

const sleeper = new Int32Array(new SharedArrayBuffer(4));

function syncPoint(config, where) {
  process.stdout.write(JSON.stringify({ control: 'sync-point', at: where }) + '\n');
  // Pipes are written synchronously on Linux: the driver has the line now.
  while (!fs.existsSync(config.go_file)) Atomics.wait(sleeper, 0, 0, 1);
}

// Once per run: the phase fires at its first occurrence, as in locksim.
function pointOnce(config) {
  let reached = false;
  return (where) => {
    if (reached || config.sync_point !== where) return;
    reached = true;
    syncPoint(config, where);
  };
}

module.exports = { pointOnce };
