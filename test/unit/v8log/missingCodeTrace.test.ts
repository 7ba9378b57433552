/**
 * With a CPU profile running, a run's deopts come only from the code trace. A trace that was asked
 * for and never arrived (V8 wrote it elsewhere, or it was deleted) must not read as "no deopts".
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { analyzeRun } from '../../../src/core/run/analyzeRun';
import { runLayout } from '../../../src/core/run/runLayout';
import type { SessionRecord } from '../../../src/shared/model/session';
import { missingDeopts } from '../../../webview/report/missing';
import { tempDir } from '../../../scripts/tempDirs';

const root = tempDir('v8lens-missing-trace-');
after(() => rmSync(root, { recursive: true, force: true }));

function launchedSession(dir: string, withCodeTrace: boolean): SessionRecord {
  const layout = runLayout(dir);
  const codeTraceFlags = withCodeTrace ? ['--redirect-code-traces', `--redirect-code-traces-to=${layout.codeTraces}`, '--trace-deopt-verbose', '--trace-opt'] : [];
  return {
    schemaVersion: 1,
    tool: { name: 'v8-lens', version: 'test' },
    status: 'finished',
    node: { command: 'node', execPath: '/usr/bin/node', version: 'v20.20.2', v8Version: '11.3' },
    target: { kind: 'script', program: '/app/shapes.js', args: [], cwd: '/app' },
    launch: { mode: 'direct', command: 'node', argv: ['--cpu-prof', '--log-deopt', `--logfile=${layout.v8LogFile}`, ...codeTraceFlags, '/app/shapes.js'], env: {}, limitations: [] },
    flags: { preset: 'cpu-gc-deopts', capture: { cpu: true, gc: false, deopts: true }, samplingIntervalUs: 1000, semiSpaceMB: null, stableDeopts: false, extra: [], timeoutS: null },
    pid: 1,
    startedAt: '2026-11-22T00:00:00.000Z',
    endedAt: '2026-11-22T00:00:01.000Z',
    durationMs: 1000,
    exit: { code: 0, signal: null, requested: null, hardKilled: false },
    stderrTail: [],
    machine: { platform: 'linux', cpus: 2, loadavg: [0, 0, 0], totalMemMB: 1024 },
  };
}

/** A run folder whose V8 log has no deopts (the CPU profiler kept V8 from logging them). */
function runFolder(name: string, codeTrace: string | null): string {
  const dir = join(root, name);
  const layout = runLayout(dir);
  mkdirSync(layout.v8LogDir, { recursive: true });
  writeFileSync(join(layout.v8LogDir, 'isolate-0x1-1-v8.log'), 'v8-version,11,3,244,8,-node.38,0\n');
  if (codeTrace !== null) writeFileSync(layout.codeTraces, codeTrace);
  return dir;
}

describe('deopts of a run with a CPU profile', () => {
  it('no code trace at all: a warning, and the report says deopts are unknown instead of "none"', async () => {
    const dir = runFolder('lost', null);
    const session = launchedSession(dir, true);
    const summary = await analyzeRun(runLayout(dir), session);
    assert.deepEqual(summary.deopts, []);
    const warning = summary.warnings.find((w) => /code trace/.test(w));
    assert.match(warning ?? '', /^deopts: no code trace was written .*unknown/);
    assert.equal(missingDeopts({ summary, session } as Parameters<typeof missingDeopts>[0]), warning);
  });

  it('an empty code trace (V8 optimized nothing): no deopts, no warning', async () => {
    const dir = runFolder('empty', '');
    const session = launchedSession(dir, true);
    const summary = await analyzeRun(runLayout(dir), session);
    assert.deepEqual(summary.deopts, []);
    assert.deepEqual(summary.warnings.filter((w) => /deopt|code trace/.test(w)), []);
    assert.equal(missingDeopts({ summary, session } as Parameters<typeof missingDeopts>[0]), null);
  });

  it('a run that never asked for a code trace (no CPU profile) gets no such warning', async () => {
    const dir = runFolder('no-cpu', null);
    const summary = await analyzeRun(runLayout(dir), launchedSession(dir, false));
    assert.deepEqual(summary.warnings.filter((w) => /code trace/.test(w)), []);
  });
});
