'use strict';
// The case V8 Lens's young-generation prediction was built for, in small: a `node:cluster` service
// whose scavenges cost much of its time because each request's data is still alive when they run.
// A request parses a page of rows, keeps half of them across a few ms of I/O (a database call), then
// answers from them and keeps a short summary in a small cache. With V8's default semi-space the young
// generation is full of request data in flight: every scavenge copies it, and scavenges come often.
// A bigger young generation fills less often and copies the same in-flight data each time, so the
// young-GC pause per request falls; beyond that size it has little left to gain.
//
//   node young-gen-service/server.js        2 workers on http://127.0.0.1:3100/ (PORT, WORKERS)
//   v8-lens profile --url auto -- young-gen-service/server.js, then v8-lens predict <run>
//   and v8-lens sweep --from-run <run> (or the report's "Confirm in the Semi-space Lab")
const cluster = require('node:cluster');
const http = require('node:http');
const { setTimeout: sleep } = require('node:timers/promises');

const PORT = Number(process.env.PORT ?? 3100);
const WORKERS = Number(process.env.WORKERS ?? 2);
/** Rows a request parses, and the milliseconds its I/O takes. */
const ROWS = 6000;
const IO_MS = 4;
/** Summaries the cache keeps (the oldest goes first). */
const CACHE = 500;

if (cluster.isPrimary) {
  let listening = 0;
  for (let i = 0; i < WORKERS; i++) {
    cluster.fork().on('listening', () => {
      if (++listening === WORKERS) console.log(`young-gen-service: ${WORKERS} workers on http://127.0.0.1:${PORT}/`);
    });
  }
  const stop = () => {
    for (const worker of Object.values(cluster.workers)) worker.process.kill('SIGTERM');
    cluster.on('exit', () => {
      if (Object.keys(cluster.workers).length === 0) process.exit(0);
    });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
} else {
  const cache = new Map();
  let served = 0;

  /** The request's rows, as a body parser would give them. */
  function parseRows(id) {
    const rows = [];
    for (let i = 0; i < ROWS; i++) rows.push({ id, line: i, sku: (id * 31 + i) % 5000, qty: (i % 7) + 1, price: ((i * 13) % 1000) / 10 });
    return rows;
  }

  async function handle(req, res) {
    const id = ++served;
    // Half of the rows are needed after the I/O: they are alive when a scavenge runs meanwhile.
    const open = parseRows(id).filter((row) => row.line % 2 === 0);
    await sleep(IO_MS);
    let total = 0;
    for (let i = 0; i < open.length; i++) total += open[i].qty * open[i].price;
    const summary = { id, rows: open.length, total: Math.round(total) };
    cache.set(id, summary);
    if (cache.size > CACHE) cache.delete(cache.keys().next().value);
    const body = JSON.stringify(summary);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      res.writeHead(500);
      res.end(String(err));
    });
  });
  server.listen(PORT, '127.0.0.1');
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
  process.once('SIGINT', () => server.close(() => process.exit(0)));
}
