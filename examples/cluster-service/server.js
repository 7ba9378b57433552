'use strict';
// A JSON API run as a `node:cluster` service: a primary and 3 workers sharing one port, the way many
// production services use every core. Each worker builds short-lived objects per request, so each
// one collects garbage on its own; the primary only supervises (it is nearly idle). V8 Lens profiles
// all four processes: pick one in the report, or read the whole service at once.
//
// PORT picks the port (default: any free one, chosen by the primary); WORKERS the number of workers.
const cluster = require('node:cluster');
const http = require('node:http');
const net = require('node:net');

const WORKERS = Number(process.env.WORKERS ?? 3);

if (cluster.isPrimary) {
  startPrimary();
} else {
  startWorker(Number(process.env.PORT));
}

async function startPrimary() {
  const port = Number(process.env.PORT ?? 0) || (await freePort());
  let listening = 0;
  for (let i = 0; i < WORKERS; i++) {
    cluster.fork({ PORT: String(port) }).on('listening', () => {
      if (++listening === WORKERS) console.log(`cluster of ${WORKERS} workers listening on http://127.0.0.1:${port}/orders`);
    });
  }
  // Stop: the workers first, then the primary (its CPU profile is written on a normal exit).
  const stop = () => {
    for (const worker of Object.values(cluster.workers)) worker.process.kill('SIGTERM');
    cluster.on('exit', () => {
      if (Object.keys(cluster.workers).length === 0) process.exit(0);
    });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

function startWorker(port) {
  let served = 0;
  const server = http.createServer((req, res) => {
    const body = JSON.stringify(ordersPage(++served));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  server.listen(port, '127.0.0.1');
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
}

function ordersPage(page) {
  const orders = [];
  for (let i = 0; i < 200; i++) {
    const lines = [];
    for (let j = 0; j < 5; j++) lines.push({ sku: `SKU-${(page * 7 + i * 5 + j) % 997}`, qty: (j % 3) + 1, price: ((i + j) % 50) / 2 });
    orders.push({ id: page * 200 + i, lines, total: lines.reduce((sum, l) => sum + l.qty * l.price, 0) });
  }
  return { page, orders: orders.slice(0, 10), count: orders.length };
}

/** A port nobody uses now, so the workers can share a known one. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
