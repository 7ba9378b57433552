'use strict';
// Waiting helpers shared by the in-host test files (not a test file: index.js loads *.test.js only).
const assert = require('node:assert/strict');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls fn until it returns something truthy; fails with what it waited for and the last value. */
async function until(fn, what, timeout = 30_000) {
  const deadline = Date.now() + timeout;
  let last;
  while (Date.now() < deadline) {
    last = await fn();
    if (last) return last;
    await sleep(100);
  }
  assert.fail(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
}

module.exports = { sleep, until };
