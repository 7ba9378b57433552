/**
 * The attached window: only collections begun inside it are counted, live and in the saved run, and
 * the GC share is over its length, not over the target's uptime (which the observer's clock measures).
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gcStartMs, inAttachWindow, outsideWindowNote, sessionWindow, splitByWindow, windowWallMs } from '../../../src/core/run/attachWindow';
import { formatGcEventLine, type AttachedGcEvent } from '../../../src/core/run/gcEventsFile';
import { buildReportModel } from '../../../src/core/report/reportModel';
import { liveAttachModel, liveAttachStatus } from '../../../src/core/report/liveAttachModel';
import { analyzeRun } from '../../../src/core/run/analyzeRun';
import { runLayout } from '../../../src/core/run/runLayout';
import type { SessionRecord } from '../../../src/shared/model/session';
import { tempDir } from '../../../scripts/tempDirs';

const ev = (startMs: number, pauseMs: number, type = 'Scavenge'): AttachedGcEvent => ({ startMs, timeMs: startMs + pauseMs, type, pauseMs, heapUsedMB: 10, heapTotalMB: 20 });

/** The target has run for 60 s; V8 Lens attached at 60,000 ms on its clock, for 10 s. */
const WINDOW = { startMs: 60_000, endMs: 70_000 };
const EVENTS: AttachedGcEvent[] = [
  ev(59_950, 100), // the long scavenge the target's own observer had pending when we attached
  ev(60_500, 2),
  ev(61_000, 3),
  ev(65_000, 12, 'Mark-Compact'),
  ev(69_990, 4),
  ev(70_200, 40), // serialising the profile, after the window
];

describe('the attached window', () => {
  it('a collection belongs to it when it began inside it; files without a start use end − pause', () => {
    assert.equal(inAttachWindow(EVENTS[0]!, WINDOW), false, 'begun before, even though it ended inside');
    assert.equal(inAttachWindow(EVENTS[1]!, WINDOW), true);
    assert.equal(inAttachWindow(EVENTS[5]!, WINDOW), false);
    assert.equal(inAttachWindow(EVENTS[5]!, { startMs: 60_000, endMs: null }), true, 'still attached: no end yet');
    assert.equal(gcStartMs({ timeMs: 100, type: 'Scavenge', pauseMs: 4, heapUsedMB: 1, heapTotalMB: 2 }), 96);
    const { inside, outside } = splitByWindow(EVENTS, WINDOW);
    assert.deepEqual(inside.map(gcStartMs), [60_500, 61_000, 65_000, 69_990]);
    assert.deepEqual(outside.map(gcStartMs), [59_950, 70_200]);
    assert.equal(splitByWindow(EVENTS, null).inside.length, 6, 'older run folders: no window, nothing left out');
    assert.equal(windowWallMs(WINDOW), 10_000);
    assert.equal(windowWallMs({ startMs: 1, endMs: null }), null);
  });

  it('says what it left out, before and after, and the longest', () => {
    const { outside } = splitByWindow(EVENTS, WINDOW);
    assert.equal(
      outsideWindowNote(outside, WINDOW),
      'GC events outside the attached window are left out of the GC figures: 1 begun before V8 Lens attached (perf_hooks hands entries over after the GC), 1 after profiling stopped; the longest was a 100.0 ms Scavenge',
    );
    assert.equal(outsideWindowNote([], WINDOW), null);
  });

  it('reads the window from the session only when both ends are numbers', () => {
    assert.deepEqual(sessionWindow({ ...ATTACH, window: WINDOW }), WINDOW);
    assert.equal(sessionWindow(ATTACH), null);
    assert.equal(sessionWindow(undefined), null);
  });

  it('live: counts, max, p95 and the share cover the window so far, over its length (not the uptime)', () => {
    const live = { window: { startMs: WINDOW.startMs, endMs: null }, elapsedMs: 10_000 };
    const model = liveAttachModel('/runs/x', 'attached', EVENTS.slice(0, 5), live);
    const gc = model.summary.gc!;
    assert.equal(gc.eventCount, 4);
    assert.equal(gc.byType.Scavenge?.count, 3);
    assert.equal(gc.byType.Scavenge?.maxMs, 4, 'the 100 ms scavenge from before the attach is not the max');
    assert.equal(gc.totalPauseMs, 21);
    assert.equal(gc.wallMs, 10_000, 'the share is over the 10 s attached, not the 70 s the target has run');
    assert.equal(gc.wallShare, 0.0021);
    assert.equal(model.gcEvents.length, 4, 'the live timeline shows the same events');
    assert.equal(model.summary.deoptCoverage, 'not-collected');
    const status = liveAttachStatus(42, EVENTS.slice(0, 5), live, 'profiling');
    assert.deepEqual([status.gcEvents, status.scavenges, status.elapsedSeconds], [4, 3, 10]);
  });

  it('final: the saved run counts the same window, over its length, and its timeline matches', async () => {
    const dir = tempDir('v8-lens-window-');
    const layout = runLayout(dir);
    mkdirSync(layout.cpuDir);
    writeFileSync(layout.gcEvents, EVENTS.map(formatGcEventLine).join(''));
    const session = attachSession({ ...ATTACH, window: WINDOW, gcEvents: EVENTS.length });
    writeFileSync(layout.session, JSON.stringify(session));
    const summary = await analyzeRun(layout, session);
    assert.equal(summary.gc?.eventCount, 4);
    assert.equal(summary.gc?.byType.Scavenge?.maxMs, 4);
    assert.equal(summary.gc?.wallMs, 10_000, 'the window, not session.durationMs (12 s)');
    assert.ok(summary.warnings.some((w) => w.startsWith('GC events outside the attached window are left out')), summary.warnings.join('\n'));
    const model = await buildReportModel(dir);
    assert.deepEqual(model.gcEvents.map((p) => p.timeMs), [60_502, 61_003, 65_012, 69_994]);
  });
});

const ATTACH: NonNullable<SessionRecord['attach']> = {
  inspector: '127.0.0.1:9229',
  openedInspector: false,
  viaDebugProxy: false,
  commandLine: null,
  requestedDurationMs: 10_000,
  gcEvents: 0,
  reason: null,
};

function attachSession(attach: NonNullable<SessionRecord['attach']>): SessionRecord {
  return {
    schemaVersion: 1,
    tool: { name: 'v8-lens', version: 'test' },
    status: 'finished',
    mode: 'attach',
    node: { command: 'node', execPath: '/usr/bin/node', version: 'v20.20.2', v8Version: '11.3' },
    target: { kind: 'script', program: '/srv/app/server.js', args: [], cwd: '/srv/app' },
    launch: { mode: 'direct', command: 'node', argv: ['/srv/app/server.js'], env: {}, limitations: [] },
    flags: { preset: null, capture: { cpu: true, gc: true, deopts: false }, samplingIntervalUs: 1000, semiSpaceMB: null, stableDeopts: false, extra: [], timeoutS: 10 },
    pid: 4242,
    startedAt: '2025-01-01T10:00:00.000Z',
    endedAt: '2025-01-01T10:00:12.000Z',
    durationMs: 12_000,
    exit: null,
    stderrTail: [],
    machine: { platform: 'linux', cpus: 2, loadavg: [0, 0, 0], totalMemMB: 1024 },
    attach,
  };
}
