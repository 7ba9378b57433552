/**
 * The sweep engine on a flag other than the semi-space, for real: `--max-old-space-size` 64 and
 * 512 on the example service, one short round each, through runSweep() itself (the CLI's
 * `--flag`/`--values` come later). Kept short: CI has 2 cores.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runSweep } from '../../src/core/sweep/runSweep';
import { formatSweepTable } from '../../src/core/sweep/sweepTable';
import { runPurpose, type SweepConfig, type SweepProgress, type SweepResult } from '../../src/shared/model/sweep';
import { UserError } from '../../src/core/util/errors';
import { freePort, REPO, tempDir } from './cliHarness';

const ALLOC_SERVICE = join(REPO, 'examples', 'alloc-service', 'server.js');
const PRELOAD = join(REPO, 'dist', 'agent', 'preload.js');
const LOAD_RUNNER = join(REPO, 'dist', 'load-runner.js');

function oldSpaceConfig(port: number, over: Partial<SweepConfig> = {}): SweepConfig {
  const url = `http://127.0.0.1:${port}/`;
  return {
    target: { label: 'server.js', node: process.execPath, script: ALLOC_SERVICE, args: [], cwd: join(REPO, 'examples'), env: { PORT: String(port) }, nodeArgs: [] },
    readiness: { kind: 'url', url, timeoutMs: 20_000 },
    request: { url, method: 'GET', headers: {}, body: null },
    load: { connections: 10, warmupSeconds: 1, durationSeconds: 2, rate: null, timeoutSeconds: 10 },
    flag: 'max-old-space-size',
    values: [64, 512],
    sizesMB: [],
    rounds: 1,
    pinMinSemiSpace: false,
    onRunFailure: 'continue',
    ...over,
  };
}

const options = (outDir: string) => ({ outDir, preloadPath: PRELOAD, loadRunnerPath: LOAD_RUNNER, toolVersion: 'test' });

describe('runSweep with --max-old-space-size', () => {
  it('64 and 512 MB on the example service: Mark-Compact figures per value, failed requests counted, a recommendation', async () => {
    const port = await freePort();
    const out = join(tempDir(), 'sweep');
    const starts: SweepProgress[] = [];
    const result = await runSweep(oldSpaceConfig(port), { ...options(out), onProgress: (p) => p.type === 'run-start' && starts.push(p) });

    assert.equal(result.status, 'finished');
    assert.equal(result.config.flag, 'max-old-space-size');
    assert.deepEqual(result.config.values, [64, 512]);
    assert.deepEqual(result.config.sizesMB, [], 'sizesMB holds semi-space sizes only');
    // The measured rounds first, then one profiling run per value (the lab's profile of each value,
    // apart from the figures it compares).
    assert.deepEqual(
      starts.map((p) => p.type === 'run-start' && [p.flag, p.value, p.semiSpaceMB, p.purpose]),
      [['max-old-space-size', 64, null, 'measure'], ['max-old-space-size', 512, null, 'measure'], ['max-old-space-size', 64, null, 'profile'], ['max-old-space-size', 512, null, 'profile']],
    );
    assert.deepEqual(result.results.map((r) => r.value), [64, 512]);
    for (const setting of result.results) {
      assert.equal(setting.flag, 'max-old-space-size');
      assert.equal(setting.semiSpaceMB, null);
      assert.equal(typeof setting.failedRequests, 'number');
      assert.deepEqual(setting.runs.map(runPurpose), ['measure', 'profile']);
      assert.equal(setting.validRuns, 1, 'the profiling run is not counted among the measured');
      const run = setting.runs[0]!;
      assert.equal(run.status, 'ok', `${setting.value} MB: ${run.reason}`);
      assert.equal(run.value, setting.value);
      assert.ok(run.gc, JSON.stringify(run));
      assert.ok(Number.isInteger(run.gc.markCompacts) && run.gc.markCompacts >= 0, JSON.stringify(run.gc));
      assert.ok(run.gc.markCompactMs >= 0);
      assert.ok(run.markCompactsPer1k !== null && run.markCompactsPer1k >= 0);
      assert.ok(run.markCompactMsPer1k !== null && run.markCompactMsPer1k >= 0);
      assert.equal(run.failedRequests, 0);
      assert.ok(run.peakRssMB !== null && run.peakRssMB > 10);
      assert.ok(setting.median.markCompactsPer1k !== null && setting.median.markCompactMsPer1k !== null && setting.median.peakRssMB !== null);
      assert.equal(setting.median.failedRequests, 0);
      // The run really had the flag: the agent's record shows the heap limit it ran with.
      assert.ok(existsSync(join(out, run.dir, 'gc-trace.log')), run.dir);
      assert.match(run.dir, new RegExp(`-${setting.value}mb-r0$`));
    }
    const rec = result.recommendation;
    assert.equal(rec.flag, 'max-old-space-size');
    assert.equal(rec.metric, 'markCompactMsPer1k');
    assert.equal(rec.semiSpaceMB, null);
    assert.ok(rec.value === null || rec.value === 512, String(rec.value));
    assert.equal(typeof rec.reason, 'string');

    // sweep.json on disk is the same result, and the table has the old-space columns.
    const saved = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')) as SweepResult;
    assert.deepEqual(saved.results.map((r) => [r.value, r.runs[0]!.gc?.markCompacts]), result.results.map((r) => [r.value, r.runs[0]!.gc?.markCompacts]));
    // The profiling run of each value is a run of its own with its CPU profile, not a measured round.
    for (const setting of saved.results) {
      const profiling = setting.runs[1]!;
      assert.equal(profiling.status, 'ok', `${setting.value} MB profiling run: ${profiling.reason}`);
      assert.ok(readdirSync(join(out, profiling.dir, 'cpu')).some((f) => f.endsWith('.cpuprofile')), profiling.dir);
    }
    const table = formatSweepTable(saved);
    assert.match(table, /^--max-old-space-size MB {2}/);
    assert.match(table, /Mark-Compacts \/1k req/);
    assert.match(table, /failed req/);
  });

  it('refuses before anything starts: --pin-min with another flag, an unknown flag (with the closest name), a flag that takes no number', async () => {
    const port = await freePort();
    const cases: [Partial<SweepConfig>, RegExp][] = [
      [{ pinMinSemiSpace: true }, /--pin-min\) only applies to a --max-semi-space-size sweep .* this sweep is of --max-old-space-size/],
      [{ flag: 'max-old-spce-size' }, /unknown flag --max-old-spce-size: Node v[\d.]+ .* did you mean --max-old-space-size\?/],
      [{ flag: 'trace-gc', values: [1, 2] }, /--trace-gc is an on\/off flag in Node v[\d.]+: a sweep compares values of a flag that takes a number/],
      [{ flag: 'semi-space-growth-factor', values: [2, 2.5] }, /--semi-space-growth-factor=2\.5: a whole number is expected/],
    ];
    for (const [over, message] of cases) {
      const out = join(tempDir(), 'sweep');
      await assert.rejects(
        runSweep(oldSpaceConfig(port, over), options(out)),
        (err: unknown) => err instanceof UserError && message.test(err.message) && err.exitCode === 2,
        JSON.stringify(over),
      );
      assert.equal(existsSync(out), false, 'no sweep folder');
    }
  });
});
