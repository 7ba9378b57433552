/**
 * The check before the measured window: a URL that fails every warm-up request (or the probe) is
 * said in one line; one good answer is enough to go on; no answer at all is no evidence.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { everyRequestFailed, probeOnce, urlCheckFailure, type AnswerSample } from '../../../src/core/load/loadUrlCheck';

const URL_ = 'http://127.0.0.1:3000/';
const HINT = 'give the path to load with --url';
const sample = (statuses: Record<string, number>, errors = 0, timeouts = 0): AnswerSample => ({ statuses, errors, timeouts });

describe('every request failed?', () => {
  it('4xx/5xx answers and lost requests fail; one 2xx or 3xx answer is enough; nothing at all is no evidence', () => {
    assert.equal(everyRequestFailed(sample({ 404: 212 })), true);
    assert.equal(everyRequestFailed(sample({ 500: 3 }, 2, 1)), true);
    assert.equal(everyRequestFailed(sample({}, 5)), true);
    assert.equal(everyRequestFailed(sample({ 404: 211, 200: 1 })), false);
    assert.equal(everyRequestFailed(sample({ 301: 10 })), false, 'a redirect is an answer');
    assert.equal(everyRequestFailed(sample({})), false, 'a slow server may simply not have answered yet');
  });
});

describe('the one line', () => {
  it('names the URL, what it answered, to how many requests, and what to do', () => {
    assert.equal(urlCheckFailure(URL_, sample({ 404: 212 }), 'warm-up', HINT), 'http://127.0.0.1:3000/ answered 404 to all 212 warm-up requests; give the path to load with --url');
    assert.equal(urlCheckFailure(URL_, sample({ 500: 12, 404: 2000 }, 3), 'warm-up', HINT), 'http://127.0.0.1:3000/ answered 404 ×2000, 500 ×12, 3 connection errors to all 2,015 warm-up requests; give the path to load with --url');
    assert.equal(urlCheckFailure(URL_, sample({}, 4, 1), 'warm-up', HINT), 'http://127.0.0.1:3000/ got no answer (4 connection errors, 1 timeout) to all 5 warm-up requests; give the path to load with --url');
    assert.equal(urlCheckFailure(URL_, sample({ 503: 1 }), 'warm-up', HINT), 'http://127.0.0.1:3000/ answered 503 to the only warm-up request; give the path to load with --url');
    assert.equal(urlCheckFailure(URL_, sample({ 404: 1 }), 'probe', HINT), 'http://127.0.0.1:3000/ answered 404 to the probe request before the measured window; give the path to load with --url');
    assert.equal(urlCheckFailure(URL_, sample({ 404: 5, 200: 1 }), 'warm-up', HINT), null);
  });
});

describe('the probe request', () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = createServer((req, res) => {
      if (req.url === '/slow') return; // never answers
      res.statusCode = req.url === '/ok' ? 200 : 404;
      res.end('x');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('records the status, a refused connection, and a timeout', async () => {
    assert.deepEqual(await probeOnce(`${base}/`), sample({ 404: 1 }));
    assert.deepEqual(await probeOnce(`${base}/ok`), sample({ 200: 1 }));
    assert.deepEqual(await probeOnce(`${base}/slow`, 200), sample({}, 0, 1));
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    assert.deepEqual(await probeOnce(`http://127.0.0.1:${port}/`), sample({}, 1));
  });
});
