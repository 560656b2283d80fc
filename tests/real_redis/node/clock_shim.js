// Preloaded with `node --require` into a client: moves its Date.now() (the
// wall clock node-redlock times its leases by) by the offset, in
// milliseconds, that the driver writes into LOCKSIM_CLOCK_OFFSET_FILE. The
// file is read on every call, so a step lands the moment the driver writes
// it; process.hrtime (CLOCK_MONOTONIC, the records' common clock) is
// untouched. Without the variable, Date.now() is the system's.
'use strict';
const fs = require('fs');

const offsetFile = process.env.LOCKSIM_CLOCK_OFFSET_FILE;
if (offsetFile) {
  const systemNow = Date.now;
  Date.now = function shiftedNow() {
    let offsetMs = 0;
    try {
      offsetMs = Number(fs.readFileSync(offsetFile, 'utf8').trim()) || 0;
    } catch (e) {
      // No file yet: no offset.
    }
    return systemNow() + offsetMs;
  };
}
