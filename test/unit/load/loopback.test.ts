import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { isLoopbackHost, requireLoopbackUrl } from '../../../src/core/load/loopback';
import { watchReadiness } from '../../../src/core/load/readiness';
import { failureOf } from '../../../src/core/sweep/sweepRun';
import { UserError } from '../../../src/core/util/errors';

describe('loopback URLs only', () => {
  it('accepts 127.0.0.0/8, ::1 and localhost, however the URL spells them', () => {
    for (const url of ['http://127.0.0.1:3000/', 'http://127.1.2.3/x', 'http://localhost:8080/', 'http://LOCALHOST/', 'http://[::1]:3000/', 'https://[0:0:0:0:0:0:0:1]/', 'http://2130706433/', 'http://0x7f000001/', 'http://[::ffff:127.0.0.1]/']) {
      assert.equal(requireLoopbackUrl(url, 'the load URL').protocol.startsWith('http'), true, url);
    }
  });

  it('refuses every other host with a one-line UserError (exit code 2) naming the option', () => {
    for (const url of ['http://example.com/', 'http://10.0.0.1/', 'http://128.0.0.1/', 'http://[::2]/', 'http://localhost.example.com/', 'http://foo.localhost/', 'http://localhost./', 'http://0.0.0.0/', 'http://[::ffff:10.0.0.1]/']) {
      assert.throws(
        () => requireLoopbackUrl(url, '--ready-url'),
        (err: unknown) => err instanceof UserError && err.exitCode === 2 && /^--ready-url '.*' is not on this machine/.test(err.message) && !err.message.includes('\n'),
        url,
      );
    }
  });

  it('refuses what is not an http(s) URL', () => {
    assert.throws(() => requireLoopbackUrl('127.0.0.1:3000', 'the load URL'), /must be http|is not a URL/);
    assert.throws(() => requireLoopbackUrl('ftp://127.0.0.1/', 'the load URL'), /must be http:\/\/ or https:\/\//);
    assert.throws(() => requireLoopbackUrl('not a url', 'the load URL'), /is not a URL/);
  });

  it('isLoopbackHost takes the hostname as WHATWG URL gives it', () => {
    assert.equal(isLoopbackHost('[::1]'), true);
    assert.equal(isLoopbackHost('127.255.255.255'), true);
    assert.equal(isLoopbackHost('127.256.0.1'), false);
  });
});

describe('readiness', () => {
  it('a URL is ready once it answers, whatever the status', async () => {
    const server = await listen((_req, res) => {
      res.writeHead(503);
      res.end();
    });
    try {
      const watch = watchReadiness({ kind: 'url', url: `http://127.0.0.1:${port(server)}/health`, timeoutMs: 5000 });
      const outcome = await watch.done;
      assert.equal(outcome.ready, true);
    } finally {
      server.close();
    }
  });

  it('a URL that never answers times out with a one-line reason', async () => {
    const server = await listen(() => {});
    const free = port(server);
    server.close();
    const outcome = await watchReadiness({ kind: 'url', url: `http://127.0.0.1:${free}/`, timeoutMs: 400 }).done;
    assert.deepEqual(outcome, { ready: false, reason: `never answered http://127.0.0.1:${free}/ within 0.4 s` });
  });

  it('a line is ready when the output contains the text, even split across chunks or without a newline yet', async () => {
    const watch = watchReadiness({ kind: 'line', text: 'listening on', timeoutMs: 5000 });
    watch.output('starting\nlist');
    watch.output('ening on http://127.0.0.1:3000');
    assert.equal((await watch.done).ready, true);

    const never = watchReadiness({ kind: 'line', text: 'ready', timeoutMs: 200 });
    never.output('booting\n');
    assert.deepEqual(await never.done, { ready: false, reason: "never printed 'ready' within 0.2 s" });
  });

  it('cancel ends the wait at once', async () => {
    const watch = watchReadiness({ kind: 'url', url: 'http://127.0.0.1:9/', timeoutMs: 60_000 });
    watch.cancel();
    assert.deepEqual(await watch.done, { ready: false, reason: 'cancelled' });
  });
});

describe('a run with failed requests', () => {
  const base = { requests: 41_163, durationSeconds: 10, rps: 4116.3, p50Ms: 3, p99Ms: 9, meanLatencyMs: 3.2, errors: 0, timeouts: 0, non2xx: 0 };

  it('says how many failed and how', () => {
    assert.equal(failureOf({ ...base, non2xx: 30, timeouts: 7 }), '37 of 41,170 requests failed: 30 non-2xx, 7 timeouts');
    assert.equal(failureOf({ ...base, errors: 1 }), '1 of 41,164 requests failed: 1 connection error');
  });

  it('is fine when every request got a 2xx, and invalid when none was answered', () => {
    assert.equal(failureOf(base), null);
    assert.equal(failureOf({ ...base, requests: 0, rps: 0 }), 'no request was answered in the measured window');
  });
});

function listen(handler: Parameters<typeof createServer>[1]): Promise<Server> {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function port(server: Server): number {
  return (server.address() as AddressInfo).port;
}
