/**
 * A run folder made by attaching (session mode 'attach', gc-events.jsonl instead of gc-trace.log)
 * gives a summary and a report like a launched run: GC events and figures, the CPU profile, and a
 * warning instead of an empty deopt table. Also how old session files (no mode) are read.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ATTACH_NOTES } from '../../../src/core/run/attachNotes';
import { attachedToGcEvents, formatGcEventLine, readAttachedGcEvents, type AttachedGcEvent } from '../../../src/core/run/gcEventsFile';
import { loadReport } from '../../../src/core/report/loadReport';
import { buildReportModel } from '../../../src/core/report/reportModel';
import { analyzeRun } from '../../../src/core/run/analyzeRun';
import { runLayout } from '../../../src/core/run/runLayout';
import { sessionMode, type SessionRecord } from '../../../src/shared/model/session';
import { tempDir } from '../../../scripts/tempDirs';

const CPU_FIXTURE = join(__dirname, '..', '..', 'fixtures', 'cpu', 'node20-work.cpuprofile');

const EVENTS: AttachedGcEvent[] = [
  { timeMs: 100.5, type: 'Scavenge', pauseMs: 0.5, heapUsedMB: 5, heapTotalMB: 9 },
  { timeMs: 160.25, type: 'Scavenge', pauseMs: 0.7, heapUsedMB: 6, heapTotalMB: 9 },
  { timeMs: 200, type: 'Incremental marking', pauseMs: 0.2, heapUsedMB: 6.5, heapTotalMB: 12 },
  { timeMs: 260, type: 'Mark-Compact', pauseMs: 2.1, heapUsedMB: 4, heapTotalMB: 12 },
];

function attachSession(overrides: Partial<SessionRecord> = {}): SessionRecord {
  return {
    schemaVersion: 1,
    tool: { name: 'v8-lens', version: 'test' },
    status: 'finished',
    mode: 'attach',
    node: { command: '/usr/bin/node', execPath: '/usr/bin/node', version: 'v20.20.2', v8Version: '11.3' },
    target: { kind: 'script', program: '/srv/app/server.js', args: [], cwd: '/srv/app' },
    launch: { mode: 'direct', command: '/usr/bin/node', argv: ['/srv/app/server.js'], env: {}, limitations: [] },
    flags: { preset: null, capture: { cpu: true, gc: true, deopts: false }, samplingIntervalUs: 1000, semiSpaceMB: null, stableDeopts: false, extra: [], timeoutS: 3 },
    pid: 4242,
    startedAt: '2025-01-01T10:00:00.000Z',
    endedAt: '2025-01-01T10:00:03.000Z',
    durationMs: 3000,
    exit: null,
    stderrTail: [],
    machine: { platform: 'linux', cpus: 2, loadavg: [0, 0, 0], totalMemMB: 1024 },
    attach: { inspector: '127.0.0.1:9229', openedInspector: false, viaDebugProxy: false, commandLine: '/usr/bin/node /srv/app/server.js', requestedDurationMs: 3000, gcEvents: 4, reason: null },
    ...overrides,
  };
}

function makeRun(session: SessionRecord, withProfile: boolean, gcText = EVENTS.map(formatGcEventLine).join('')): string {
  const dir = tempDir('v8-lens-attach-');
  const layout = runLayout(dir);
  mkdirSync(layout.cpuDir);
  if (withProfile) copyFileSync(CPU_FIXTURE, join(layout.cpuDir, 'CPU.20250101.100000.4242.0.001.cpuprofile'));
  writeFileSync(layout.gcEvents, gcText);
  writeFileSync(layout.session, JSON.stringify(session));
  return dir;
}

describe('an attached run folder', () => {
  it('summarises GC from gc-events.jsonl and CPU from the profile, and says why there are no deopts', async () => {
    const dir = makeRun(attachSession(), true);
    const summary = await analyzeRun(runLayout(dir), attachSession());
    assert.ok(summary.cpu && summary.cpu.sampleCount > 0);
    assert.equal(summary.gc?.eventCount, 4);
    assert.equal(summary.gc?.byType.Scavenge?.count, 2);
    assert.equal(summary.gc?.byType['Mark-Compact']?.count, 1);
    assert.equal(summary.gc?.wallMs, 3000, 'the GC share is over the attached window');
    assert.equal(summary.gc?.isolate?.pid, 4242);
    assert.deepEqual(summary.deopts, []);
    assert.ok(summary.warnings.includes(ATTACH_NOTES.deopts));
    assert.ok(!summary.warnings.some((w) => /no V8 log|no GC trace/.test(w)), summary.warnings.join('\n'));
  });

  it('gives the report its GC timeline and flame graph, and `report <dir>` reads it', async () => {
    const dir = makeRun(attachSession(), true);
    const model = await buildReportModel(dir);
    assert.equal(model.gcEvents.length, 4);
    assert.deepEqual(model.gcEvents[1], { timeMs: 160.25, pauseMs: 0.7, type: 'Scavenge', reason: '', heapBeforeMB: 5, heapAfterMB: 6 });
    assert.ok(model.flame);
    assert.match(model.title, /^server\.js \(attached\) · /);
    const loaded = await loadReport(dir);
    assert.equal(loaded.gc?.eventCount, 4);
  });

  it('a target that ended mid-profile: the GC events are kept and the summary says why', async () => {
    const reason = 'the target (pid 4242) ended after 1.2 s of profiling without exiting normally (killed or crashed); the CPU profile is lost';
    const session = attachSession({ status: 'target-exited', attach: { ...attachSession().attach!, reason } });
    const dir = makeRun(session, false, EVENTS.map(formatGcEventLine).join('') + '{"timeMs":3');
    const summary = await analyzeRun(runLayout(dir), session);
    assert.equal(summary.cpu, null);
    assert.equal(summary.gc?.eventCount, 4);
    assert.equal(summary.warnings[0], reason);
    assert.ok(summary.warnings.includes(ATTACH_NOTES.noProfile));
    assert.ok(summary.warnings.some((w) => /1 line\(s\) could not be read/.test(w)));
  });

  it('reads the events file back and stands in the previous heap for heap-before', async () => {
    const dir = makeRun(attachSession(), false);
    const { events, badLines } = await readAttachedGcEvents(runLayout(dir));
    assert.deepEqual(events, EVENTS);
    assert.equal(badLines, 0);
    const gc = attachedToGcEvents(events, 7);
    assert.deepEqual(gc.map((e) => [e.heapBeforeMB, e.heapAfterMB]), [[5, 5], [5, 6], [6, 6.5], [6.5, 4]]);
    assert.ok(gc.every((e) => e.pid === 7 && e.isolate === 'attached' && e.reason === ''));
  });

  it('session files without a mode were launched', () => {
    const { mode: _mode, ...old } = attachSession();
    assert.equal(sessionMode(old as SessionRecord), 'launch');
    assert.equal(sessionMode(attachSession()), 'attach');
  });
});
