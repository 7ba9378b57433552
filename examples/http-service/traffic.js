'use strict';
// A tiny closed-loop load generator for the demo: 16 keep-alive connections to the service on
// loopback, as fast as it answers. Runs until the service goes away (or 10 minutes at most).
const http = require('node:http');

const port = Number(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
const deadline = Date.now() + 10 * 60 * 1000;
let done = 0;

function fire() {
  if (Date.now() > deadline) process.exit(0);
  const req = http.get({ host: '127.0.0.1', port, path: `/orders/${done}`, agent }, (res) => {
    res.resume();
    res.on('end', () => {
      done++;
      fire();
    });
  });
  req.on('error', () => process.exit(0)); // the service stopped: so do we
}

for (let i = 0; i < 16; i++) fire();
setInterval(() => console.log(`demo traffic: ${done} requests`), 5000).unref();
