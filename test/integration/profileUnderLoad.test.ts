/**
 * Issue 7 through the real CLI: `v8-lens profile --url` drives a real server with the forked load
 * generator and the summary has the load's figures beside the GC of the same window; a server
 * that answers with errors has its failed requests counted and said; and `v8-lens sweep --flag
 * max-old-space-size` reports Mark-Compact figures per value.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Summary } from '../../src/shared/model/summary';
import type { SweepResult } from '../../src/shared/model/sweep';
import type { SessionRecord } from '../../src/shared/model/session';
import { freePort, REPO, runCli, tempDir, waitUntilGone } from './cliHarness';

const HTTP_SERVICE = join(REPO, 'examples', 'http-service', 'server.js');
const ALLOC_SERVICE = join(REPO, 'examples', 'alloc-service', 'server.js');

const summaryOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Summary;

describe('profile under load (v8-lens profile --url)', () => {
  it('finds the URL the server prints, drives it, stops on its own; load and window GC in summary.json', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(['profile', '--out', out, '--url', 'auto', '--duration', '2', '--connections', '8', '--', HTTP_SERVICE], { timeoutMs: 90_000 });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Under load \(http:\/\/127\.0\.0\.1:\d+\/, 8 connections, \d\.\d s\): [\d,]+ req\/s · p50 \d+ ms · p99 \d+ ms · 0 failed · GC in the window: \d+ scavenges/m);
    const load = summaryOf(out).load!;
    assert.ok(load.figures && load.figures.rps > 50, `req/s: ${load.figures?.rps}`);
    assert.equal(load.failedRequests, 0);
    assert.equal(load.error, null);
    assert.ok(load.gcInWindow && load.gcInWindow.events > 0, 'GC events inside the measured window');
    assert.ok(summaryOf(out).gc!.eventCount >= load.gcInWindow.events, 'the window is part of the run');
  });

  it('a server that answers with errors: the failed requests are counted and said first', async () => {
    const dir = tempDir();
    const server = join(dir, 'failing.js');
    // Every third request fails: a service with errors, not a wrong URL (that one stops before measuring).
    writeFileSync(server, `let n = 0; require('http').createServer((req, res) => { res.statusCode = ++n % 3 === 0 ? 500 : 200; res.end('x'.repeat(200)); }).listen(0, '127.0.0.1', function () { console.log('up on http://127.0.0.1:' + this.address().port + '/flaky'); });\n`);
    const out = join(dir, 'run');
    const r = await runCli(['profile', '--out', out, '--preset', 'gc', '--url', 'auto', '--duration', '1', '--connections', '4', '--', server], { timeoutMs: 60_000 });
    assert.equal(r.code, 0, r.stderr);
    const summary = summaryOf(out);
    assert.ok(summary.load!.failedRequests > 0, 'a third of the answers were 500');
    assert.match(summary.warnings[0]!, /^load: the target lost [\d,]+ request\(s\) in the measured window/);
    assert.match(r.stdout, /FAILED \(0 errors, 0 timeouts, \d+ non-2xx\)/);
  });

  it('an app whose / is a 404: stops before the measured window with the reason in one line, exits 1, keeps its output and the run', async () => {
    const dir = tempDir();
    const server = join(dir, 'api-only.js');
    writeFileSync(
      server,
      `const s = require('http').createServer((req, res) => { res.statusCode = req.url.startsWith('/api/') ? 200 : 404; res.end(res.statusCode === 200 ? '{"ok":true}' : 'not found'); });\n` +
        `s.listen(0, '127.0.0.1', () => console.log('api-only listening on http://127.0.0.1:' + s.address().port + '/'));\n`,
    );
    const out = join(dir, 'run');
    const startedAt = Date.now();
    const r = await runCli(['profile', '--out', out, '--preset', 'cpu-gc', '--url', 'auto', '--warmup', '1', '--duration', '30', '--', server], { timeoutMs: 60_000 });
    const tookMs = Date.now() - startedAt;
    assert.equal(r.code, 1, r.stderr);
    const reason = /^v8-lens: load: (http:\/\/127\.0\.0\.1:(\d+)\/ answered 404 to all ([\d,]+) warm-up requests; give the path to load with --url)$/m.exec(r.stderr);
    assert.ok(reason, r.stderr);
    assert.ok(Number(reason[3]!.replace(/,/g, '')) > 10, 'the warm-up sent requests');
    assert.equal(r.stderr.split('\n').filter((l) => l.includes('answered 404')).length, 1, 'said once on stderr');
    assert.doesNotMatch(r.stderr, /^\s+at /m, 'no stack trace');
    assert.ok(tookMs < 20_000, `stopped after the warm-up, not after the 30 s window (${tookMs} ms)`);
    assert.match(r.stdout, /^api-only listening on http:\/\/127\.0\.0\.1:\d+\/$/m, "the target's output is kept");
    assert.match(r.stdout, /^Under load: nothing measured \(http:\/\/127\.0\.0\.1:\d+\/ answered 404 to all/m);
    assert.equal(r.stdout.split('answered 404').length - 1, 1, 'the text report says it once');

    const summary = summaryOf(out);
    assert.equal(summary.load!.figures, null);
    assert.equal(summary.load!.error, reason[1]);
    assert.equal(summary.warnings[0], `load: ${reason[1]}`);
    assert.ok(summary.cpu && summary.cpu.sampleCount > 0, 'what was collected is kept: the CPU profile');
    assert.ok(summary.gc, 'and the GC trace');
    const session = JSON.parse(readFileSync(join(out, 'session.json'), 'utf8')) as SessionRecord;
    assert.equal(session.exit?.requested, 'stop', 'stopped gracefully, like Stop & Collect');
    assert.deepEqual(await waitUntilGone([session.pid!]), [], 'no process left');
  });

  it('no warm-up: a probe request checks the URL first', async () => {
    const dir = tempDir();
    const server = join(dir, 'teapot.js');
    writeFileSync(server, `const s = require('http').createServer((req, res) => { res.statusCode = 418; res.end(); }); s.listen(0, '127.0.0.1', () => console.log('on http://127.0.0.1:' + s.address().port + '/'));\n`);
    const r = await runCli(['profile', '--out', join(dir, 'run'), '--preset', 'gc', '--url', 'auto', '--warmup', '0', '--duration', '30', '--', server], { timeoutMs: 60_000 });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^v8-lens: load: http:\/\/127\.0\.0\.1:\d+\/ answered 418 to the probe request before the measured window; give the path to load with --url$/m);
    assert.equal(summaryOf(join(dir, 'run')).load!.figures, null);
  });

  it('--duration without --url is a usage error, and a non-loopback URL is refused before anything starts', async () => {
    const a = await runCli(['profile', '--duration', '3', '--', HTTP_SERVICE]);
    assert.equal(a.code, 2);
    assert.match(a.stderr, /--duration is for profiling under load: give --url too/);
    const b = await runCli(['profile', '--url', 'http://example.com/', '--', HTTP_SERVICE]);
    assert.equal(b.code, 2);
    assert.match(b.stderr, /not on this machine: load tests only target loopback/);
  });
});

describe('v8-lens sweep --flag max-old-space-size', () => {
  it('reports Mark-Compact figures per value and a recommendation', async () => {
    const port = await freePort();
    const out = join(tempDir(), 'sweep');
    const r = await runCli(
      ['sweep', '--flag', 'max-old-space-size', '--values', '64,512', '--rounds', '1', '--warmup', '1', '--duration', '2', '--connections', '10', '--url', `http://127.0.0.1:${port}/`, '--out', out, '--', ALLOC_SERVICE],
      { env: { PORT: String(port) }, timeoutMs: 120_000 },
    );
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    const sweep = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')) as SweepResult;
    assert.deepEqual(sweep.results.map((s) => s.value), [64, 512]);
    for (const s of sweep.results) {
      const run = s.runs[0]!;
      assert.equal(run.status, 'ok', run.reason ?? '');
      assert.ok(run.gc && run.gc.markCompacts >= 0 && run.markCompactMsPer1k !== null, 'Mark-Compact figures per value');
    }
    assert.match(r.stdout, /Mark-Compact/);
    assert.equal(typeof sweep.recommendation.reason, 'string');
  });
});
