'use strict';
// An allocation-heavy JSON API, the kind of service whose scavenges dominate its GC: every request
// builds a few hundred short-lived objects, holds them across an await (like I/O in flight), and
// keeps a window of recent responses in a cache (medium-lived data that gets promoted).
//
// PORT picks the port (default: any free one). DEMO_TRAFFIC=1 starts a small load generator in a
// separate process so there is something to profile without any other tool.
const http = require('node:http');
const { spawn } = require('node:child_process');
const { join } = require('node:path');

const recent = new Map();
let served = 0;

function buildOrder(id) {
  const lines = [];
  for (let i = 0; i < 300; i++) {
    lines.push({ sku: `SKU-${(id * 31 + i) % 5000}`, qty: (i % 7) + 1, price: ((i * 13) % 1000) / 10, tags: ['a', 'b', String(i % 5)] });
  }
  return { id, customer: `customer-${id % 977}`, lines, createdAt: new Date().toISOString() };
}

function summarize(order) {
  const total = order.lines.reduce((sum, line) => sum + line.qty * line.price, 0);
  const bySku = order.lines.filter((line) => line.qty > 3).map((line) => ({ sku: line.sku, amount: line.qty * line.price }));
  return { id: order.id, customer: order.customer, total: Math.round(total * 100) / 100, big: bySku.slice(0, 20) };
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function handle(req, res) {
  const id = ++served;
  const order = buildOrder(id);
  await delay(2); // a database call, say
  const body = JSON.stringify(summarize(order));
  recent.set(id, body);
  if (recent.size > 2000) recent.delete(id - 2000);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(body);
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((err) => {
    res.writeHead(500);
    res.end(String(err));
  });
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const { port } = server.address();
  console.log(`listening on http://127.0.0.1:${port}`);
  if (process.env.DEMO_TRAFFIC === '1') {
    const traffic = spawn(process.execPath, [join(__dirname, 'traffic.js'), String(port)], { stdio: 'inherit' });
    process.on('exit', () => traffic.kill());
  }
});
