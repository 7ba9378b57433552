'use strict';
// The semi-space lab's example: an allocation-heavy JSON service whose GC is mostly scavenges. Every
// request builds a few hundred small objects, holds them across a short timer (like I/O in flight,
// so they survive a scavenge that runs meanwhile), stringifies a subset, and keeps the last ~2000
// bodies in a Map (medium-lived data that gets promoted). With a bigger semi-space the new space
// fills less often: scavenges per 1,000 requests fall roughly in proportion to its size.
//
//   node alloc-service/server.js              listens on 127.0.0.1:3000 (PORT picks another port)
//   v8-lens sweep --url http://127.0.0.1:3000/ -- alloc-service/server.js
const http = require('node:http');

const port = Number(process.env.PORT ?? 3000);
const ITEMS = 300;
const KEEP = 2000;
const recent = new Map();
let served = 0;

function buildOrder(id) {
  const items = [];
  for (let i = 0; i < ITEMS; i++) {
    items.push({
      sku: `SKU-${(id * 31 + i) % 5000}`,
      qty: (i % 7) + 1,
      price: ((i * 13) % 1000) / 10,
      tags: ['a', 'b', String(i % 5)],
      meta: { line: i, warehouse: `W${i % 4}` },
    });
  }
  return { id, customer: `customer-${id % 977}`, items, createdAt: new Date().toISOString() };
}

function handle(req, res) {
  const id = ++served;
  const order = buildOrder(id);
  // Held across a timer, like a database call: these objects are alive when the next scavenge runs.
  setTimeout(() => {
    const big = order.items.filter((item) => item.qty > 3).slice(0, 40);
    const total = order.items.reduce((sum, item) => sum + item.qty * item.price, 0);
    const body = JSON.stringify({ id, customer: order.customer, total: Math.round(total * 100) / 100, big });
    recent.set(id, { body, items: big });
    if (recent.size > KEEP) recent.delete(id - KEEP);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  }, 2);
}

const server = http.createServer((req, res) => {
  try {
    handle(req, res);
  } catch (err) {
    res.writeHead(500);
    res.end(String(err));
  }
});

server.listen(port, '127.0.0.1', () => {
  console.log(`alloc-service listening on http://127.0.0.1:${server.address().port}`);
});

// Ctrl-C (or V8 Lens's stop) closes the server and lets the process end on its own.
process.on('SIGINT', () => {
  server.close();
  server.closeAllConnections?.();
});
