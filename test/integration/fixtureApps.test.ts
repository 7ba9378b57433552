/**
 * The fixture apps a new user would bring (test/fixtures/apps, and the fork and worker programs)
 * run and answer under plain Node, before any test profiles them: a server prints one loopback URL,
 * answers 200 with JSON there, and exits cleanly within 5 s of SIGTERM; the fork and worker
 * programs exit 0. What V8 says they do is in test/fixtures/apps/ORACLE.md.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { collect, PROGRAMS, processAlive, REPO, waitForOutput } from './cliHarness';

const APPS = join(REPO, 'test', 'fixtures', 'apps');
// As V8 Lens's `--url auto` finds it: the first loopback URL the app prints.
const PRINTED_URL = /\bhttp:\/\/127\.0\.0\.1:\d+\/[^\s'"`<>]*/;

const SERVERS = [
  { app: 'express-api', entry: 'app.js', path: '/orders' },
  { app: 'http-late-deopt', entry: 'server.js', path: '/quote' },
  { app: 'cluster-3', entry: 'server.js', path: '/report' },
  { app: 'worker-pool', entry: 'app.js', path: '/price' },
];

function envWithoutPort(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.PORT;
  return env;
}

describe('fixture apps under plain Node', () => {
  it('express-api and worker-pool have their dependencies installed from their lockfiles (scripts/install-fixture-apps.mjs)', () => {
    for (const dep of [['express-api', 'express'], ['worker-pool', 'fastify'], ['worker-pool', 'piscina']]) {
      assert.ok(existsSync(join(APPS, dep[0]!, 'node_modules', dep[1]!, 'package.json')), `${dep.join(': ')}; run the tests through scripts/run-tests.mjs, which installs them`);
    }
  });

  it("worker-pool answers /report and /hash too (the pool's workers do the hashing)", async () => {
    const child = spawn(process.execPath, ['app.js'], { cwd: join(APPS, 'worker-pool'), env: envWithoutPort(), stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const base = new URL((await waitForOutput(child, PRINTED_URL, 15_000))[0]).origin;
      const report = (await (await fetch(`${base}/report`)).json()) as { rows: number };
      assert.equal(report.rows, 4000);
      const hash = (await (await fetch(`${base}/hash`)).json()) as { hash: string };
      assert.match(hash.hash, /^[0-9a-f]+$/);
    } finally {
      child.kill('SIGKILL');
    }
  });

  for (const { app, entry, path } of SERVERS) {
    it(`${app}: prints its URL, answers 200 JSON there, exits cleanly within 5 s of SIGTERM`, async () => {
      const child = spawn(process.execPath, [entry], { cwd: join(APPS, app), env: envWithoutPort(), stdio: ['ignore', 'pipe', 'pipe'] });
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
      try {
        const url = (await waitForOutput(child, PRINTED_URL, 15_000))[0];
        assert.equal(new URL(url).pathname, path);
        const pids = new Set<number>();
        // A few requests: the cluster's go to more than one worker.
        for (let i = 0; i < 6; i++) {
          const res = await fetch(url);
          assert.equal(res.status, 200);
          assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
          const body = (await res.json()) as { pid?: number };
          assert.equal(typeof body, 'object');
          if (typeof body.pid === 'number') pids.add(body.pid);
        }
        const stoppedAt = Date.now();
        child.kill('SIGTERM');
        const outcome = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), 5000).unref())]);
        assert.ok(outcome, `${app} still runs 5 s after SIGTERM`);
        assert.deepEqual(outcome, { code: 0, signal: null }, `${app} exited ${Date.now() - stoppedAt} ms after SIGTERM`);
        // The cluster's workers went with it.
        for (const pid of pids) assert.equal(processAlive(pid), false, `worker ${pid} outlived the primary`);
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    });
  }

  for (const program of ['fork-parent.js', 'worker-main.js']) {
    it(`${program} runs to the end and exits 0`, async () => {
      const child = spawn(process.execPath, [join(PROGRAMS, program)], { stdio: ['ignore', 'pipe', 'pipe'] });
      const r = await collect(child, 30_000);
      assert.equal(r.code, 0, r.stderr);
      const done = program === 'fork-parent.js' ? ['fork-child done', 'fork-parent done'] : ['worker-thread done', 'worker-main done'];
      // The other process (thread) ends first: the parent deoptimizes only after it.
      const at = done.map((line) => r.stdout.indexOf(line));
      assert.ok(at[0]! >= 0 && at[1]! > at[0]!, r.stdout);
    });
  }
});
